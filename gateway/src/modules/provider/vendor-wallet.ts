import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { ZVendorBetBody, ZVendorRollbackBody, ZVendorWinBody } from '@portal/contracts/api/vendor';
import { ERROR_MESSAGES, ERROR_STATUS } from '@portal/contracts/api/errors';
import { TRIAL_TYPE } from '@portal/contracts/domain/constants';
import { isTrialType } from '@portal/contracts/domain/member';
import { prepared, type Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { wakeRelays } from '../../bus/outbox.ts';
import { wakeBetStream } from '../engagement/bet-stream.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { SYSTEM_SHARDS, balanceOf } from '../wallet/ledger.ts';
import { merchantAudience } from '@portal/contracts/events/events';
import { maskName } from '@portal/contracts/domain/money';
import { emitEvent } from '../../bus/outbox.ts';
import { isBigWin } from '../house/house-service.ts';
import { ledgerTransfers } from '../../obs/metrics.ts';
import { currentRequestId, SAFE_REQUEST_ID } from '../../obs/request-id.ts';

const VENDOR_SOURCE = { source: 'vendor' } as const;
import { checkMoney } from '../rg/rg-service.ts';
import { winnerIcon } from '../games/winner-icons.ts';

/** How long a launched game's token lets the vendor take bets. Wins and rollbacks are accepted after it. */
export const GAME_SESSION_MS = 4 * 3600_000;
/** How long the one-time launch code in a launch URL may wait for the vendor to trade it. */
export const LAUNCH_CODE_MS = 60_000;

type Kind = 'bet' | 'win' | 'rollback';
export type MoneyValue = { transactionId: string; balance: number; currency: string; replayed: boolean };

const hashToken = (t: string) => createHash('sha256').update(t).digest();

/** The merchant calendar's GMT offset for RG periods (a stand-in merchant without a brand counts as UTC). */
const gmtOffsetOf = (m: Merchant): number => (m.brand as Merchant['brand'] | undefined)?.gmtOffsetMinutes ?? 0;

/** The member id a playerId names: digits only (' 5 ', '5.0', '0x5' and '5e0' named player 5). */
function memberIdOf(playerId: string): number {
  const id = /^[1-9]\d{0,15}$/.test(playerId) ? Number(playerId) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw new AppError(ErrorCode.USER_NOT_FOUND);
  return id;
}

/** The refusals vendor_money may store, with their status and message from the contracts' catalogue. */
const REFUSALS = JSON.stringify(Object.fromEntries(
  ([
    ErrorCode.USER_NOT_FOUND, ErrorCode.TRANSACTION_CONFLICT, ErrorCode.GAME_TOKEN_INVALID, ErrorCode.ACCOUNT_DISABLED, ErrorCode.TRIAL_FORBIDDEN,
    ErrorCode.BET_ROLLED_BACK, ErrorCode.BET_SETTLED, ErrorCode.BET_NOT_FOUND, ErrorCode.INSUFFICIENT_FUNDS, ErrorCode.IDEMPOTENCY_MISMATCH,
  ] as const).map((c) => [c, { status: ERROR_STATUS[c], message: ERROR_MESSAGES[c] }]),
));

const MONEY_SQL = prepared('SELECT o_http, o_response, o_events FROM vendor_money($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)');
/** A money call in one statement; a bet answers o_http 0 when the member's RG rules need the full check. */
const CALL_SQL = prepared('SELECT o_http, o_response, o_events FROM vendor_call($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)');

/** The current request's id for vendor_call to record with the call's outbox rows (null outside a request). */
const requestIdOrNull = (): string | null => {
  const id = currentRequestId();
  return id && SAFE_REQUEST_ID.test(id) ? id : null;
};

/**
 * The seamless wallet behind the vendor API. Each money call (bet, win, rollback) is one call of
 * vendor_money (migration 014, through vendor_call, 069) in its own transaction: its transaction id is written first (a
 * concurrent duplicate waits, then replays), the money moves on the ledger, and the answer is stored
 * with it, refusals included, so a replay gets the same answer. A bet and the rollback that names it
 * take the same advisory lock, so they cannot cross.
 */
export function createVendorWallet(db: Db) {
  async function money(
    call: Kind, m: Merchant, vendor: string,
    a: { txId: string; memberId: number; roundId: string; gameCode: string | null; amount: number; ref: string | null; token: string | undefined },
  ): Promise<MoneyValue> {
    const params = [call, m.code, m.currency, [TRIAL_TYPE, ...m.trialTypes], vendor, a.txId, a.memberId, a.roundId, a.gameCode, a.amount, a.ref,
      a.token === undefined ? null : hashToken(a.token), SYSTEM_SHARDS, REFUSALS];
    type Out = { o_http: number; o_response: Record<string, unknown>; o_events: number };
    // One statement (vendor_call, migration 069), carrying the request id for the call's events. A bet
    // passes the responsible-gaming check first; vendor_call does it at once when the member has no
    // exclusion and no wager or loss limit (nothing to lock or sum). Otherwise it writes nothing and
    // answers o_http 0, and the full check runs here, in the bet's transaction: exclusion, wager and
    // loss limits, the member's limit rows locked until the bet commits (concurrent bets serialized).
    // A replayed transaction id answers as before, without a new check.
    let r = (await db.query<Out>(CALL_SQL, [requestIdOrNull(), ...params])).rows[0]!;
    if (r.o_http === 0) {
      r = await db.tx(async (tx) => {
        const seen = await tx.query('SELECT 1 FROM vendor_transactions WHERE merchant_code = $1 AND vendor = $2 AND transaction_id = $3', [m.code, vendor, a.txId]);
        // Only a bet under the player's own game session is judged: with another player's token it is refused
        // below (GAME_TOKEN_INVALID), and must not learn whether that player is excluded (RG_EXCLUDED said so).
        const own = a.token !== undefined && (await tx.query('SELECT 1 FROM game_sessions WHERE token_hash = $1 AND merchant_code = $2 AND vendor = $3 AND member_id = $4',
          [hashToken(a.token), m.code, vendor, a.memberId])).rows.length > 0;
        if (!seen.rows.length && own) await checkMoney(tx, a.memberId, 'bet', a.amount, gmtOffsetOf(m));
        return (await tx.query<Out>(MONEY_SQL, params)).rows[0]!;
      });
    }
    // A call that went through may have listed a bet fact (bet_stream_pending): the bet stream drains it.
    if (r.o_http < 400) wakeBetStream();
    if (r.o_events > 0) {
      wakeRelays();
      // vendor_money committed a balance change: one ledger transfer (a replay or a refusal changes nothing).
      ledgerTransfers.inc(VENDOR_SOURCE);
    }
    if (r.o_http >= 400) {
      const e = r.o_response as { code: ErrorCode; message: string };
      throw new AppError(e.code, e.message);
    }
    return r.o_response as MoneyValue;
  }

  async function playerOf(m: Merchant, memberId: number) {
    const r = await db.query<{ id: number; nickname: string | null; account: string; status: string; type: number }>(
      'SELECT id, nickname, account, status, type FROM members WHERE id = $1 AND merchant_code = $2', [memberId, m.code]);
    const p = r.rows[0];
    if (!p) throw new AppError(ErrorCode.USER_NOT_FOUND);
    return p;
  }

  /**
   * A win of 20x the round's stake or more, or of ₱5,000 or more (another currency: at its demo rate), goes to the winner board: the row
   * and its winner.posted event in one transaction.
   */
  async function postBigWin(m: Merchant, vendor: string, memberId: number, roundId: string, gameCode: string, win: number) {
    const stake = Number((await db.query<{ stake: string | null }>(
      `SELECT sum(amount)::bigint AS stake FROM vendor_transactions
       WHERE merchant_code = $1 AND vendor = $2 AND round_id = $3 AND member_id = $4 AND kind = 'bet' AND status = 'applied'`,
      [m.code, vendor, roundId, memberId])).rows[0]?.stake ?? 0);
    if (!isBigWin(stake, win, m.currency)) return;
    await db.tx(async (tx) => {
      const p = (await tx.query<{ nickname: string | null; account: string }>('SELECT nickname, account FROM members WHERE id = $1', [memberId])).rows[0];
      const g = (await tx.query<{ game_name: string; icon_url: string | null }>(
        'SELECT game_name, icon_url FROM games WHERE merchant_code = $1 AND vassalage = $2 AND game_code = $3 LIMIT 1', [m.code, vendor, gameCode])).rows[0];
      const customerName = maskName(p?.nickname ?? p?.account ?? String(memberId));
      const gameName = g?.game_name ?? gameCode;
      // No icon on the vendor's row: the catalogue's for the name or code, so the live row shows what a reload would.
      const iconUrl = await winnerIcon(tx, m.code, gameName, g?.icon_url ?? null);
      const r = (await tx.query<{ id: number; at: Date | string }>(
        'INSERT INTO winners (merchant_code, customer_name, game_name, icon_url, win_amount) VALUES ($1, $2, $3, $4, $5) RETURNING id, at',
        [m.code, customerName, gameName, iconUrl, win])).rows[0]!;
      await emitEvent(tx, m.code, merchantAudience(m.code), 'winner.posted', {
        id: String(r.id), iconUrl, winAmount: win, gameName, customerName, at: new Date(r.at).toISOString(),
      });
    });
    wakeRelays();
  }

  return {
    /**
     * A game launch: a one-time launch code for the URL (kept hashed), bound to the member, the
     * portal session that launched (its token hash), the vendor and the game, valid LAUNCH_CODE_MS.
     */
    async openLaunch(m: Merchant, memberId: number, sessionHash: Buffer | null, vendor: string, gameCode: string): Promise<string> {
      const code = randomBytes(32).toString('base64url');
      // The member's codes that were never traded go first (they are dead anyway): the table stays small.
      await db.query(
        `WITH stale AS (DELETE FROM game_launches WHERE member_id = $3 AND expires_at < now())
         INSERT INTO game_launches (code_hash, merchant_code, member_id, vendor, game_code, session_hash, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
        [hashToken(code), m.code, memberId, vendor, gameCode, sessionHash, LAUNCH_CODE_MS / 1000],
      );
      return code;
    },

    /**
     * A launch code is traded, once, for a game session token (DELETE ... RETURNING: a second or
     * concurrent use finds nothing); a live game session token is checked again and returned as is.
     */
    async authenticate(m: Merchant, vendor: string, token: string) {
      const fresh = randomBytes(32).toString('base64url');
      const r = await db.query<{ member_id: number; game_code: string; traded: boolean }>(
        `WITH launch AS (
           DELETE FROM game_launches WHERE code_hash = $1 AND merchant_code = $2 AND vendor = $3 AND expires_at > now()
           RETURNING member_id, game_code, session_hash
         ), opened AS (
           INSERT INTO game_sessions (token_hash, merchant_code, member_id, vendor, game_code, session_hash, expires_at)
           -- Never beyond the absolute end of the portal session that launched it, nor beyond the player's
           -- session time limit (responsible gaming), which ends that session (SESSION_ALIVE): bets in a game
           -- left open went on past it. LEAST skips the NULL of a player without a limit.
           SELECT $4, $2, member_id, $3, game_code, session_hash,
                  LEAST(now() + make_interval(secs => $5), (
                    SELECT LEAST(ps.expires_at, ps.created_at + make_interval(mins => rg.session_limit_minutes))
                      FROM sessions ps LEFT JOIN rg_session_settings rg ON rg.member_id = ps.member_id
                     WHERE ps.token_hash = launch.session_hash))
           FROM launch
           RETURNING member_id, game_code
         )
         SELECT member_id, game_code, true AS traded FROM opened
         UNION ALL
         SELECT member_id, game_code, false FROM game_sessions
         WHERE token_hash = $1 AND merchant_code = $2 AND vendor = $3 AND expires_at > now() AND revoked_at IS NULL`,
        [hashToken(token), m.code, vendor, hashToken(fresh), GAME_SESSION_MS / 1000],
      );
      const s = r.rows[0];
      if (!s) throw new AppError(ErrorCode.GAME_TOKEN_INVALID);
      const p = await playerOf(m, s.member_id);
      if (p.status !== 'active') throw new AppError(ErrorCode.ACCOUNT_DISABLED);
      if (isTrialType(p.type, m.trialTypes)) throw new AppError(ErrorCode.TRIAL_FORBIDDEN);
      const b = await balanceOf(db, p.id, m.currency);
      return {
        playerId: String(p.id), currency: m.currency, balance: b.available, nickname: p.nickname ?? p.account,
        token: s.traded ? fresh : token, gameCode: s.game_code,
      };
    },

    /** With a token, it must be this player's live, unrevoked game session of this vendor. */
    async balance(m: Merchant, vendor: string, playerId: string, token: string | undefined) {
      const p = await playerOf(m, memberIdOf(playerId));
      if (token !== undefined) {
        const live = await db.query(
          'SELECT 1 FROM game_sessions WHERE token_hash = $1 AND merchant_code = $2 AND vendor = $3 AND member_id = $4 AND expires_at > now() AND revoked_at IS NULL',
          [hashToken(token), m.code, vendor, p.id],
        );
        if (!live.rows.length) throw new AppError(ErrorCode.GAME_TOKEN_INVALID);
      }
      const b = await balanceOf(db, p.id, m.currency);
      return { playerId: String(p.id), currency: m.currency, balance: b.available, nickname: p.nickname ?? p.account };
    },

    bet(m: Merchant, vendor: string, b: z.infer<typeof ZVendorBetBody>): Promise<MoneyValue> {
      return money('bet', m, vendor, { txId: b.transactionId, memberId: memberIdOf(b.playerId), roundId: b.roundId, gameCode: b.gameCode, amount: b.amount, ref: null, token: b.token });
    },

    /**
     * A win settles a bet the player placed in this round: without one it is refused (BET_NOT_FOUND;
     * ACCOUNT_DISABLED or TRIAL_FORBIDDEN for accounts that may not play real money). An expired or
     * revoked token is fine, another player's is not.
     */
    async win(m: Merchant, vendor: string, w: z.infer<typeof ZVendorWinBody>): Promise<MoneyValue> {
      const memberId = memberIdOf(w.playerId);
      const v = await money('win', m, vendor, { txId: w.transactionId, memberId, roundId: w.roundId, gameCode: w.gameCode, amount: w.amount, ref: null, token: w.token });
      // The house game server posts its own big wins; every other vendor's are posted here, once (a replay is not).
      if (vendor !== 'HOUSE' && !v.replayed && w.amount > 0) await postBigWin(m, vendor, memberId, w.roundId, w.gameCode, w.amount);
      return v;
    },

    /** Always returns the original amount of the bet; a rollback before its bet is remembered and the late bet refused. */
    rollback(m: Merchant, vendor: string, r: z.infer<typeof ZVendorRollbackBody>): Promise<MoneyValue> {
      return money('rollback', m, vendor, { txId: r.transactionId, memberId: memberIdOf(r.playerId), roundId: r.roundId, gameCode: null, amount: 0, ref: r.refTransactionId, token: r.token });
    },
  };
}
export type VendorWallet = ReturnType<typeof createVendorWallet>;
