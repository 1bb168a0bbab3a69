import type { Logger } from 'pino';
import type { TBaccaratState } from '@portal/contracts/api/house';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { BACCARAT_STAKES, baccaratReturn, dealCoup, type BaccaratHand, type BaccaratSide } from './baccarat.ts';
import { fairStream } from './fair.ts';
import { houseStakes, isBigWin, type House } from './house-service.ts';
import { currentRound, stepTableRound, type TableRoundRow, type TableTick } from './table-rounds.ts';
import { WalletRefused, type WalletClient } from './wallet-client.ts';
import { iso } from '../../db/iso.ts';

/** Bets are open this long, then the cards are dealt; the result shows this long before the next round. */
export const BETTING_MS = 15_000;
export const RESULT_MS = 6_000;
export const BACCARAT_TABLE = 'BACC1';

type RoundRow = TableRoundRow<BaccaratHand>;
type BetRow = { id: number; player_id: string | null; nickname: string; free_play: boolean; session_hash: Buffer; side: BaccaratSide; stake: number; round_no: number };

const vendorRound = (table: string, roundNo: number) => `${table}-${roundNo}`;

/**
 * The winners of a table's finished rounds numbered up to `uptoRound`, newest first, at most `limit`:
 * the game page's road and the lobby's (the current round too, once dealt).
 */
export async function lastWinners(db: Db, merchantCode: string, table: string, uptoRound: number, limit: number): Promise<BaccaratSide[]> {
  return (await db.query<{ w: BaccaratSide }>(
    `SELECT result->>'winner' AS w FROM house_table_rounds WHERE merchant_code = $1 AND table_code = $2 AND phase = 'result' AND round_no <= $3
     ORDER BY round_no DESC LIMIT $4`, [merchantCode, table, uptoRound, limit])).rows.map((x) => x.w);
}

/**
 * Speed Baccarat: rounds run continuously per merchant table. Every node ticks; the node that takes
 * the table's advisory lock opens, deals and closes rounds, so several nodes never deal twice.
 * Money moves only through the wallet client, never inside a database transaction.
 */
export function createBaccaratTable(deps: { db: Db; wallet: WalletClient; house: House; log: Logger }) {
  const { db, wallet, log } = deps;
  const { sessionOf, postWinner, realBalance, endIfRevoked, currencyOf, gameOf } = deps.house.internals;

  const current = (merchantCode: string, table: string): Promise<RoundRow | null> => currentRound<BaccaratHand>(db, merchantCode, table);

  /**
   * Move the table on if its time has come, and settle (again, idempotently) the round dealt or in its
   * result: bets whose wallet answer came late are caught here. Says when to look at the table next
   * (`dueInMs`) and how many of the round's bets are still open after settling (`open`: while any is,
   * the node keeps ticking the table, see table-clock.ts).
   */
  async function step(merchantCode: string, table = BACCARAT_TABLE): Promise<TableTick & { open: number }> {
    return stepTableRound(db, merchantCode, table, BETTING_MS, async (_tx, r) =>
      ({ result: dealCoup(fairStream(r.server_seed, table, r.round_no)), showMs: RESULT_MS, dealt: r.round_no }),
    (roundNo) => settleRound(merchantCode, table, roundNo));
  }

  /** Move the table on if its time has come. Returns the round just dealt or in its result, if any. */
  async function tick(merchantCode: string, table = BACCARAT_TABLE): Promise<number | null> {
    return (await step(merchantCode, table)).dealt;
  }

  /** Settle the round's open bets the wallet accepted; returns how many of its bets are still open (an answer not yet come, a failed payout). */
  async function settleRound(merchantCode: string, table: string, roundNo: number): Promise<number> {
    const round = (await db.query<{ result: BaccaratHand }>(
      'SELECT result FROM house_table_rounds WHERE merchant_code = $1 AND table_code = $2 AND round_no = $3 AND phase = \'result\'', [merchantCode, table, roundNo])).rows[0];
    if (!round) return 0;
    const bets = (await db.query<BetRow>(
      `SELECT id, player_id, nickname, free_play, session_hash, side, stake, round_no FROM house_table_bets
       WHERE merchant_code = $1 AND table_code = $2 AND round_no = $3 AND status = 'open' AND bet_ok`, [merchantCode, table, roundNo])).rows;
    for (const b of bets) {
      const stake = Number(b.stake);
      const ret = baccaratReturn(b.side, stake, round.result.winner);
      try {
        if (!b.free_play) {
          await wallet.win(merchantCode, { transactionId: `house-B${b.id}-win`, playerId: b.player_id!, roundId: vendorRound(table, roundNo), gameCode: table, amount: ret });
        }
        await db.tx(async (tx) => {
          const upd = await tx.query(`UPDATE house_table_bets SET status = 'settled', win = $2 WHERE id = $1 AND status = 'open' RETURNING id`, [b.id, ret]);
          if (!upd.rows.length) return;
          if (b.free_play) await tx.query('UPDATE house_sessions SET play_balance = play_balance + $2 WHERE token_hash = $1', [b.session_hash, ret]);
          else if (isBigWin(stake, ret, await currencyOf(merchantCode, tx))) {
            await postWinner(tx, { code: merchantCode }, b.nickname, table, ret);
          }
        });
      } catch (err) {
        log.warn({ err, betId: b.id }, 'baccarat settlement not delivered; retried on the next tick');
      }
    }
    return Number((await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM house_table_bets WHERE merchant_code = $1 AND table_code = $2 AND round_no = $3 AND status = 'open'`,
      [merchantCode, table, roundNo])).rows[0]!.n);
  }

  async function state(m: Merchant, token: string | undefined): Promise<TBaccaratState> {
    const s = await sessionOf(db, m, token);
    if (s.game_code !== BACCARAT_TABLE) throw new AppError(ErrorCode.INVALID_STATE, 'This session is not at a table');
    let r = await current(m.code, BACCARAT_TABLE);
    if (!r) {
      await tick(m.code);
      r = await current(m.code, BACCARAT_TABLE);
    }
    const round = r!;
    const mine = (await db.query<{ side: BaccaratSide; stake: number; win: number | null; status: string }>(
      `SELECT side, stake, win, status FROM house_table_bets WHERE merchant_code = $1 AND table_code = $2 AND round_no = $3 AND session_hash = $4 ORDER BY id`,
      [m.code, BACCARAT_TABLE, round.round_no, s.token_hash])).rows;
    // The road under the table: the finished rounds, the one whose result shows included (it lagged a round).
    const history = await lastWinners(db, m.code, BACCARAT_TABLE, round.round_no, 20);
    const fresh = await sessionOf(db, m, token);
    const balance = s.free_play ? fresh.play_balance : await realBalance(m, s);
    return {
      table: BACCARAT_TABLE, roundNo: round.round_no, phase: round.phase, closesAt: iso(round.closes_at), nextAt: round.next_at ? iso(round.next_at) : null,
      serverNow: iso(round.now), seedHash: round.seed_hash, serverSeed: round.phase === 'result' ? round.server_seed : null, result: round.result,
      myBets: mine.map((b) => ({ side: b.side, stake: Number(b.stake), win: b.win === null ? null : Number(b.win), status: b.status })),
      balance, history, stakes: houseStakes(BACCARAT_STAKES, m.currency),
    };
  }

  /**
   * Bets left behind (a node died between writing a bet and hearing the wallet): one the wallet
   * accepted is settled with its round's result; one without an answer is rolled back (remembered by
   * the wallet even if the bet never arrived).
   */
  async function sweep(olderThanMs = 60_000): Promise<number> {
    const stale = (await db.query<{ id: number; merchant_code: string; table_code: string; round_no: number; player_id: string; bet_ok: boolean; phase: string }>(
      `SELECT b.id, b.merchant_code, b.table_code, b.round_no, b.player_id, b.bet_ok, r.phase FROM house_table_bets b
       JOIN house_table_rounds r ON r.merchant_code = b.merchant_code AND r.table_code = b.table_code AND r.round_no = b.round_no
       WHERE b.status = 'open' AND NOT b.free_play AND b.created_at < now() - make_interval(secs => $1) LIMIT 100`, [olderThanMs / 1000])).rows;
    for (const b of stale) {
      if (b.bet_ok) {
        if (b.phase === 'result') await settleRound(b.merchant_code, b.table_code, b.round_no);
        continue;
      }
      const base = { playerId: b.player_id, roundId: vendorRound(b.table_code, b.round_no) };
      await wallet.rollback(b.merchant_code, { ...base, transactionId: `house-B${b.id}-rb`, refTransactionId: `house-B${b.id}-bet` })
        .then(() => db.query(`UPDATE house_table_bets SET status = 'rolled_back' WHERE id = $1 AND status = 'open'`, [b.id]))
        .catch((err: unknown) => log.warn({ err, betId: b.id }, 'baccarat sweep: rollback not delivered'));
    }
    return stale.length;
  }

  return {
    tick,
    step,
    settleRound,
    sweep,
    state,
    /** A bet on the open round: written first (under the round's share lock), then sent to the wallet. */
    async bet(m: Merchant, token: string | undefined, side: BaccaratSide, stake: number): Promise<TBaccaratState> {
      if (!houseStakes(BACCARAT_STAKES, m.currency).includes(stake)) throw new AppError(ErrorCode.VALIDATION, 'Stake not offered', [{ path: 'stake', message: 'not offered' }]);
      const s0 = await sessionOf(db, m, token);
      if (s0.game_code !== BACCARAT_TABLE) throw new AppError(ErrorCode.INVALID_STATE, 'This session is not at a table');
      // A table in maintenance (its own flag or its provider's) takes no bet, play money included.
      if ((await gameOf(m.code, BACCARAT_TABLE)).maintenance) throw new AppError(ErrorCode.GAME_MAINTENANCE);
      const placed = await db.tx(async (tx) => {
        const r = (await tx.query<{ round_no: number; open: boolean }>(
          `SELECT round_no, phase = 'betting' AND closes_at > now() AS open FROM house_table_rounds
           WHERE merchant_code = $1 AND table_code = $2 ORDER BY round_no DESC LIMIT 1 FOR SHARE`, [m.code, BACCARAT_TABLE])).rows[0];
        if (!r?.open) throw new AppError(ErrorCode.INVALID_STATE, 'Betting is closed for this round');
        const s = await sessionOf(tx, m, token, true);
        if (s.free_play) {
          if (s.play_balance < stake) throw new AppError(ErrorCode.INSUFFICIENT_FUNDS);
          await tx.query('UPDATE house_sessions SET play_balance = play_balance - $2 WHERE token_hash = $1', [s.token_hash, stake]);
        }
        const b = await tx.query<{ id: number }>(
          `INSERT INTO house_table_bets (merchant_code, table_code, round_no, session_hash, player_id, nickname, free_play, side, stake, bet_ok, status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $7, 'open') RETURNING id`,
          [m.code, BACCARAT_TABLE, r.round_no, s.token_hash, s.player_id, s.nickname, s.free_play, side, stake]);
        return { id: b.rows[0]!.id, roundNo: r.round_no, s };
      });
      if (!placed.s.free_play) {
        const base = { playerId: placed.s.player_id!, roundId: vendorRound(BACCARAT_TABLE, placed.roundNo) };
        try {
          await wallet.bet(m.code, { ...base, transactionId: `house-B${placed.id}-bet`, gameCode: BACCARAT_TABLE, amount: stake, token: placed.s.vendor_token! });
          await db.query('UPDATE house_table_bets SET bet_ok = true WHERE id = $1', [placed.id]);
        } catch (err) {
          if (err instanceof WalletRefused) {
            await db.query(`UPDATE house_table_bets SET status = 'refused' WHERE id = $1`, [placed.id]);
          } else {
            await wallet.rollback(m.code, { ...base, transactionId: `house-B${placed.id}-rb`, refTransactionId: `house-B${placed.id}-bet` })
              .then(() => db.query(`UPDATE house_table_bets SET status = 'rolled_back' WHERE id = $1`, [placed.id]))
              .catch((e: unknown) => log.warn({ err: e, betId: placed.id }, 'baccarat rollback not delivered'));
          }
          throw await endIfRevoked(placed.s, err);
        }
      }
      return state(m, token);
    },
  };
}
export type BaccaratTable = ReturnType<typeof createBaccaratTable>;
