import type { Logger } from 'pino';
import type { TPvpState } from '@portal/contracts/api/house';
import { maskName } from '@portal/contracts/domain/money';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { houseAmount, type House } from './house-service.ts';
import { PVP_ANTE, PVP_MAX_SEATS, PVP_MIN_PLAYERS, PVP_RAKE_PERCENT, PVP_TABLE, dealRound, pvpRoundId, type PvpResult } from './lucky9.ts';
import { currentRound, stepTableRound, type TableRoundRow, type TableTick } from './table-rounds.ts';
import { WalletRefused, type WalletClient } from './wallet-client.ts';
import { iso } from '../../db/iso.ts';

/** Seats are open this long; after the deal each player sees their own cards this long, then everything this long. */
export const JOINING_MS = 15_000;
export const PEEK_MS = 3_000;
export const PVP_RESULT_MS = 6_000;

type RoundRow = TableRoundRow<PvpResult>;
type SeatRow = { id: number; player_id: string; nickname: string; session_hash: Buffer; ante: number; win: number | null; status: string; bet_ok: boolean };


/**
 * Lucky 9 Duel: player against player, rounds running continuously per merchant (rows in
 * house_table_rounds, table PVP1). As with the baccarat table, every node ticks and the one holding
 * the table's advisory lock opens, deals and closes rounds. Money moves only through the wallet
 * client: each ante a bet (`house-P<seat>-bet`), each payout a win (0 for a loser), a cancelled
 * round's antes rolled back (`house-P<seat>-rb`).
 */
export function createPvpTable(deps: { db: Db; wallet: WalletClient; house: House; log: Logger }) {
  const { db, wallet, log } = deps;
  const { sessionOf, gameOf, realBalance, endIfRevoked } = deps.house.internals;
  const table = PVP_TABLE;

  const current = (merchantCode: string): Promise<RoundRow | null> => currentRound<PvpResult>(db, merchantCode, table);

  /**
   * Move the table on if its time has come, and settle (again, idempotently) the round dealt or in its
   * result. Says when to look at the table next (`dueInMs`) and how many of the round's seats are still
   * open after settling (`open`: while any is, the node keeps ticking the table, see table-clock.ts).
   */
  async function step(merchantCode: string): Promise<TableTick & { open: number }> {
    return stepTableRound(db, merchantCode, table, JOINING_MS, async (tx, r) => {
      // Only antes the wallet accepted play; one still in flight is rolled back by the settlement.
      const seated = (await tx.query<{ id: number; ante: number }>(
        `SELECT id, ante FROM house_pvp_seats WHERE merchant_code = $1 AND table_code = $2 AND round_no = $3 AND status = 'open' AND bet_ok ORDER BY id`,
        [merchantCode, table, r.round_no])).rows;
      const seats = seated.map((s) => Number(s.id));
      // The ante the seats paid (the merchant's currency: PVP_ANTE at its demo rate).
      const ante = seated[0] ? Number(seated[0].ante) : PVP_ANTE;
      const anyone = (await tx.query(`SELECT 1 FROM house_pvp_seats WHERE merchant_code = $1 AND table_code = $2 AND round_no = $3 LIMIT 1`, [merchantCode, table, r.round_no])).rows.length > 0;
      const result = dealRound(r.server_seed, pvpRoundId(table, r.round_no), seats, ante);
      // An empty table moves straight on; otherwise the players see their cards, then the result.
      const showMs = !anyone ? 0 : result.cancelled ? PVP_RESULT_MS : PEEK_MS + PVP_RESULT_MS;
      return { result, showMs, dealt: anyone ? r.round_no : null };
    }, (roundNo) => settleRound(merchantCode, roundNo));
  }

  /** Move the table on if its time has come. Returns the round in its result, if any (settled again, idempotently). */
  async function tick(merchantCode: string): Promise<number | null> {
    return (await step(merchantCode)).dealt;
  }

  /**
   * Pay the round's open seats: a win (0 for a loser) for each player dealt in, a rollback for everyone
   * else. Returns how many of its seats are still open (a payout or rollback not delivered).
   */
  async function settleRound(merchantCode: string, roundNo: number): Promise<number> {
    const round = (await db.query<{ result: PvpResult }>(
      `SELECT result FROM house_table_rounds WHERE merchant_code = $1 AND table_code = $2 AND round_no = $3 AND phase = 'result'`, [merchantCode, table, roundNo])).rows[0];
    if (!round) return 0;
    const seats = (await db.query<SeatRow>(
      `SELECT id, player_id, nickname, session_hash, ante, win, status, bet_ok FROM house_pvp_seats
       WHERE merchant_code = $1 AND table_code = $2 AND round_no = $3 AND status = 'open' ORDER BY id`, [merchantCode, table, roundNo])).rows;
    const roundId = pvpRoundId(table, roundNo);
    let failed = 0;
    for (const s of seats) {
      const hand = round.result.hands.find((h) => h.seat === Number(s.id));
      try {
        if (hand) {
          await wallet.win(merchantCode, { transactionId: `house-P${s.id}-win`, playerId: s.player_id, roundId, gameCode: table, amount: hand.win });
          await db.query(`UPDATE house_pvp_seats SET status = 'settled', win = $2 WHERE id = $1 AND status = 'open'`, [s.id, hand.win]);
        } else {
          // The wallet returns the original ante (or remembers the rollback if the bet has not arrived yet).
          await wallet.rollback(merchantCode, { transactionId: `house-P${s.id}-rb`, playerId: s.player_id, roundId, refTransactionId: `house-P${s.id}-bet` });
          await db.query(`UPDATE house_pvp_seats SET status = 'rolled_back' WHERE id = $1 AND status = 'open'`, [s.id]);
        }
      } catch (err) {
        log.warn({ err, seatId: s.id }, 'pvp settlement not delivered; retried on the next tick or sweep');
        failed++;
      }
    }
    return failed;
  }

  /** Seats left open on a dealt round (a node died, the wallet was away): settled again with the same transaction ids. */
  async function sweep(olderThanMs = 30_000): Promise<number> {
    const rounds = (await db.query<{ merchant_code: string; round_no: number }>(
      `SELECT DISTINCT s.merchant_code, s.round_no FROM house_pvp_seats s
       JOIN house_table_rounds r ON r.merchant_code = s.merchant_code AND r.table_code = s.table_code AND r.round_no = s.round_no
       WHERE s.status = 'open' AND s.table_code = $1 AND r.phase = 'result' AND s.created_at < now() - make_interval(secs => $2) LIMIT 100`,
      [table, olderThanMs / 1000])).rows;
    for (const r of rounds) await settleRound(r.merchant_code, r.round_no);
    return rounds.length;
  }

  async function state(m: Merchant, token: string | undefined): Promise<TPvpState> {
    const s = await sessionOf(db, m, token);
    if (s.game_code !== table) throw new AppError(ErrorCode.INVALID_STATE, 'This session is not at the Lucky 9 table');
    let r = await current(m.code);
    if (!r) {
      await tick(m.code);
      r = await current(m.code);
    }
    const round = r!;
    const seats = (await db.query<SeatRow>(
      `SELECT id, player_id, nickname, session_hash, ante, win, status, bet_ok FROM house_pvp_seats
       WHERE merchant_code = $1 AND table_code = $2 AND round_no = $3 ORDER BY id`, [m.code, table, round.round_no])).rows;
    const now = Date.parse(iso(round.now));
    const revealAt = round.phase === 'result' && round.next_at ? Date.parse(iso(round.next_at)) - PVP_RESULT_MS : null;
    const phase = round.phase === 'betting' ? 'joining' : revealAt !== null && now < revealAt ? 'dealt' : 'result';
    const result = round.result;
    const shown = phase === 'result';
    const wallet_ = s.free_play ? s.play_balance : await realBalance(m, s);
    // While the players look at their own cards, a payout already made does not give the result away.
    const mine = seats.find((x) => x.player_id === s.player_id);
    const balance = phase === 'dealt' && mine?.win != null ? wallet_ - Number(mine.win) : wallet_;
    return {
      table, roundNo: round.round_no, roundId: pvpRoundId(table, round.round_no), phase,
      closesAt: iso(round.closes_at), revealAt: revealAt === null ? null : new Date(revealAt).toISOString(), nextAt: round.next_at ? iso(round.next_at) : null,
      serverNow: iso(round.now), seedHash: round.seed_hash, serverSeed: shown ? round.server_seed : null,
      ante: houseAmount(PVP_ANTE, m.currency), rakePercent: PVP_RAKE_PERCENT, maxSeats: PVP_MAX_SEATS, minPlayers: PVP_MIN_PLAYERS,
      seats: seats.map((x) => {
        const me = x.player_id === s.player_id;
        const hand = result?.hands.find((h) => h.seat === Number(x.id));
        const see = hand && (shown || me);
        return {
          seat: Number(x.id), nickname: me ? x.nickname : maskName(x.nickname), me,
          cards: see ? hand.cards : null, value: see ? hand.value : null, win: shown && x.win !== null ? Number(x.win) : null, status: x.status,
        };
      }),
      joined: seats.some((x) => x.player_id === s.player_id && x.status !== 'rolled_back'),
      cancelled: shown && !!result?.cancelled,
      pot: result && !result.cancelled ? result.pot : houseAmount(PVP_ANTE, m.currency) * seats.filter((x) => x.status !== 'rolled_back').length,
      rake: shown && result ? result.rake : null,
      houseTake: shown && result ? result.houseTake : null,
      winners: shown && result ? result.winners : [],
      balance,
    };
  }

  return {
    tick,
    step,
    settleRound,
    sweep,
    state,
    /** Take a seat in the joining round: the seat is written first (under the round's lock), then the ante goes to the wallet. */
    async join(m: Merchant, token: string | undefined): Promise<TPvpState> {
      const s0 = await sessionOf(db, m, token);
      if (s0.game_code !== table) throw new AppError(ErrorCode.INVALID_STATE, 'This session is not at the Lucky 9 table');
      if (s0.free_play) throw new AppError(ErrorCode.NOT_AVAILABLE, 'Lucky 9 Duel is played with real money only');
      if ((await gameOf(m.code, table)).maintenance) throw new AppError(ErrorCode.GAME_MAINTENANCE);
      const placed = await db.tx(async (tx) => {
        const r = (await tx.query<{ round_no: number; open: boolean }>(
          `SELECT round_no, phase = 'betting' AND closes_at > now() AS open FROM house_table_rounds
           WHERE merchant_code = $1 AND table_code = $2 ORDER BY round_no DESC LIMIT 1 FOR UPDATE`, [m.code, table])).rows[0];
        if (!r?.open) throw new AppError(ErrorCode.INVALID_STATE, 'The table is dealing; join the next round');
        const seated = (await tx.query<{ player_id: string }>(
          `SELECT player_id FROM house_pvp_seats WHERE merchant_code = $1 AND table_code = $2 AND round_no = $3 AND status <> 'rolled_back'`,
          [m.code, table, r.round_no])).rows;
        if (seated.some((x) => x.player_id === s0.player_id)) return null;
        if (seated.length >= PVP_MAX_SEATS) throw new AppError(ErrorCode.INVALID_STATE, 'The table is full; join the next round');
        const ins = await tx.query<{ id: number }>(
          `INSERT INTO house_pvp_seats (merchant_code, table_code, round_no, session_hash, player_id, nickname, ante, status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'open') ON CONFLICT DO NOTHING RETURNING id`,
          [m.code, table, r.round_no, s0.token_hash, s0.player_id, s0.nickname, houseAmount(PVP_ANTE, m.currency)]);
        return ins.rows[0] ? { id: Number(ins.rows[0].id), roundNo: r.round_no } : null;
      });
      if (placed) {
        const base = { playerId: s0.player_id!, roundId: pvpRoundId(table, placed.roundNo) };
        try {
          await wallet.bet(m.code, { ...base, transactionId: `house-P${placed.id}-bet`, gameCode: table, amount: houseAmount(PVP_ANTE, m.currency), token: s0.vendor_token! });
          await db.query('UPDATE house_pvp_seats SET bet_ok = true WHERE id = $1', [placed.id]);
        } catch (err) {
          if (err instanceof WalletRefused) {
            // Refused (funds, trial account…): the seat goes, so the player may try again this round.
            await db.query(`DELETE FROM house_pvp_seats WHERE id = $1 AND status = 'open'`, [placed.id]);
          } else {
            await wallet.rollback(m.code, { ...base, transactionId: `house-P${placed.id}-rb`, refTransactionId: `house-P${placed.id}-bet` })
              .then(() => db.query(`UPDATE house_pvp_seats SET status = 'rolled_back' WHERE id = $1 AND status = 'open'`, [placed.id]))
              .catch((e: unknown) => log.warn({ err: e, seatId: placed.id }, 'pvp rollback not delivered'));
          }
          throw await endIfRevoked(s0, err);
        }
      }
      return state(m, token);
    },
  };
}
export type PvpTable = ReturnType<typeof createPvpTable>;
