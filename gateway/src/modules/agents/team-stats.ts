import type { Db, Queryable } from '../../db/db.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AGENT_TYPES } from '@portal/contracts/domain/constants';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { checkPeriod, descendantOf, type TPeriod } from './team-tree.ts';
import { notExcludedSql } from '../rg/rg-service.ts';

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
        WHERE a.id = $1 AND ${notExcludedSql('d.id')} -- responsible gaming: excluded players are out of every base
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

const ceilHour = (d: Date) => new Date(Math.ceil(d.getTime() / HOUR_MS) * HOUR_MS);
const floorHour = (d: Date) => new Date(Math.floor(d.getTime() / HOUR_MS) * HOUR_MS);

/**
 * The team overview (see TTeamOverview) without scanning the team: every figure comes from per-agent rows,
 * plus the few source rows that are newer than the rollup or at a partial hour.
 *   - sums (bets, deposits, withdrawals, new members) over the whole UTC hours [a, b) of the range before
 *     the rollup's watermark (agent_rollup_state.folded_to): the agent's own agent_team_hours rows, ~24 a
 *     day whatever the team's size, plus the pending deltas of late changes to those hours;
 *   - active members in [a, b): agent_active_hours (migration 029), sum(n) over hour in [a, b) and
 *     prev_hour < a (each member's first active hour in the range); when b is the watermark (the usual
 *     range, up to now), the same from the agent's agent_team_hours rows already read (migration 066:
 *     sum(active_members - active_next) over [a, b)), corrected for the members with
 *     pending bet-hour deltas in [a, b) (the rollup counted what the last fold saw: current valid bets
 *     minus the pending deltas; the truth is current valid bets);
 *   - the rest (the live tail since the watermark, partial hours at the bounds): the team's member_bet_hours
 *     rows of the live hours by one range of the index (hour, tree_path) per hour (migration 045 keeps
 *     tree_path on the rows at or after the watermark); the cashier and members rows of those periods found
 *     by their time index and kept when the member is in the team; a partial hour's bets from the raw vendor
 *     rows of the team's members; a member active there counts when it was not already active in [a, b): for a
 *     live bet-hour row, read from its prev_active (migration 064: the member's last active hour before the
 *     watermark), else (partial hours, members with pending deltas in [a, b)) one probe per member;
 *   - team size, direct and agent counts: agent_team_counts (migration 029, kept by triggers in the same
 *     transaction as every member change), per type, a handful of rows.
 * Equal to teamOverviewDirect (tests: team-overview.test.ts, random worlds, deltas, late changes, folds).
 * Signature kept stable: ag-reports calls it.
 */
export async function teamOverview(
  q: Queryable,
  merchant: Pick<Merchant, 'code' | 'agentTypes'>,
  agentId: number,
  range: TPeriod,
): Promise<TTeamOverview> {
  checkPeriod(range);
  if (!Number.isSafeInteger(agentId)) return teamOverviewDirect(q, merchant, agentId, range);
  // The watermark and the agent's path: the path goes into the statement as a value, so the planner knows
  // how big the team is and probes the few live rows' members instead of scanning the team.
  const st = await q.query<{ folded_to: Date | string | null; path: string | null }>(
    `SELECT (SELECT folded_to FROM agent_rollup_state WHERE id = 1) AS folded_to,
            (SELECT tree_path FROM members WHERE id = $1 AND merchant_code = $2) AS path`, [agentId, merchant.code]);
  const path = st.rows[0]?.path ?? null;
  if (path === null) return teamOverviewDirect(q, merchant, agentId, range);
  const w = st.rows[0]?.folded_to ? new Date(st.rows[0].folded_to) : null;
  const a = ceilHour(range.from);
  let b = w ? new Date(Math.min(floorHour(range.to).getTime(), w.getTime())) : a;
  const pieces: TPeriod[] = [];
  if (a >= b) {
    // Nothing of the range is in the rollup: all of it is read like a live tail.
    b = a;
    pieces.push({ from: range.from, to: range.to });
  } else {
    if (range.from < a) pieces.push({ from: range.from, to: a });
    if (b < range.to) pieces.push({ from: b, to: range.to });
  }
  const agentTypes = [...new Set<number>([...AGENT_TYPES, ...merchant.agentTypes])];

  // One statement (one snapshot): the counts, the rollup's hours, and, kept when the member is in the
  // team, the deltas of folded hours not folded yet plus the live tail and the partial hours, driven by
  // time. A fold committing meanwhile moves deltas into the rollup and the watermark past `b`: the
  // snapshot sees either side, never both or neither.
  const params: unknown[] = [agentId, merchant.code, agentTypes, a, b, [...PAID_WITHDRAWAL_STATUSES], `${path}.`, `${path}/`];
  // A member of the team: the path bounds as values ($7, $8), the same range as descendantOf.
  const inTeam = (m: string) => `(${m}.merchant_code = $2 AND ${m}.tree_path > $7 AND ${m}.tree_path < $8)`;
  const parts = [
    `SELECT x.member_id, x.bet_count AS bc, x.valid_bets AS vb, x.payout AS po, x.deposits AS dep, x.withdrawals AS wd, x.new_members AS nm
       FROM agent_rollup_deltas x WHERE x.hour >= $4 AND x.hour < $5 AND $6::text[] IS NOT NULL`,
  ];
  // Rows already limited to the team (no membership probe needed).
  const teamParts = ['SELECT 0::bigint AS bc, 0::bigint AS vb, 0::bigint AS po WHERE false'];
  // Members of the team with a valid bet in the pieces outside [a, b) (each part limited to the team), with
  // whether they were already active in [a, b) when the row knows it (k: a live bet-hour row's prev_active,
  // migration 064), else null (a partial hour's raw rows; a row without prev_active): probed below.
  const actParts = ['SELECT NULL::bigint AS member_id, NULL::boolean AS k WHERE false'];
  for (const p of pieces) {
    params.push(p.from, p.to);
    const [f, t] = [params.length - 1, params.length];
    parts.push(
      `SELECT x.member_id, 0, 0, 0, x.amount, 0, 0 FROM deposits x WHERE x.status = 'paid' AND x.updated_at >= $${f} AND x.updated_at < $${t}`,
      `SELECT x.member_id, 0, 0, 0, 0, x.amount, 0 FROM withdrawals x WHERE x.paid_at >= $${f} AND x.paid_at < $${t} AND x.status = ANY($6::text[])`,
      `SELECT x.id, 0, 0, 0, 0, 0, 1 FROM members x WHERE x.created_at >= $${f} AND x.created_at < $${t}`,
    );
    const { hours, edges } = splitPeriod(p);
    if (hours) {
      // The live hours (all at or after the watermark): the team's rows by one range of the index
      // (hour, tree_path) per hour, no membership probe (migration 045 keeps tree_path on these rows).
      params.push(hours.from, hours.to);
      const byPath = `FROM member_bet_hours h WHERE h.hour >= $${params.length - 1} AND h.hour < $${params.length} AND h.tree_path > $7 AND h.tree_path < $8`;
      teamParts.push(`SELECT h.bet_count::bigint AS bc, h.valid_bets AS vb, h.payout AS po ${byPath}`);
      // prev_active is the member's last active hour before the watermark; these live hours exist only when
      // b is the watermark (or [a, b) is empty, a = b), so "active in [a, b)" is prev_active in [a, b).
      actParts.push(`SELECT h.member_id, (h.prev_active >= $4 AND h.prev_active < $5) ${byPath} AND h.valid_bets > 0`);
    }
    for (const e of edges) {
      // A partial hour: the raw rows of the team's members (one index range per member of the team).
      params.push(e.from, e.to);
      const raw = `FROM members d
        JOIN vendor_transactions v ON v.member_id = d.id AND v.status = 'applied' AND v.kind IN ('bet', 'win')
         AND v.created_at >= $${params.length - 1} AND v.created_at < $${params.length}
        WHERE ${inTeam('d')}`;
      teamParts.push(`SELECT (v.kind = 'bet')::int::bigint, CASE WHEN v.kind = 'bet' THEN v.amount ELSE 0 END,
          CASE WHEN v.kind = 'win' THEN v.amount ELSE 0 END ${raw}`);
      actParts.push(`SELECT v.member_id, NULL::boolean ${raw} AND v.kind = 'bet' AND v.amount > 0`);
    }
  }
  const inRollupRange = (alias: string) => `${alias}.hour >= $4 AND ${alias}.hour < $5`;
  const r = await q.query<{ found: boolean; team_size: string; direct: string; agents: string; bc: string; vb: string; po: string; dep: string; wd: string; nm: string; act: string }>(
    `WITH a AS (SELECT id, tree_path, merchant_code FROM members WHERE id = $1 AND merchant_code = $2),
     rollx AS (SELECT bet_count AS bc, valid_bets AS vb, payout AS po, deposits AS dep, withdrawals AS wd, new_members::bigint AS nm,
                      active_members::bigint - active_next AS am
                FROM agent_team_hours WHERE agent_id = $1 AND hour >= $4 AND hour < $5 AND EXISTS (SELECT 1 FROM a)),
     roll AS (SELECT bc, vb, po, dep, wd, nm FROM rollx),
     -- Found by time, then kept when in the team. Materialized: the planner estimates a team's path range at
     -- a row or two whatever its size, and would otherwise rerun these scans once per member of the team.
     timed AS MATERIALIZED (${parts.join(' UNION ALL ')}),
     live AS (SELECT s.bc, s.vb, s.po, s.dep, s.wd, s.nm::bigint AS nm
                FROM timed s
                JOIN members m ON m.id = s.member_id AND ${inTeam('m')}
              UNION ALL
              SELECT t.bc, t.vb, t.po, 0, 0, 0 FROM (${teamParts.join(' UNION ALL ')}) t),
     tot AS (SELECT coalesce(sum(bc), 0) AS bc, coalesce(sum(vb), 0) AS vb, coalesce(sum(po), 0) AS po,
                    coalesce(sum(dep), 0) AS dep, coalesce(sum(wd), 0) AS wd, coalesce(sum(nm), 0) AS nm
               FROM (SELECT * FROM roll UNION ALL SELECT * FROM live) u),
     cnt AS (SELECT coalesce(sum(team), 0) AS team_size, coalesce(sum(direct), 0) AS direct,
                    coalesce(sum(team) FILTER (WHERE type = ANY($3::int[])), 0) AS agents
               FROM agent_team_counts WHERE agent_id = $1 AND EXISTS (SELECT 1 FROM a)),
     -- When [a, b) ends at the watermark as this statement sees it (the usual range, up to now; a fold
     -- committing since the first statement moves it past b): every agent_active_hours entry has its hour
     -- before it, so the entries with prev_hour >= a are those with prev_hour in [a, b), and the count is
     -- migration 066's per-hour totals on the agent's rows read above; else its entries (the other branch is not run).
     act_roll AS (SELECT CASE WHEN (SELECT folded_to FROM agent_rollup_state WHERE id = 1) = $5
                    THEN (SELECT coalesce(sum(am), 0) FROM rollx)
                    ELSE (SELECT coalesce(sum(n), 0) FROM agent_active_hours
                           WHERE agent_id = $1 AND hour >= $4 AND hour < $5 AND prev_hour < $4 AND EXISTS (SELECT 1 FROM a)) END AS n),
     pend AS (SELECT x.member_id, x.hour, sum(x.valid_bets) AS dvb FROM agent_rollup_deltas x
               WHERE ${inRollupRange('x')} GROUP BY 1, 2 HAVING sum(x.valid_bets) <> 0),
     pm AS (SELECT DISTINCT p.member_id FROM pend p JOIN members m ON m.id = p.member_id AND ${inTeam('m')}),
     act_fix AS (SELECT coalesce(sum(
                   (EXISTS (SELECT 1 FROM member_bet_hours h WHERE h.member_id = pm.member_id AND ${inRollupRange('h')} AND h.valid_bets > 0))::int
                 - (EXISTS (SELECT 1 FROM member_bet_hours h LEFT JOIN pend p ON p.member_id = h.member_id AND p.hour = h.hour
                             WHERE h.member_id = pm.member_id AND ${inRollupRange('h')} AND h.valid_bets - coalesce(p.dvb, 0) > 0))::int), 0) AS n
                   FROM pm),
     -- Members with any pending valid-bets delta in [a, b) (one netting to zero included): their prev_active
     -- may predate it, so they are probed (migration 064's invariant).
     pany AS (SELECT DISTINCT x.member_id FROM agent_rollup_deltas x WHERE ${inRollupRange('x')} AND x.valid_bets <> 0),
     cand AS (SELECT t.member_id, bool_or(t.k) AS k FROM (${actParts.join(' UNION ALL ')}) t GROUP BY t.member_id),
     act_tail AS (SELECT count(*) AS n FROM cand u LEFT JOIN pany ON pany.member_id = u.member_id
                   WHERE CASE WHEN u.k IS NOT NULL AND pany.member_id IS NULL THEN NOT u.k
                              ELSE NOT EXISTS (SELECT 1 FROM member_bet_hours h WHERE h.member_id = u.member_id AND ${inRollupRange('h')} AND h.valid_bets > 0) END)
     SELECT EXISTS (SELECT 1 FROM a) AS found,
            cnt.team_size::text AS team_size, cnt.direct::text AS direct, cnt.agents::text AS agents,
            tot.bc::text AS bc, tot.vb::text AS vb, tot.po::text AS po, tot.dep::text AS dep, tot.wd::text AS wd, tot.nm::text AS nm,
            (act_roll.n + act_fix.n + act_tail.n)::text AS act
       FROM tot, cnt, act_roll, act_fix, act_tail`,
    params,
  );
  const row = r.rows[0];
  if (!row?.found) return teamOverviewDirect(q, merchant, agentId, range);
  const validBets = toSafe(row.vb, 'validBets');
  const payout = toSafe(row.po, 'payout');
  return {
    teamSize: toSafe(row.team_size, 'teamSize'), directCount: toSafe(row.direct, 'directCount'), agentCount: toSafe(row.agents, 'agentCount'),
    newMembers: toSafe(row.nm, 'newMembers'), activeMembers: toSafe(row.act, 'activeMembers'),
    deposits: toSafe(row.dep, 'deposits'), withdrawals: toSafe(row.wd, 'withdrawals'),
    validBets, betCount: toSafe(row.bc, 'betCount'), payout, profitLoss: payout - validBets,
  };
}

/**
 * Members of the team with at least one valid bet in the range (teamBetTotals' rule, activeMinValidBets 1).
 * An hour's valid_bets is never negative (a rollback takes out only what its bet put in), so "the sum over
 * the range > 0" is "some hour with valid_bets > 0, or some applied bet in a partial hour": an EXISTS per
 * member that stops at its first such hour.
 */
export async function teamActiveMembers(q: Queryable, agentId: number, range: TPeriod): Promise<number> {
  checkPeriod(range);
  const { hours, edges } = splitPeriod(range);
  const params: unknown[] = [agentId];
  const conds: string[] = [];
  if (hours) {
    params.push(hours.from, hours.to);
    conds.push(`EXISTS (SELECT 1 FROM member_bet_hours h WHERE h.member_id = d.id AND h.hour >= $${params.length - 1} AND h.hour < $${params.length} AND h.valid_bets > 0)`);
  }
  for (const e of edges) {
    params.push(e.from, e.to);
    conds.push(`EXISTS (SELECT 1 FROM vendor_transactions v WHERE v.member_id = d.id AND v.kind = 'bet' AND v.status = 'applied'
      AND v.created_at >= $${params.length - 1} AND v.created_at < $${params.length})`);
  }
  const r = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM members a JOIN members d ON d.merchant_code = a.merchant_code AND ${descendantOf('d', 'a.tree_path')}
      WHERE a.id = $1 AND (${conds.join(' OR ')})`,
    params,
  );
  return r.rows[0]?.n ?? 0;
}

/** Fold every hour that ended more than `graceMs` before `now` into agent_team_hours (exactly once; see migration 028). */
export async function foldTeamRollup(q: Queryable, now = new Date(), graceMs = 5 * 60_000): Promise<Date> {
  const r = await q.query<{ w: Date | string }>('SELECT agent_rollup_fold($1) AS w', [new Date(now.getTime() - graceMs)]);
  return new Date(r.rows[0]!.w);
}

export const TEAM_ROLLUP_JOB = 'agents.team-rollup';
const TEAM_ROLLUP_EVERY_MS = 5 * 60_000;

/**
 * The job that folds closed hours (and the deltas of late changes) into agent_team_hours, every 5 minutes
 * on the job queue. Exactly once: the fold holds the watermark row and moves it in the same transaction
 * as the rows it adds, so two nodes, a retry or a catch-up run fold each hour once; the period's "done"
 * commits with it.
 */
export function registerTeamRollupJob(jobs: JobQueue, db: Db) {
  jobs.define(TEAM_ROLLUP_JOB, async (job) => {
    await db.tx(async (tx) => {
      await foldTeamRollup(tx);
      await job.completeIn(tx);
    });
  });
  jobs.schedule(TEAM_ROLLUP_JOB, { everyMs: TEAM_ROLLUP_EVERY_MS }, { catchUpMs: 0, keepMs: 24 * 3600_000 });
}
