import type { Queryable } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';

/**
 * The agent team tree (issue 11), stored as `members.tree_path`: the ids from the top upline down to
 * the member ('1.57.2031'), text COLLATE "C", kept by triggers (migration 023_agents_team_tree.sql).
 * Every helper here bounds its rows in SQL by the agent's own path, so nothing outside the agent's
 * subtree is ever read into the process: a sibling's or an upline's team cannot leak through a filter
 * forgotten in JavaScript. Ids that are not in the subtree (or do not exist) answer the same way.
 */

/**
 * SQL predicate: the row `alias` of members is a strict descendant of the member whose tree_path is
 * the SQL expression `pathExpr`. One btree range ('/' is the character after '.'), so '1.5' never
 * matches '1.50'. Both sides must be literal SQL from this codebase, never user input.
 */
export function descendantOf(alias: string, pathExpr: string): string {
  return `(${alias}.tree_path > ${pathExpr} || '.' AND ${alias}.tree_path < ${pathExpr} || '/')`;
}

/** Is `memberId` in the team of `agentId` (a strict descendant; with includeSelf, the agent too)? */
export async function isInSubtree(q: Queryable, agentId: number, memberId: number, opts: { includeSelf?: boolean } = {}): Promise<boolean> {
  if (!Number.isSafeInteger(agentId) || !Number.isSafeInteger(memberId)) return false;
  const r = await q.query<{ ok: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM members a JOIN members d ON d.merchant_code = a.merchant_code
        WHERE a.id = $1 AND d.id = $2 AND (${descendantOf('d', 'a.tree_path')} OR ($3::boolean AND d.id = a.id))
     ) AS ok`,
    [agentId, memberId, opts.includeSelf ?? false],
  );
  return r.rows[0]?.ok === true;
}

/** The guard every agent call on a member runs first: NOT_IN_TREE (403) unless the member is in the agent's team. */
export async function requireInSubtree(q: Queryable, agentId: number, memberId: number, opts: { includeSelf?: boolean } = {}): Promise<void> {
  if (!(await isInSubtree(q, agentId, memberId, opts))) throw new AppError(ErrorCode.NOT_IN_TREE);
}

/** A half-open period [from, to). */
export type TPeriod = { from: Date; to: Date };

export function checkPeriod(p: TPeriod) {
  if (!(p.from instanceof Date) || !(p.to instanceof Date) || Number.isNaN(p.from.getTime()) || Number.isNaN(p.to.getTime()) || p.from >= p.to) {
    throw new AppError(ErrorCode.VALIDATION, 'Invalid period', [{ path: 'period', message: 'from must be before to' }]);
  }
}

export type TSubtreeSummary = {
  /** Members in the agent's team, the agent itself left out. */
  teamSize: number;
  /** Of them, registered within the period. */
  newMembers: number;
  /** Of them, with at least one accepted bet (vendor wallet, house games included) within the period. */
  activeMembers: number;
};

/** Team size, new and active members of the agent's team for a period, in one bounded statement. */
export async function subtreeSummary(q: Queryable, agentId: number, period: TPeriod): Promise<TSubtreeSummary> {
  checkPeriod(period);
  const r = await q.query<{ team_size: number; new_members: number; active_members: number }>(
    `SELECT count(*)::int AS team_size,
            count(*) FILTER (WHERE d.created_at >= $2 AND d.created_at < $3)::int AS new_members,
            count(*) FILTER (WHERE EXISTS (
              SELECT 1 FROM vendor_transactions v
               WHERE v.member_id = d.id AND v.kind = 'bet' AND v.status = 'applied' AND v.created_at >= $2 AND v.created_at < $3))::int AS active_members
       FROM members a JOIN members d ON ${descendantOf('d', 'a.tree_path')}
      WHERE a.id = $1`,
    [agentId, period.from, period.to],
  );
  const row = r.rows[0];
  return { teamSize: row?.team_size ?? 0, newMembers: row?.new_members ?? 0, activeMembers: row?.active_members ?? 0 };
}

/** SQL: the team size (descendants, itself left out) of the member whose id is the SQL expression `idExpr`, from agent_team_counts. */
export function teamSizeOf(idExpr: string): string {
  return `(SELECT coalesce(sum(t.team), 0) FROM agent_team_counts t WHERE t.agent_id = ${idExpr})::int`;
}

export type TDownline = {
  id: number; account: string; nickname: string | null; type: number; status: 'active' | 'disabled'; createdAt: string;
  /** Members in this downline's own team, itself left out. */
  teamSize: number;
};

export type TDownlinePage = { list: TDownline[]; pageNo: number; pageSize: number; total: number };

const MAX_PAGE_SIZE = 100;

/**
 * A page of the direct downlines of `parentId` (default: the agent itself), each with its team size,
 * ordered by id. `parentId` may be any member of the agent's team (drilling into a downline's own team);
 * anything else, a sibling's or an upline's member included, gives an empty page with total 0, decided
 * in the same statement. `account` filters on an account prefix, case-insensitive.
 */
export async function downlinePage(
  q: Queryable,
  agentId: number,
  opts: { parentId?: number; pageNo?: number; pageSize?: number; account?: string } = {},
): Promise<TDownlinePage> {
  const pageNo = opts.pageNo ?? 1;
  const pageSize = opts.pageSize ?? 20;
  if (!Number.isSafeInteger(pageNo) || pageNo < 1 || !Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw new AppError(ErrorCode.VALIDATION, 'Invalid page', [{ path: 'pageNo', message: `pageNo >= 1, pageSize 1-${MAX_PAGE_SIZE}` }]);
  }
  const parentId = opts.parentId ?? agentId;
  if (!Number.isSafeInteger(parentId)) return { list: [], pageNo, pageSize, total: 0 };
  const prefix = opts.account ? `${opts.account.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  // The parent row is taken only when it is the agent or inside the agent's team; every downline row hangs from it.
  const scope = `WITH p AS (
      SELECT u.id FROM members a JOIN members u ON u.merchant_code = a.merchant_code
       WHERE a.id = $1 AND u.id = $2 AND (u.id = a.id OR ${descendantOf('u', 'a.tree_path')})
    )`;
  // The parent as a value ($2), the scope a one-time filter: the planner sees which parent it is (how many
  // direct downlines) and walks the (parent_id, id) index in order under the LIMIT, index-only (migration
  // 064's covering index), instead of a bitmap scan of every direct downline's heap row and a sort (what a
  // parent known only at run time, `= (SELECT id FROM p)`, got at 1,000,000 members).
  const filter = `c.parent_id = $2 AND EXISTS (SELECT 1 FROM p) AND ($3::text IS NULL OR c.account_lower LIKE $3)`;
  // Team sizes and, without a filter, the total are the counters of agent_team_counts (migration 029, kept
  // by triggers with every member change): a lookup per row instead of counting each downline's team.
  // One statement, one round trip: the page and its total (a one-row base, so an empty page still has it).
  const rows = await q.query<{ total: number; id: number | null; account: string; nickname: string | null; type: number; status: 'active' | 'disabled'; created_at: Date | string; team_size: number }>(
    `${scope}, page AS (
       SELECT c.id, c.account, c.nickname, c.type, c.status, c.created_at, ${teamSizeOf('c.id')} AS team_size
         FROM members c WHERE ${filter}
        ORDER BY c.id LIMIT $4 OFFSET $5
     )
     SELECT tot.n AS total, page.* FROM (
       SELECT CASE WHEN $3::text IS NULL
                   THEN (SELECT coalesce(sum(t.direct), 0) FROM p JOIN agent_team_counts t ON t.agent_id = p.id)
                   ELSE (SELECT count(*) FROM members c WHERE ${filter}) END::int AS n
     ) tot LEFT JOIN page ON true
     ORDER BY page.id`,
    [agentId, parentId, prefix, pageSize, (pageNo - 1) * pageSize],
  );
  const list = rows.rows.filter((r): r is typeof r & { id: number } => r.id !== null);
  return {
    list: list.map((r) => ({
      id: r.id, account: r.account, nickname: r.nickname, type: r.type, status: r.status, teamSize: r.team_size,
      createdAt: (r.created_at instanceof Date ? r.created_at : new Date(r.created_at)).toISOString(),
    })),
    pageNo, pageSize, total: rows.rows[0]?.total ?? 0,
  };
}
