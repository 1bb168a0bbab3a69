import {
  MAX_BANK_ACCOUNTS, WITHDRAWAL_TRANSITIONS, type TBankAccount, type TWithdrawal, type WithdrawalStatus,
} from '@portal/contracts/api/cashier';
import { userAudience } from '@portal/contracts/events/events';
import { currencyExponent, formatMinor } from '@portal/contracts/domain/money';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { ERROR_MESSAGES } from '@portal/contracts/api/errors';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { memberAccount, resolveHold, transfer } from '../wallet/ledger.ts';
import { postMessage } from '../wallet/messages.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import type { PasswordHasher } from '../auth/password-hasher.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { createPasswordGuard } from '../auth/password-guard.ts';
import { DAY_START_SQL, settingsOf } from './settings.ts';
import { iso } from '../../db/iso.ts';

export type WithdrawalRow = {
  id: number; merchant_code: string; member_id: number; request_id: string; bank_account_id: number; bank_name: string;
  account_name: string; account_number: string; amount: number; currency: string; status: WithdrawalStatus; hold_id: number;
  received_amount: number | null; reason: string | null; payout_reference: string | null; paid_at: Date | string | null;
  auto_receive_at: Date | string | null; confirmed_at: Date | string | null; created_at: Date | string; updated_at: Date | string;
  proof_count?: number;
};
type BankRow = { id: number; member_id: number; bank_name: string; account_name: string; account_number: string; created_at: Date | string };

export const maskAccount = (n: string) => `${'*'.repeat(Math.max(n.length - 4, 0))}${n.slice(-4)}`;


/**
 * Who holds a bank account among the merchant's players ($1 merchant, $2 bank name trimmed, $3 number,
 * $4 the member binding it, whose own row comes first): answered by the index member_bank_accounts_bound
 * (migration 083), not a read of every live account of the merchant.
 */
export const BANK_ACCOUNT_BOUND_SQL = `SELECT member_id FROM member_bank_accounts
  WHERE merchant_code = $1 AND lower(btrim(bank_name)) = lower($2) AND account_number = $3 AND removed_at IS NULL
  ORDER BY (member_id = $4) DESC LIMIT 1`;

export function toWithdrawal(r: WithdrawalRow): TWithdrawal {
  return {
    id: String(r.id), amount: r.amount, currency: r.currency, status: r.status, bankName: r.bank_name, accountName: r.account_name,
    accountNumber: maskAccount(r.account_number), receivedAmount: r.received_amount,
    remainingAmount: r.received_amount === null ? null : r.amount - r.received_amount, reason: r.reason,
    paidAt: iso(r.paid_at), autoReceiveAt: iso(r.auto_receive_at), confirmedAt: iso(r.confirmed_at), proofCount: r.proof_count ?? 0,
    createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!,
  };
}
const toBank = (r: BankRow): TBankAccount => ({
  id: String(r.id), bankName: r.bank_name, accountName: r.account_name, accountNumber: maskAccount(r.account_number), createdAt: iso(r.created_at)!,
});

export const WITHDRAWAL_SELECT = `SELECT w.*, (SELECT count(*)::int FROM withdrawal_proofs p WHERE p.withdrawal_id = w.id) AS proof_count FROM withdrawals w`;

/** The withdrawal event of the row's current state, in the caller's transaction (after its ledger work). */
export async function announceWithdrawal(tx: Tx, w: WithdrawalRow) {
  await emitEvent(tx, w.merchant_code, userAudience(w.member_id), 'withdrawal.updated', {
    withdrawalId: String(w.id), status: w.status, amount: w.amount, receivedAmount: w.received_amount, autoReceiveAt: iso(w.auto_receive_at),
  });
}

export type ProofFile = { contentType: 'image/png' | 'image/jpeg'; data: Buffer };

/**
 * Withdrawals: the hold is taken when requested; every later step is a guarded UPDATE from the
 * statuses WITHDRAWAL_TRANSITIONS allows, under the row's lock, then the ledger (void or post the
 * hold), then the event and message, all in one transaction.
 */
export function createWithdrawals(deps: { db: Db; hasher: PasswordHasher; limiter: RateLimiter; symbolOf(m: string): string }) {
  const { db, hasher, limiter } = deps;

  async function passwordHashes(q: Queryable, memberId: number) {
    const r = await q.query<{ password_hash: string | null; payment_password_hash: string | null }>(
      'SELECT password_hash, payment_password_hash FROM members WHERE id = $1', [memberId]);
    return r.rows[0] ?? { password_hash: null, payment_password_hash: null };
  }

  // The member's one budget of wrong passwords (auth/password-guard.ts): five misses in 15 minutes lock it.
  const guard = createPasswordGuard({ limiter, hasher });
  const checkPassword = guard.prove;

  /** The transaction password guards withdrawals, bank accounts and transfers; five misses lock it for 15 minutes. */
  async function verifyWithdrawPassword(memberId: number, password: string) {
    const h = await passwordHashes(db, memberId);
    if (!h.payment_password_hash) throw new AppError(ErrorCode.WITHDRAW_PASSWORD_NOT_SET);
    await checkPassword(memberId, h.payment_password_hash, password, ErrorCode.WITHDRAW_PASSWORD_WRONG);
  }

  async function hasWithdrawPassword(memberId: number) {
    return !!(await passwordHashes(db, memberId)).payment_password_hash;
  }

  /** Set it the first time with the login password, or change it with the old one. */
  async function setWithdrawPassword(memberId: number, b: { loginPassword?: string | undefined; oldWithdrawPassword?: string | undefined; newWithdrawPassword: string; confirmNewWithdrawPassword: string }) {
    if (b.newWithdrawPassword !== b.confirmNewWithdrawPassword) throw new AppError(ErrorCode.PASSWORD_MISMATCH);
    const h = await passwordHashes(db, memberId);
    if (h.payment_password_hash) {
      // Already set: a change is proven with the old one. A request without it (a first set's form sent
      // again) is told so, not counted as a wrong guess against the five-miss lock.
      if (b.oldWithdrawPassword === undefined) {
        throw new AppError(ErrorCode.VALIDATION, 'The transaction password is already set: send the old one to change it', [{ path: 'oldWithdrawPassword', message: 'required' }]);
      }
      await checkPassword(memberId, h.payment_password_hash, b.oldWithdrawPassword, ErrorCode.WITHDRAW_PASSWORD_WRONG);
      // Proven: the same one again changes nothing (the login password refuses it too).
      if (b.newWithdrawPassword === b.oldWithdrawPassword) {
        throw new AppError(ErrorCode.PASSWORD_UNCHANGED, undefined, [{ path: 'newWithdrawPassword', message: ERROR_MESSAGES.PASSWORD_UNCHANGED }]);
      }
    } else await checkPassword(memberId, h.password_hash, b.loginPassword ?? '', ErrorCode.OLD_PASSWORD_WRONG);
    // The transaction password guards withdrawals, bank accounts and redeems: one the login password also
    // opens guards nothing (the card says "keep it different from your login password"). A first set was
    // just proven with the login password itself, so comparing with it is enough; a change is proven with
    // the old transaction password, so the login password's hash is asked.
    const sameAsLogin = h.payment_password_hash
      // a guess of the login password, which this request did not prove: counted (password-guard.ts)
      ? await guard.matches(memberId, h.password_hash, b.newWithdrawPassword)
      : b.loginPassword === b.newWithdrawPassword;
    if (sameAsLogin) {
      throw new AppError(ErrorCode.PASSWORDS_MUST_DIFFER, undefined, [{ path: 'newWithdrawPassword', message: ERROR_MESSAGES.PASSWORDS_MUST_DIFFER }]);
    }
    const next = await hasher.hash(b.newWithdrawPassword);
    // Guarded by the hash read above, so two concurrent first-time sets cannot both win.
    const r = await db.query('UPDATE members SET payment_password_hash = $2 WHERE id = $1 AND payment_password_hash IS NOT DISTINCT FROM $3', [memberId, next, h.payment_password_hash]);
    if (r.rowCount === 0) throw new AppError(ErrorCode.CONFLICT);
    return { isSet: true as const };
  }

  async function bankAccounts(memberId: number) {
    const r = await db.query<BankRow>('SELECT * FROM member_bank_accounts WHERE member_id = $1 AND removed_at IS NULL ORDER BY id', [memberId]);
    return r.rows.map(toBank);
  }

  async function addBankAccount(merchant: Merchant, memberId: number, b: { bankName: string; accountName: string; accountNumber: string; withdrawPassword: string }) {
    await verifyWithdrawPassword(memberId, b.withdrawPassword);
    return db.tx(async (tx) => {
      // Serialise this member's additions so the cap holds under concurrency.
      await tx.query('SELECT id FROM members WHERE id = $1 FOR UPDATE', [memberId]);
      const n = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM member_bank_accounts WHERE member_id = $1 AND removed_at IS NULL', [memberId]);
      if (n.rows[0]!.n >= MAX_BANK_ACCOUNTS) throw new AppError(ErrorCode.BANK_ACCOUNT_LIMIT);
      // One account, one player: the same bank (its name without case or spaces around it) and number
      // bound by this member already, or by another player of the merchant, is refused ('BDO' and 'bdo '
      // were two accounts; a second player could bind the first one's). Bindings of one account are
      // serialised across members by a lock on it, so two players binding it at once cannot both win.
      const bank = b.bankName.trim();
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`bank:${merchant.code}:${bank.toLowerCase()}:${b.accountNumber}`]);
      const bound = await tx.query<{ member_id: number }>(BANK_ACCOUNT_BOUND_SQL, [merchant.code, bank, b.accountNumber, memberId]);
      if (bound.rows[0]) throw new AppError(Number(bound.rows[0].member_id) === memberId ? ErrorCode.BANK_ACCOUNT_EXISTS : ErrorCode.BANK_ACCOUNT_TAKEN);
      const r = await tx.query<BankRow>(
        `INSERT INTO member_bank_accounts (merchant_code, member_id, bank_name, account_name, account_number) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (member_id, bank_name, account_number) WHERE removed_at IS NULL DO NOTHING RETURNING *`,
        [merchant.code, memberId, bank, b.accountName, b.accountNumber],
      );
      if (!r.rows[0]) throw new AppError(ErrorCode.BANK_ACCOUNT_EXISTS);
      return toBank(r.rows[0]);
    });
  }

  async function removeBankAccount(memberId: number, id: number) {
    const r = await db.query('UPDATE member_bank_accounts SET removed_at = now() WHERE id = $1 AND member_id = $2 AND removed_at IS NULL', [id, memberId]);
    if (r.rowCount === 0) throw new AppError(ErrorCode.NOT_FOUND);
  }

  async function usedToday(q: Queryable, merchant: Merchant, memberId: number) {
    const r = await q.query<{ s: number }>(
      `SELECT COALESCE(sum(amount), 0)::bigint AS s FROM withdrawals
       WHERE member_id = $1 AND status <> 'rejected' AND created_at >= ${DAY_START_SQL('$2')}`,
      [memberId, merchant.brand.gmtOffsetMinutes],
    );
    return Number(r.rows[0]!.s);
  }

  async function limits(merchant: Merchant, memberId: number) {
    const s = await settingsOf(db, merchant.code);
    return {
      currency: merchant.currency, min: s.withdrawMin, max: s.withdrawMax, dailyMax: s.withdrawDailyMax,
      usedToday: await usedToday(db, merchant, memberId), autoReceiveMinutes: s.autoReceiveMinutes, hasWithdrawPassword: await hasWithdrawPassword(memberId),
    };
  }

  async function byRequest(q: Queryable, memberId: number, requestId: string) {
    return (await q.query<WithdrawalRow>(`${WITHDRAWAL_SELECT} WHERE w.member_id = $1 AND w.request_id = $2`, [memberId, requestId])).rows[0] ?? null;
  }

  /** Request a withdrawal: limits, then a hold on the member's funds. The same requestId applies once. */
  async function request(merchant: Merchant, memberId: number, b: { bankAccountId: string; amount: number; withdrawPassword: string; requestId: string }) {
    const same = (w: WithdrawalRow) => {
      if (w.amount !== b.amount || String(w.bank_account_id) !== b.bankAccountId) throw new AppError(ErrorCode.IDEMPOTENCY_MISMATCH);
      return toWithdrawal(w);
    };
    const prior = await byRequest(db, memberId, b.requestId);
    if (prior) return same(prior);
    await verifyWithdrawPassword(memberId, b.withdrawPassword);
    const s = await settingsOf(db, merchant.code);
    if (b.amount < s.withdrawMin || b.amount > s.withdrawMax) throw new AppError(ErrorCode.AMOUNT_OUT_OF_RANGE, undefined, undefined, { min: s.withdrawMin, max: s.withdrawMax });
    return db.tx(async (tx) => {
      // One request at a time per member: the account row is the lock (the hold takes it anyway).
      const account = await memberAccount(tx, merchant.code, memberId, merchant.currency);
      await tx.query('SELECT id FROM ledger_accounts WHERE id = $1 FOR UPDATE', [account]);
      const twin = await byRequest(tx, memberId, b.requestId);
      if (twin) return same(twin);
      const bank = (await tx.query<BankRow>('SELECT * FROM member_bank_accounts WHERE id = $1 AND member_id = $2 AND removed_at IS NULL', [Number(b.bankAccountId), memberId])).rows[0];
      if (!bank) throw new AppError(ErrorCode.NOT_FOUND, 'Bank account not found');
      const used = await usedToday(tx, merchant, memberId);
      if (used + b.amount > s.withdrawDailyMax) throw new AppError(ErrorCode.DAILY_LIMIT_EXCEEDED, undefined, undefined, { dailyMax: s.withdrawDailyMax, usedToday: used });
      const hold = await transfer(tx, {
        merchant: merchant.code, currency: merchant.currency, key: `withdrawal:${memberId}:${b.requestId}`, kind: 'withdrawal',
        debit: { member: memberId }, credit: { system: 'withdrawal' }, amount: b.amount, pending: true, memo: { requestId: b.requestId },
      });
      const r = await tx.query<WithdrawalRow>(
        `INSERT INTO withdrawals (merchant_code, member_id, request_id, bank_account_id, bank_name, account_name, account_number, amount, currency, hold_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *, 0 AS proof_count`,
        [merchant.code, memberId, b.requestId, bank.id, bank.bank_name, bank.account_name, bank.account_number, b.amount, merchant.currency, hold.transferId],
      );
      const w = r.rows[0]!;
      await announceWithdrawal(tx, w);
      return toWithdrawal(w);
    });
  }

  async function list(memberId: number, pageNo: number, pageSize: number) {
    const r = await db.query<WithdrawalRow & { total: number }>(
      `SELECT w.*, (SELECT count(*)::int FROM withdrawal_proofs p WHERE p.withdrawal_id = w.id) AS proof_count, count(*) OVER ()::int AS total
       FROM withdrawals w WHERE w.member_id = $1 ORDER BY w.id DESC LIMIT $2 OFFSET $3`,
      [memberId, pageSize, (pageNo - 1) * pageSize],
    );
    const total = r.rows[0]?.total ?? (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM withdrawals WHERE member_id = $1', [memberId])).rows[0]!.n;
    return { list: r.rows.map(toWithdrawal), pageNo, pageSize, total };
  }

  async function get(memberId: number, id: number) {
    const r = await db.query<WithdrawalRow>(`${WITHDRAWAL_SELECT} WHERE w.id = $1 AND w.member_id = $2`, [id, memberId]);
    if (!r.rows[0]) throw new AppError(ErrorCode.NOT_FOUND);
    return toWithdrawal(r.rows[0]);
  }

  /** `from`: the statuses this action starts from (a subset of what the transition table allows). */
  type Step = { to: WithdrawalStatus; from?: readonly WithdrawalStatus[]; reason?: string | null; payoutReference?: string | null };

  /**
   * Move a withdrawal along a legal transition inside the caller's transaction. The UPDATE is
   * guarded by the current status (and the transition table), so two operators racing get one
   * change; repeating a move that already happened is a replay (`changed: false`).
   */
  async function move(tx: Tx, where: { merchant: string; id: number; memberId?: number }, step: Step) {
    const cur = (await tx.query<WithdrawalRow>(
      `${WITHDRAWAL_SELECT} WHERE w.id = $1 AND w.merchant_code = $2 ${where.memberId ? 'AND w.member_id = $3' : ''} FOR UPDATE OF w`,
      where.memberId ? [where.id, where.merchant, where.memberId] : [where.id, where.merchant],
    )).rows[0];
    if (!cur) throw new AppError(ErrorCode.NOT_FOUND);
    if (cur.status === step.to) {
      // A replay with other details (a second "paid" naming another payout reference) changed nothing:
      // answered as such, not with a success that drops what the operator typed.
      // An empty text is no text: a repeat with "" changes nothing either.
      const given = (v: string | null | undefined) => (v == null || v.trim() === '' ? null : v);
      const differs = (given(step.payoutReference) !== null && given(step.payoutReference) !== cur.payout_reference)
        || (given(step.reason) !== null && given(step.reason) !== cur.reason);
      if (differs) throw new AppError(ErrorCode.IDEMPOTENCY_MISMATCH, 'This withdrawal is already in that status with other details', undefined, { status: cur.status });
      return { before: cur, after: cur, changed: false };
    }
    const legal = WITHDRAWAL_TRANSITIONS[cur.status].includes(step.to) && (!step.from || step.from.includes(cur.status));
    if (!legal) throw new AppError(ErrorCode.INVALID_STATE, undefined, undefined, { status: cur.status });
    // Ledger first (lock order: accounts before audience rows).
    if (step.to === 'rejected') await resolveHold(tx, cur.merchant_code, cur.currency, cur.hold_id, 'void');
    if (step.to === 'paid') await resolveHold(tx, cur.merchant_code, cur.currency, cur.hold_id, 'post');
    const minutes = step.to === 'paid' ? (await settingsOf(tx, cur.merchant_code)).autoReceiveMinutes : 0;
    const r = await tx.query<WithdrawalRow>(
      `UPDATE withdrawals SET status = $3, updated_at = now(),
         reason = COALESCE($4, reason),
         payout_reference = COALESCE($5, payout_reference),
         paid_at = CASE WHEN $3 = 'paid' THEN now() ELSE paid_at END,
         auto_receive_at = CASE WHEN $3 = 'paid' THEN now() + make_interval(mins => $6) ELSE auto_receive_at END
       WHERE id = $1 AND status = $2 AND $3 = ANY($7::text[]) RETURNING *`,
      [cur.id, cur.status, step.to, step.reason ?? null, step.payoutReference ?? null, minutes, WITHDRAWAL_TRANSITIONS[cur.status]],
    );
    const after = { ...r.rows[0]!, proof_count: cur.proof_count ?? 0 };
    await announceWithdrawal(tx, after);
    // In the withdrawal's own currency: its sign and decimals ('₱1,000.00', '₫1,000,000').
    const amount = formatMinor(cur.amount, deps.symbolOf(cur.merchant_code), currencyExponent(cur.currency));
    if (step.to === 'approved') await postMessage(tx, cur.merchant_code, cur.member_id, 'withdrawal_approved', { amount, reference: `W${cur.id}` });
    if (step.to === 'rejected') await postMessage(tx, cur.merchant_code, cur.member_id, 'withdrawal_rejected', { amount, reference: `W${cur.id}`, ...(step.reason ? { reason: step.reason } : {}) });
    return { before: cur, after, changed: true };
  }

  /**
   * The player's confirmation of a paid withdrawal. Not received and partially received need a
   * proof; a confirmation is final (the same confirmation again is a replay).
   */
  async function confirm(memberId: number, id: number, c: { result: 'received' | 'not_received' | 'partially_received'; receivedAmount?: number | undefined }, proofs: ProofFile[]) {
    if (c.result !== 'received' && proofs.length === 0) throw new AppError(ErrorCode.PROOF_REQUIRED);
    return db.tx(async (tx) => {
      const cur = (await tx.query<WithdrawalRow>(`${WITHDRAWAL_SELECT} WHERE w.id = $1 AND w.member_id = $2 FOR UPDATE OF w`, [id, memberId])).rows[0];
      if (!cur) throw new AppError(ErrorCode.NOT_FOUND);
      if (cur.status === c.result) return toWithdrawal(cur);
      if (cur.status !== 'paid') throw new AppError(ErrorCode.INVALID_STATE, undefined, undefined, { status: cur.status });
      let received = cur.amount;
      if (c.result === 'not_received') received = 0;
      if (c.result === 'partially_received') {
        received = c.receivedAmount ?? -1;
        if (!(received > 0 && received < cur.amount)) {
          throw new AppError(ErrorCode.VALIDATION, 'The received amount must be more than 0 and less than the withdrawal', [{ path: 'receivedAmount', message: 'out of range' }]);
        }
      }
      const r = await tx.query<WithdrawalRow>(
        `UPDATE withdrawals SET status = $3, received_amount = $4, confirmed_at = now(), updated_at = now()
         WHERE id = $1 AND status = 'paid' AND member_id = $2 RETURNING *`,
        [cur.id, memberId, c.result, received],
      );
      for (const p of proofs) {
        await tx.query('INSERT INTO withdrawal_proofs (withdrawal_id, content_type, size, data) VALUES ($1, $2, $3, $4)', [cur.id, p.contentType, p.data.length, p.data]);
      }
      const after = { ...r.rows[0]!, proof_count: (cur.proof_count ?? 0) + proofs.length };
      await announceWithdrawal(tx, after);
      return toWithdrawal(after);
    });
  }

  /**
   * The auto-receive job: paid withdrawals unconfirmed past their time count as received. Due rows
   * are claimed with FOR UPDATE SKIP LOCKED, so several gateway nodes share the work without
   * double-processing, and a player's confirmation racing the job is either first or sees auto_received.
   */
  async function runAutoReceive(batch = 100): Promise<number> {
    return db.tx(async (tx) => {
      const r = await tx.query<WithdrawalRow>(
        `UPDATE withdrawals SET status = 'auto_received', received_amount = amount, confirmed_at = now(), updated_at = now()
         WHERE id IN (SELECT id FROM withdrawals WHERE status = 'paid' AND auto_receive_at <= now()
                      ORDER BY auto_receive_at LIMIT $1 FOR UPDATE SKIP LOCKED)
           AND status = 'paid'
         RETURNING *`,
        [batch],
      );
      for (const w of r.rows) await announceWithdrawal(tx, w);
      return r.rows.length;
    });
  }

  async function proof(merchant: string, id: number, n: number) {
    const r = await db.query<{ content_type: string; data: Buffer | Uint8Array }>(
      `SELECT p.content_type, p.data FROM withdrawal_proofs p JOIN withdrawals w ON w.id = p.withdrawal_id
       WHERE w.id = $1 AND w.merchant_code = $2 ORDER BY p.id OFFSET $3 LIMIT 1`,
      [id, merchant, n],
    );
    return r.rows[0] ?? null;
  }

  return {
    verifyWithdrawPassword, hasWithdrawPassword, setWithdrawPassword, bankAccounts, addBankAccount, removeBankAccount,
    limits, request, list, get, move, confirm, runAutoReceive, proof,
  };
}
export type Withdrawals = ReturnType<typeof createWithdrawals>;
