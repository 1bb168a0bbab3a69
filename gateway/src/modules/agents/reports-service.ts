import { randomBytes } from 'node:crypto';
import { notExcludedSql } from '../rg/rg-service.ts';
import type { z } from 'zod';
import {
  AGENT_REPORT_MAX_DAYS, type ZMemTransValue, type ZTeamBetsValue, type TConsolidatedFunds, type TDownline, type TTeamOverview as TTeamOverviewValue, type TInvitation, type TMemTrans, type TPnlLine, type TTeamBet,
} from '@portal/contracts/api/agent-reports';
import type { TAgentContract } from '@portal/contracts/api/agent-contracts';
import { checkField } from '@portal/contracts/domain/registration';
import { isAgentType, isTrialType } from '@portal/contracts/domain/member';
import type { Db, Queryable } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import type { PasswordHasher } from '../auth/password-hasher.ts';
import { registrationRules, ruleOf } from '../auth/registration-settings.ts';
import { CONTRACT_SELECT, toAgentContract, type ContractRow } from './contracts-service.ts';
import { descendantOf, requireInSubtree, teamSizeOf, type TPeriod } from './team-tree.ts';
import { PAID_WITHDRAWAL_STATUSES, teamBetTotals, teamOverview, type TTeamBetTotals } from './team-stats.ts';
import { iso } from '../../db/iso.ts';
import { LEDGER_REFERENCE_SQL } from '../wallet/records.ts';
import { LEDGER_RECORD_KINDS, recordKindOf } from '@portal/contracts/api/wallet';

/**
 * Agent reports and the register centre (issue 11): downlines, direct creation, set as agent, a
 * downline's contracts, invitations with quota, team bets, profit and loss per downline, account
 * details (ODSFE2_MemTransDet) and the consolidated contract flags.
 *
 * Every read is bounded in SQL by the caller's own tree_path (descendantOf), so a sibling's or an
 * upline's member never enters the process; a member id outside the caller's team answers NOT_IN_TREE.
 */

const DAY_MS = 86_400_000;
/** The agent account type given by direct creation, set-agent and agent invitations. */
export const DOWNLINE_AGENT_TYPE = 2;
export const DOWNLINE_PLAYER_TYPE = 0;

const num = (v: unknown) => {
  const n = Number(v ?? 0);
  if (!Number.isSafeInteger(n)) throw new Error(`amount out of the safe integer range: ${String(v)}`);
  return n;
};
const likePrefix = (s: string) => `${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The merchant's calendar day of `now` (yyyy-MM-dd). */
export function merchantToday(offsetMinutes: number, now = new Date()): string {
  return new Date(now.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

export type TDayRange = { fromDay: string; toDay: string; from: Date; to: Date };

/**
 * from/to (yyyy-MM-dd, both days included) on the merchant's calendar as a half-open UTC period.
 * Default today; a day that does not exist, from after to, or a span over AGENT_REPORT_MAX_DAYS is VALIDATION.
 */
export function dayRange(q: { from?: string | undefined; to?: string | undefined }, offsetMinutes: number, now = new Date()): TDayRange {
  const today = merchantToday(offsetMinutes, now);
  const toDay = q.to ?? (q.from && q.from > today ? q.from : today);
  const fromDay = q.from ?? toDay;
  const start = (s: string, path: string) => {
    const t = /^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(`${s}T00:00:00Z`) : NaN;
    if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== s) {
      throw new AppError(ErrorCode.VALIDATION, 'Invalid date', [{ path, message: 'yyyy-MM-dd' }]);
    }
    return t - offsetMinutes * 60_000;
  };
  const from = start(fromDay, 'from');
  const to = start(toDay, 'to') + DAY_MS;
  if (from >= to) throw new AppError(ErrorCode.VALIDATION, 'from is after to', [{ path: 'from', message: 'after to' }]);
  if (to - from > AGENT_REPORT_MAX_DAYS * DAY_MS) {
    throw new AppError(ErrorCode.VALIDATION, `At most ${AGENT_REPORT_MAX_DAYS} days`, [{ path: 'from', message: `at most ${AGENT_REPORT_MAX_DAYS} days` }]);
  }
  return { fromDay, toDay, from: new Date(from), to: new Date(to) };
}

type DownlineRow = {
  id: number; account: string; nickname: string | null; type: number; status: 'active' | 'disabled'; created_at: Date | string;
  last_login_at: Date | string | null; depth: number; team_size: number; direct_count: number; balance: string | null;
};

/** The columns of a downline row `c` seen from the agent row `a`, with the merchant currency as $cur. */
const downlineColumns = (cur: string) => `c.id, c.account, c.nickname, c.type, c.status, c.created_at, c.last_login_at,
  (length(c.tree_path) - length(replace(c.tree_path, '.', ''))) - (length(a.tree_path) - length(replace(a.tree_path, '.', ''))) AS depth,
  ${teamSizeOf('c.id')} AS team_size,
  (SELECT coalesce(sum(t.direct), 0) FROM agent_team_counts t WHERE t.agent_id = c.id)::int AS direct_count,
  (SELECT la.balance::text FROM ledger_accounts la WHERE la.member_id = c.id AND la.currency = ${cur}) AS balance`;

function toDownline(m: Merchant, r: DownlineRow): TDownline {
  return {
    id: r.id, account: r.account, nickname: r.nickname, type: r.type, isAgent: isAgentType(r.type, m.agentTypes), depth: r.depth,
    teamSize: r.team_size, directCount: r.direct_count, status: r.status, registeredAt: iso(r.created_at),
    lastLoginAt: r.last_login_at === null ? null : iso(r.last_login_at), balance: num(r.balance),
  };
}

type InvitationRow = {
  id: number; code: string; account_type: number; quota: number; used: number; disabled_at: Date | string | null;
  expires_at: Date | string | null; created_at: Date | string;
};

export function invitationStatus(r: Pick<InvitationRow, 'disabled_at' | 'expires_at' | 'used' | 'quota'>, now = new Date()): TInvitation['status'] {
  if (r.disabled_at !== null) return 'disabled';
  if (r.used >= r.quota) return 'exhausted';
  if (r.expires_at !== null && new Date(r.expires_at).getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** Invitation codes: 10 characters without look-alikes (0/O, 1/I/L), inside the affiliateCode rule (4-16). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
function newCode(): string {
  const b = randomBytes(10);
  let s = '';
  for (const x of b) s += CODE_ALPHABET[x % CODE_ALPHABET.length];
  return s;
}

const ZERO_FIGURES = { validBets: 0, betCount: 0, payout: 0, profitLoss: 0, deposits: 0, withdrawals: 0 };
type Figures = typeof ZERO_FIGURES;


export function createAgentReports(deps: { db: Db; hasher: PasswordHasher }) {
  const { db, hasher } = deps;

  /** The caller, read now (a member set as agent since its login passes; one no longer an agent does not): NON_AGENT unless an agent type. */
  async function requireAgent(m: Merchant, memberId: number): Promise<void> {
    const r = await db.query<{ type: number }>('SELECT type FROM members WHERE id = $1 AND merchant_code = $2', [memberId, m.code]);
    const type = r.rows[0]?.type;
    if (type === undefined) throw new AppError(ErrorCode.UNAUTHORIZED);
    if (isTrialType(type, m.trialTypes)) throw new AppError(ErrorCode.TRIAL_FORBIDDEN);
    if (!isAgentType(type, m.agentTypes)) throw new AppError(ErrorCode.NON_AGENT, 'Only agents can use the agent centre');
  }

  /** A direct downline of the agent: NOT_IN_TREE outside its team, NOT_DIRECT_DOWNLINE deeper in it. */
  async function requireDirect(q: Queryable, agentId: number, memberId: number): Promise<{ id: number; type: number; status: string }> {
    await requireInSubtree(q, agentId, memberId);
    const r = await q.query<{ id: number; type: number; status: string; parent_id: number | null }>('SELECT id, type, status, parent_id FROM members WHERE id = $1', [memberId]);
    const row = r.rows[0]!;
    if (row.parent_id !== agentId) throw new AppError(ErrorCode.NOT_DIRECT_DOWNLINE);
    return row;
  }

  /** The breadcrumb from the agent down to `memberId` (both included); the member must be the agent or in its team. */
  async function pathTo(q: Queryable, agentId: number, memberId: number): Promise<Array<{ id: number; account: string }>> {
    const r = await q.query<{ id: number; account: string }>(
      `SELECT x.id, x.account FROM members a JOIN members t ON t.merchant_code = a.merchant_code
         JOIN members x ON x.merchant_code = a.merchant_code AND (x.id = a.id OR ${descendantOf('x', 'a.tree_path')})
                       AND (x.id = t.id OR t.tree_path > x.tree_path || '.' AND t.tree_path < x.tree_path || '/')
        WHERE a.id = $1 AND t.id = $2 AND (t.id = a.id OR ${descendantOf('t', 'a.tree_path')})
        ORDER BY length(x.tree_path)`,
      [agentId, memberId],
    );
    return r.rows;
  }

  async function downlines(m: Merchant, agentId: number, q: { parentId?: number | undefined; search?: string | undefined; pageNo: number; pageSize: number }) {
    const offset = (q.pageNo - 1) * q.pageSize;
    if (q.search) {
      const where = `FROM members a JOIN members c ON c.merchant_code = a.merchant_code AND ${descendantOf('c', 'a.tree_path')}
        WHERE a.id = $1 AND c.account_lower LIKE $2 AND ${notExcludedSql('c.id')}`;
      const rows = await db.query<DownlineRow>(
        `SELECT ${downlineColumns('$3')} ${where} ORDER BY c.account_lower, c.id LIMIT $4 OFFSET $5`,
        [agentId, likePrefix(q.search), m.currency, q.pageSize, offset],
      );
      const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${where}`, [agentId, likePrefix(q.search)]);
      return { list: rows.rows.map((r) => toDownline(m, r)), pageNo: q.pageNo, pageSize: q.pageSize, total: total.rows[0]?.n ?? 0, path: await pathTo(db, agentId, agentId) };
    }
    const parentId = q.parentId ?? agentId;
    if (parentId !== agentId) await requireInSubtree(db, agentId, parentId);
    const where = `FROM members a JOIN members c ON c.merchant_code = a.merchant_code AND ${descendantOf('c', 'a.tree_path')}
      WHERE a.id = $1 AND c.parent_id = $2 AND ${notExcludedSql('c.id')}`;
    const rows = await db.query<DownlineRow>(
      `SELECT ${downlineColumns('$3')} ${where} ORDER BY c.id LIMIT $4 OFFSET $5`,
      [agentId, parentId, m.currency, q.pageSize, offset],
    );
    const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${where}`, [agentId, parentId]);
    return { list: rows.rows.map((r) => toDownline(m, r)), pageNo: q.pageNo, pageSize: q.pageSize, total: total.rows[0]?.n ?? 0, path: await pathTo(db, agentId, parentId) };
  }

  async function downlineOf(m: Merchant, agentId: number, memberId: number): Promise<TDownline> {
    const r = await db.query<DownlineRow>(
      `SELECT ${downlineColumns('$3')} FROM members a JOIN members c ON c.merchant_code = a.merchant_code AND ${descendantOf('c', 'a.tree_path')}
        WHERE a.id = $1 AND c.id = $2`,
      [agentId, memberId, m.currency],
    );
    if (!r.rows[0]) throw new AppError(ErrorCode.NOT_IN_TREE);
    return toDownline(m, r.rows[0]);
  }

  /** Direct creation under the agent, on the registration rules of the merchant for the account and the password. */
  async function createDownline(m: Merchant, agentId: number, body: { account: string; password: string; nickname?: string | undefined; accountType: 'player' | 'agent' }, ip: string): Promise<TDownline> {
    const rules = registrationRules(m);
    const problems: Array<{ path: string; message: string }> = [];
    for (const [field, path] of [['username', 'account'], ['password', 'password']] as const) {
      const p = checkField({ ...ruleOf(rules, field), enabled: true, required: true }, body[path]);
      if (p) problems.push({ path, message: p.kind === 'pattern' ? `${p.key}:${p.range}` : 'Input cannot be empty' });
    }
    if (problems.length) throw new AppError(ErrorCode.VALIDATION, 'Invalid input', problems);
    const passwordHash = await hasher.hash(body.password);
    const type = body.accountType === 'agent' ? DOWNLINE_AGENT_TYPE : DOWNLINE_PLAYER_TYPE;
    let id: number;
    try {
      const r = await db.query<{ id: number }>(
        // The agent chose the password: the member replaces it at first sign-in (must_change_password), so the
        // agent does not keep a way into the account (it kept one).
        `INSERT INTO members (merchant_code, account, account_lower, nickname, type, password_hash, password_changed_at, password_expires_at, parent_id, register_ip, must_change_password)
         SELECT $1, $2, lower($2), $3, $4, $5, now(), CASE WHEN $6::int > 0 THEN now() + make_interval(days => $6::int) END, a.id, $8, true
           FROM members a WHERE a.id = $7 AND a.merchant_code = $1 AND a.status = 'active'
         RETURNING id`,
        [m.code, body.account, body.nickname || null, type, passwordHash, m.security.passwordMaxAgeDays, agentId, ip],
      );
      if (!r.rows[0]) throw new AppError(ErrorCode.ACCOUNT_DISABLED);
      id = r.rows[0].id;
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new AppError(ErrorCode.ACCOUNT_EXISTS);
      throw err;
    }
    return downlineOf(m, agentId, id);
  }

  /** A direct downline (a player) becomes an agent (type 2); an agent already stays as it is. */
  async function setAgent(m: Merchant, agentId: number, memberId: number): Promise<TDownline> {
    await db.tx(async (tx) => {
      const d = await requireDirect(tx, agentId, memberId);
      if (isAgentType(d.type, m.agentTypes)) return;
      if (d.type !== DOWNLINE_PLAYER_TYPE) throw new AppError(ErrorCode.INVALID_STATE, 'This account type cannot become an agent');
      if (d.status !== 'active') throw new AppError(ErrorCode.INVALID_STATE, 'This member is disabled');
      await tx.query('UPDATE members SET type = $2 WHERE id = $1 AND type = $3', [memberId, DOWNLINE_AGENT_TYPE, DOWNLINE_PLAYER_TYPE]);
    });
    return downlineOf(m, agentId, memberId);
  }

  /** A direct downline's live contracts and its open offers. */
  async function downlineContracts(m: Merchant, agentId: number, memberId: number): Promise<{ live: TAgentContract[]; offers: TAgentContract[] }> {
    await requireDirect(db, agentId, memberId);
    const r = await db.query<ContractRow>(`${CONTRACT_SELECT} WHERE c.downline_id = $1 AND c.merchant_code = $2 AND c.status IN ('active', 'offered') ORDER BY c.id`, [memberId, m.code]);
    const all = r.rows.map(toAgentContract);
    return { live: all.filter((c) => c.status === 'active'), offers: all.filter((c) => c.status === 'offered') };
  }

  // ---- invitations ----

  const toInvitation = (origin: string) => (r: InvitationRow): TInvitation => ({
    id: r.id, code: r.code, link: `${origin}/register?affiliateCode=${encodeURIComponent(r.code)}`,
    accountType: r.account_type === DOWNLINE_AGENT_TYPE ? 'agent' : 'player', quota: r.quota, used: r.used,
    status: invitationStatus(r), createdAt: iso(r.created_at), expiresAt: r.expires_at === null ? null : iso(r.expires_at),
  });

  async function invitations(m: Merchant, agentId: number, origin: string): Promise<{ list: TInvitation[] }> {
    const r = await db.query<InvitationRow>('SELECT * FROM agent_invitations WHERE inviter_id = $1 AND merchant_code = $2 ORDER BY id DESC LIMIT 500', [agentId, m.code]);
    return { list: r.rows.map(toInvitation(origin)) };
  }

  async function createInvitation(m: Merchant, agentId: number, body: { accountType: 'player' | 'agent'; quota: number; expiresInDays?: number | undefined }, origin: string): Promise<TInvitation> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const code = newCode();
      try {
        const r = await db.query<InvitationRow>(
          `INSERT INTO agent_invitations (merchant_code, inviter_id, code, account_type, quota, expires_at)
           SELECT $1, $2, $3, $4, $5, CASE WHEN $6::int IS NULL THEN NULL ELSE now() + make_interval(days => $6::int) END
            WHERE NOT EXISTS (SELECT 1 FROM members WHERE merchant_code = $1 AND invitation_code = $3)
           RETURNING *`,
          [m.code, agentId, code, body.accountType === 'agent' ? DOWNLINE_AGENT_TYPE : DOWNLINE_PLAYER_TYPE, body.quota, body.expiresInDays ?? null],
        );
        if (r.rows[0]) return toInvitation(origin)(r.rows[0]);
      } catch (err) {
        if ((err as { code?: string }).code !== '23505') throw err;
      }
    }
    throw new Error('could not draw a free invitation code');
  }

  async function disableInvitation(m: Merchant, agentId: number, id: number, origin: string): Promise<TInvitation> {
    const r = await db.query<InvitationRow>(
      `UPDATE agent_invitations SET disabled_at = coalesce(disabled_at, now()) WHERE id = $1 AND inviter_id = $2 AND merchant_code = $3 RETURNING *`,
      [id, agentId, m.code],
    );
    if (!r.rows[0]) throw new AppError(ErrorCode.NOT_FOUND, 'No such invitation');
    return toInvitation(origin)(r.rows[0]);
  }

  // ---- team bets ----

  /** A member of the agent's team by exact account (case-insensitive); NOT_IN_TREE otherwise. */
  async function teamMemberByAccount(q: Queryable, agentId: number, account: string, opts: { includeSelf?: boolean } = {}): Promise<number> {
    const r = await q.query<{ id: number }>(
      `SELECT d.id FROM members a JOIN members d ON d.merchant_code = a.merchant_code AND (${descendantOf('d', 'a.tree_path')} OR ($3::boolean AND d.id = a.id))
        WHERE a.id = $1 AND d.account_lower = lower($2)`,
      [agentId, account, opts.includeSelf ?? false],
    );
    if (!r.rows[0]) throw new AppError(ErrorCode.NOT_IN_TREE);
    return r.rows[0].id;
  }

  async function teamBets(m: Merchant, agentId: number, range: TDayRange, q: { account?: string | undefined; gameType?: string | undefined; pageNo: number; pageSize: number }): Promise<z.infer<typeof ZTeamBetsValue>> {
    const only = q.account ? await teamMemberByAccount(db, agentId, q.account) : null;
    type Row = {
      vendor: string; round_id: string; member_id: number; account: string; game_code: string | null; game_name: string | null; game_type: string | null;
      stake: string; win: string | null; rolled_back: boolean; has_win: boolean; time: Date | string; total: number; total_stake: string | null; total_win: string | null;
    };
    const r = await db.query<Row>(
      `WITH sub AS (
         SELECT d.id, d.account FROM members a JOIN members d ON d.merchant_code = a.merchant_code AND ${descendantOf('d', 'a.tree_path')}
          WHERE a.id = $1 AND ($5::bigint IS NULL OR d.id = $5)
       ), rounds AS (
         SELECT v.member_id, v.vendor, v.round_id, min(v.created_at) AS time, max(v.game_code) AS game_code,
                coalesce(sum(v.amount) FILTER (WHERE v.kind = 'bet' AND v.status IN ('applied', 'rolled_back')), 0) AS stake,
                sum(v.amount) FILTER (WHERE v.kind = 'win' AND v.status = 'applied') AS win,
                bool_or(v.kind = 'bet' AND v.status = 'rolled_back') AS rolled_back,
                bool_or(v.kind = 'win' AND v.status = 'applied') AS has_win
           FROM sub JOIN vendor_transactions v ON v.member_id = sub.id AND v.merchant_code = $2
            AND v.created_at >= $3::timestamptz - interval '1 day' AND v.created_at < $4::timestamptz + interval '1 day'
          GROUP BY v.member_id, v.vendor, v.round_id
         HAVING min(v.created_at) >= $3 AND min(v.created_at) < $4
            AND coalesce(sum(v.amount) FILTER (WHERE v.kind = 'bet' AND v.status IN ('applied', 'rolled_back')), 0) > 0
       ), typed AS (
         SELECT r.*, g.game_name, g.game_type FROM rounds r
           LEFT JOIN LATERAL (SELECT game_name, game_type FROM games WHERE merchant_code = $2 AND vassalage = r.vendor AND game_code = r.game_code LIMIT 1) g ON true
          WHERE $6::text IS NULL OR g.game_type = $6
       )
       SELECT t.vendor, t.round_id, t.member_id, s.account, t.game_code, t.game_name, t.game_type, t.stake::text AS stake, t.win::text AS win,
              t.rolled_back, t.has_win, t.time, count(*) OVER ()::int AS total,
              (sum(t.stake) FILTER (WHERE NOT t.rolled_back) OVER ())::text AS total_stake,
              (sum(coalesce(t.win, 0)) FILTER (WHERE NOT t.rolled_back) OVER ())::text AS total_win
         FROM typed t JOIN sub s ON s.id = t.member_id
        ORDER BY t.time DESC, t.round_id DESC LIMIT $7 OFFSET $8`,
      [agentId, m.code, range.from.toISOString(), range.to.toISOString(), only, q.gameType ?? null, q.pageSize, (q.pageNo - 1) * q.pageSize],
    );
    let first: { total: number; total_stake: string | null; total_win: string | null } | undefined = r.rows[0];
    if (!first && q.pageNo > 1) {
      const all = await teamBets(m, agentId, range, { ...q, pageNo: 1, pageSize: 1 });
      first = { total: all.total, total_stake: String(all.totalStake), total_win: String(all.totalWin) };
    }
    return {
      list: r.rows.map((b): TTeamBet => ({
        roundId: b.round_id, memberId: b.member_id, account: b.account, vendor: b.vendor, gameCode: b.game_code, gameName: b.game_name, gameType: b.game_type,
        stake: num(b.stake), win: num(b.win), time: iso(b.time), status: b.rolled_back ? 'rolled_back' : b.has_win ? 'settled' : 'open',
      })),
      pageNo: q.pageNo, pageSize: q.pageSize, total: first?.total ?? 0, totalStake: num(first?.total_stake), totalWin: num(first?.total_win),
      from: range.fromDay, to: range.toDay,
    };
  }

  // ---- profit and loss per downline ----

  /** Deposits credited and withdrawals paid in the period (the definitions of team-stats.ts teamOverview), of `memberId` and (withTeam) its whole team. */
  async function cashFlows(q: Queryable, memberId: number, period: TPeriod, withTeam: boolean): Promise<{ deposits: number; withdrawals: number }> {
    const r = await q.query<{ deposits: string; withdrawals: string }>(
      `WITH sub AS (
         SELECT d.id FROM members a JOIN members d ON d.merchant_code = a.merchant_code AND (d.id = a.id OR ($4::boolean AND ${descendantOf('d', 'a.tree_path')}))
          WHERE a.id = $1
       )
       SELECT (SELECT coalesce(sum(dp.amount), 0) FROM sub JOIN deposits dp ON dp.member_id = sub.id AND dp.status = 'paid'
                 AND dp.updated_at >= $2 AND dp.updated_at < $3)::text AS deposits,
              (SELECT coalesce(sum(w.amount), 0) FROM sub JOIN withdrawals w ON w.member_id = sub.id
                 AND w.status = ANY($5::text[]) AND w.paid_at >= $2 AND w.paid_at < $3)::text AS withdrawals`,
      [memberId, period.from, period.to, withTeam, [...PAID_WITHDRAWAL_STATUSES]],
    );
    return { deposits: num(r.rows[0]?.deposits), withdrawals: num(r.rows[0]?.withdrawals) };
  }

  const figures = (b: TTeamBetTotals, c: { deposits: number; withdrawals: number }): Figures => ({
    validBets: b.validBets, betCount: b.betCount, payout: b.payout, profitLoss: b.profitLoss, deposits: c.deposits, withdrawals: c.withdrawals,
  });

  async function teamPnl(m: Merchant, agentId: number, range: TDayRange, q: { parentId?: number | undefined; pageNo: number; pageSize: number }) {
    const parentId = q.parentId ?? agentId;
    if (parentId !== agentId) await requireInSubtree(db, agentId, parentId);
    const period = { from: range.from, to: range.to };
    const kids = await db.query<{ id: number; account: string; type: number; team_size: number; total: number }>(
      `SELECT c.id, c.account, c.type, ${teamSizeOf('c.id')} AS team_size, count(*) OVER ()::int AS total
         FROM members a JOIN members c ON c.merchant_code = a.merchant_code AND ${descendantOf('c', 'a.tree_path')}
        WHERE a.id = $1 AND c.parent_id = $2 ORDER BY c.id LIMIT $3 OFFSET $4`,
      [agentId, parentId, q.pageSize, (q.pageNo - 1) * q.pageSize],
    );
    const list: TPnlLine[] = [];
    for (const k of kids.rows) {
      const [bets, cash] = await Promise.all([teamBetTotals(db, k.id, period, { includeSelf: true }), cashFlows(db, k.id, period, true)]);
      list.push({ id: k.id, account: k.account, isAgent: isAgentType(k.type, m.agentTypes), teamSize: k.team_size, ...figures(bets, cash) });
    }
    let total = kids.rows[0]?.total ?? 0;
    if (!kids.rows[0] && q.pageNo > 1) {
      total = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM members WHERE parent_id = $1', [parentId])).rows[0]?.n ?? 0;
    }
    const [all, below, allCash, selfCash] = await Promise.all([
      teamBetTotals(db, parentId, period, { includeSelf: true }), teamBetTotals(db, parentId, period),
      cashFlows(db, parentId, period, true), cashFlows(db, parentId, period, false),
    ]);
    const selfBets = {
      betCount: all.betCount - below.betCount, validBets: all.validBets - below.validBets, payout: all.payout - below.payout,
      profitLoss: all.profitLoss - below.profitLoss, activeMembers: 0,
    };
    const path = await pathTo(db, agentId, parentId);
    return {
      list, pageNo: q.pageNo, pageSize: q.pageSize, total, from: range.fromDay, to: range.toDay,
      parent: path[path.length - 1]!, path, self: figures(selfBets, selfCash), totals: figures(all, allCash),
    };
  }

  // ---- team overview ----

  /** The overview of the caller's team, or of the team of a member in it (memberId). */
  async function overview(m: Merchant, agentId: number, range: TDayRange, memberId?: number): Promise<TTeamOverviewValue> {
    const whose = memberId ?? agentId;
    if (whose !== agentId) await requireInSubtree(db, agentId, whose);
    const f = await teamOverview(db, m, whose, { from: range.from, to: range.to });
    return {
      from: range.fromDay, to: range.toDay, gmtOffsetMinutes: m.brand.gmtOffsetMinutes,
      teamSize: f.teamSize, directCount: f.directCount, agentCount: f.agentCount, newMembers: f.newMembers, activeMembers: f.activeMembers,
      deposits: f.deposits, withdrawals: f.withdrawals, validBets: f.validBets, betCount: f.betCount, payout: f.payout, profitLoss: f.profitLoss,
      asOf: new Date().toISOString(),
    };
  }

  // ---- account details ----

  /**
   * The ledger kinds behind an account-record kind (`type` is the record's kind, as the account record
   * names it: 'dividend' is the ledger's 'agent.dividend'; a kind without a dotted ledger name is its own).
   * Contract payouts were listed as their ledger kind, which the page called "Other", and could not be
   * picked in the filter.
   */
  const ledgerKindsOf = (type: string): string[] =>
    [type, ...Object.entries(LEDGER_RECORD_KINDS).filter(([, record]) => record === type).map(([ledger]) => ledger)];

  async function memTransDet(m: Merchant, agentId: number, range: TDayRange, q: { account?: string | undefined; type?: string | undefined; pageNo: number; pageSize: number }): Promise<z.infer<typeof ZMemTransValue>> {
    const only = q.account ? await teamMemberByAccount(db, agentId, q.account, { includeSelf: true }) : null;
    type Row = { id: number; account: string; time: Date | string; kind: string; amount: string; balance_after: string; reference: string; total: number };
    const r = await db.query<Row>(
      `WITH sub AS (
         SELECT d.id, d.account FROM members a JOIN members d ON d.merchant_code = a.merchant_code AND (d.id = a.id OR ${descendantOf('d', 'a.tree_path')})
          WHERE a.id = $1 AND ($4::bigint IS NULL OR d.id = $4)
       )
       SELECT e.id, sub.account, e.created_at AS time, t.kind, e.amount::text AS amount, e.balance_after::text AS balance_after,
              ${LEDGER_REFERENCE_SQL} AS reference, count(*) OVER ()::int AS total
         FROM sub JOIN ledger_accounts la ON la.member_id = sub.id AND la.currency = $7
         JOIN ledger_entries e ON e.account_id = la.id AND e.created_at >= $2 AND e.created_at < $3
         JOIN ledger_transfers t ON t.id = e.transfer_id
         LEFT JOIN withdrawals w ON w.hold_id = t.id
         LEFT JOIN member_transfers mt ON mt.transfer_id = t.id
        WHERE $5::text[] IS NULL OR t.kind = ANY($5::text[])
        ORDER BY e.created_at DESC, e.id DESC LIMIT $6 OFFSET $8`,
      [agentId, range.from.toISOString(), range.to.toISOString(), only, q.type ? ledgerKindsOf(q.type) : null, q.pageSize, m.currency, (q.pageNo - 1) * q.pageSize],
    );
    let total = r.rows[0]?.total ?? 0;
    if (!r.rows[0] && q.pageNo > 1) total = (await memTransDet(m, agentId, range, { ...q, pageNo: 1, pageSize: 1 })).total;
    return {
      list: r.rows.map((x): TMemTrans => ({
        id: String(x.id), account: x.account, time: iso(x.time), type: recordKindOf(x.kind), amount: num(x.amount), balanceAfter: num(x.balance_after), reference: x.reference,
      })),
      pageNo: q.pageNo, pageSize: q.pageSize, total, from: range.fromDay, to: range.toDay,
    };
  }

  // ---- consolidated contract flags ----

  async function consolidated(m: Merchant, memberId: number): Promise<TConsolidatedFunds> {
    const me = await db.query<{ type: number }>('SELECT type FROM members WHERE id = $1 AND merchant_code = $2', [memberId, m.code]);
    const type = me.rows[0]?.type;
    if (type === undefined) throw new AppError(ErrorCode.UNAUTHORIZED);
    if (isTrialType(type, m.trialTypes)) throw new AppError(ErrorCode.TRIAL_FORBIDDEN);
    const r = await db.query<{ kind: string; status: string; rate: number }>(
      `SELECT kind, status, rate FROM agent_contracts WHERE downline_id = $1 AND merchant_code = $2 AND status IN ('active', 'offered')`,
      [memberId, m.code],
    );
    const paid = new Set((await db.query<{ kind: string }>(
      `SELECT DISTINCT kind FROM agent_payouts WHERE merchant_code = $2 AND (payee_id = $1 OR payer_id = $1)`, [memberId, m.code])).rows.map((x) => x.kind));
    const flag = (kind: string) => {
      const active = r.rows.find((x) => x.kind === kind && x.status === 'active');
      return { active: !!active, rateBps: active ? active.rate : null, pendingOffer: r.rows.some((x) => x.kind === kind && x.status === 'offered'), hasPayouts: paid.has(kind) };
    };
    return {
      dividend: flag('dividend'), dailySalary: flag('dailyWages'), hourSalary: flag('hourlySalary'), realtimeSalary: flag('realtimeSalary'),
      pendingOffers: r.rows.filter((x) => x.status === 'offered').length, isAgent: isAgentType(type, m.agentTypes),
    };
  }

  return {
    requireAgent, overview, downlines, createDownline, setAgent, downlineContracts, invitations, createInvitation, disableInvitation,
    teamBets, teamPnl, memTransDet, consolidated,
  };
}

export type AgentReports = ReturnType<typeof createAgentReports>;
