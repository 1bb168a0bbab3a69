import type { Db, Tx } from '../../db/db.ts';
import { hashSeed, newServerSeed } from './fair.ts';

/** A round of a merchant's house table (house_table_rounds) with the database's clock; `R` is the game's result. */
export type TableRoundRow<R> = { round_no: number; phase: 'betting' | 'result'; server_seed: string; seed_hash: string; closes_at: Date | string; next_at: Date | string | null; result: R | null; now: Date | string };

/** The latest round of the merchant's table, or null before its first. */
export async function currentRound<R>(db: Db, merchantCode: string, table: string): Promise<TableRoundRow<R> | null> {
  const r = await db.query<TableRoundRow<R>>(
    `SELECT round_no, phase, server_seed, seed_hash, closes_at, next_at, result, now() AS now FROM house_table_rounds
     WHERE merchant_code = $1 AND table_code = $2 ORDER BY round_no DESC LIMIT 1`, [merchantCode, table]);
  return r.rows[0] ?? null;
}

/** What a table's `deal` gives back: the result stored on the round, how long it shows before the next round, and the round tick returns. */
export type TableDeal<R> = { result: R; showMs: number; dealt: number | null };

/**
 * One step of a table's round cycle, in one transaction under the table's advisory lock (the node that
 * takes it moves the table; the others' ticks return null): no round yet, round 1 opens for bets
 * (`bettingMs`); a betting round whose bets have closed is dealt (`deal`) and shows its result; a result
 * whose time is over opens the next round (and returns the round in its result, to be settled again).
 */
export async function tickTableRound<R>(db: Db, merchantCode: string, table: string, bettingMs: number,
  deal: (tx: Tx, round: { round_no: number; server_seed: string }) => Promise<TableDeal<R>>): Promise<number | null> {
  return db.tx(async (tx) => {
    const lock = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [`house-table:${merchantCode}:${table}`]);
    if (!lock.rows[0]?.ok) return null;
    const r = (await tx.query<{ round_no: number; phase: string; server_seed: string; due: boolean; next_due: boolean }>(
      `SELECT round_no, phase, server_seed, closes_at <= now() AS due, coalesce(next_at <= now(), false) AS next_due FROM house_table_rounds
       WHERE merchant_code = $1 AND table_code = $2 ORDER BY round_no DESC LIMIT 1 FOR UPDATE`, [merchantCode, table])).rows[0];
    const open = async (no: number) => {
      const seed = newServerSeed();
      await tx.query(
        `INSERT INTO house_table_rounds (merchant_code, table_code, round_no, phase, server_seed, seed_hash, closes_at)
         VALUES ($1, $2, $3, 'betting', $4, $5, now() + make_interval(secs => $6))`,
        [merchantCode, table, no, seed, hashSeed(seed), bettingMs / 1000]);
    };
    if (!r) {
      await open(1);
      return null;
    }
    if (r.phase === 'betting' && r.due) {
      const { result, showMs, dealt } = await deal(tx, r);
      await tx.query(
        `UPDATE house_table_rounds SET phase = 'result', result = $4, next_at = now() + make_interval(secs => $5)
         WHERE merchant_code = $1 AND table_code = $2 AND round_no = $3`,
        [merchantCode, table, r.round_no, JSON.stringify(result), showMs / 1000]);
      return dealt;
    }
    if (r.phase === 'result') {
      if (r.next_due) await open(r.round_no + 1);
      return r.round_no;
    }
    return null;
  });
}
