import { agentPayoutLedgerKind, settlementPeriodType, ZContractTerms, type ContractKind, type TContractTerms, CONTRACT_KINDS } from '@portal/contracts/domain/agent-contracts';
import { DIVIDEND_PERIOD_TYPES, nextPeriod, periodOf, type Period, type PeriodType } from '@portal/contracts/domain/agent-periods';
import { settlePeriod, type MemberFigures, type PayoutStatement, type SettlementContract } from '@portal/contracts/domain/agent-settlement';
import type { TPayoutStatement, TStatementStep } from '@portal/contracts/api/agent-payouts';
import { userAudience, type CONTRACT_KINDS as EVENT_KINDS } from '@portal/contracts/events/events';
import type { Db, Queryable } from '../../db/db.ts';
import { emitEvents, wakeRelays, type NewEvent } from '../../bus/outbox.ts';
import { SYSTEM_SHARDS } from '../wallet/ledger.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { descendantOf } from './team-tree.ts';
import { splitPeriod } from './team-stats.ts';
import { notExcludedSql } from '../rg/rg-service.ts';

/**
 * Agent settlement persisted (issue 11; migration 026_agent_payouts.sql). For a merchant, a contract
 * kind and a closed period: the contracts of that kind active at the period's end, each member's own
 * bet figures for the period (member_bet_hours, raw rows for partial hours, as team-stats.ts), the
 * pure settlePeriod of contracts/src/domain/agent-settlement.ts, then in ONE transaction the payout
 * rows and their ledger transfers, top-down: the house pays each top agent, then each upline pays its
 * downlines, so an upline is credited before it pays down.
 *
 * Exactly once: the run marker agent_settlement_runs(merchant, kind, period type, key) is inserted
 * first; a concurrent run of the same period waits on it and then skips. UNIQUE(contract_id,
 * period_key) and the ledger idempotency key (payoutIdempotencyKey) back it up.
 *
 * Never negative: an agent that must pay more than its balance (a dividend with sub-teams of opposite
 * signs, settlePeriod's shortfalls) is refused by the ledger inside a savepoint; the payout is stored
 * as 'unfunded' (nothing moved) and shown to both parties and to operators (who can adjust through a
 * dispute). Payouts below it are still attempted from their payers' own balances.
 */

/** A period settles this long after it ends (late bets and wins of its last seconds land first). */
export const SETTLEMENT_GRACE_MS = 60_000;

/** How far back a run looks for closed periods not settled yet (bounded catch-up after an outage). */
const LOOKBACK_MS: Record<PeriodType, number> = {
  fiveMinutes: 86_400_000,
  hourly: 7 * 86_400_000,
  daily: 62 * 86_400_000,
  weekly: 400 * 86_400_000,
  semiMonthly: 400 * 86_400_000,
  monthly: 400 * 86_400_000,
};

export const EVENT_KIND: Record<ContractKind, (typeof EVENT_KINDS)[number]> = {
  dividend: 'dividend', dailyWages: 'daily_salary', hourlySalary: 'hour_salary', realtimeSalary: 'realtime_salary',
};

export function periodTypesOf(kind: ContractKind): PeriodType[] {
  if (kind === 'dividend') return [...DIVIDEND_PERIOD_TYPES];
  return [kind === 'dailyWages' ? 'daily' : kind === 'hourlySalary' ? 'hourly' : 'fiveMinutes'];
}

export type SettlementOptionsRow = { carryOver: boolean; activeMinValidBets: number };

export async function settlementOptionsOf(q: Queryable, merchantCode: string): Promise<SettlementOptionsRow> {
  const r = await q.query<{ carry_over: boolean; active_min_valid_bets: number }>('SELECT carry_over, active_min_valid_bets FROM agent_settlement_settings WHERE merchant_code = $1', [merchantCode]);
  const row = r.rows[0];
  return { carryOver: row?.carry_over ?? false, activeMinValidBets: row?.active_min_valid_bets ?? 1 };
}

export type ContractAtEnd = { id: number; upline_id: number | null; downline_id: number; terms: TContractTerms };

/** Contracts of `kind` settled per `type` that were active at `end` (accepted before it, not ended by then). */
export async function contractsActiveAt(q: Queryable, merchantCode: string, kind: ContractKind, type: PeriodType, end: Date): Promise<ContractAtEnd[]> {
  const r = await q.query<ContractAtEnd>(
    `SELECT id, upline_id, downline_id, terms FROM agent_contracts
      WHERE merchant_code = $1 AND kind = $2 AND status IN ('active', 'terminated', 'ended') AND answered_at IS NOT NULL
        AND answered_at < $3 AND (ended_at IS NULL OR ended_at >= $3)
        AND ($2 <> 'dividend' OR terms->>'profitLossPeriod' = $4)
      ORDER BY id`,
    [merchantCode, kind, end, type],
  );
  return r.rows.map((c) => ({ ...c, terms: ZContractTerms.parse(c.terms) })).filter((c) => settlementPeriodType(c.terms) === type);
}

/**
 * Every member of the teams of `rootIds` (the roots included) with its parent and its own valid bets
 * and profit and loss in the period. Bounded in SQL by the roots' tree paths.
 */
export async function memberFiguresUnder(q: Queryable, merchantCode: string, rootIds: readonly number[], period: { from: Date; to: Date }): Promise<(MemberFigures & { account: string })[]> {
  if (!rootIds.length) return [];
  // One statement: the roots that are not inside another root's team (a settlement passes every agent
  // with a contract; their teams nest), their disjoint teams, and each member's own figures.
  const { hours, edges } = splitPeriod(period);
  const params: unknown[] = [[...new Set(rootIds)], merchantCode];
  const parts: string[] = [];
  if (hours) {
    params.push(hours.from, hours.to);
    parts.push(`SELECT h.member_id, h.valid_bets AS vb, h.payout AS po FROM sub JOIN member_bet_hours h ON h.member_id = sub.id
      AND h.hour >= $${params.length - 1} AND h.hour < $${params.length}`);
  }
  if (edges.length) {
    const ranges = edges.map((e) => {
      params.push(e.from, e.to);
      return `(v.created_at >= $${params.length - 1} AND v.created_at < $${params.length})`;
    });
    parts.push(`SELECT v.member_id, CASE WHEN v.kind = 'bet' THEN v.amount ELSE 0 END AS vb, CASE WHEN v.kind = 'win' THEN v.amount ELSE 0 END AS po
      FROM sub JOIN vendor_transactions v ON v.member_id = sub.id AND v.status = 'applied' AND v.kind IN ('bet', 'win') AND (${ranges.join(' OR ')})`);
  }
  const r = await q.query<{ id: string; parent_id: string | null; account: string; vb: string | null; po: string | null }>(
    `WITH r AS (SELECT m.id, m.tree_path FROM unnest($1::bigint[]) AS u(id) JOIN members m ON m.id = u.id AND m.merchant_code = $2),
     nested AS (SELECT DISTINCT r.id FROM r CROSS JOIN LATERAL unnest(string_to_array(r.tree_path, '.')) AS x(anc)
                  JOIN r up ON up.id = x.anc::bigint AND up.id <> r.id),
     top AS (SELECT r.id, r.tree_path FROM r WHERE r.id NOT IN (SELECT id FROM nested)),
     sub AS MATERIALIZED (SELECT d.id, d.parent_id, d.account FROM top a JOIN members d ON d.merchant_code = $2 AND (d.id = a.id OR ${descendantOf('d', 'a.tree_path')})),
     -- Responsible gaming: an excluded player's bets are left out of every commission and salary base.
     own AS (SELECT member_id, sum(vb) AS vb, sum(po) AS po FROM (${parts.join(' UNION ALL ')}) x WHERE ${notExcludedSql('x.member_id')} GROUP BY member_id)
     SELECT sub.id::text, sub.parent_id::text, sub.account, own.vb::text, own.po::text FROM sub LEFT JOIN own ON own.member_id = sub.id`,
    params,
  );
  return r.rows.map((m) => {
    const vb = Number(m.vb ?? 0);
    const po = Number(m.po ?? 0);
    return { id: Number(m.id), parentId: m.parent_id === null ? null : Number(m.parent_id), validBets: vb, profitLoss: po - vb, account: m.account };
  });
}

/**
 * The explanation of a statement, step by step, as codes and numbers (the client words them in the
 * member's language): the team figures, the base (with carry-over), the conditions, a capped rate,
 * the amount, an anomaly, what went on to downlines and what was carried out.
 */
export function statementSteps(s: Pick<PayoutStatement, 'kind' | 'team' | 'base' | 'carryOverEnabled' | 'carryIn' | 'adjustedBase' | 'conditions' | 'rate' | 'effectiveRate' | 'amount' | 'anomaly' | 'downlinesTook' | 'kept' | 'carryOut'> & { lines: readonly { took: number }[] }): TStatementStep[] {
  const c = s.conditions;
  const steps: TStatementStep[] = [
    { code: 'team', params: { validBets: s.team.validBets, profitLoss: s.team.profitLoss, activeMembers: s.team.activeMembers } },
    { code: s.kind === 'dividend' ? 'baseNetLoss' : 'baseValidBets', params: { base: s.base } },
  ];
  // Carry-over is a dividend's (a net loss can be negative; valid bets cannot): a salary's statement
  // showed "with the carry-over: base + 0" when the merchant had it on.
  if (s.carryOverEnabled && s.kind === 'dividend') steps.push({ code: 'baseWithCarry', params: { base: s.base, carryIn: s.carryIn, adjustedBase: s.adjustedBase } });
  const cond = { activeMembers: c.activeMembers.actual, activeMembersRequired: c.activeMembers.required, betAmount: c.betAmount.actual, betAmountRequired: c.betAmount.required };
  if (cond.activeMembersRequired === 0 && cond.betAmountRequired === 0) steps.push({ code: 'noConditions', params: {} });
  else steps.push({ code: c.isMet ? 'conditionsMet' : 'conditionsNotMet', params: cond });
  if (s.effectiveRate !== s.rate) steps.push({ code: 'rateCapped', params: { rate: s.rate, effectiveRate: s.effectiveRate } });
  if (s.anomaly) steps.push({ code: 'anomaly', params: {} });
  else if (!c.isMet) steps.push({ code: 'amountConditionsNotMet', params: {} });
  else if (s.adjustedBase <= 0) steps.push({ code: 'amountNoBase', params: { base: s.adjustedBase } });
  else steps.push({ code: 'amount', params: { base: s.adjustedBase, rate: s.effectiveRate, amount: s.amount } });
  if (s.lines.some((l) => l.took > 0)) steps.push({ code: 'passedOn', params: { amount: s.amount, downlinesTook: s.downlinesTook, kept: s.kept } });
  if (s.carryOverEnabled && s.kind === 'dividend' && s.carryOut < 0) steps.push({ code: 'carriedOut', params: { carryOut: s.carryOut } });
  return steps;
}

export type SettledPeriod = { kind: ContractKind; periodType: PeriodType; periodKey: string; merchantCode: string; inserted: number; paid: number; unfunded: number };

export type SettleFailure = { kind: ContractKind; periodType: PeriodType; periodKey: string; merchantCode: string; error: string };
export type SettleDueResult = { settled: SettledPeriod[]; failed: SettleFailure[] };

type Deps = { db: Db; merchants: { all(): Promise<Merchant[]> } };

export function createAgentSettlement(deps: Deps) {
  const { db } = deps;

  /** Settle one period of one kind for a merchant; a period already settled changes nothing (inserted 0). */
  async function settleOne(merchant: Merchant, kind: ContractKind, period: Period): Promise<SettledPeriod> {
    const out: SettledPeriod = { kind, periodType: period.type, periodKey: period.key, merchantCode: merchant.code, inserted: 0, paid: 0, unfunded: 0 };
    return db.tx(async (tx) => {
      const mark = await tx.query(
        `INSERT INTO agent_settlement_runs (merchant_code, kind, period_type, period_key, period_start, period_end) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT DO NOTHING RETURNING period_key`,
        [merchant.code, kind, period.type, period.key, period.start, period.end],
      );
      if (!mark.rows.length) return out;
      // No JIT for this transaction: the statements below span a whole tree, so their estimates pass
      // jit_above_cost, and compiling them took ~3 s a statement (2.8 s of a 3.1 s member-figures statement
      // at 20,000 members) for plans that run once.
      await tx.query('SET LOCAL jit = off');
      const contracts = await contractsActiveAt(tx, merchant.code, kind, period.type, period.end);
      if (!contracts.length) return out;
      const options = await settlementOptionsOf(tx, merchant.code);
      const carry = await carryInOf(tx, contracts.map((c) => c.id), period.start);
      const roots = [...new Set(contracts.flatMap((c) => (c.upline_id === null ? [c.downline_id] : [c.downline_id, c.upline_id])))];
      const members = await memberFiguresUnder(tx, merchant.code, roots, { from: period.start, to: period.end });
      const input: SettlementContract[] = contracts.map((c) => ({ id: c.id, uplineId: c.upline_id, downlineId: c.downline_id, terms: c.terms, carryIn: carry.get(c.id) ?? 0 }));
      const result = settlePeriod({ kind, period, members, contracts: input, options: { carryOver: options.carryOver, activeMinValidBets: options.activeMinValidBets } });
      // Accounts: every payee and line member is in the tree read above, with its account; the lookup is only a fallback.
      const accounts = new Map(members.map((m) => [m.id, m.account]));
      const missing = [...new Set(result.statements.flatMap((st) => [st.payeeId, ...st.lines.map((l) => l.memberId)]))].filter((id) => !accounts.has(id));
      for (const [id, account] of await accountsOf(tx, missing)) accounts.set(id, account);
      // Every transfer in one round trip, in the statements' top-down order (migration 030): an agent payer
      // the ledger refuses is recorded unfunded (nothing moved), the others are paid.
      const paying = result.statements.flatMap((st, k) => (st.amount > 0 ? [k] : []));
      const funded = new Map<number, number | null>();
      if (paying.length) {
        const items = paying.map((k) => {
          const st = result.statements[k]!;
          return { key: st.idempotencyKey, kind: agentPayoutLedgerKind(st.kind), payer: st.payerId, payee: st.payeeId, amount: st.amount, memo: { contractId: st.contractId, periodKey: st.period.key } };
        });
        const r = await tx.query<{ o_ord: number; o_transfer: string | null; o_events: number }>(
          'SELECT o_ord, o_transfer::text, o_events FROM agent_payout_transfers($1, $2, $3, $4::jsonb)',
          [merchant.code, merchant.currency, SYSTEM_SHARDS, JSON.stringify(items)]);
        for (const row of r.rows) funded.set(paying[row.o_ord]!, row.o_transfer === null ? null : Number(row.o_transfer));
        if (r.rows.some((row) => row.o_events > 0)) tx.afterCommit(wakeRelays);
      }
      const rows = result.statements.map((st, k) => {
        const transferId = funded.get(k) ?? null;
        const status: 'paid' | 'nothing' | 'unfunded' = st.amount === 0 ? 'nothing' : transferId === null ? 'unfunded' : 'paid';
        return {
          contract_id: st.contractId, payer_id: st.payerId, payee_id: st.payeeId, amount: st.amount, carry_in: st.carryIn, carry_out: st.carryOut,
          status, statement: presentStatement(st, accounts), transfer_id: transferId,
        };
      });
      // The payout rows, a few thousand per statement (a statement carries its lines: one jsonb parameter for
      // a whole tree would pass PostgreSQL's 256 MB jsonb limit). UNIQUE (contract_id, period_key).
      const inserted: { id: string; contract_id: string }[] = [];
      for (let i = 0; i < rows.length; i += 2000) {
        const ins = await tx.query<{ id: string; contract_id: string }>(
          `INSERT INTO agent_payouts (merchant_code, contract_id, kind, period_type, period_key, period_start, period_end, payer_id, payee_id, amount, carry_in, carry_out, status, statement, transfer_id)
           SELECT $1, x.contract_id, $2, $3, $4, $5, $6, x.payer_id, x.payee_id, x.amount, x.carry_in, x.carry_out, x.status, x.statement, x.transfer_id
             FROM jsonb_to_recordset($7::jsonb) AS x(contract_id bigint, payer_id bigint, payee_id bigint, amount bigint, carry_in bigint, carry_out bigint, status text, statement jsonb, transfer_id bigint)
           RETURNING id::text, contract_id::text`,
          [merchant.code, kind, period.type, period.key, period.start, period.end, JSON.stringify(rows.slice(i, i + 2000))],
        );
        inserted.push(...ins.rows);
      }
      const idOf = new Map(inserted.map((x) => [Number(x.contract_id), x.id]));
      const events: NewEvent[] = [];
      for (const row of rows) {
        out.inserted++;
        if (row.status === 'paid') out.paid++;
        if (row.status === 'unfunded') out.unfunded++;
        const payload = {
          payoutId: idOf.get(row.contract_id)!, contractId: String(row.contract_id), kind: EVENT_KIND[kind], periodKey: period.key,
          amount: row.amount, status: row.status, payeeId: row.payee_id, payerId: row.payer_id ?? 0,
        };
        events.push({ audience: userAudience(row.payee_id), type: 'contract.payout', payload });
        if (row.payer_id !== null) events.push({ audience: userAudience(row.payer_id), type: 'contract.payout', payload });
      }
      await tx.query('UPDATE agent_settlement_runs SET contracts = $5, house_pays = $6 WHERE merchant_code = $1 AND kind = $2 AND period_type = $3 AND period_key = $4',
        [merchant.code, kind, period.type, period.key, result.statements.length, result.housePays]);
      if (events.length) await emitEvents(tx, merchant.code, events);
      return out;
    });
  }

  /** Every closed (plus grace) period up to `at` with a contract active at its end and not settled yet, for every merchant and the given kinds. */
  async function settleDue(at: Date, kinds: readonly ContractKind[] = CONTRACT_KINDS, only?: readonly Merchant[]): Promise<SettleDueResult> {
    const settled: SettledPeriod[] = [];
    const failed: SettleFailure[] = [];
    const cutoff = at.getTime() - SETTLEMENT_GRACE_MS;
    for (const merchant of only ?? await deps.merchants.all()) {
      const offset = merchant.brand.gmtOffsetMinutes;
      for (const kind of kinds) {
        for (const type of periodTypesOf(kind)) {
          const windowStart = new Date(cutoff - LOOKBACK_MS[type]);
          const spans = (await db.query<{ answered_at: Date | string; ended_at: Date | string | null }>(
            `SELECT answered_at, ended_at FROM agent_contracts
              WHERE merchant_code = $1 AND kind = $2 AND status IN ('active', 'terminated', 'ended') AND answered_at IS NOT NULL
                AND (ended_at IS NULL OR ended_at >= $3) AND answered_at < $4 AND ($2 <> 'dividend' OR terms->>'profitLossPeriod' = $5)`,
            [merchant.code, kind, windowStart, new Date(cutoff), type],
          )).rows.map((r) => ({ from: new Date(r.answered_at).getTime(), to: r.ended_at === null ? Infinity : new Date(r.ended_at).getTime() }));
          if (!spans.length) continue;
          const first = Math.max(windowStart.getTime(), Math.min(...spans.map((s) => s.from)));
          const done = new Set((await db.query<{ period_key: string }>(
            'SELECT period_key FROM agent_settlement_runs WHERE merchant_code = $1 AND kind = $2 AND period_type = $3 AND period_end >= $4',
            [merchant.code, kind, type, new Date(first)],
          )).rows.map((r) => r.period_key));
          for (let p = periodOf(first, type, offset); p.end.getTime() <= cutoff; p = nextPeriod(p, offset)) {
            const end = p.end.getTime();
            if (done.has(p.key) || !spans.some((s) => s.from < end && s.to >= end)) continue;
            try {
              const r = await settleOne(merchant, kind, p);
              if (r.inserted > 0 || r.unfunded > 0) settled.push(r);
            } catch (err) {
              // One bad period (inconsistent contracts: settlePeriod refuses them) must not hold back the
              // others: it stays unsettled (its transaction rolled back) and is reported; the job fails.
              failed.push({ kind, periodType: type, periodKey: p.key, merchantCode: merchant.code, error: err instanceof Error ? err.message : String(err) });
            }
          }
        }
      }
    }
    return { settled, failed };
  }

  return { settleOne, settleDue };
}

export type AgentSettlement = ReturnType<typeof createAgentSettlement>;

/** The carry-over each contract left in its latest payout ending at or before `start` (<= 0). */
async function carryInOf(q: Queryable, contractIds: number[], start: Date): Promise<Map<number, number>> {
  const r = await q.query<{ contract_id: number; carry_out: number }>(
    `SELECT DISTINCT ON (contract_id) contract_id, carry_out FROM agent_payouts WHERE contract_id = ANY($1::bigint[]) AND period_end <= $2 ORDER BY contract_id, period_end DESC`,
    [contractIds, start],
  );
  return new Map(r.rows.map((x) => [Number(x.contract_id), Number(x.carry_out)]));
}

async function accountsOf(q: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const r = await q.query<{ id: number; account: string }>('SELECT id, account FROM members WHERE id = ANY($1::bigint[])', [ids]);
  return new Map(r.rows.map((x) => [Number(x.id), x.account]));
}

export function presentStatement(s: PayoutStatement, accounts: Map<number, string>): TPayoutStatement {
  return { ...s, lines: s.lines.map((l) => ({ ...l, account: accounts.get(l.memberId) ?? '' })), steps: statementSteps(s) };
}
