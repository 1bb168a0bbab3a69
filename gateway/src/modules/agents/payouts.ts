import type { TDispute, TIncomeValue, TPayout, TPayoutStatement, TSimulateValue, DisputeStatus, PayoutStatus } from '@portal/contracts/api/agent-payouts';
import { CONTRACT_KINDS, settlementPeriodType, ZContractTerms, type ContractKind, type TContractTerms } from '@portal/contracts/domain/agent-contracts';
import { periodOf, previousPeriod, type PeriodType } from '@portal/contracts/domain/agent-periods';
import { settlePeriod, type MemberFigures } from '@portal/contracts/domain/agent-settlement';
import type { Db, Queryable } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { isInSubtree, requireInSubtree } from './team-tree.ts';
import { memberFiguresUnder, settlementOptionsOf, statementSteps } from './settlement.ts';
import { iso } from '../../db/iso.ts';

/**
 * Agent payouts as members see them (issue 11): lists, the stored statement, disputes, the what-if
 * simulator over past periods (the same settlePeriod on the same figures; nothing written) and the
 * income report. Authorization: a payout is visible when its payee is the caller or in the caller's
 * team; anything else (a sibling's, an upline's, a missing id) answers NOT_IN_TREE alike.
 */

export type PayoutRow = {
  id: number; kind: ContractKind; contract_id: number; period_type: PeriodType; period_key: string; period_start: Date | string; period_end: Date | string;
  payer_id: number | null; payee_id: number; amount: number; carry_in: number; carry_out: number; status: PayoutStatus; adjusted_amount: number; payer_adjusted_amount: number; transfer_id?: number | string | null;
  settled_at: Date | string; payee_account: string; payer_account: string | null; dispute_status: DisputeStatus | null; statement?: TPayoutStatement;
};

export const PAYOUT_SELECT = `SELECT p.*, e.account AS payee_account, r.account AS payer_account,
    (SELECT d.status FROM agent_disputes d WHERE d.payout_id = p.id ORDER BY d.id DESC LIMIT 1) AS dispute_status
  FROM agent_payouts p JOIN members e ON e.id = p.payee_id LEFT JOIN members r ON r.id = p.payer_id`;


export function toPayout(r: PayoutRow): TPayout {
  return {
    id: Number(r.id), kind: r.kind, contractId: Number(r.contract_id), periodType: r.period_type, periodKey: r.period_key,
    periodStart: iso(r.period_start), periodEnd: iso(r.period_end), payeeId: Number(r.payee_id), payeeAccount: r.payee_account,
    payerId: r.payer_id === null ? null : Number(r.payer_id), payerAccount: r.payer_account, amount: Number(r.amount),
    carryIn: Number(r.carry_in), carryOver: Number(r.carry_out), adjustedAmount: Number(r.adjusted_amount), payerAdjustedAmount: Number(r.payer_adjusted_amount ?? 0), funded: r.transfer_id != null, status: r.status,
    settledAt: iso(r.settled_at), disputeStatus: r.dispute_status,
  };
}

export type DisputeRow = {
  id: number; payout_id: number; member_id: number; account: string; kind: ContractKind; period_key: string; payout_amount: number; reason: string;
  status: DisputeStatus; resolution_note: string | null; adjustment: number | null; created_at: Date | string; resolved_at: Date | string | null;
  payee_id: number; payer_id: number | null; resolved_by: string | null;
  payout_status: PayoutStatus; payer_adjusted_amount: number; payer_account: string | null; adjustment_house: number | null; adjustment_payer_id: number | null;
};
export const DISPUTE_SELECT = `SELECT d.*, m.account, p.kind, p.period_key, p.amount AS payout_amount, p.payee_id, p.payer_id,
    p.status AS payout_status, p.payer_adjusted_amount, r.account AS payer_account
  FROM agent_disputes d JOIN agent_payouts p ON p.id = d.payout_id JOIN members m ON m.id = d.member_id LEFT JOIN members r ON r.id = p.payer_id`;
export function toDispute(r: DisputeRow): TDispute {
  return {
    id: Number(r.id), payoutId: Number(r.payout_id), memberId: Number(r.member_id), account: r.account, kind: r.kind, periodKey: r.period_key,
    payoutAmount: Number(r.payout_amount), reason: r.reason, status: r.status, resolutionNote: r.resolution_note,
    adjustment: r.adjustment === null ? null : Number(r.adjustment), createdAt: iso(r.created_at), resolvedAt: r.resolved_at === null ? null : iso(r.resolved_at),
  };
}

const DAY_MS = 86_400_000;
/** yyyy-MM-dd on the merchant's calendar -> the UTC instant of its midnight. */
function dayStart(day: string, offsetMinutes: number): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const t = Date.UTC(y, m - 1, d) - offsetMinutes * 60_000;
  const back = new Date(t + offsetMinutes * 60_000);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) throw new AppError(ErrorCode.VALIDATION, 'Invalid date', [{ path: 'from/to', message: 'a real calendar day' }]);
  return new Date(t);
}
function todayOf(offsetMinutes: number): string {
  return new Date(Date.now() + offsetMinutes * 60_000).toISOString().slice(0, 10);
}
/** [from, to) from the query's days (inclusive `to`); `defaultDays` back from today when both are omitted. */
export function rangeOf(q: { from?: string | undefined; to?: string | undefined }, offsetMinutes: number, defaultDays = 1): { from: Date; to: Date; fromDay: string; toDay: string } {
  const toDay = q.to ?? todayOf(offsetMinutes);
  const fromDay = q.from ?? (q.to ? q.to : new Date(dayStart(toDay, offsetMinutes).getTime() - (defaultDays - 1) * DAY_MS + offsetMinutes * 60_000).toISOString().slice(0, 10));
  const from = dayStart(fromDay, offsetMinutes);
  const to = new Date(dayStart(toDay, offsetMinutes).getTime() + DAY_MS);
  if (from >= to) throw new AppError(ErrorCode.VALIDATION, '`from` must not be after `to`', [{ path: 'from', message: 'on or before to' }]);
  if (to.getTime() - from.getTime() > 400 * DAY_MS) throw new AppError(ErrorCode.VALIDATION, 'At most 400 days', [{ path: 'from', message: 'range too long' }]);
  return { from, to, fromDay, toDay };
}

/** ZPageQuery leaves pageNo unbounded: an offset PostgreSQL cannot take would be a 500. */
export function checkPage(q: { pageNo: number }) {
  if (q.pageNo > 1_000_000) throw new AppError(ErrorCode.VALIDATION, 'Invalid query', [{ path: 'pageNo', message: 'at most 1000000' }]);
}

export function createAgentPayouts(deps: { db: Db }) {
  const { db } = deps;

  async function list(merchant: Merchant, me: number, q: { pageNo: number; pageSize: number; kind?: ContractKind | undefined; role: 'received' | 'paid'; from?: string | undefined; to?: string | undefined }) {
    checkPage(q);
    const r0 = rangeOf(q, merchant.brand.gmtOffsetMinutes, 31);
    const who = q.role === 'paid' ? 'p.payer_id' : 'p.payee_id';
    const args = [merchant.code, me, q.kind ?? null, r0.from, r0.to];
    const where = `p.merchant_code = $1 AND ${who} = $2 AND ($3::text IS NULL OR p.kind = $3) AND p.period_start >= $4 AND p.period_start < $5`;
    const r = await db.query<PayoutRow>(`${PAYOUT_SELECT} WHERE ${where} ORDER BY p.period_start DESC, p.id DESC LIMIT $6 OFFSET $7`, [...args, q.pageSize, (q.pageNo - 1) * q.pageSize]);
    const n = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM agent_payouts p WHERE ${where}`, args);
    return { list: r.rows.map(toPayout), pageNo: q.pageNo, pageSize: q.pageSize, total: n.rows[0]!.n };
  }

  /** A payout the caller may see (payee = caller or in its team), or NOT_IN_TREE. */
  async function visible(q: Queryable, merchant: Merchant, me: number, id: number): Promise<PayoutRow> {
    const r = (await q.query<PayoutRow>(`${PAYOUT_SELECT} WHERE p.id = $1 AND p.merchant_code = $2`, [id, merchant.code])).rows[0];
    if (!r || !(await isInSubtree(q, me, Number(r.payee_id), { includeSelf: true }))) throw new AppError(ErrorCode.NOT_IN_TREE);
    return r;
  }

  async function get(merchant: Merchant, me: number, id: number) {
    const r = await visible(db, merchant, me, id);
    const stored = (typeof r.statement === 'string' ? JSON.parse(r.statement) : r.statement) as TPayoutStatement;
    // The steps are built again from the stored figures: statements stored before they were codes held English sentences.
    return { payout: toPayout(r), statement: { ...stored, steps: statementSteps(stored) } };
  }

  async function dispute(merchant: Merchant, me: number, id: number, reason: string): Promise<TDispute> {
    return db.tx(async (tx) => {
      const p = await visible(tx, merchant, me, id);
      if (Number(p.payee_id) !== me) throw new AppError(ErrorCode.FORBIDDEN, 'Only the member who was paid can dispute a payout');
      const ins = await tx.query<{ id: number }>(
        `INSERT INTO agent_disputes (merchant_code, payout_id, member_id, reason) VALUES ($1, $2, $3, $4) RETURNING id`, [merchant.code, id, me, reason],
      ).catch((err: { code?: string }) => {
        if (err.code === '23505') throw new AppError(ErrorCode.CONFLICT, 'This payout already has an open dispute');
        throw err;
      });
      return toDispute((await tx.query<DisputeRow>(`${DISPUTE_SELECT} WHERE d.id = $1`, [ins.rows[0]!.id])).rows[0]!);
    });
  }

  async function disputes(merchant: Merchant, me: number, q: { pageNo: number; pageSize: number; status?: DisputeStatus | undefined }) {
    checkPage(q);
    const args = [merchant.code, me, q.status ?? null];
    const where = `d.merchant_code = $1 AND d.member_id = $2 AND ($3::text IS NULL OR d.status = $3)`;
    const r = await db.query<DisputeRow>(`${DISPUTE_SELECT} WHERE ${where} ORDER BY d.id DESC LIMIT $4 OFFSET $5`, [...args, q.pageSize, (q.pageNo - 1) * q.pageSize]);
    const n = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM agent_disputes d WHERE ${where}`, args);
    return { list: r.rows.map(toDispute), pageNo: q.pageNo, pageSize: q.pageSize, total: n.rows[0]!.n };
  }

  /**
   * What `terms` would have paid `downlineId` over the last `periods` closed periods: settlePeriod on
   * the caller's own live contract of the kind (as the house's, so the proposed rate is capped at it)
   * and the proposed contract, with the downline team's figures of each period. Carry-over is left
   * out (each period on its own). Nothing is written.
   */
  async function simulate(merchant: Merchant, me: number, body: { downlineId: number; terms: TContractTerms; periods: number }): Promise<TSimulateValue> {
    await requireInSubtree(db, me, body.downlineId);
    const terms = body.terms;
    const kind = terms.kind;
    const type = settlementPeriodType(terms);
    const offset = merchant.brand.gmtOffsetMinutes;
    const mine = (await db.query<{ terms: TContractTerms }>(`SELECT terms FROM agent_contracts WHERE downline_id = $1 AND kind = $2 AND status = 'active'`, [me, kind])).rows[0];
    const myTerms = mine ? ZContractTerms.parse(mine.terms) : null;
    const options = await settlementOptionsOf(db, merchant.code);
    const out: TSimulateValue['periods'] = [];
    let p = previousPeriod(periodOf(Date.now(), type, offset), offset);
    for (let i = 0; i < body.periods; i++, p = previousPeriod(p, offset)) {
      const members: MemberFigures[] = (await memberFiguresUnder(db, merchant.code, [body.downlineId], { from: p.start, to: p.end }))
        .map((m) => (m.id === body.downlineId ? { ...m, parentId: me } : m));
      members.push({ id: me, parentId: null, validBets: 0, profitLoss: 0 });
      // The caller's own contract, put at the top with the caller's period type (dividends of another period type are compared on this one).
      const capTerms = myTerms ? ({ ...myTerms, ...(kind === 'dividend' ? { profitLossPeriod: (terms as { profitLossPeriod: string }).profitLossPeriod } : {}) } as TContractTerms) : null;
      const contracts = [
        ...(capTerms ? [{ id: 1, uplineId: null, downlineId: me, terms: capTerms }] : []),
        { id: 2, uplineId: me, downlineId: body.downlineId, terms },
      ];
      const r = settlePeriod({ kind, period: p, members, contracts, options: { carryOver: false, activeMinValidBets: options.activeMinValidBets } });
      const s = r.statements.find((x) => x.contractId === 2)!;
      out.push({
        periodKey: p.key, periodStart: p.start.toISOString(), periodEnd: p.end.toISOString(),
        validBets: s.team.validBets, profitLoss: s.team.profitLoss, netLoss: s.team.netLoss, activeMembers: s.team.activeMembers,
        base: s.base, effectiveRate: s.effectiveRate, conditionsMet: s.conditions.isMet, amount: s.amount,
      });
    }
    return { kind, periodType: type, periods: out, totals: { base: out.reduce((a, x) => a + x.base, 0), amount: out.reduce((a, x) => a + x.amount, 0) } };
  }

  /**
   * My income (totals over the whole range; the period list newest first, at most 500): per kind what the caller received
   * (payouts that moved money plus adjustments) and paid its downlines (the same, with the adjustments of unfunded
   * payouts charged to it), by period start in [from, to].
   */
  async function income(merchant: Merchant, me: number, q: { from?: string | undefined; to?: string | undefined }): Promise<TIncomeValue> {
    const offset = merchant.brand.gmtOffsetMinutes;
    const range = rangeOf(q, offset, 1);
    const r = await db.query<{ kind: ContractKind; period_key: string; period_start: Date | string; received: string; paid: string }>(
      `SELECT kind, period_key, min(period_start) AS period_start,
              coalesce(sum(CASE WHEN payee_id = $2 THEN (CASE WHEN transfer_id IS NOT NULL THEN amount ELSE 0 END) + adjusted_amount END), 0)::text AS received,
              coalesce(sum(CASE WHEN payer_id = $2 THEN (CASE WHEN transfer_id IS NOT NULL THEN amount ELSE 0 END) + payer_adjusted_amount END), 0)::text AS paid
         FROM agent_payouts WHERE merchant_code = $1 AND (payee_id = $2 OR payer_id = $2) AND period_start >= $3 AND period_start < $4
        GROUP BY kind, period_key ORDER BY min(period_start) DESC, kind`,
      [merchant.code, me, range.from, range.to],
    );
    const periods = r.rows.map((x) => ({ kind: x.kind, periodKey: x.period_key, periodStart: iso(x.period_start), received: Number(x.received), paid: Number(x.paid), net: Number(x.received) - Number(x.paid) }));
    const kinds = CONTRACT_KINDS.map((kind) => {
      const rows = periods.filter((p) => p.kind === kind);
      const received = rows.reduce((a, p) => a + p.received, 0);
      const paid = rows.reduce((a, p) => a + p.paid, 0);
      return { kind, received, paid, net: received - paid };
    });
    const totals = kinds.reduce((a, k) => ({ received: a.received + k.received, paid: a.paid + k.paid, net: a.net + k.net }), { received: 0, paid: 0, net: 0 });
    return { from: range.fromDay, to: range.toDay, gmtOffsetMinutes: offset, kinds, totals, periods: periods.slice(0, 500) };
  }

  return { list, get, dispute, disputes, simulate, income };
}
export type AgentPayouts = ReturnType<typeof createAgentPayouts>;
