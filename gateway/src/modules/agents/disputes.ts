import type { Express } from 'express';
import { opsAgentDisputeCalls, ZResolveDisputeBody, type DisputeStatus, type PayoutStatus } from '@portal/contracts/api/agent-payouts';
import { OPS_PREFIX } from '@portal/contracts/api/ops';
import { userAudience } from '@portal/contracts/events/events';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { emitEvents } from '../../bus/outbox.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import { audit, type Operators } from '../ops/operators.ts';
import { createOpsRouter } from '../ops/ops-router.ts';
import { InsufficientFunds, transfer } from '../wallet/ledger.ts';
import { checkPage, DISPUTE_SELECT, PAYOUT_SELECT, toDispute, toPayout, type DisputeRow, type PayoutRow } from './payouts.ts';
import { EVENT_KIND } from './settlement.ts';

const toOpsDispute = (r: DisputeRow) => ({
  ...toDispute(r), payeeId: Number(r.payee_id), payerId: r.payer_id === null ? null : Number(r.payer_id), payerAccount: r.payer_account, resolvedBy: r.resolved_by,
  payoutStatus: r.payout_status, owedByPayer: owedByPayer(r),
  ...adjustmentSplit(r),
});

/** An adjusted dispute's adjustment: the part its paying agent paid (adjustment_payer_id set) and the house's part. */
function adjustmentSplit(r: DisputeRow): { adjustmentFromPayer: number | null; adjustmentFromHouse: number | null } {
  if (r.adjustment === null) return { adjustmentFromPayer: null, adjustmentFromHouse: null };
  const fromPayer = r.adjustment_payer_id === null ? 0 : Number(r.adjustment) - Number(r.adjustment_house ?? 0);
  return { adjustmentFromPayer: fromPayer, adjustmentFromHouse: Number(r.adjustment) - fromPayer };
}

/** What the paying agent of an unfunded payout still owes its payee (0 for any other payout: the house or a paid transfer covered it). */
function owedByPayer(p: { payout_status: string; payer_id: number | null; payout_amount: number; payer_adjusted_amount: number }): number {
  return p.payout_status === 'unfunded' && p.payer_id !== null ? Math.max(0, Number(p.payout_amount) - Number(p.payer_adjusted_amount)) : 0;
}

/**
 * Operator calls on agent payout disputes, under /ops/api like the rest of the back office, with the
 * same operator session (a member token is 401) and permissions: any operator lists, an admin resolves.
 * A resolution writes an audit row in its transaction; an adjustment is a ledger transfer to the payee
 * (key agent-dispute:<id>), announced by balance.changed and contract.payout. Who pays it: for an
 * `unfunded` payout (its paying agent could not fund it at settlement), the agent that owed it, up to
 * what it still owes, when its balance covers that now; if it cannot, nothing changes (409
 * AGENT_PAYER_CANNOT_FUND: the payout stays unfunded and the dispute open, to retry or reject). Only
 * what the operator grants above what was owed (and every adjustment of any other payout) comes from
 * the house's adjustment account (key agent-dispute:<id>:house when the payer paid a part).
 * Mount it before the back office router (its catch-all answers NOT_FOUND).
 */
export function mountAgentDisputeOps(app: Express, deps: { db: Db; merchants: MerchantDirectory; operators: Operators; checkResponses: boolean }) {
  const { db } = deps;
  const ops = createOpsRouter(deps, { prefix: OPS_PREFIX });

  ops.call(opsAgentDisputeCalls.list, 'disputes.read', async ({ ctx: { merchant }, query }) => {
    checkPage(query);
    const { pageNo, pageSize, status } = query;
    const args = [merchant.code, status ?? null];
    const where = `d.merchant_code = $1 AND ($2::text IS NULL OR d.status = $2)`;
    const r = await db.query<DisputeRow>(`${DISPUTE_SELECT} WHERE ${where} ORDER BY d.id DESC LIMIT $3 OFFSET $4`, [...args, pageSize, (pageNo - 1) * pageSize]);
    const n = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM agent_disputes d WHERE ${where}`, args);
    return { list: r.rows.map(toOpsDispute), pageNo, pageSize, total: n.rows[0]!.n };
  });

  // Every payout of the merchant (any operator reads it, as the disputes): an unfunded one is seen here
  // before anyone disputes it (the README said operators see them; only a dispute showed one).
  ops.call(opsAgentDisputeCalls.payouts, 'disputes.read', async ({ ctx: { merchant }, query }) => {
    checkPage(query);
    const { pageNo, pageSize, status, kind, account } = query;
    const args = [merchant.code, status ?? null, kind ?? null, account?.toLowerCase() ?? null];
    const where = `p.merchant_code = $1 AND ($2::text IS NULL OR p.status = $2) AND ($3::text IS NULL OR p.kind = $3)
      AND ($4::text IS NULL OR e.account_lower = $4 OR r.account_lower = $4)`;
    const r = await db.query<PayoutRow>(`${PAYOUT_SELECT} WHERE ${where} ORDER BY p.period_start DESC, p.id DESC LIMIT $5 OFFSET $6`, [...args, pageSize, (pageNo - 1) * pageSize]);
    const n = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM agent_payouts p JOIN members e ON e.id = p.payee_id LEFT JOIN members r ON r.id = p.payer_id WHERE ${where}`, args);
    return { list: r.rows.map(toPayout), pageNo, pageSize, total: n.rows[0]!.n };
  });

  const resolve = opsAgentDisputeCalls.resolve;
  ops.router.post(resolve.path.slice(OPS_PREFIX.length), ops.route(async (req) => {
    const { merchant, operator } = await ops.gate(req, 'disputes.resolve', resolve.path);
    const id = ops.idOf(req);
    const body = ops.parse(ZResolveDisputeBody, req.body);
    return db.tx(async (tx) => {
      const d = (await tx.query<{ id: number; status: DisputeStatus; payout_id: number }>(
        'SELECT id, status, payout_id FROM agent_disputes WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, merchant.code])).rows[0];
      if (!d) throw new AppError(ErrorCode.NOT_FOUND);
      if (d.status !== 'open') throw new AppError(ErrorCode.INVALID_STATE, 'This dispute is already resolved');
      const p = (await tx.query<{ id: number; payee_id: number; kind: keyof typeof EVENT_KIND; contract_id: number; period_key: string; status: PayoutStatus; amount: number; adjusted_amount: number; payer_adjusted_amount: number; payer_id: number | null }>(
        'SELECT id, payee_id, kind, contract_id, period_key, status, amount, adjusted_amount, payer_adjusted_amount, payer_id FROM agent_payouts WHERE id = $1 FOR UPDATE', [d.payout_id])).rows[0]!;
      let transferId: number | null = null;
      let fromPayer = 0;
      let fromHouse = 0;
      if (body.decision === 'adjusted') {
        const payerId = p.payer_id === null ? null : Number(p.payer_id);
        const owed = owedByPayer({ payout_status: p.status, payer_id: payerId, payout_amount: p.amount, payer_adjusted_amount: p.payer_adjusted_amount });
        fromPayer = Math.min(body.amount, owed);
        fromHouse = body.amount - fromPayer;
        const memo = { disputeId: id, payoutId: Number(p.id), operator: operator.username };
        if (fromPayer > 0 && payerId !== null) {
          try {
            transferId = (await transfer(tx, {
              merchant: merchant.code, currency: merchant.currency, key: `agent-dispute:${id}`, kind: 'agent.adjustment',
              debit: { member: payerId }, credit: { member: Number(p.payee_id) }, amount: fromPayer, memo: { ...memo, owedBy: payerId },
            })).transferId;
          } catch (err) {
            // Never a negative balance: the whole resolution rolls back, the payout stays unfunded, the dispute open.
            if (err instanceof InsufficientFunds) throw new AppError(ErrorCode.AGENT_PAYER_CANNOT_FUND);
            throw err;
          }
        }
        if (fromHouse > 0) {
          const t = await transfer(tx, {
            merchant: merchant.code, currency: merchant.currency, key: fromPayer > 0 ? `agent-dispute:${id}:house` : `agent-dispute:${id}`, kind: 'agent.adjustment',
            debit: { system: 'adjustment' }, credit: { member: Number(p.payee_id) }, amount: fromHouse, memo,
          });
          transferId ??= t.transferId;
        }
        // An unfunded payout stays unfunded until its payer has paid all it owed.
        const stillOwed = p.status === 'unfunded' && Number(p.payer_adjusted_amount) + fromPayer < Number(p.amount);
        await tx.query(`UPDATE agent_payouts SET status = $3, adjusted_amount = adjusted_amount + $2, payer_adjusted_amount = payer_adjusted_amount + $4 WHERE id = $1`,
          [p.id, body.amount, stillOwed ? 'unfunded' : 'adjusted', fromPayer]);
        const payload = { payoutId: String(p.id), contractId: String(p.contract_id), kind: EVENT_KIND[p.kind], periodKey: p.period_key, amount: body.amount, status: stillOwed ? 'unfunded' : 'adjusted', payeeId: Number(p.payee_id), payerId: payerId ?? 0 } as const;
        await emitEvents(tx, merchant.code, [
          { audience: userAudience(Number(p.payee_id)), type: 'contract.payout', payload },
          ...(fromPayer > 0 && payerId !== null ? [{ audience: userAudience(payerId), type: 'contract.payout' as const, payload }] : []),
        ]);
      }
      await tx.query(
        `UPDATE agent_disputes SET status = $2, resolution_note = $3, adjustment = $4, adjustment_transfer_id = $5, resolved_by = $6, resolved_at = now(),
           adjustment_payer_id = $7, adjustment_house = $8 WHERE id = $1`,
        [id, body.decision, body.note, body.decision === 'adjusted' ? body.amount : null, transferId, operator.username,
          fromPayer > 0 ? p.payer_id : null, body.decision === 'adjusted' ? fromHouse : null],
      );
      await audit(tx, operator, 'agentDispute.resolve', { type: 'agentDispute', id }, { status: 'open', payoutStatus: p.status, adjustedAmount: Number(p.adjusted_amount) },
        { status: body.decision, note: body.note, ...(body.decision === 'adjusted' ? { amount: body.amount, transferId, fromPayer, fromHouse } : {}) });
      return toOpsDispute((await tx.query<DisputeRow>(`${DISPUTE_SELECT} WHERE d.id = $1`, [id])).rows[0]!);
    });
  }, resolve));

  ops.mount(app);
}
