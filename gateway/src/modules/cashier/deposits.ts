import { randomBytes } from 'node:crypto';
import { DEPOSIT_ORDER_TTL_MINUTES, DEPOSIT_TRANSITIONS, type DepositStatus, type TDeposit, type TPaymentChannel } from '@portal/contracts/api/cashier';
import { currencyExponent, formatMinor } from '@portal/contracts/domain/money';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { transfer } from '../wallet/ledger.ts';
import { postMessage } from '../wallet/messages.ts';
import { checkMoney } from '../rg/rg-service.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { ensureChannels, manualBankOf, settingsOf } from './settings.ts';
import type { PaymentNotification, PaymentProvider } from './payment-provider.ts';
import { iso } from '../../db/iso.ts';

export type DepositRow = {
  id: number; merchant_code: string; member_id: number; channel_code: string; provider: string; provider_order_id: string;
  reference: string; pay_url: string | null; request_id: string; amount: number; currency: string; status: DepositStatus;
  payer_reference: string | null; failure_reason: string | null; transfer_id: number | null;
  created_at: Date | string; updated_at: Date | string;
};
type ChannelRow = {
  code: string; kind: TPaymentChannel['kind']; provider: string; name: string; min_amount: number; max_amount: number;
  details: { bankName?: string; accountName?: string; accountNumber?: string }; active: boolean;
};


export function toDeposit(r: DepositRow): TDeposit {
  return {
    id: String(r.id), channelCode: r.channel_code, provider: r.provider, amount: r.amount, currency: r.currency, status: r.status,
    payUrl: r.status === 'pending' || r.status === 'failed' ? r.pay_url : null, reference: r.reference, payerReference: r.payer_reference,
    reason: r.status === 'rejected' ? r.failure_reason : null,
    createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!,
  };
}

export type ApplyOutcome = 'credited' | 'failed' | 'duplicate' | 'ignored';

/**
 * Deposits: an order on a channel, credited exactly once. The ledger key of a credit is
 * `deposit:{provider}:{providerOrderId}`, and every status change is a guarded UPDATE along
 * DEPOSIT_TRANSITIONS under the order's row lock, so duplicate and out-of-order callbacks are harmless.
 */
export function createDeposits(deps: { db: Db; providers: Map<string, PaymentProvider>; symbolOf(m: string): string; demoBank?: boolean }) {
  const { db, providers } = deps;
  /** Whether a manual bank channel may start with (and show) the demo seed's made-up account. */
  const demoBank = deps.demoBank ?? false;
  const bankOpts = { demoBank };
  /** Steps that run in the transaction that marks a deposit paid (the first deposit bonus): exactly once with the credit. */
  const paidHooks: Array<(tx: Tx, d: DepositRow) => Promise<void>> = [];

  async function channels(merchant: Merchant): Promise<TPaymentChannel[]> {
    await ensureChannels(db, merchant.code, bankOpts);
    const r = await db.query<ChannelRow>('SELECT * FROM payment_channels WHERE merchant_code = $1 AND active ORDER BY sort, code', [merchant.code]);
    // The range a deposit must fall in is the channel's within the merchant's cashier limits (create() refuses
    // outside it): the page shows that one, not the channel's own (which said "Max 500,000" where 50,000 held).
    const s = await settingsOf(db, merchant.code);
    return r.rows
      // A manual bank deposit needs an account to send to: without one set on /ops/settings it is not offered.
      .filter((c) => (c.provider === 'manual' ? manualBankOf(c.details, bankOpts) !== null : providers.has(c.provider)))
      .map((c) => ({
        code: c.code, kind: c.kind, provider: c.provider, name: c.name,
        minAmount: Math.max(c.min_amount, s.depositMin), maxAmount: Math.min(c.max_amount, s.depositMax),
        bankDetails: c.provider === 'manual' ? manualBankOf(c.details, bankOpts) : null,
      }))
      // No amount fits: the channel cannot take a deposit under these limits.
      .filter((c) => c.minAmount <= c.maxAmount);
  }

  async function byRequest(q: Queryable, memberId: number, requestId: string) {
    return (await q.query<DepositRow>('SELECT * FROM deposits WHERE member_id = $1 AND request_id = $2', [memberId, requestId])).rows[0] ?? null;
  }

  function sameTerms(d: DepositRow, b: { channelCode: string; amount: number }) {
    if (d.channel_code !== b.channelCode || d.amount !== b.amount) throw new AppError(ErrorCode.IDEMPOTENCY_MISMATCH);
    return toDeposit(d);
  }

  async function create(merchant: Merchant, memberId: number, b: { channelCode: string; amount: number; requestId: string; payerReference?: string | undefined }, returnUrl: string): Promise<TDeposit> {
    const prior = await byRequest(db, memberId, b.requestId);
    if (prior) return sameTerms(prior, b);
    const channel = (await channels(merchant)).find((c) => c.code === b.channelCode.toUpperCase());
    if (!channel) throw new AppError(ErrorCode.NOT_AVAILABLE, 'Unknown or closed payment channel');
    const min = channel.minAmount;
    const max = channel.maxAmount;
    if (b.amount < min || b.amount > max) throw new AppError(ErrorCode.AMOUNT_OUT_OF_RANGE, undefined, undefined, { min, max });
    // The payer's own transfer reference belongs to a manual bank deposit (an operator matches it); a
    // provider's channel has its own order and never shows it.
    if (b.payerReference && channel.provider !== 'manual') {
      throw new AppError(ErrorCode.VALIDATION, 'A payer reference is for a bank transfer deposit only', [{ path: 'payerReference', message: 'not for this channel' }]);
    }
    // Responsible gaming: an excluded player cannot deposit; the deposit limits (paid and pending deposits of the period) must fit.
    // Checked first so a refused deposit creates no provider order; checked again (locked) with the insert.
    await db.tx((tx) => checkMoney(tx, memberId, 'deposit', b.amount, merchant.brand.gmtOffsetMinutes));
    const reference = `D${randomBytes(8).toString('hex').toUpperCase()}`;
    let providerOrderId = reference;
    let payUrl: string | null = null;
    if (channel.provider !== 'manual') {
      const provider = providers.get(channel.provider);
      if (!provider) throw new AppError(ErrorCode.NOT_AVAILABLE);
      const order = await provider.createOrder({ merchantOrderId: reference, amount: b.amount, currency: merchant.currency, channel: channel.name, returnUrl });
      providerOrderId = order.providerOrderId;
      payUrl = order.payUrl;
    }
    // The RG check again, in the insert's own transaction: checkMoney locks the member's deposit-limit
    // rows (FOR UPDATE) before summing the period's deposits, so two deposits at once are serialized
    // here and the second one sees the first; together they cannot pass a limit only one fits.
    const r = await db.tx(async (tx) => {
      try {
        await checkMoney(tx, memberId, 'deposit', b.amount, merchant.brand.gmtOffsetMinutes);
      } catch (err) {
        // A concurrent twin (same requestId) committed first: its order is the answer, not a refusal.
        if (await byRequest(tx, memberId, b.requestId)) return { rows: [] as DepositRow[] };
        throw err;
      }
      return tx.query<DepositRow>(
        `INSERT INTO deposits (merchant_code, member_id, channel_code, provider, provider_order_id, reference, pay_url, request_id, amount, currency, payer_reference)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (member_id, request_id) DO NOTHING RETURNING *`,
        [merchant.code, memberId, channel.code, channel.provider, providerOrderId, reference, payUrl, b.requestId, b.amount, merchant.currency, b.payerReference ?? null],
      );
    });
    if (r.rows[0]) return toDeposit(r.rows[0]);
    // A concurrent twin won the insert: answer with its order (this provider order stays unused).
    return sameTerms((await byRequest(db, memberId, b.requestId))!, b);
  }

  async function list(memberId: number, pageNo: number, pageSize: number) {
    const r = await db.query<DepositRow & { total: number }>(
      'SELECT *, count(*) OVER ()::int AS total FROM deposits WHERE member_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3',
      [memberId, pageSize, (pageNo - 1) * pageSize],
    );
    return { list: r.rows.map(toDeposit), pageNo, pageSize, total: r.rows[0]?.total ?? (await countOf(memberId)) };
  }
  async function countOf(memberId: number) {
    return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM deposits WHERE member_id = $1', [memberId])).rows[0]!.n;
  }

  async function get(memberId: number, id: number) {
    const r = await db.query<DepositRow>('SELECT * FROM deposits WHERE id = $1 AND member_id = $2', [id, memberId]);
    if (!r.rows[0]) throw new AppError(ErrorCode.NOT_FOUND);
    return toDeposit(r.rows[0]);
  }

  /** A deposit's amount as its messages say it, in its own currency: sign and decimals ('₱1,000.00', '₫1,000,000'). */
  const amountText = (d: DepositRow) => formatMinor(d.amount, deps.symbolOf(d.merchant_code), currencyExponent(d.currency));

  /**
   * Move a locked deposit to `to` if DEPOSIT_TRANSITIONS allows it: credit on paid (ledger first,
   * then the status, then the message), message on failed. Returns null when the move is not legal.
   */
  async function move(tx: Tx, d: DepositRow, to: DepositStatus, reason: string | null): Promise<DepositRow | null> {
    if (!DEPOSIT_TRANSITIONS[d.status].includes(to)) return null;
    let transferId: number | null = null;
    if (to === 'paid') {
      const t = await transfer(tx, {
        merchant: d.merchant_code, currency: d.currency, key: `deposit:${d.provider}:${d.provider_order_id}`, kind: 'deposit',
        debit: { system: 'deposit' }, credit: { member: d.member_id }, amount: d.amount, memo: { ref: d.reference, depositId: d.id },
      });
      transferId = t.transferId;
    }
    const r = await tx.query<DepositRow>(
      `UPDATE deposits SET status = $3, transfer_id = COALESCE($4, transfer_id), failure_reason = COALESCE($5, failure_reason), updated_at = now()
       WHERE id = $1 AND status = $2 RETURNING *`,
      [d.id, d.status, to, transferId, reason],
    );
    const row = r.rows[0];
    if (!row) return null;
    const amount = amountText(d);
    if (to === 'paid') {
      await postMessage(tx, d.merchant_code, d.member_id, 'deposit_credited', { amount, reference: d.reference });
      for (const hook of paidHooks) await hook(tx, row);
    }
    else if (d.status === 'pending') await postMessage(tx, d.merchant_code, d.member_id, 'deposit_failed', { amount, reference: d.reference });
    return row;
  }

  /** A verified provider notification: credit once; duplicates and stale outcomes change nothing. */
  async function applyNotification(provider: string, n: PaymentNotification): Promise<{ outcome: ApplyOutcome; deposit: DepositRow }> {
    return db.tx(async (tx) => {
      const d = (await tx.query<DepositRow>('SELECT * FROM deposits WHERE provider = $1 AND provider_order_id = $2 FOR UPDATE', [provider, n.providerOrderId])).rows[0];
      if (!d) throw new AppError(ErrorCode.NOT_FOUND, 'Unknown order');
      if (d.reference !== n.merchantOrderId || d.amount !== n.amount || d.currency !== n.currency) {
        throw new AppError(ErrorCode.CONFLICT, 'Notification does not match the order');
      }
      if (d.status === n.status) return { outcome: 'duplicate', deposit: d };
      const moved = await move(tx, d, n.status, n.status === 'failed' ? 'provider reported failure' : null);
      if (!moved) return { outcome: 'ignored', deposit: d };
      return { outcome: n.status === 'paid' ? 'credited' : 'failed', deposit: moved };
    });
  }

  /** Operator decision on a pending manual deposit, inside the operator's transaction (audit alongside). */
  async function decideManual(tx: Tx, merchant: string, id: number, to: 'paid' | 'rejected', reason: string | null) {
    const d = (await tx.query<DepositRow>('SELECT * FROM deposits WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, merchant])).rows[0];
    if (!d) throw new AppError(ErrorCode.NOT_FOUND);
    if (d.provider !== 'manual') throw new AppError(ErrorCode.INVALID_STATE, 'Only manual deposits are decided by an operator', undefined, { status: d.status });
    if (d.status === to) return { before: d, after: d, changed: false };
    const moved = await move(tx, d, to, reason);
    if (!moved) throw new AppError(ErrorCode.INVALID_STATE, undefined, undefined, { status: d.status });
    return { before: d, after: moved, changed: true };
  }

  /** Register a step to run inside the transaction that marks a deposit paid (after the credit and its message). */
  function onPaid(hook: (tx: Tx, d: DepositRow) => Promise<void>) {
    paidHooks.push(hook);
  }

  /**
   * The expiry job: a payment provider's order still pending DEPOSIT_ORDER_TTL_MINUTES after it was made
   * becomes expired, with a message to the player (their list refreshes on it). Due rows are claimed with
   * FOR UPDATE SKIP LOCKED, so nodes share the work, and a provider's notification racing the job is either
   * first (paid) or finds the order expired (a late 'paid' still credits it). Manual bank deposits wait for
   * their operator.
   */
  async function runExpire(batch = 100): Promise<number> {
    return db.tx(async (tx) => {
      const r = await tx.query<DepositRow>(
        `UPDATE deposits SET status = 'expired', updated_at = now()
         WHERE id IN (SELECT id FROM deposits WHERE status = 'pending' AND provider <> 'manual'
                        AND created_at <= now() - make_interval(mins => $2)
                      ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
           AND status = 'pending'
         RETURNING *`,
        [batch, DEPOSIT_ORDER_TTL_MINUTES],
      );
      for (const d of r.rows) {
        await postMessage(tx, d.merchant_code, d.member_id, 'deposit_expired', { amount: amountText(d), reference: d.reference });
      }
      return r.rows.length;
    });
  }

  /**
   * Orders still pending a minute after they were made are asked of their provider (its order query):
   * one it reports paid is credited as its callback would have (the same transfer key, so a callback that
   * arrives too changes nothing). A paid order whose callback was lost (the node that should have taken it
   * was killed, or the call failed) stayed pending, then expired, with the player's money taken. Run by the
   * expiry job before it expires anything; failed outcomes are left to the callback (a player may pay again).
   */
  async function runReconcile(batch = 100): Promise<number> {
    const due = (await db.query<{ provider: string; provider_order_id: string }>(
      `SELECT provider, provider_order_id FROM deposits
        WHERE status = 'pending' AND provider <> 'manual' AND created_at <= now() - interval '1 minute'
        ORDER BY created_at LIMIT $1`, [batch])).rows;
    let credited = 0;
    for (const d of due) {
      const p = providers.get(d.provider);
      if (!p?.queryOrder) continue;
      const n = await p.queryOrder(d.provider_order_id);
      if (n?.status !== 'paid') continue;
      if ((await applyNotification(d.provider, n)).outcome === 'credited') credited++;
    }
    return credited;
  }

  return { channels, create, list, get, applyNotification, decideManual, onPaid, runExpire, runReconcile, demoBank };
}
export type Deposits = ReturnType<typeof createDeposits>;
