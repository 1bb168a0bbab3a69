import { RG_INCREASE_DELAY_MS, exclusionEnd, type TRgLimitKind, type TRgPeriod, type TRgState } from '@portal/contracts/api/rg';
import { userAudience } from '@portal/contracts/events/events';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { emitEvent } from '../../bus/outbox.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { revokeMemberSessions } from '../sessions/session-store.ts';
import { iso } from '../../db/iso.ts';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

// ---------------------------------------------------------------- calendar arithmetic (pure)

/**
 * Start of the period holding `now` on the merchant's calendar (GMT offset in minutes): local
 * midnight, local Monday midnight, or the local 1st of the month, as a UTC instant.
 */
export function periodStart(now: Date, period: TRgPeriod, gmtOffsetMinutes: number): Date {
  const local = new Date(now.getTime() + gmtOffsetMinutes * MINUTE_MS);
  let startLocal: number;
  if (period === 'month') startLocal = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1);
  else {
    const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
    startLocal = period === 'day' ? midnight : midnight - ((local.getUTCDay() + 6) % 7) * DAY_MS;
  }
  return new Date(startLocal - gmtOffsetMinutes * MINUTE_MS);
}

/** Whether `amount` more fits every limit: used + amount <= limit for each (the lowest one decides). */
export function fitsLimits(limits: ReadonlyArray<{ limit: number; used: number }>, amount: number): boolean {
  return limits.every((l) => l.used + amount <= l.limit);
}

/** The end of an exclusion of this duration starting at `from` (shared with the player's page). */
export { exclusionEnd };

// ---------------------------------------------------------------- database

/**
 * SQL condition: the member whose id is `col` is not excluded now. Agents' bases (settlement,
 * team figures) leave excluded players out, and agents' downline lists and search hide them.
 */
export const notExcludedSql = (col: string) =>
  `NOT EXISTS (SELECT 1 FROM rg_exclusions rgx WHERE rgx.member_id = ${col} AND rgx.ended_at IS NULL AND rgx.starts_at <= now() AND (rgx.ends_at IS NULL OR rgx.ends_at > now()))`;

type LimitRow = { kind: TRgLimitKind; period: TRgPeriod; amount: string | number | null; pending_amount: string | number | null; pending_remove: boolean; pending_from: Date | string | null };
type ExclusionKind = 'self' | 'cooling' | 'family' | 'operator' | 'restricted';
type ExclusionDuration = '6m' | '1y' | '5y' | '24h' | '7d' | '30d';
type ExclusionRow = { id: string | number; kind: ExclusionKind; starts_at: Date | string; ends_at: Date | string | null; revocable_from: Date | string | null; member_id: number; merchant_code: string };

const num = (v: string | number | null) => (v === null ? null : Number(v));

/** Who started an RG event, as the audit trail names it. */
export type RgActor = { kind: 'member'; account: string } | { kind: 'operator'; id: number; username: string } | { kind: 'system' };
const actorName = (a: RgActor) => (a.kind === 'member' ? `member:${a.account}` : a.kind === 'operator' ? a.username : 'system');

/** An RG event in the append-only audit trail (GET /ops/api/audit), in the caller's transaction. */
export async function rgAudit(tx: Queryable, merchant: string, actor: RgActor, action: string, memberId: number, before: unknown, after: unknown) {
  await tx.query(
    `INSERT INTO audit_log (merchant_code, operator_id, operator_username, action, target_type, target_id, before, after) VALUES ($1, $2, $3, $4, 'member', $5, $6, $7)`,
    [merchant, actor.kind === 'operator' ? actor.id : null, actorName(actor), action, String(memberId),
      before === undefined ? null : JSON.stringify(before), after === undefined ? null : JSON.stringify(after)],
  );
}

/** The member's exclusion in force now, if any (an exclusion past its end no longer counts, even before the lift job ran). */
export async function activeExclusion(q: Queryable, memberId: number): Promise<ExclusionRow | null> {
  const r = await q.query<ExclusionRow>(
    `SELECT id, kind, starts_at, ends_at, revocable_from, member_id, merchant_code FROM rg_exclusions
      WHERE member_id = $1 AND ended_at IS NULL AND starts_at <= now() AND (ends_at IS NULL OR ends_at > now())
      ORDER BY ends_at DESC NULLS FIRST LIMIT 1`, [memberId]);
  return r.rows[0] ?? null;
}

/** RG_EXCLUDED (403) with the end date when the member is excluded: login, deposits, bets. */
export async function assertNotExcluded(q: Queryable, memberId: number): Promise<void> {
  const x = await activeExclusion(q, memberId);
  if (x) throw new AppError(ErrorCode.RG_EXCLUDED, undefined, undefined, { until: iso(x.ends_at), kind: x.kind });
}

/**
 * What each limited kind used so far in its period. Bets not rolled back; loss = bets - wins; deposits paid
 * or pending, and money an agent sent down to the member (a deposit made for them: it went past the limit).
 */
async function usedSince(q: Queryable, memberId: number, kind: TRgLimitKind, since: Date): Promise<number> {
  if (kind === 'deposit') {
    const r = await q.query<{ n: string }>(
      `SELECT ((SELECT coalesce(sum(amount), 0) FROM deposits WHERE member_id = $1 AND status IN ('pending', 'paid') AND created_at >= $2)
             + (SELECT coalesce(sum(amount), 0) FROM member_transfers WHERE to_member_id = $1 AND direction = 'downline' AND created_at >= $2))::text AS n`,
      [memberId, since]);
    return Number(r.rows[0]!.n);
  }
  const r = await q.query<{ bets: string; wins: string }>(
    `SELECT coalesce(sum(amount) FILTER (WHERE kind = 'bet'), 0)::text AS bets, coalesce(sum(amount) FILTER (WHERE kind = 'win'), 0)::text AS wins
       FROM vendor_transactions WHERE member_id = $1 AND status = 'applied' AND kind IN ('bet', 'win') AND created_at >= $2`, [memberId, since]);
  const bets = Number(r.rows[0]!.bets);
  return kind === 'wager' ? bets : Math.max(0, bets - Number(r.rows[0]!.wins));
}

/**
 * The money check before a bet debit or a deposit, inside the caller's transaction: an exclusion
 * refuses (RG_EXCLUDED); the member's limits rows are locked (FOR UPDATE) before the amounts are summed,
 * so two simultaneous bets of one member are serialized here and cannot both pass a limit only one fits.
 * Kinds: a bet checks wager and loss limits (a bet may be lost in full), a deposit the deposit limits.
 */
export async function checkMoney(tx: Queryable, memberId: number, what: 'bet' | 'deposit', amount: number, gmtOffsetMinutes: number, now = new Date()): Promise<void> {
  await assertNotExcluded(tx, memberId);
  const kinds: TRgLimitKind[] = what === 'bet' ? ['wager', 'loss'] : ['deposit'];
  const r = await tx.query<LimitRow>(
    `SELECT kind, period, amount, pending_amount, pending_remove, pending_from FROM rg_limits
      WHERE member_id = $1 AND kind = ANY($2) AND amount IS NOT NULL ORDER BY kind, period FOR UPDATE`, [memberId, kinds]);
  for (const l of r.rows) {
    const used = await usedSince(tx, memberId, l.kind, periodStart(now, l.period, gmtOffsetMinutes));
    if (!fitsLimits([{ limit: Number(l.amount), used }], amount)) {
      throw new AppError(ErrorCode.RG_LIMIT_REACHED, undefined, undefined, { kind: l.kind, period: l.period, limit: Number(l.amount), used });
    }
  }
}

export const RG_LIFT_JOB = 'rg.exclusion.lift';

export function createRg(deps: { db: Db; jobs: JobQueue | null; disconnectMember(memberId: number): Promise<void>; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  async function limitsOf(q: Queryable, memberId: number, gmtOffsetMinutes: number) {
    const r = await q.query<LimitRow>('SELECT kind, period, amount, pending_amount, pending_remove, pending_from FROM rg_limits WHERE member_id = $1 ORDER BY kind, period', [memberId]);
    return Promise.all(r.rows.map(async (l) => {
      const start = periodStart(now(), l.period, gmtOffsetMinutes);
      return {
        kind: l.kind, period: l.period, amount: num(l.amount), used: await usedSince(q, memberId, l.kind, start),
        pendingAmount: num(l.pending_amount), pendingRemove: l.pending_remove, pendingFrom: iso(l.pending_from), periodStart: start.toISOString(),
      };
    }));
  }
  async function limitOf(q: Queryable, memberId: number, kind: TRgLimitKind, period: TRgPeriod, gmt: number) {
    return (await limitsOf(q, memberId, gmt)).find((l) => l.kind === kind && l.period === period)!;
  }

  /** Ends every session of the member at once: sessions and games revoked, sockets told and closed. */
  async function logoutEverywhere(tx: Tx, merchant: string, memberId: number) {
    await revokeMemberSessions(tx, memberId);
    await emitEvent(tx, merchant, userAudience(memberId), 'system.logout', { reason: 'excluded' });
  }

  /**
   * The exclusion inside the caller's transaction (the logout event goes through the outbox), for a
   * use case whose other writes must commit with it or not at all (a family request's approval).
   * The caller closes the member's sockets (disconnectMember) after its commit.
   */
  async function excludeIn(tx: Tx, merchant: string, memberId: number, actor: RgActor, kind: ExclusionKind, duration: ExclusionDuration | null, reason: string | null = null) {
    const start = now();
    const endsAt = duration === null ? null : exclusionEnd(start, duration);
    const revocableFrom = kind === 'self' ? exclusionEnd(start, '6m') : kind === 'cooling' ? endsAt : null;
    const r = await tx.query<ExclusionRow>(
      `INSERT INTO rg_exclusions (merchant_code, member_id, kind, starts_at, ends_at, revocable_from, initiated_by, reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id, kind, starts_at, ends_at, revocable_from, member_id, merchant_code`,
      [merchant, memberId, kind, start, endsAt, revocableFrom, actorName(actor), reason]);
    const row = r.rows[0]!;
    // The operator's reason is in the trail as it is for the lifting (it was kept only on the row).
    await rgAudit(tx, merchant, actor, 'rg.exclusion.start', memberId, undefined, { id: String(row.id), kind, endsAt: iso(endsAt), revocableFrom: iso(revocableFrom), ...(reason ? { reason } : {}) });
    await logoutEverywhere(tx, merchant, memberId);
    if (endsAt && deps.jobs) await deps.jobs.enqueue(RG_LIFT_JOB, { id: String(row.id) }, { key: `rg-lift-${row.id}`, runAt: endsAt }, tx);
    return { id: String(row.id), kind: row.kind, startsAt: iso(row.starts_at)!, endsAt: iso(row.ends_at), revocableFrom: iso(row.revocable_from) };
  }

  /**
   * Start an exclusion: every session ends at once, the sockets close, and a job lifts it at its end.
   * Self-exclusion: its first 6 months cannot be revoked; a new one while excluded extends (at least 6 months).
   */
  async function exclude(merchant: string, memberId: number, actor: RgActor, kind: ExclusionKind, duration: ExclusionDuration | null, reason: string | null = null) {
    const x = await db.tx((tx) => excludeIn(tx, merchant, memberId, actor, kind, duration, reason));
    await deps.disconnectMember(memberId);
    return x;
  }

  return {
    async state(merchant: string, memberId: number, gmtOffsetMinutes: number, sessionTokenHash: Buffer | null): Promise<TRgState> {
      const x = await activeExclusion(db, memberId);
      const s = (await db.query<{ reality_check_minutes: number | null; session_limit_minutes: number | null }>(
        'SELECT reality_check_minutes, session_limit_minutes FROM rg_session_settings WHERE member_id = $1', [memberId])).rows[0];
      const started = sessionTokenHash
        ? (await db.query<{ created_at: Date | string }>('SELECT created_at FROM sessions WHERE token_hash = $1 AND member_id = $2', [sessionTokenHash, memberId])).rows[0]?.created_at ?? null
        : null;
      let net = 0;
      if (started) {
        const r = await db.query<{ n: string }>(
          `SELECT coalesce(sum(CASE WHEN kind = 'win' THEN amount ELSE -amount END), 0)::text AS n FROM vendor_transactions
            WHERE member_id = $1 AND status = 'applied' AND kind IN ('bet', 'win') AND created_at >= $2`, [memberId, started]);
        net = Number(r.rows[0]!.n);
      }
      void merchant;
      return {
        limits: await limitsOf(db, memberId, gmtOffsetMinutes),
        exclusion: x ? { id: String(x.id), kind: x.kind, startsAt: iso(x.starts_at)!, endsAt: iso(x.ends_at), revocableFrom: iso(x.revocable_from) } : null,
        realityCheckMinutes: s?.reality_check_minutes ?? null,
        sessionLimitMinutes: s?.session_limit_minutes ?? null,
        sessionStartedAt: iso(started), sessionNet: net, gmtOffsetMinutes,
      };
    },

    /**
     * Set a limit. A first limit or a decrease applies at once (a pending increase is dropped); an
     * increase or a removal is recorded as pending, applicable RG_INCREASE_DELAY_MS later after the
     * player confirms (confirmLimit).
     */
    async setLimit(merchant: string, member: { id: number; account: string }, gmt: number, kind: TRgLimitKind, period: TRgPeriod, amount: number | null) {
      const actor: RgActor = { kind: 'member', account: member.account };
      return db.tx(async (tx) => {
        await tx.query('INSERT INTO rg_limits (member_id, kind, period) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [member.id, kind, period]);
        const cur = (await tx.query<LimitRow>('SELECT * FROM rg_limits WHERE member_id = $1 AND kind = $2 AND period = $3 FOR UPDATE', [member.id, kind, period])).rows[0]!;
        const current = num(cur.amount);
        const before = { amount: current };
        const decrease = amount !== null && (current === null || amount <= current);
        if (decrease) {
          await tx.query(`UPDATE rg_limits SET amount = $4, pending_amount = NULL, pending_remove = false, pending_from = NULL, updated_at = now()
                           WHERE member_id = $1 AND kind = $2 AND period = $3`, [member.id, kind, period, amount]);
          await rgAudit(tx, merchant, actor, 'rg.limit.set', member.id, { kind, period, ...before }, { kind, period, amount });
          return { limit: await limitOf(tx, member.id, kind, period, gmt), applied: true };
        }
        // During an exclusion a limit may be tightened, not loosened: a raise asked now would be in force
        // when the break ends (RG_EXCLUDED, as every other loosening of a restricted session).
        await assertNotExcluded(tx, member.id);
        const from = new Date(now().getTime() + RG_INCREASE_DELAY_MS);
        await tx.query(`UPDATE rg_limits SET pending_amount = $4, pending_remove = $5, pending_from = $6, updated_at = now()
                         WHERE member_id = $1 AND kind = $2 AND period = $3`, [member.id, kind, period, amount, amount === null, from]);
        await rgAudit(tx, merchant, actor, 'rg.limit.change_requested', member.id, { kind, period, ...before }, { kind, period, amount, appliesFrom: from.toISOString() });
        return { limit: await limitOf(tx, member.id, kind, period, gmt), applied: false };
      });
    },

    /** The player's confirmation of a pending increase: RG_INCREASE_PENDING (409, with appliesFrom) before its time. */
    async confirmLimit(merchant: string, member: { id: number; account: string }, gmt: number, kind: TRgLimitKind, period: TRgPeriod) {
      return db.tx(async (tx) => {
        const cur = (await tx.query<LimitRow>('SELECT * FROM rg_limits WHERE member_id = $1 AND kind = $2 AND period = $3 FOR UPDATE', [member.id, kind, period])).rows[0];
        if (!cur || cur.pending_from === null) throw new AppError(ErrorCode.NOT_FOUND, 'No limit change is waiting for confirmation');
        const from = new Date(cur.pending_from);
        if (from.getTime() > now().getTime()) throw new AppError(ErrorCode.RG_INCREASE_PENDING, undefined, undefined, { appliesFrom: from.toISOString() });
        // A raise waiting from before an exclusion is not confirmed during it (tighten only, as setLimit).
        await assertNotExcluded(tx, member.id);
        const amount = cur.pending_remove ? null : num(cur.pending_amount);
        await tx.query(`UPDATE rg_limits SET amount = $4, pending_amount = NULL, pending_remove = false, pending_from = NULL, updated_at = now()
                         WHERE member_id = $1 AND kind = $2 AND period = $3`, [member.id, kind, period, amount]);
        await rgAudit(tx, merchant, { kind: 'member', account: member.account }, 'rg.limit.confirmed', member.id, { kind, period, amount: num(cur.amount) }, { kind, period, amount });
        return { limit: await limitOf(tx, member.id, kind, period, gmt), applied: true };
      });
    },

    /**
     * Start an exclusion: every session ends at once, the sockets close, and a job lifts it at its end.
     * Self-exclusion: its first 6 months cannot be revoked; a new one while excluded extends (at least 6 months).
     */
    exclude,

    excludeIn,

    /**
     * The member's own break or self-exclusion. One that would end before the exclusion already running
     * changes nothing but would say it started (a 24-hour cooling-off during a 6-month self-exclusion):
     * refused with the running one's end. A longer one is taken (it extends the exclusion).
     */
    async memberExclude(merchant: string, memberId: number, account: string, kind: 'self' | 'cooling', duration: ExclusionDuration) {
      const running = await activeExclusion(db, memberId);
      if (running) {
        const runningEnd = running.ends_at === null ? null : new Date(running.ends_at);
        if (runningEnd === null || exclusionEnd(now(), duration).getTime() <= runningEnd.getTime()) {
          throw new AppError(ErrorCode.RG_EXCLUDED, undefined, undefined, { until: iso(running.ends_at), kind: running.kind });
        }
      }
      return exclude(merchant, memberId, { kind: 'member', account }, kind, duration);
    },

    /** The member's sockets closed (after the commit of an excludeIn). */
    disconnectMember: (memberId: number) => deps.disconnectMember(memberId),

    /** Ends every exclusion past its end (the lift job's work; idempotent), each audited as ended by the system. */
    async liftDue(): Promise<number> {
      return db.tx(async (tx) => {
        const r = await tx.query<ExclusionRow>(
          `UPDATE rg_exclusions SET ended_at = ends_at, ended_by = 'system' WHERE ended_at IS NULL AND ends_at <= $1
           RETURNING id, kind, starts_at, ends_at, revocable_from, member_id, merchant_code`, [now()]);
        for (const x of r.rows) await rgAudit(tx, x.merchant_code, { kind: 'system' }, 'rg.exclusion.end', x.member_id, { id: String(x.id), kind: x.kind }, { endedAt: iso(x.ends_at) });
        return r.rows.length;
      });
    },

    async setSession(memberId: number, merchant: string, account: string, b: { realityCheckMinutes: number | null; sessionLimitMinutes: number | null }) {
      await db.tx(async (tx) => {
        // During an exclusion these are tightened, not loosened (as the money limits): no longer or no reality
        // check, no longer or no session limit, to be in force when the break ends.
        const cur = (await tx.query<{ reality_check_minutes: number | null; session_limit_minutes: number | null }>(
          'SELECT reality_check_minutes, session_limit_minutes FROM rg_session_settings WHERE member_id = $1 FOR UPDATE', [memberId])).rows[0];
        const looser = (now: number | null | undefined, next: number | null) => now !== null && now !== undefined && (next === null || next > now);
        if (looser(cur?.reality_check_minutes, b.realityCheckMinutes) || looser(cur?.session_limit_minutes, b.sessionLimitMinutes)) await assertNotExcluded(tx, memberId);
        await tx.query(`INSERT INTO rg_session_settings (member_id, reality_check_minutes, session_limit_minutes) VALUES ($1, $2, $3)
                        ON CONFLICT (member_id) DO UPDATE SET reality_check_minutes = $2, session_limit_minutes = $3`, [memberId, b.realityCheckMinutes, b.sessionLimitMinutes]);
        // A session limit ends the player's sessions already open at it (SESSION_ALIVE reads it from each
        // session's start), and with them the games launched from them: a game session ends then too.
        if (b.sessionLimitMinutes !== null) {
          await tx.query(
            `UPDATE game_sessions g SET expires_at = s.created_at + make_interval(mins => $2)
               FROM sessions s
              WHERE g.member_id = $1 AND g.session_hash = s.token_hash AND g.revoked_at IS NULL
                AND g.expires_at > s.created_at + make_interval(mins => $2)`,
            [memberId, b.sessionLimitMinutes]);
        }
        await rgAudit(tx, merchant, { kind: 'member', account }, 'rg.session.set', memberId, undefined, b);
      });
    },

    async events(merchant: string, memberId: number, pageNo: number, pageSize: number) {
      const r = await db.query<{ id: string; action: string; operator_username: string; operator_id: number | null; before: unknown; after: unknown; at: Date | string; total: number }>(
        `SELECT id::text, action, operator_username, operator_id, before, after, at, count(*) OVER ()::int AS total FROM audit_log
          WHERE merchant_code = $1 AND target_type = 'member' AND target_id = $2 AND action LIKE 'rg.%'
            -- a relative's request (and a rejection) is not shown to the player: only its outcome, the exclusion
            AND action NOT LIKE 'rg.family.%' ORDER BY audit_log.id DESC LIMIT $3 OFFSET $4`,
        [merchant, String(memberId), pageSize, (pageNo - 1) * pageSize]);
      return {
        // `operator` (who, for the console; the player's call leaves it out) and the reason given
        list: r.rows.map((e) => ({
          id: e.id, action: e.action, by: e.operator_id === null ? (e.operator_username === 'system' ? 'system' : 'you') : 'operator', before: e.before, after: e.after, at: iso(e.at)!,
          operator: e.operator_id === null ? null : e.operator_username,
          reason: e.after && typeof e.after === 'object' && typeof (e.after as { reason?: unknown }).reason === 'string' ? (e.after as { reason: string }).reason : null,
        })),
        pageNo, pageSize, total: r.rows[0]?.total ?? 0,
      };
    },
  };
}
export type Rg = ReturnType<typeof createRg>;

export function registerRgJobs(jobs: JobQueue, rg: Rg) {
  jobs.define(RG_LIFT_JOB, async () => {
    await rg.liftDue();
  });
}
