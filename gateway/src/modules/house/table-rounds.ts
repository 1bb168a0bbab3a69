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
 * What a table's tick did: the round to settle (dealt now, or in its result), and how long until the
 * table's next deadline as the database saw it after the tick (null when another node held the table).
 */
export type TableTick = { dealt: number | null; dueInMs: number | null };

/**
 * One step of a table's round cycle, in one transaction under the table's advisory lock (the node that
 * takes it moves the table; the others' ticks return null): no round yet, round 1 opens for bets
 * (`bettingMs`); a betting round whose bets have closed is dealt (`deal`) and shows its result; a result
 * whose time is over opens the next round (and returns the round in its result, to be settled again).
 * It also says when the table's next deadline falls (bets close, or the result's time is over), so a
 * node need not look at a table again before then (house-module.ts).
 */
export async function tickTableRound<R>(db: Db, merchantCode: string, table: string, bettingMs: number,
  deal: (tx: Tx, round: { round_no: number; server_seed: string }) => Promise<TableDeal<R>>): Promise<TableTick> {
  return db.tx(async (tx) => {
    const lock = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [`house-table:${merchantCode}:${table}`]);
    if (!lock.rows[0]?.ok) return { dealt: null, dueInMs: null };
    const r = (await tx.query<{ round_no: number; phase: string; server_seed: string; due: boolean; next_due: boolean; closes_in: number; next_in: number | null }>(
      `SELECT round_no, phase, server_seed, closes_at <= now() AS due, coalesce(next_at <= now(), false) AS next_due,
         (extract(epoch FROM closes_at - now()) * 1000)::float8 AS closes_in, (extract(epoch FROM next_at - now()) * 1000)::float8 AS next_in
       FROM house_table_rounds WHERE merchant_code = $1 AND table_code = $2 ORDER BY round_no DESC LIMIT 1 FOR UPDATE`, [merchantCode, table])).rows[0];
    const open = async (no: number) => {
      const seed = newServerSeed();
      await tx.query(
        `INSERT INTO house_table_rounds (merchant_code, table_code, round_no, phase, server_seed, seed_hash, closes_at)
         VALUES ($1, $2, $3, 'betting', $4, $5, now() + make_interval(secs => $6))`,
        [merchantCode, table, no, seed, hashSeed(seed), bettingMs / 1000]);
    };
    if (!r) {
      await open(1);
      return { dealt: null, dueInMs: bettingMs };
    }
    if (r.phase === 'betting') {
      if (!r.due) return { dealt: null, dueInMs: Math.max(0, r.closes_in) };
      const { result, showMs, dealt } = await deal(tx, r);
      await tx.query(
        `UPDATE house_table_rounds SET phase = 'result', result = $4, next_at = now() + make_interval(secs => $5)
         WHERE merchant_code = $1 AND table_code = $2 AND round_no = $3`,
        [merchantCode, table, r.round_no, JSON.stringify(result), showMs / 1000]);
      return { dealt, dueInMs: showMs };
    }
    if (r.next_due) {
      await open(r.round_no + 1);
      return { dealt: r.round_no, dueInMs: bettingMs };
    }
    return { dealt: r.round_no, dueInMs: Math.max(0, r.next_in ?? 0) };
  });
}

/**
 * A table's step as both tables take it: tickTableRound, then settle (again, idempotently) the round it
 * dealt or shows, with `settle` answering how many of that round's bets are still open (a wallet answer
 * not yet come, a payout to retry: while any is, the node keeps ticking the table, see table-clock.ts).
 */
export async function stepTableRound<R>(db: Db, merchantCode: string, table: string, bettingMs: number,
  deal: (tx: Tx, round: { round_no: number; server_seed: string }) => Promise<TableDeal<R>>,
  settle: (roundNo: number) => Promise<number>): Promise<TableTick & { open: number }> {
  const t = await tickTableRound(db, merchantCode, table, bettingMs, deal);
  return { ...t, open: t.dealt !== null ? await settle(t.dealt) : 0 };
}
