import type { Queryable } from '../../db/db.ts';
import { AGENT_TYPES } from '@portal/contracts/domain/constants';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { checkPeriod, descendantOf, type TPeriod } from './team-tree.ts';

/**
 * Team betting figures for a period, from the per-member per-hour rollup `member_bet_hours`
 * (migration 025_member_bet_hours.sql, kept by vendor_money in the same transaction as each bet, win
 * and rollback) joined to the agent's subtree (members.tree_path). Definitions (README "Bet rollup"):
 *   - a valid bet is a bet the wallet accepted and that was not rolled back (house games included);
 *   - payout is the wins paid; profit and loss is payout - valid bets, the players' result (positive
 *     when they won; the team's net loss is its negation, as in contracts' agent-settlement.ts);
 *   - an active member has at least `activeMinValidBets` (default 1) minor units of valid bets in the
 *     period, the same rule as agent-settlement.ts.
 * The rollup's hours are UTC. Whole UTC hours of the period are read from the rollup; a period bound
 * that is not on a UTC hour (a half-hour GMT offset, a 5-minute real-time salary period) has its partial
 * hour read from the raw vendor_transactions rows, so any period is exact.
 */
export type TTeamBetTotals = {
  betCount: number;
  validBets: number;
  payout: number;
  profitLoss: number;
  activeMembers: number;
};

const HOUR_MS = 3600_000;

/** [from, to) split into whole UTC hours [hoursFrom, hoursTo) and up to two partial-hour edges. */
export function splitPeriod(p: TPeriod): { hours: TPeriod | null; edges: TPeriod[] } {
  const from = p.from.getTime();
  const to = p.to.getTime();
  const up = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const down = Math.floor(to / HOUR_MS) * HOUR_MS;
  if (up >= down) return { hours: null, edges: [{ from: p.from, to: p.to }] };
  const edges: TPeriod[] = [];
  if (from < up) edges.push({ from: p.from, to: new Date(up) });
  if (down < to) edges.push({ from: new Date(down), to: p.to });
  return { hours: { from: new Date(up), to: new Date(down) }, edges };
}

function toSafe(v: unknown, what: string): number {
  const n = Number(v ?? 0);
  if (!Number.isSafeInteger(n)) throw new Error(`${what} out of the safe integer range: ${String(v)}`);
  return n;
}

/**
 * The betting totals of `agentId`'s team for the half-open period: its strict descendants, or with
 * includeSelf the agent too (a settlement base: "the member and all descendants"). One statement,
 * bounded in SQL by the agent's path; an unknown agent gives zeros.
 */
export async function teamBetTotals(
  q: Queryable,
  agentId: number,
  period: TPeriod,
  opts: { includeSelf?: boolean; activeMinValidBets?: number } = {},
): Promise<TTeamBetTotals> {
  checkPeriod(period);
  const activeMin = opts.activeMinValidBets ?? 1;
  if (!Number.isSafeInteger(activeMin) || activeMin < 0) throw new RangeError('activeMinValidBets must be a non-negative integer');
  const zero = { betCount: 0, validBets: 0, payout: 0, profitLoss: 0, activeMembers: 0 };
  if (!Number.isSafeInteger(agentId)) return zero;
  const { hours, edges } = splitPeriod(period);
  const params: unknown[] = [agentId, opts.includeSelf ?? false, activeMin];
  const parts: string[] = [];
  if (hours) {
    params.push(hours.from, hours.to);
    const [f, t] = [params.length - 1, params.length];
    parts.push(`SELECT h.member_id, h.bet_count::bigint AS bc, h.valid_bets AS vb, h.payout AS po
      FROM sub JOIN member_bet_hours h ON h.member_id = sub.id AND h.hour >= $${f} AND h.hour < $${t}`);
  }
  if (edges.length) {
    const ranges = edges.map((e) => {
      params.push(e.from, e.to);
      return `(v.created_at >= $${params.length - 1} AND v.created_at < $${params.length})`;
    });
    parts.push(`SELECT v.member_id, (v.kind = 'bet')::int::bigint AS bc,
        CASE WHEN v.kind = 'bet' THEN v.amount ELSE 0 END AS vb, CASE WHEN v.kind = 'win' THEN v.amount ELSE 0 END AS po
      FROM sub JOIN vendor_transactions v ON v.member_id = sub.id AND v.status = 'applied' AND v.kind IN ('bet', 'win')
       AND (${ranges.join(' OR ')})`);
  }
  const r = await q.query<{ bc: string; vb: string; po: string; active: number }>(
    `WITH sub AS (
       SELECT d.id FROM members a JOIN members d ON d.merchant_code = a.merchant_code
                                              AND (${descendantOf('d', 'a.tree_path')} OR ($2::boolean AND d.id = a.id))
        WHERE a.id = $1
     ), per AS (
       SELECT member_id, sum(bc) AS bc, sum(vb) AS vb, sum(po) AS po FROM (${parts.join(' UNION ALL ')}) x GROUP BY member_id
     )
     SELECT coalesce(sum(bc), 0)::text AS bc, coalesce(sum(vb), 0)::text AS vb, coalesce(sum(po), 0)::text AS po,
            count(*) FILTER (WHERE vb > 0 AND vb >= $3)::int AS active
       FROM per`,
    params,
  );
  const row = r.rows[0];
  if (!row) return zero;
  const validBets = toSafe(row.vb, 'validBets');
  const payout = toSafe(row.po, 'payout');
  return { betCount: toSafe(row.bc, 'betCount'), validBets, payout, profitLoss: payout - validBets, activeMembers: row.active };
}

/**
 * The team overview of an agent (issue 11, GET /wps/agent/team/overview) for a half-open range.
 * The team is the agent's strict descendants (the agent itself left out, as teamBetTotals and
 * subtreeSummary): every figure is over those members only.
 *   - teamSize: descendants; directCount: direct downlines; agentCount: descendants of an agent type
 *     (AGENT_TYPES plus the merchant's agentTypes);
 *   - newMembers: descendants registered (members.created_at) in the range;
 *   - activeMembers: descendants with at least one valid bet in the range (teamBetTotals' rule with
 *     activeMinValidBets 1: valid bets > 0 in the range);
 *   - deposits: amounts of deposits that reached 'paid' in the range (a paid deposit is final, so its
 *     updated_at is when it was credited);
 *   - withdrawals: amounts of withdrawals paid out in the range (paid_at in the range, status paid or
 *     any confirmation after it: the money left the wallet when the hold was posted, whatever the player
 *     confirmed later);
 *   - validBets, betCount, payout, profitLoss (= payout - validBets, the players' result): teamBetTotals.
 * An agent that is not of this merchant (or does not exist) gives zeros.
 */
export type TTeamOverview = {
  teamSize: number;
  directCount: number;
  agentCount: number;
  newMembers: number;
  activeMembers: number;
  deposits: number;
  withdrawals: number;
  validBets: number;
  betCount: number;
  payout: number;
  profitLoss: number;
};

export const PAID_WITHDRAWAL_STATUSES = ['paid', 'received', 'partially_received', 'not_received', 'auto_received'] as const;

/** The straightforward statement over members, member_bet_hours (via teamBetTotals) and the cashier tables. */
export async function teamOverviewDirect(
  q: Queryable,
  merchant: Pick<Merchant, 'code' | 'agentTypes'>,
  agentId: number,
  range: TPeriod,
): Promise<TTeamOverview> {
  checkPeriod(range);
  const zero: TTeamOverview = { teamSize: 0, directCount: 0, agentCount: 0, newMembers: 0, activeMembers: 0, deposits: 0, withdrawals: 0, validBets: 0, betCount: 0, payout: 0, profitLoss: 0 };
  if (!Number.isSafeInteger(agentId)) return zero;
  const agentTypes = [...new Set<number>([...AGENT_TYPES, ...merchant.agentTypes])];
  const r = await q.query<{ found: boolean; team_size: number; direct: number; agents: number; new_members: number; dep: string; wd: string }>(
    `WITH a AS (SELECT id, tree_path, merchant_code FROM members WHERE id = $1 AND merchant_code = $2),
     sub AS (SELECT d.id, d.parent_id, d.type, d.created_at FROM a JOIN members d ON d.merchant_code = a.merchant_code AND ${descendantOf('d', 'a.tree_path')})
     SELECT EXISTS (SELECT 1 FROM a) AS found,
            (SELECT count(*) FROM sub)::int AS team_size,
            (SELECT count(*) FROM sub WHERE parent_id = $1)::int AS direct,
            (SELECT count(*) FROM sub WHERE type = ANY($3::int[]))::int AS agents,
            (SELECT count(*) FROM sub WHERE created_at >= $4 AND created_at < $5)::int AS new_members,
            (SELECT coalesce(sum(x.amount), 0) FROM sub JOIN deposits x ON x.member_id = sub.id
              WHERE x.status = 'paid' AND x.updated_at >= $4 AND x.updated_at < $5)::text AS dep,
            (SELECT coalesce(sum(x.amount), 0) FROM sub JOIN withdrawals x ON x.member_id = sub.id
              WHERE x.status = ANY($6::text[]) AND x.paid_at >= $4 AND x.paid_at < $5)::text AS wd`,
    [agentId, merchant.code, agentTypes, range.from, range.to, [...PAID_WITHDRAWAL_STATUSES]],
  );
  const row = r.rows[0];
  if (!row?.found) return zero;
  const bets = await teamBetTotals(q, agentId, range);
  return {
    teamSize: row.team_size, directCount: row.direct, agentCount: row.agents, newMembers: row.new_members,
    activeMembers: bets.activeMembers, deposits: toSafe(row.dep, 'deposits'), withdrawals: toSafe(row.wd, 'withdrawals'),
    validBets: bets.validBets, betCount: bets.betCount, payout: bets.payout, profitLoss: bets.profitLoss,
  };
}

/** The team overview (see TTeamOverview). Signature kept stable: ag-reports calls it. */
export async function teamOverview(
  q: Queryable,
  merchant: Pick<Merchant, 'code' | 'agentTypes'>,
  agentId: number,
  range: TPeriod,
): Promise<TTeamOverview> {
  return teamOverviewDirect(q, merchant, agentId, range);
}
