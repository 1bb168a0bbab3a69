import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { ZVendorBetBody, ZVendorRollbackBody, ZVendorWinBody } from '@portal/contracts/api/vendor';
import { isTrialType } from '@portal/contracts/domain/member';
import type { Db, Tx } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { InsufficientFunds, balanceOf, transfer } from '../wallet/ledger.ts';

/** How long a launched game's token lets the vendor take bets. Wins and rollbacks are accepted after it. */
export const GAME_SESSION_MS = 4 * 3600_000;

type Kind = 'bet' | 'win' | 'rollback';
type Stored = { kind: Kind; member_id: number; round_id: string; amount: number; ref_transaction_id: string | null; status: string; response: Record<string, unknown>; http_status: number };
export type MoneyValue = { transactionId: string; balance: number; currency: string; replayed: boolean };

const hashToken = (t: string) => createHash('sha256').update(t).digest();

function memberIdOf(playerId: string): number {
  const id = Number(playerId);
  if (!Number.isSafeInteger(id) || id <= 0) throw new AppError(ErrorCode.USER_NOT_FOUND);
  return id;
}

/**
 * The seamless wallet behind the vendor API. Each money call runs in one transaction:
 * its transaction id is written first (a concurrent duplicate waits, then replays), the money moves
 * on the ledger, and the answer is stored with it, refusals included, so a replay gets the same answer.
 * A bet and the rollback that names it take the same advisory lock, so they cannot cross.
 */
export function createVendorWallet(db: Db) {
  async function lockPair(tx: Tx, m: Merchant, vendor: string, betTransactionId: string) {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${m.code}:${vendor}:${betTransactionId}`]);
  }

  /**
   * Record-first idempotency. Returns the stored answer for a replay (or throws the stored refusal);
   * otherwise runs `check` (refusals there wrote nothing but the row) and then `move` under a
   * savepoint (a refusal there, e.g. insufficient funds, is rolled back to it). Either way a refusal
   * is stored with the row and thrown; a success stores the answer with the balance in one statement.
   */
  async function once(
    m: Merchant, vendor: string, txId: string, row: { kind: Kind; memberId: number; roundId: string; gameCode: string | null; amount: number; ref: string | null },
    check: (tx: Tx) => Promise<void>,
    move: (tx: Tx) => Promise<void>,
  ): Promise<MoneyValue> {
    const outcome = await db.tx(async (tx) => {
      await lockPair(tx, m, vendor, row.kind === 'rollback' ? row.ref! : txId);
      const ins = await tx.query(
        `INSERT INTO vendor_transactions (merchant_code, vendor, transaction_id, kind, member_id, round_id, game_code, amount, ref_transaction_id, status, response)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'applied', '{}') ON CONFLICT DO NOTHING RETURNING transaction_id`,
        [m.code, vendor, txId, row.kind, row.memberId, row.roundId, row.gameCode, row.amount, row.ref],
      ).catch((err: { code?: string }) => {
        // No such player: nothing to record (the transaction is rolled back).
        if (err.code === '23503') throw new AppError(ErrorCode.USER_NOT_FOUND);
        throw err;
      });
      if (!ins.rows.length) {
        const prior = (await tx.query<Stored>(
          'SELECT kind, member_id, round_id, amount, ref_transaction_id, status, response, http_status FROM vendor_transactions WHERE merchant_code = $1 AND vendor = $2 AND transaction_id = $3',
          [m.code, vendor, txId],
        )).rows[0]!;
        const same = prior.kind === row.kind && prior.member_id === row.memberId && prior.round_id === row.roundId &&
          (row.kind === 'rollback' ? prior.ref_transaction_id === row.ref : prior.amount === row.amount);
        if (!same) return { error: new AppError(ErrorCode.TRANSACTION_CONFLICT) };
        if (prior.http_status >= 400) {
          const r = prior.response as { code: ErrorCode; message: string };
          return { error: new AppError(r.code, r.message) };
        }
        return { value: { ...(prior.response as MoneyValue), replayed: true } };
      }
      const refuse = async (err: unknown) => {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        await tx.query(
          `UPDATE vendor_transactions SET status = 'refused', response = $4, http_status = $5 WHERE merchant_code = $1 AND vendor = $2 AND transaction_id = $3`,
          [m.code, vendor, txId, JSON.stringify({ code: err.code, message: err.message }), err.status],
        );
        return { error: err };
      };
      try {
        await check(tx);
      } catch (err) {
        return refuse(err);
      }
      await tx.query('SAVEPOINT apply_money');
      try {
        await move(tx);
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        await tx.query('ROLLBACK TO SAVEPOINT apply_money');
        return refuse(err);
      }
      const saved = await tx.query<{ response: MoneyValue }>(
        `UPDATE vendor_transactions v SET response = jsonb_build_object(
           'transactionId', v.transaction_id, 'currency', $5::text, 'replayed', false,
           'balance', COALESCE((SELECT a.balance - a.held FROM ledger_accounts a WHERE a.member_id = $4 AND a.currency = $5), 0))
         WHERE v.merchant_code = $1 AND v.vendor = $2 AND v.transaction_id = $3 RETURNING v.response`,
        [m.code, vendor, txId, row.memberId, m.currency],
      );
      return { value: saved.rows[0]!.response };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  async function sessionOf(tx: Tx, m: Merchant, vendor: string, token: string | undefined, memberId: number, requireLive: boolean) {
    if (!token) {
      if (requireLive) throw new AppError(ErrorCode.GAME_TOKEN_INVALID);
      return null;
    }
    const r = await tx.query<{ member_id: number; live: boolean }>(
      'SELECT member_id, expires_at > now() AS live FROM game_sessions WHERE token_hash = $1 AND merchant_code = $2 AND vendor = $3',
      [hashToken(token), m.code, vendor],
    );
    const s = r.rows[0];
    if (!s || s.member_id !== memberId || (requireLive && !s.live)) throw new AppError(ErrorCode.GAME_TOKEN_INVALID);
    return s;
  }

  async function playerOf(m: Merchant, memberId: number) {
    const r = await db.query<{ id: number; nickname: string | null; account: string; status: string; type: number }>(
      'SELECT id, nickname, account, status, type FROM members WHERE id = $1 AND merchant_code = $2', [memberId, m.code]);
    const p = r.rows[0];
    if (!p) throw new AppError(ErrorCode.USER_NOT_FOUND);
    return p;
  }

  return {
    /** A game launch: a random opaque token for the vendor, kept hashed. */
    async openSession(m: Merchant, memberId: number, vendor: string, gameCode: string): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      await db.query(
        `INSERT INTO game_sessions (token_hash, merchant_code, member_id, vendor, game_code, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
        [hashToken(token), m.code, memberId, vendor, gameCode, GAME_SESSION_MS / 1000],
      );
      return token;
    },

    async authenticate(m: Merchant, vendor: string, token: string) {
      const r = await db.query<{ member_id: number }>(
        'SELECT member_id FROM game_sessions WHERE token_hash = $1 AND merchant_code = $2 AND vendor = $3 AND expires_at > now()',
        [hashToken(token), m.code, vendor],
      );
      const s = r.rows[0];
      if (!s) throw new AppError(ErrorCode.GAME_TOKEN_INVALID);
      const p = await playerOf(m, s.member_id);
      if (p.status !== 'active') throw new AppError(ErrorCode.ACCOUNT_DISABLED);
      const b = await balanceOf(db, p.id, m.currency);
      return { playerId: String(p.id), currency: m.currency, balance: b.available, nickname: p.nickname ?? p.account };
    },

    async balance(m: Merchant, playerId: string) {
      const p = await playerOf(m, memberIdOf(playerId));
      const b = await balanceOf(db, p.id, m.currency);
      return { playerId: String(p.id), currency: m.currency, balance: b.available, nickname: p.nickname ?? p.account };
    },

    async bet(m: Merchant, vendor: string, b: z.infer<typeof ZVendorBetBody>): Promise<MoneyValue> {
      const memberId = memberIdOf(b.playerId);
      return once(m, vendor, b.transactionId, { kind: 'bet', memberId, roundId: b.roundId, gameCode: b.gameCode, amount: b.amount, ref: null },
        async (tx) => {
          // One round trip: the live game session, the player's standing, and an earlier rollback of this bet.
          const r = await tx.query<{ session_member: number | null; live: boolean | null; status: string | null; type: number | null; marked: boolean }>(
            `SELECT (SELECT member_id FROM game_sessions WHERE token_hash = $1 AND merchant_code = $2 AND vendor = $3) AS session_member,
                    (SELECT expires_at > now() FROM game_sessions WHERE token_hash = $1 AND merchant_code = $2 AND vendor = $3) AS live,
                    m.status, m.type,
                    EXISTS (SELECT 1 FROM vendor_rollback_marks WHERE merchant_code = $2 AND vendor = $3 AND bet_transaction_id = $5) AS marked
             FROM (SELECT 1) one LEFT JOIN members m ON m.id = $4`,
            [hashToken(b.token), m.code, vendor, memberId, b.transactionId],
          );
          const c = r.rows[0]!;
          if (c.session_member !== memberId || !c.live) throw new AppError(ErrorCode.GAME_TOKEN_INVALID);
          if (c.status !== 'active') throw new AppError(ErrorCode.ACCOUNT_DISABLED);
          if (isTrialType(c.type ?? 0, m.trialTypes)) throw new AppError(ErrorCode.TRIAL_FORBIDDEN);
          if (c.marked) throw new AppError(ErrorCode.BET_ROLLED_BACK);
        },
        async (tx) => {
          try {
            await transfer(tx, {
              merchant: m.code, currency: m.currency, key: `vendor:${vendor}:${b.transactionId}`, kind: 'bet',
              debit: { member: memberId }, credit: { system: 'game' }, amount: b.amount,
              memo: { vendor, round: b.roundId, game: b.gameCode, ref: b.transactionId },
            });
          } catch (err) {
            if (err instanceof InsufficientFunds) throw new AppError(ErrorCode.INSUFFICIENT_FUNDS);
            throw err;
          }
        });
    },

    async win(m: Merchant, vendor: string, w: z.infer<typeof ZVendorWinBody>): Promise<MoneyValue> {
      const memberId = memberIdOf(w.playerId);
      await playerOf(m, memberId);
      return once(m, vendor, w.transactionId, { kind: 'win', memberId, roundId: w.roundId, gameCode: w.gameCode, amount: w.amount, ref: null },
        // A win settles a round that began under a live session: an expired token is fine, another player's is not.
        async (tx) => void (await sessionOf(tx, m, vendor, w.token, memberId, false)),
        async (tx) => {
          if (w.amount === 0) return;
          await transfer(tx, {
            merchant: m.code, currency: m.currency, key: `vendor:${vendor}:${w.transactionId}`, kind: 'win',
            debit: { system: 'game' }, credit: { member: memberId }, amount: w.amount,
            memo: { vendor, round: w.roundId, game: w.gameCode, ref: w.transactionId },
          });
        });
    },

    async rollback(m: Merchant, vendor: string, r: z.infer<typeof ZVendorRollbackBody>): Promise<MoneyValue> {
      const memberId = memberIdOf(r.playerId);
      await playerOf(m, memberId);
      let bet: { kind: Kind; member_id: number; amount: number; status: string } | undefined;
      return once(m, vendor, r.transactionId, { kind: 'rollback', memberId, roundId: r.roundId, gameCode: null, amount: 0, ref: r.refTransactionId },
        async (tx) => {
          bet = (await tx.query<{ kind: Kind; member_id: number; amount: number; status: string }>(
            'SELECT kind, member_id, amount, status FROM vendor_transactions WHERE merchant_code = $1 AND vendor = $2 AND transaction_id = $3 FOR UPDATE',
            [m.code, vendor, r.refTransactionId],
          )).rows[0];
          if (bet && (bet.kind !== 'bet' || bet.member_id !== memberId)) throw new AppError(ErrorCode.TRANSACTION_CONFLICT);
        },
        async (tx) => {
          if (!bet) {
            // Before its bet: remember it, so the bet is refused when it arrives.
            await tx.query(
              `INSERT INTO vendor_rollback_marks (merchant_code, vendor, bet_transaction_id, rollback_transaction_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
              [m.code, vendor, r.refTransactionId, r.transactionId],
            );
            return;
          }
          if (bet.status !== 'applied') return;
          // Always the original amount of the bet.
          await transfer(tx, {
            merchant: m.code, currency: m.currency, key: `vendor:${vendor}:rollback:${r.refTransactionId}`, kind: 'rollback',
            debit: { system: 'game' }, credit: { member: memberId }, amount: bet.amount,
            memo: { vendor, round: r.roundId, ref: r.refTransactionId, rollback: r.transactionId },
          });
          await tx.query(`UPDATE vendor_transactions SET status = 'rolled_back' WHERE merchant_code = $1 AND vendor = $2 AND transaction_id = $3`, [m.code, vendor, r.refTransactionId]);
        });
    },
  };
}
export type VendorWallet = ReturnType<typeof createVendorWallet>;
