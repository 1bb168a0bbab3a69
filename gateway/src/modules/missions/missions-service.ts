import type { TMission, TOpsMission } from '@portal/contracts/api/missions';
import {
  missionPeriodEnd, missionPeriodKey, periodOfKey, type TMissionKind, type TMissionPeriod, type TMissionStatus,
} from '@portal/contracts/domain/missions';
import { maskName } from '@portal/contracts/domain/money';
import { TRIAL_TYPE } from '@portal/contracts/domain/constants';
import { userAudience } from '@portal/contracts/events/events';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { emitEvents, type NewEvent } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { BetStreamConsumer } from '../engagement/bet-stream.ts';
import { activeExclusion } from '../rg/rg-service.ts';
import { isMarketable, marketableSql } from '../rg/marketing.ts';
import { audit, type Operator } from '../ops/operators.ts';
import { transfer } from '../wallet/ledger.ts';
import { demoAmounts, findMerchantInfo, merchantInfo, type MerchantInfo } from '../merchants/merchant-money.ts';

/**
 * Missions and leaderboard (issue 14, migration 059).
 *
 * Progress is moved by events, each in the transaction of the fact that moves it: bets and rolled-back
 * bets by the bet stream's drain (exactly once), paid deposits inside the deposit's paid transaction
 * (cashier onPaid), sign-ins inside the session's creation. Each change is pushed to the player as
 * mission.progress through the outbox, in the same transaction.
 *
 * Periods are the merchant's calendar days and weeks (its brand's UTC offset); a bet counts in the period
 * it was placed in. Only players marketing may reach (no exclusion in force, active) and not trial
 * accounts make progress or claim (the marketing rule of the rg module).
 *
 * A rolled-back bet gives back exactly what it gave (mission_bet_credits), to missions and the
 * leaderboard. Once a mission's reward is claimed its progress stays: the money is paid and a rollback
 * does not take a paid reward back (documented choice: the rollback would otherwise claw back cash the
 * player may already have used). A completed but unclaimed mission that falls below its target is no
 * longer completed.
 *
 * Leaderboard: valid bets per member and period in leaderboard_totals with the time the total was reached
 * (the placing time of the bet that made it; for a rollback, the time the rollback was recorded), read
 * through an index in (total desc, reached_at, member_id) order: ties go to who got there first. Excluded
 * players (rg marketableSql) are left out when the board is read, so an exclusion after a total hides it.
 */

export type MissionRow = {
  id: string | number; merchant_code: string; period: TMissionPeriod; kind: TMissionKind; game_type: string | null;
  target: string | number; reward_amount: string | number; title: Record<string, string>; enabled: boolean; sort: number;
};
type ProgressRow = {
  id: string | number; mission_id: string | number; member_id: string | number; merchant_code: string; period_key: string;
  progress: string | number; completed_at: Date | string | null; claimed_at: Date | string | null;
};
type Delta = { missionId: string; memberId: number; merchant: string; periodKey: string; delta: number };

const n = (v: string | number | null) => (v === null ? 0 : Number(v));
const text = (m: Record<string, string>, lang: string) => m[lang] ?? m.EN ?? '';
const BET_KINDS: readonly TMissionKind[] = ['valid_bet', 'bet_count', 'game_bet'];
/** A player's own rank is counted exactly up to here; further down it reads "beyond 10,000". */
export const RANK_CAP = 10_000;

/** What one bet gives a mission of a bet kind (0: nothing). */
export function betContribution(kind: TMissionKind, gameType: string | null, bet: { amount: number; gameType: string | null }): number {
  if (kind === 'valid_bet') return bet.amount;
  if (kind === 'bet_count') return 1;
  if (kind === 'game_bet') return bet.gameType !== null && bet.gameType === gameType ? bet.amount : 0;
  return 0;
}

const statusOf = (p: { completed_at: unknown; claimed_at: unknown } | undefined): TMissionStatus =>
  !p || p.completed_at === null ? 'processing' : p.claimed_at === null ? 'claim' : 'claimed';

export function toOpsMission(m: MissionRow, claims: number): TOpsMission {
  return {
    id: String(m.id), period: m.period, kind: m.kind, gameType: m.game_type, title: { EN: m.title.EN ?? '', TY: m.title.TY ?? '' },
    target: n(m.target), rewardAmount: n(m.reward_amount), enabled: m.enabled, sort: m.sort, claims,
  };
}

/** Of these members, those who take part: not a trial account, and reachable by marketing (no exclusion, active). */
async function eligibleMembers(q: Queryable, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const r = await q.query<{ id: string | number }>(
    `SELECT m.id FROM members m JOIN merchants mc ON mc.code = m.merchant_code
      WHERE m.id = ANY($1::bigint[]) AND m.type <> $2 AND NOT (m.type = ANY(mc.trial_types)) AND ${marketableSql('m.id')}`, [ids, TRIAL_TYPE]);
  return new Set(r.rows.map((x) => Number(x.id)));
}

export function createMissions(deps: { db: Db; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const keysNow = (gmt: number) => ({ daily: missionPeriodKey(now(), 'daily', gmt), weekly: missionPeriodKey(now(), 'weekly', gmt) });

  async function missionsOf(q: Queryable, merchants: readonly string[], kinds: readonly TMissionKind[]) {
    return (await q.query<MissionRow>(
      'SELECT * FROM missions WHERE merchant_code = ANY($1::text[]) AND enabled AND kind = ANY($2::text[]) ORDER BY sort, id', [merchants, kinds])).rows;
  }

  /**
   * Apply progress changes (summed per mission, member and period). Gains create or raise the row and mark
   * it completed when it reaches the target; losses lower unclaimed rows (never below 0) and clear
   * completion below the target. Returns the rows changed, with their mission's target.
   */
  async function apply(tx: Tx, deltas: readonly Delta[]): Promise<Array<ProgressRow & { target: string | number }>> {
    const sum = new Map<string, Delta>();
    for (const d of deltas) {
      const k = `${d.missionId}|${d.memberId}|${d.periodKey}`;
      const prev = sum.get(k);
      sum.set(k, prev ? { ...prev, delta: prev.delta + d.delta } : { ...d });
    }
    const up = [...sum.values()].filter((d) => d.delta > 0);
    const down = [...sum.values()].filter((d) => d.delta < 0);
    const out: Array<ProgressRow & { target: string | number }> = [];
    if (up.length) {
      out.push(...(await tx.query<ProgressRow & { target: string | number }>(
        `WITH x AS (SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[]) AS x(mission_id, member_id, merchant_code, period_key, delta)),
              up AS (
                INSERT INTO mission_progress AS p (mission_id, member_id, merchant_code, period_key, progress, completed_at)
                SELECT x.mission_id, x.member_id, x.merchant_code, x.period_key, x.delta, CASE WHEN x.delta >= m.target THEN now() END
                  FROM x JOIN missions m ON m.id = x.mission_id
                 ORDER BY x.mission_id, x.member_id, x.period_key
                ON CONFLICT (mission_id, member_id, period_key) DO UPDATE SET
                  progress = p.progress + EXCLUDED.progress,
                  completed_at = CASE WHEN p.completed_at IS NULL AND p.progress + EXCLUDED.progress >= (SELECT target FROM missions WHERE id = p.mission_id) THEN now() ELSE p.completed_at END,
                  updated_at = now()
                RETURNING p.*)
         SELECT up.*, m.target FROM up JOIN missions m ON m.id = up.mission_id`,
        [up.map((d) => d.missionId), up.map((d) => d.memberId), up.map((d) => d.merchant), up.map((d) => d.periodKey), up.map((d) => d.delta)])).rows);
    }
    if (down.length) {
      out.push(...(await tx.query<ProgressRow & { target: string | number }>(
        `WITH x AS (SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[]) AS x(mission_id, member_id, period_key, delta)),
              dn AS (
                UPDATE mission_progress p SET progress = GREATEST(0, p.progress + x.delta),
                  completed_at = CASE WHEN GREATEST(0, p.progress + x.delta) < m.target THEN NULL ELSE p.completed_at END, updated_at = now()
                  FROM x, missions m
                 WHERE p.mission_id = x.mission_id AND p.member_id = x.member_id AND p.period_key = x.period_key AND m.id = p.mission_id AND p.claimed_at IS NULL
                RETURNING p.*, m.target)
         SELECT * FROM dn`,
        [down.map((d) => d.missionId), down.map((d) => d.memberId), down.map((d) => d.periodKey), down.map((d) => d.delta)])).rows);
    }
    return out;
  }

  /** Missions completed in the current periods and not claimed (the member-centre badge), per member. */
  async function claimableCounts(q: Queryable, memberIds: readonly number[], gmt: number): Promise<Map<number, number>> {
    const k = keysNow(gmt);
    const r = await q.query<{ member_id: string | number; c: number }>(
      `SELECT p.member_id, count(*)::int AS c FROM mission_progress p JOIN missions m ON m.id = p.mission_id
        WHERE p.member_id = ANY($1::bigint[]) AND p.completed_at IS NOT NULL AND p.claimed_at IS NULL AND m.enabled
          AND p.period_key = CASE m.period WHEN 'daily' THEN $2 ELSE $3 END
        GROUP BY p.member_id`, [memberIds, k.daily, k.weekly]);
    return new Map(r.rows.map((x) => [Number(x.member_id), x.c]));
  }

  /** One mission.progress per changed row, with the member's badge after the change (same transaction). */
  async function announce(tx: Tx, rows: ReadonlyArray<ProgressRow & { target: string | number }>) {
    if (!rows.length) return;
    const byMerchant = new Map<string, Array<ProgressRow & { target: string | number }>>();
    for (const r of rows) byMerchant.set(r.merchant_code, [...(byMerchant.get(r.merchant_code) ?? []), r]);
    for (const [merchant, list] of byMerchant) {
      const info = await merchantInfo(tx, merchant);
      const counts = await claimableCounts(tx, [...new Set(list.map((r) => Number(r.member_id)))], info.gmt);
      const events: NewEvent[] = list.map((r) => ({
        audience: userAudience(Number(r.member_id)), type: 'mission.progress',
        payload: {
          missionId: String(r.mission_id), periodKey: r.period_key, progress: n(r.progress), target: n(r.target),
          status: statusOf(r), claimable: counts.get(Number(r.member_id)) ?? 0,
        },
      }));
      await emitEvents(tx, merchant, events);
    }
  }

  // ------------------------------------------------------------ events that move progress

  /**
   * Bets and rolled-back bets from the bet stream, one batch in the drain's transaction: mission progress
   * of the bet kinds and the leaderboard totals (valid bets) of the bet's day and week. Wins do not count.
   */
  const consumer: BetStreamConsumer = {
    name: 'missions',
    async handle(tx, facts) {
      const bets = facts.filter((f) => f.fact === 'bet');
      const rollbacks = facts.filter((f) => f.fact === 'bet_rolled_back');
      if (!bets.length && !rollbacks.length) return;
      const eligible = await eligibleMembers(tx, [...new Set(bets.map((f) => f.memberId))]);
      const merchants = [...new Set(bets.filter((f) => eligible.has(f.memberId)).map((f) => f.merchantCode))];
      const infos = new Map<string, MerchantInfo>();
      for (const m of new Set([...merchants, ...rollbacks.map((f) => f.merchantCode)])) infos.set(m, await merchantInfo(tx, m));
      const missions = merchants.length ? await missionsOf(tx, merchants, BET_KINDS) : [];
      type Credit = { m: string; v: string; t: string; member: number; given: Record<string, number>; lb: number; daily: string; weekly: string };
      const credits = new Map<string, Credit>();
      // What earlier batches' bets gave, for this batch's rollbacks (a rollback in this batch finds its bet in `credits`).
      const earlier = new Map<string, Credit>();
      if (rollbacks.length) {
        const r = await tx.query<{ merchant_code: string; vendor: string; transaction_id: string; member_id: string; given: Record<string, number>; leaderboard: string; daily_key: string; weekly_key: string }>(
          `DELETE FROM mission_bet_credits c USING unnest($1::text[], $2::text[], $3::text[]) AS x(m, v, t)
            WHERE c.merchant_code = x.m AND c.vendor = x.v AND c.transaction_id = x.t RETURNING c.*`,
          [rollbacks.map((f) => f.merchantCode), rollbacks.map((f) => f.vendor), rollbacks.map((f) => f.transactionId)]);
        for (const c of r.rows) {
          earlier.set(`${c.merchant_code}|${c.vendor}|${c.transaction_id}`, {
            m: c.merchant_code, v: c.vendor, t: c.transaction_id, member: Number(c.member_id), given: c.given, lb: Number(c.leaderboard), daily: c.daily_key, weekly: c.weekly_key,
          });
        }
      }
      const deltas: Delta[] = [];
      // Leaderboard changes per (merchant, period, key, member): amount and the time the new total was reached.
      const lb = new Map<string, { merchant: string; period: TMissionPeriod; key: string; member: number; delta: number; at: Date }>();
      const lbAdd = (merchant: string, period: TMissionPeriod, key: string, member: number, delta: number, at: Date) => {
        const k = `${merchant}|${period}|${key}|${member}`;
        const prev = lb.get(k);
        lb.set(k, { merchant, period, key, member, delta: (prev?.delta ?? 0) + delta, at: prev && prev.at > at ? prev.at : at });
      };
      for (const f of facts) {
        const key = `${f.merchantCode}|${f.vendor}|${f.transactionId}`;
        if (f.fact === 'bet') {
          if (!eligible.has(f.memberId)) continue;
          const gmt = infos.get(f.merchantCode)!.gmt;
          const daily = missionPeriodKey(f.placedAt, 'daily', gmt);
          const weekly = missionPeriodKey(f.placedAt, 'weekly', gmt);
          const given: Record<string, number> = {};
          for (const m of missions) {
            if (m.merchant_code !== f.merchantCode) continue;
            const c = betContribution(m.kind, m.game_type, f);
            if (c <= 0) continue;
            const periodKey = m.period === 'daily' ? daily : weekly;
            given[`${m.id}|${periodKey}`] = c;
            deltas.push({ missionId: String(m.id), memberId: f.memberId, merchant: f.merchantCode, periodKey, delta: c });
          }
          if (f.amount > 0) {
            lbAdd(f.merchantCode, 'daily', daily, f.memberId, f.amount, f.placedAt);
            lbAdd(f.merchantCode, 'weekly', weekly, f.memberId, f.amount, f.placedAt);
          }
          credits.set(key, { m: f.merchantCode, v: f.vendor, t: f.transactionId, member: f.memberId, given, lb: f.amount, daily, weekly });
        } else if (f.fact === 'bet_rolled_back') {
          const c = credits.get(key) ?? earlier.get(key);
          credits.delete(key);
          earlier.delete(key);
          if (!c) continue;
          for (const [k, amount] of Object.entries(c.given)) {
            const [missionId, periodKey] = k.split('|') as [string, string];
            deltas.push({ missionId, memberId: c.member, merchant: c.m, periodKey, delta: -amount });
          }
          if (c.lb > 0) {
            lbAdd(c.m, 'daily', c.daily, c.member, -c.lb, f.capturedAt);
            lbAdd(c.m, 'weekly', c.weekly, c.member, -c.lb, f.capturedAt);
          }
        }
      }
      if (credits.size) {
        const cs = [...credits.values()];
        await tx.query(
          `INSERT INTO mission_bet_credits (merchant_code, vendor, transaction_id, member_id, given, leaderboard, daily_key, weekly_key)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::jsonb[], $6::bigint[], $7::text[], $8::text[])
           ON CONFLICT DO NOTHING`,
          [cs.map((c) => c.m), cs.map((c) => c.v), cs.map((c) => c.t), cs.map((c) => c.member), cs.map((c) => JSON.stringify(c.given)), cs.map((c) => c.lb), cs.map((c) => c.daily), cs.map((c) => c.weekly)]);
      }
      const changes = [...lb.values()].filter((x) => x.delta !== 0);
      if (changes.length) {
        // One writer at a time (the drain's lock): update the rows there are, insert the others.
        await tx.query(
          `WITH x AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::timestamptz[]) AS x(m, p, k, member, d, at)),
                upd AS (
                  UPDATE leaderboard_totals l SET total = GREATEST(0, l.total + x.d),
                    reached_at = CASE WHEN x.d > 0 THEN GREATEST(l.reached_at, x.at) ELSE x.at END
                    FROM x WHERE l.merchant_code = x.m AND l.period = x.p AND l.period_key = x.k AND l.member_id = x.member
                  RETURNING l.merchant_code, l.period, l.period_key, l.member_id)
           INSERT INTO leaderboard_totals (merchant_code, period, period_key, member_id, total, reached_at)
           SELECT x.m, x.p, x.k, x.member, x.d, x.at FROM x
            WHERE x.d > 0 AND NOT EXISTS (SELECT 1 FROM upd WHERE upd.merchant_code = x.m AND upd.period = x.p AND upd.period_key = x.k AND upd.member_id = x.member)`,
          [changes.map((x) => x.merchant), changes.map((x) => x.period), changes.map((x) => x.key), changes.map((x) => x.member), changes.map((x) => x.delta), changes.map((x) => x.at)]);
      }
      await announce(tx, await apply(tx, deltas));
    },
  };

  /** A deposit became paid (in its transaction): deposit missions of the paying day and week move by its amount. */
  async function onDepositPaid(tx: Tx, d: { merchant_code: string; member_id: number; amount: number }) {
    const memberId = Number(d.member_id);
    const missions = await missionsOf(tx, [d.merchant_code], ['deposit']);
    if (!missions.length || !(await eligibleMembers(tx, [memberId])).has(memberId)) return;
    const k = keysNow((await merchantInfo(tx, d.merchant_code)).gmt);
    await announce(tx, await apply(tx, missions.map((m) => ({ missionId: String(m.id), memberId, merchant: d.merchant_code, periodKey: k[m.period], delta: Number(d.amount) }))));
  }

  /** A session was created (in its transaction): the first of a local day moves login_days missions by one day. */
  async function onSessionCreated(tx: Tx, s: { memberId: number; merchantCode: string }) {
    const missions = await missionsOf(tx, [s.merchantCode], ['login_days']);
    if (!missions.length || !(await eligibleMembers(tx, [s.memberId])).has(s.memberId)) return;
    const k = keysNow((await merchantInfo(tx, s.merchantCode)).gmt);
    const fresh = await tx.query('INSERT INTO mission_login_days (member_id, day) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING day', [s.memberId, k.daily]);
    if (!fresh.rows.length) return;
    await announce(tx, await apply(tx, missions.map((m) => ({ missionId: String(m.id), memberId: s.memberId, merchant: s.merchantCode, periodKey: k[m.period], delta: 1 }))));
  }

  // ------------------------------------------------------------ player calls

  function toMission(m: MissionRow, p: ProgressRow | undefined, lang: string, gmt: number): TMission {
    const at = now();
    return {
      id: String(m.id), period: m.period, kind: m.kind, gameType: m.game_type, title: text(m.title, lang), target: n(m.target),
      progress: p ? n(p.progress) : 0, rewardAmount: n(m.reward_amount), periodKey: missionPeriodKey(at, m.period, gmt),
      endsAt: missionPeriodEnd(at, m.period, gmt).toISOString(), status: statusOf(p),
    };
  }

  /** MCSFE_getMissionSummaryDetails: the merchant's missions with the caller's progress in the current day and week. */
  async function summary(merchant: string, memberId: number, lang: string) {
    const info = await merchantInfo(db, merchant);
    const k = keysNow(info.gmt);
    const missions = (await db.query<MissionRow>('SELECT * FROM missions WHERE merchant_code = $1 AND enabled ORDER BY sort, id LIMIT 200', [merchant])).rows;
    const rows = (await db.query<ProgressRow>(
      'SELECT * FROM mission_progress WHERE member_id = $1 AND period_key = ANY($2::text[])', [memberId, [k.daily, k.weekly]])).rows;
    const mine = new Map(rows.map((r) => [`${r.mission_id}|${r.period_key}`, r]));
    const list = missions.map((m) => toMission(m, mine.get(`${m.id}|${k[m.period]}`), lang, info.gmt));
    return { list, claimable: list.filter((x) => x.status === 'claim').length, eligible: await isMarketable(db, memberId) };
  }

  /**
   * Claim a completed mission's reward, once: the progress row is locked, the money moves from the merchant's
   * promotion cost account to the wallet in one ledger transfer keyed by the row, and the row is marked
   * claimed. A second claim is CONFLICT with nothing changed; a period that is over cannot be claimed.
   */
  async function claim(merchant: string, memberId: number, missionId: number, periodKey: string, lang: string) {
    return db.tx(async (tx) => {
      const x = await activeExclusion(tx, memberId);
      if (x) throw new AppError(ErrorCode.RG_EXCLUDED, 'Missions are not offered during an exclusion');
      const info = await merchantInfo(tx, merchant);
      const m = (await tx.query<MissionRow>('SELECT * FROM missions WHERE id = $1 AND merchant_code = $2 AND enabled', [missionId, merchant])).rows[0];
      if (!m) throw new AppError(ErrorCode.NOT_FOUND, 'No such mission');
      if (periodOfKey(periodKey) !== m.period) throw new AppError(ErrorCode.NOT_FOUND, 'No such period for this mission');
      const p = (await tx.query<ProgressRow>(
        'SELECT * FROM mission_progress WHERE mission_id = $1 AND member_id = $2 AND period_key = $3 FOR UPDATE', [m.id, memberId, periodKey])).rows[0];
      if (p?.claimed_at) throw new AppError(ErrorCode.CONFLICT, 'Already claimed', undefined, { status: 'claimed' });
      const current = missionPeriodKey(now(), m.period, info.gmt);
      // Keys of one period kind order as text ('2026-12-07', 'W2026-12-07'): a later one has not begun.
      if (periodKey > current) throw new AppError(ErrorCode.FORBIDDEN, 'This period has not started yet', undefined, { reason: 'period_not_started' });
      if (periodKey !== current) throw new AppError(ErrorCode.FORBIDDEN, 'This period is over', undefined, { reason: 'period_over' });
      if (!p || p.completed_at === null) throw new AppError(ErrorCode.INVALID_STATE, 'The mission is not completed', undefined, { status: 'processing' });
      const amount = n(m.reward_amount);
      const t = await transfer(tx, {
        merchant, currency: info.currency, key: `mission:progress:${p.id}:claim`, kind: 'mission.reward',
        debit: { system: 'bonus' }, credit: { member: memberId }, amount, memo: { missionId: String(m.id), periodKey },
      });
      const row = (await tx.query<ProgressRow & { target: string | number }>(
        `UPDATE mission_progress p SET claimed_at = now(), reward_paid = $2, updated_at = now() FROM missions m WHERE p.id = $1 AND m.id = p.mission_id RETURNING p.*, m.target`,
        [p.id, amount])).rows[0]!;
      await announce(tx, [row]);
      const claimable = (await claimableCounts(tx, [memberId], info.gmt)).get(memberId) ?? 0;
      return { mission: toMission(m, row, lang, info.gmt), claimable, transferId: String(t.transferId) };
    });
  }

  /**
   * getMissionLeaderboard: the top N of the current day or week by valid bets (ties: earlier first), and the caller's own place.
   * Players marketing may not reach (an exclusion in force, an account not active: marketableSql) are filtered at read
   * time: their totals stay stored (a lifted exclusion brings them back) but they are not listed, not counted in
   * anyone's rank, and have no place of their own (`me` null).
   */
  async function leaderboard(merchant: string, memberId: number | null, period: TMissionPeriod, limit: number) {
    const info = await merchantInfo(db, merchant);
    const key = missionPeriodKey(now(), period, info.gmt);
    const top = (await db.query<{ member_id: string | number; total: string | number; account: string }>(
      `SELECT l.member_id, l.total, m.account FROM leaderboard_totals l JOIN members m ON m.id = l.member_id
        WHERE l.merchant_code = $1 AND l.period = $2 AND l.period_key = $3 AND l.total > 0 AND ${marketableSql('l.member_id')}
        ORDER BY l.total DESC, l.reached_at, l.member_id LIMIT $4`, [merchant, period, key, limit])).rows;
    let me: { rank: number; total: number; beyondCap: boolean } | null = null;
    if (memberId !== null) {
      // Players ahead: two index-only range counts (higher total; same total reached earlier), each stopped
      // at RANK_CAP so a deep rank costs at most that many index entries (measured in the commit).
      const r = (await db.query<{ total: string | number; rank: number }>(
        `SELECT l.total, 1
             + (SELECT count(*)::int FROM (SELECT 1 FROM leaderboard_totals o WHERE o.merchant_code = l.merchant_code AND o.period = l.period
                  AND o.period_key = l.period_key AND o.total > l.total AND ${marketableSql('o.member_id')} LIMIT $5) a)
             + (SELECT count(*)::int FROM (SELECT 1 FROM leaderboard_totals o WHERE o.merchant_code = l.merchant_code AND o.period = l.period
                  AND o.period_key = l.period_key AND o.total = l.total AND (o.reached_at, o.member_id) < (l.reached_at, l.member_id)
                  AND ${marketableSql('o.member_id')} LIMIT $5) b) AS rank
           FROM leaderboard_totals l WHERE l.merchant_code = $1 AND l.period = $2 AND l.period_key = $3 AND l.member_id = $4 AND l.total > 0
            AND ${marketableSql('l.member_id')}`,
        [merchant, period, key, memberId, RANK_CAP])).rows[0];
      if (r) me = r.rank > RANK_CAP ? { rank: RANK_CAP + 1, total: n(r.total), beyondCap: true } : { rank: r.rank, total: n(r.total), beyondCap: false };
    }
    return {
      period, periodKey: key, endsAt: missionPeriodEnd(now(), period, info.gmt).toISOString(),
      list: top.map((x, i) => ({ rank: i + 1, name: maskName(x.account), total: n(x.total), isMe: memberId !== null && Number(x.member_id) === memberId })),
      me,
    };
  }

  // ------------------------------------------------------------ operators

  async function opsList(merchant: string) {
    const r = await db.query<MissionRow & { claims: number }>(
      `SELECT m.*, (SELECT count(*)::int FROM mission_progress p WHERE p.mission_id = m.id AND p.claimed_at IS NOT NULL) AS claims
         FROM missions m WHERE merchant_code = $1 ORDER BY m.sort, m.id LIMIT 500`, [merchant]);
    return { list: r.rows.map((m) => toOpsMission(m, m.claims)) };
  }

  type Body = { period: TMissionPeriod; kind: TMissionKind; gameType: string | null; title: { EN: string; TY: string }; target: number; rewardAmount: number; enabled: boolean; sort: number };
  const columns = (b: Body) => [b.period, b.kind, b.gameType, JSON.stringify(b.title), b.target, b.rewardAmount, b.enabled, b.sort];

  async function create(op: Operator, merchant: string, b: Body) {
    return db.tx(async (tx) => {
      const m = (await tx.query<MissionRow>(
        `INSERT INTO missions (merchant_code, period, kind, game_type, title, target, reward_amount, enabled, sort)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`, [merchant, ...columns(b)])).rows[0]!;
      await audit(tx, op, 'mission.create', { type: 'mission', id: String(m.id) }, null, toOpsMission(m, 0));
      return toOpsMission(m, 0);
    });
  }

  /**
   * Edit or disable (enabled: false) a mission. Its period and kind are fixed once players may have
   * progress on it (the progress would mean something else). A new target recomputes completion of the
   * current period (merchant calendar) for every player's row of the mission, in the edit's transaction:
   * completed when progress >= the new target (a lowered target can complete), not completed below it (a
   * raised target un-completes what is not claimed yet); a claimed row stays claimed. Earlier periods are
   * over and stay as they were. Each changed row is pushed as mission.progress (with the badge), and the
   * counts go into the edit's audit record.
   */
  async function update(op: Operator, merchant: string, id: number, b: Body) {
    return db.tx(async (tx) => {
      const before = (await tx.query<MissionRow>('SELECT * FROM missions WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, merchant])).rows[0];
      if (!before) throw new AppError(ErrorCode.NOT_FOUND, 'No such mission');
      if (before.kind !== b.kind || before.period !== b.period || before.game_type !== b.gameType) {
        throw new AppError(ErrorCode.INVALID_STATE, 'The period, kind and game type of a mission cannot change');
      }
      const m = (await tx.query<MissionRow>(
        `UPDATE missions SET title = $3, target = $4, reward_amount = $5, enabled = $6, sort = $7, updated_at = now()
          WHERE id = $1 AND merchant_code = $2 RETURNING *`, [id, merchant, JSON.stringify(b.title), b.target, b.rewardAmount, b.enabled, b.sort])).rows[0]!;
      const claims = (await tx.query<{ c: number }>('SELECT count(*)::int AS c FROM mission_progress WHERE mission_id = $1 AND claimed_at IS NOT NULL', [id])).rows[0]!.c;
      let recomputed: { periodKey: string; completed: number; uncompleted: number } | undefined;
      if (n(before.target) !== n(m.target)) {
        const periodKey = missionPeriodKey(now(), m.period, (await merchantInfo(tx, merchant)).gmt);
        // Only rows whose completion disagrees with the new target change (completed_at IS NULL must equal progress < target).
        const rows = (await tx.query<ProgressRow & { target: string | number }>(
          `UPDATE mission_progress p SET completed_at = CASE WHEN p.progress >= $3::bigint THEN now() END, updated_at = now()
            WHERE p.mission_id = $1 AND p.period_key = $2 AND p.claimed_at IS NULL AND (p.completed_at IS NULL) <> (p.progress < $3::bigint)
            RETURNING p.*, $3::bigint AS target`, [id, periodKey, n(m.target)])).rows;
        recomputed = { periodKey, completed: rows.filter((r) => r.completed_at !== null).length, uncompleted: rows.filter((r) => r.completed_at === null).length };
        await announce(tx, rows);
      }
      await audit(tx, op, 'mission.update', { type: 'mission', id: String(id) }, toOpsMission(before, claims), { ...toOpsMission(m, claims), ...(recomputed ? { recomputed } : {}) });
      return toOpsMission(m, claims);
    });
  }

  return { consumer, onDepositPaid, onSessionCreated, summary, claim, leaderboard, opsList, create, update };
}
export type Missions = ReturnType<typeof createMissions>;

/**
 * Demo missions (SEED=demo, first start only), written once: nothing is added when the merchant has any
 * mission. Money targets and rewards are in the merchant's currency (the peso amounts at its demo rate).
 */
export async function seedDemoMissions(db: Db, merchant = 'DEMO') {
  const has = await db.query('SELECT 1 FROM missions WHERE merchant_code = $1 LIMIT 1', [merchant]);
  const info = await findMerchantInfo(db, merchant);
  if (has.rows.length || !info) return;
  const { amount: a, text } = demoAmounts(info);
  const rows: Array<[TMissionPeriod, TMissionKind, string | null, number, number, { EN: string; TY: string }]> = [
    ['daily', 'login_days', null, 1, a(1_00), { EN: 'Sign in today', TY: 'Mag-sign in ngayon' }],
    ['daily', 'bet_count', null, 10, a(2_00), { EN: 'Place 10 bets today', TY: 'Tumaya nang 10 beses ngayon' }],
    ['daily', 'valid_bet', null, a(500_00), a(5_00), { EN: `Bet ${text(500_00)} today`, TY: `Tumaya ng ${text(500_00)} ngayon` }],
    ['daily', 'game_bet', 'RNG', a(100_00), a(2_00), { EN: `Bet ${text(100_00)} on slots today`, TY: `Tumaya ng ${text(100_00)} sa slots ngayon` }],
    ['weekly', 'deposit', null, a(1_000_00), a(20_00), { EN: `Deposit ${text(1_000_00)} this week`, TY: `Magdeposito ng ${text(1_000_00)} ngayong linggo` }],
    ['weekly', 'login_days', null, 5, a(10_00), { EN: 'Sign in on 5 days this week', TY: 'Mag-sign in sa 5 araw ngayong linggo' }],
  ];
  let sort = 0;
  for (const [period, kind, gameType, target, reward, title] of rows) {
    await db.query(
      `INSERT INTO missions (merchant_code, period, kind, game_type, title, target, reward_amount, sort) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [merchant, period, kind, gameType, JSON.stringify(title), target, reward, sort++]);
  }
}
