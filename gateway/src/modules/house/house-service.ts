import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { THouseGameCode, THouseSession, TRotateSeedValue, TShootResult, TSpinResult } from '@portal/contracts/api/house';
import { merchantAudience } from '@portal/contracts/events/events';
import { BIG_WIN_CENTAVOS, BIG_WIN_MULTIPLE as BIG_MULTIPLE, isBigWin as isBigWinIn, maskName, scaleCentavos } from '@portal/contracts/domain/money';
import type { Db, Tx } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { fairStream, hashSeed, newServerSeed, type FairStream } from './fair.ts';
import { FISH_RTP, FISH_STAKES, shootFish, type FishId } from './fish.ts';
import { HOUSE_GAMES } from './house-games.ts';
import { SLOT_STAKES, SLOT_STATED_RTP, evaluate, slotWin, stopsFrom } from './slot.ts';
import { WalletRefused, WalletUnreachable, type WalletClient } from './wallet-client.ts';
import { winnerIcon } from '../games/winner-icons.ts';
import { gameMaintenanceSql } from '../games/connected-vendors.ts';

/** A house game session lives as long as the wallet's game token does. */
export const HOUSE_SESSION_MS = 4 * 3600_000;
/** Play money a free-play session starts with, in centavos (₱2,000; another currency at its demo rate: houseAmount). */
export const FREE_PLAY_BALANCE = 200_000;
/** A win is big (winner board) from this many times the stake, or from this amount (₱5,000, in centavos). */
export const BIG_WIN_MULTIPLE = BIG_MULTIPLE;
export const BIG_WIN_AMOUNT = BIG_WIN_CENTAVOS;
/** Open rounds older than this are finished by the recovery sweep (win retried, or bet rolled back). */
export const STALE_ROUND_MS = 30_000;

type SessionRow = {
  token_hash: Buffer; merchant_code: string; player_id: string | null; nickname: string; game_code: THouseGameCode; vendor_token: string | null;
  free_play: boolean; play_balance: number; server_seed: string; client_seed: string; nonce: number;
};
type RoundRow = {
  round_id: string; merchant_code: string; player_id: string | null; game_code: string; stake: number; win: number | null; bet_ok: boolean;
  outcome: { win: number } | null;
};

const hashToken = (t: string) => createHash('sha256').update(t).digest();
const newClientSeed = () => randomBytes(8).toString('hex');
const newRoundId = (game: string) => `${game}-${Date.now().toString(36)}-${randomBytes(5).toString('hex')}`;

/** A win is big in `currency` (PHP by default): 20 times the stake, or ₱5,000 at the currency's demo rate (₫2,500,000). */
export function isBigWin(stake: number, win: number, currency = 'PHP'): boolean {
  return isBigWinIn(stake, win, currency);
}

/**
 * A house game amount written in centavos (stakes, antes, play money) in the merchant's currency, at its
 * demo rate (scaleCentavos): a VND table's smallest slot stake is ₫500, not ₫1 or ₫100.
 */
export const houseAmount = (centavos: number, currency: string): number => scaleCentavos(centavos, currency);
/** The stakes a game offers in the merchant's currency. */
export const houseStakes = (centavos: readonly number[], currency: string): number[] => centavos.map((c) => houseAmount(c, currency));

/**
 * The house game server. Money moves only through the wallet client (the signed vendor API over
 * HTTP); its own tables hold sessions, seeds and rounds. Each round: reserve a nonce and store the
 * outcome, bet (`house-<round>-bet`), win (`house-<round>-win`, 0 closes a lost round), settle.
 */
export function createHouse(deps: { db: Db; wallet: WalletClient; log: Logger }) {
  const { db, wallet, log } = deps;

  /** A merchant's currency, for the paths that know only its code (sweeps, table settlements). */
  const currencies = new Map<string, string>();
  async function currencyOf(merchantCode: string, q: Db | Tx = db): Promise<string> {
    const known = currencies.get(merchantCode);
    if (known) return known;
    const c = (await q.query<{ currency: string }>('SELECT currency FROM merchants WHERE code = $1', [merchantCode])).rows[0]?.currency ?? 'PHP';
    currencies.set(merchantCode, c);
    return c;
  }

  async function gameOf(merchantCode: string, code: string, q: Db | Tx = db) {
    // In maintenance by its own flag or its provider's (the house provider in maintenance closes free play too).
    const r = await q.query<{ game_name: string; icon_url: string | null; maintenance: boolean }>(
      `SELECT g.game_name, g.icon_url, ${gameMaintenanceSql('g', '$1')} FROM games g WHERE g.merchant_code = $1 AND g.vassalage = 'HOUSE' AND g.game_code = $2`, [merchantCode, code]);
    const def = HOUSE_GAMES.find((g) => g.code === code);
    return r.rows[0] ?? { game_name: def?.name ?? code, icon_url: null, maintenance: false };
  }

  async function sessionOf(q: Db | Tx, m: Merchant, token: string | undefined, forUpdate = false): Promise<SessionRow> {
    if (!token || token.length < 20 || token.length > 128) throw new AppError(ErrorCode.GAME_TOKEN_INVALID);
    const r = await q.query<SessionRow>(
      `SELECT token_hash, merchant_code, player_id, nickname, game_code, vendor_token, free_play, play_balance, server_seed, client_seed, nonce
       FROM house_sessions WHERE token_hash = $1 AND merchant_code = $2 AND expires_at > now()${forUpdate ? ' FOR UPDATE' : ''}`,
      [hashToken(token), m.code],
    );
    const s = r.rows[0];
    if (!s) throw new AppError(ErrorCode.GAME_TOKEN_INVALID);
    return { ...s, play_balance: Number(s.play_balance) };
  }

  /**
   * The player's balance through the wallet, with the game token: once the wallet refuses the token
   * (the member logged out, changed the password, was disabled or excluded), this house session
   * ends too, and the page shows the game session has ended.
   */
  async function realBalance(m: Pick<Merchant, 'code'>, s: Pick<SessionRow, 'token_hash' | 'player_id' | 'vendor_token'>): Promise<number> {
    try {
      return (await wallet.balance(m.code, s.player_id!, s.vendor_token ?? undefined)).balance;
    } catch (err) {
      throw await endIfRevoked(s, err);
    }
  }

  /** A wallet refusal of the game token ends the house session (its rounds already placed still settle). */
  async function endIfRevoked(s: Pick<SessionRow, 'token_hash'>, err: unknown): Promise<unknown> {
    if (err instanceof WalletRefused && err.code === ErrorCode.GAME_TOKEN_INVALID) {
      await db.query('UPDATE house_sessions SET expires_at = now() WHERE token_hash = $1 AND expires_at > now()', [s.token_hash]);
    }
    return asPlayerError(err);
  }

  async function view(m: Merchant, token: string, s: SessionRow): Promise<THouseSession> {
    const g = await gameOf(m.code, s.game_code);
    const balance = s.free_play ? s.play_balance : await realBalance(m, s);
    return {
      session: token, game: s.game_code, gameName: g.game_name, nickname: s.nickname, currency: m.currency, balance, freePlay: s.free_play,
      stakes: houseStakes(s.game_code === 'FISH1' ? FISH_STAKES : SLOT_STAKES, m.currency), fair: { serverSeedHash: hashSeed(s.server_seed), clientSeed: s.client_seed, nonce: s.nonce },
      rtp: s.game_code === 'SLOT1' ? SLOT_STATED_RTP : s.game_code === 'FISH1' ? FISH_RTP : null,
    };
  }

  async function createSession(m: Merchant, row: { playerId: string | null; nickname: string; game: THouseGameCode; vendorToken: string | null; freePlay: boolean }) {
    const token = randomBytes(32).toString('base64url');
    await db.query(
      `INSERT INTO house_sessions (token_hash, merchant_code, player_id, nickname, game_code, vendor_token, free_play, play_balance, server_seed, client_seed, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() + make_interval(secs => $11))`,
      [hashToken(token), m.code, row.playerId, row.nickname, row.game, row.vendorToken, row.freePlay, row.freePlay ? houseAmount(FREE_PLAY_BALANCE, m.currency) : 0,
        newServerSeed(), newClientSeed(), HOUSE_SESSION_MS / 1000],
    );
    return token;
  }

  /** Wallet failures the player sees: refusals keep their code; an unreachable wallet is a 409 "try again". */
  function asPlayerError(err: unknown): unknown {
    if (err instanceof WalletUnreachable) return new AppError(ErrorCode.CONFLICT, 'The round could not complete; no money moved');
    return err;
  }

  async function settle(m: Pick<Merchant, 'code'>, round: { roundId: string; stake: number; win: number; playerId: string | null; nickname: string; game: string; freePlay: boolean }) {
    const big = !round.freePlay && isBigWin(round.stake, round.win, await currencyOf(m.code));
    await db.tx(async (tx) => {
      // Once: the live path and the recovery sweep may both reach here for a round; only the one that settles it posts.
      const u = await tx.query(`UPDATE house_rounds SET status = 'settled', win = $2, settled_at = now() WHERE round_id = $1 AND status = 'open'`, [round.roundId, round.win]);
      if (big && u.rowCount === 1) await postWinner(tx, m, round.nickname, round.game, round.win);
    });
    return big;
  }

  /** A big win on the winner board: the row and its winner.posted event in one transaction. */
  async function postWinner(tx: Tx, m: Pick<Merchant, 'code'>, nickname: string, gameCode: string, win: number) {
    // Inside the transaction (PGlite has one connection: a query outside it would wait for it).
    const g = await gameOf(m.code, gameCode, tx);
    const customerName = maskName(nickname);
    const iconUrl = await winnerIcon(tx, m.code, g.game_name, g.icon_url);
    const r = await tx.query<{ id: number; at: Date | string }>(
      'INSERT INTO winners (merchant_code, customer_name, game_name, icon_url, win_amount) VALUES ($1, $2, $3, $4, $5) RETURNING id, at',
      [m.code, customerName, g.game_name, iconUrl, win],
    );
    const row = r.rows[0]!;
    await emitEvent(tx, m.code, merchantAudience(m.code), 'winner.posted', {
      id: String(row.id), iconUrl, winAmount: win, gameName: g.game_name, customerName, at: new Date(row.at).toISOString(),
    });
  }

  /**
   * Money for one round through the wallet: bet, then win. A bet the wallet refuses marks the round
   * refused; a bet that cannot reach the wallet is rolled back (the rollback is remembered even if the
   * bet never arrived). A win that cannot reach the wallet leaves the round open for the sweep, which
   * retries the same win transaction id.
   */
  async function playReal(m: Merchant, s: SessionRow, roundId: string, stake: number, win: number): Promise<number> {
    const base = { playerId: s.player_id!, roundId, gameCode: s.game_code };
    try {
      await wallet.bet(m.code, { ...base, transactionId: `house-${roundId}-bet`, amount: stake, token: s.vendor_token! });
    } catch (err) {
      if (err instanceof WalletRefused) {
        await db.query(`UPDATE house_rounds SET status = 'refused', settled_at = now() WHERE round_id = $1`, [roundId]);
      } else {
        await rollbackRound(m, { round_id: roundId, player_id: s.player_id });
      }
      throw await endIfRevoked(s, err);
    }
    await db.query('UPDATE house_rounds SET bet_ok = true WHERE round_id = $1', [roundId]);
    const w = await wallet.win(m.code, { ...base, transactionId: `house-${roundId}-win`, amount: win, token: s.vendor_token! }).catch((err: unknown) => {
      log.warn({ err, roundId }, 'house win not delivered; the sweep retries it');
      throw asPlayerError(err);
    });
    return w.balance;
  }

  async function rollbackRound(m: Merchant | string, r: Pick<RoundRow, 'round_id' | 'player_id'>) {
    const code = typeof m === 'string' ? m : m.code;
    try {
      await wallet.rollback(code, { transactionId: `house-${r.round_id}-rb`, playerId: r.player_id!, roundId: r.round_id, refTransactionId: `house-${r.round_id}-bet` });
      await db.query(`UPDATE house_rounds SET status = 'rolled_back', settled_at = now() WHERE round_id = $1`, [r.round_id]);
    } catch (err) {
      log.warn({ err, roundId: r.round_id }, 'house rollback not delivered; the sweep retries it');
    }
  }

  /**
   * One instant round (slot spin, fish shot): reserve the nonce and write the round with its outcome
   * before any money moves, then bet and win through the wallet (or the play balance in free play).
   */
  async function instantRound<O>(
    m: Merchant, token: string | undefined, game: 'SLOT1' | 'FISH1', prefix: string, stake: number,
    compute: (rng: FairStream) => { win: number; outcome: O; record: Record<string, unknown> },
  ) {
    const s0 = await sessionOf(db, m, token);
    if (s0.game_code !== game) throw new AppError(ErrorCode.INVALID_STATE, 'This session is for another game');
    const g = await gameOf(m.code, game);
    if (g.maintenance) throw new AppError(ErrorCode.GAME_MAINTENANCE);
    const r = await db.tx(async (tx) => {
      const s = await sessionOf(tx, m, token, true);
      const nonce = s.nonce + 1;
      const { win, outcome, record } = compute(fairStream(s.server_seed, s.client_seed, nonce));
      const roundId = newRoundId(prefix);
      if (s.free_play && s.play_balance < stake) throw new AppError(ErrorCode.INSUFFICIENT_FUNDS);
      await tx.query('UPDATE house_sessions SET nonce = $2, play_balance = play_balance + $3 WHERE token_hash = $1', [s.token_hash, nonce, s.free_play ? win - stake : 0]);
      await tx.query(
        `INSERT INTO house_rounds (round_id, merchant_code, session_hash, player_id, game_code, free_play, stake, win, server_seed_hash, client_seed, nonce, outcome, status, settled_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [roundId, m.code, s.token_hash, s.player_id, game, s.free_play, stake, s.free_play ? win : null, hashSeed(s.server_seed), s.client_seed, nonce,
          JSON.stringify({ ...record, win }), s.free_play ? 'settled' : 'open', s.free_play ? new Date().toISOString() : null],
      );
      return { s, nonce, win, outcome, roundId };
    });
    const balance = r.s.free_play ? r.s.play_balance - stake + r.win : await playReal(m, r.s, r.roundId, stake, r.win);
    const bigWin = r.s.free_play
      ? false
      : await settle(m, { roundId: r.roundId, stake, win: r.win, playerId: r.s.player_id, nickname: r.s.nickname, game, freePlay: false });
    return { roundId: r.roundId, win: r.win, outcome: r.outcome, balance, bigWin, nonce: r.nonce, serverSeedHash: hashSeed(r.s.server_seed), clientSeed: r.s.client_seed };
  }

  return {
    /** Shared with the table games (baccarat). */
    internals: { sessionOf, postWinner, asPlayerError, gameOf, realBalance, endIfRevoked, currencyOf },
    /**
     * The game page hands over the launch code; the house trades it with the wallet, once, for the
     * game session token, which stays on the server. The code opens only the game it was issued for.
     */
    async open(m: Merchant, launchCode: string, game: THouseGameCode): Promise<THouseSession> {
      // A launch issued before the game went into maintenance opens nothing now (and is not spent: it
      // opens the game once the maintenance ends).
      if ((await gameOf(m.code, game)).maintenance) throw new AppError(ErrorCode.GAME_MAINTENANCE);
      const player = await wallet.authenticate(m.code, launchCode).catch((err: unknown) => {
        throw asPlayerError(err);
      });
      if (player.gameCode !== game) throw new AppError(ErrorCode.GAME_TOKEN_INVALID, 'This launch is for another game');
      const token = await createSession(m, { playerId: player.playerId, nickname: player.nickname, game, vendorToken: player.token, freePlay: false });
      return view(m, token, await sessionOf(db, m, token));
    },

    /** Free play (FREEPLAY3): play money in the house session only; the ledger is never touched. */
    async freePlay(m: Merchant, game: THouseGameCode): Promise<THouseSession> {
      if (!m.modules.FREEPLAY3) throw new AppError(ErrorCode.MODULE_DISABLED);
      if (game === 'PVP1') throw new AppError(ErrorCode.NOT_AVAILABLE, 'Lucky 9 Duel is played with real money only');
      // A game in maintenance (its own or its provider's) opens for no one, play money included.
      if ((await gameOf(m.code, game)).maintenance) throw new AppError(ErrorCode.GAME_MAINTENANCE);
      const token = await createSession(m, { playerId: null, nickname: 'Guest', game, vendorToken: null, freePlay: true });
      return view(m, token, await sessionOf(db, m, token));
    },

    /**
     * The page's session again. With `game` (the page of that game): null when there is no live
     * session of that game (none kept, ended, or one of another game), and the page starts one.
     */
    async state(m: Merchant, token: string | undefined, game?: THouseGameCode): Promise<THouseSession | null> {
      if (!game) return view(m, token!, await sessionOf(db, m, token));
      const s = await sessionOf(db, m, token).catch((err: unknown) => {
        if (err instanceof AppError && err.code === ErrorCode.GAME_TOKEN_INVALID) return null;
        throw err;
      });
      return s && s.game_code === game ? view(m, token!, s) : null;
    },

    async spin(m: Merchant, token: string | undefined, stake: number): Promise<TSpinResult> {
      if (!houseStakes(SLOT_STAKES, m.currency).includes(stake)) throw new AppError(ErrorCode.VALIDATION, 'Stake not offered', [{ path: 'stake', message: 'not offered' }]);
      const r = await instantRound(m, token, 'SLOT1', 'S', stake, (rng) => {
        const result = evaluate(stopsFrom(rng));
        return { win: slotWin(stake, result.multiplier), outcome: result, record: { stops: result.stops } };
      });
      return {
        roundId: r.roundId, stake, win: r.win, grid: r.outcome.grid, stops: r.outcome.stops, lines: r.outcome.lines, balance: r.balance,
        serverSeedHash: r.serverSeedHash, clientSeed: r.clientSeed, nonce: r.nonce, bigWin: r.bigWin,
      };
    },

    async shoot(m: Merchant, token: string | undefined, fish: FishId, stake: number): Promise<TShootResult> {
      if (!houseStakes(FISH_STAKES, m.currency).includes(stake)) throw new AppError(ErrorCode.VALIDATION, 'Stake not offered', [{ path: 'stake', message: 'not offered' }]);
      const r = await instantRound(m, token, 'FISH1', 'F', stake, (rng) => {
        const shot = shootFish(fish, rng);
        return { win: shot.caught ? stake * shot.multiple : 0, outcome: shot, record: { fish, ...shot } };
      });
      return {
        roundId: r.roundId, fish, stake, caught: r.outcome.caught, multiple: r.outcome.multiple, win: r.win, balance: r.balance,
        serverSeedHash: r.serverSeedHash, clientSeed: r.clientSeed, nonce: r.nonce, bigWin: r.bigWin,
      };
    },

    /** A new server seed (and optionally client seed); the old seed is revealed and kept for verification. */
    async rotateSeed(m: Merchant, token: string | undefined, clientSeed: string | undefined): Promise<TRotateSeedValue> {
      return db.tx(async (tx) => {
        const s = await sessionOf(tx, m, token, true);
        const next = newServerSeed();
        const cs = clientSeed ?? newClientSeed();
        await tx.query('UPDATE house_sessions SET server_seed = $2, client_seed = $3, nonce = 0 WHERE token_hash = $1', [s.token_hash, next, cs]);
        const revealedHash = hashSeed(s.server_seed);
        await tx.query('INSERT INTO house_revealed_seeds (seed_hash, server_seed) VALUES ($1, $2) ON CONFLICT DO NOTHING', [revealedHash, s.server_seed]);
        return { revealedServerSeed: s.server_seed, revealedHash, rounds: s.nonce, fair: { serverSeedHash: hashSeed(next), clientSeed: cs, nonce: 0 } };
      });
    },

    /**
     * Finish rounds left open (a node died or the wallet was unreachable): a round whose bet went
     * through gets its win again (same transaction id); one whose bet is unknown is rolled back.
     * SKIP LOCKED: with several nodes each round is taken by one.
     */
    async sweep(olderThanMs = STALE_ROUND_MS): Promise<number> {
      const rows = await db.tx(async (tx) => (await tx.query<RoundRow & { nickname: string | null; free_play: boolean }>(
        `UPDATE house_rounds SET created_at = now() WHERE round_id IN (
           SELECT round_id FROM house_rounds WHERE status = 'open' AND created_at < now() - make_interval(secs => $1) ORDER BY created_at LIMIT 50 FOR UPDATE SKIP LOCKED)
         RETURNING round_id, merchant_code, player_id, game_code, stake, win, bet_ok, outcome, free_play,
                   (SELECT s.nickname FROM house_sessions s WHERE s.token_hash = house_rounds.session_hash) AS nickname`,
        [olderThanMs / 1000],
      )).rows);
      for (const r of rows) {
        if (!r.bet_ok) {
          await rollbackRound(r.merchant_code, r);
          continue;
        }
        const win = r.outcome?.win ?? 0;
        try {
          await wallet.win(r.merchant_code, { transactionId: `house-${r.round_id}-win`, playerId: r.player_id!, roundId: r.round_id, gameCode: r.game_code, amount: win });
          // Settled as a live round is: a big win goes to the winner board.
          await settle({ code: r.merchant_code }, { roundId: r.round_id, stake: r.stake, win, playerId: r.player_id, nickname: r.nickname ?? r.player_id ?? '', game: r.game_code, freePlay: r.free_play });
        } catch (err) {
          log.warn({ err, roundId: r.round_id }, 'house sweep: win still not delivered');
        }
      }
      return rows.length;
    },
  };
}
export type House = ReturnType<typeof createHouse>;
export type { SessionRow };
