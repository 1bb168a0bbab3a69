import { createHash, randomBytes } from 'node:crypto';
import { postMessage, titleParams } from '../wallet/messages.ts';
import type { TOpsPromotion, TPromotion, TReward } from '@portal/contracts/api/promotions';
import {
  drawWinners, rewardStatus, REBATE_LABEL_BPS, wagerContribution, wagerRequired,
  type TActivityStatus, type TPromotionCategory, type TPromotionKind, type TRewardState,
} from '@portal/contracts/domain/promotions';
import { userAudience } from '@portal/contracts/events/events';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { emitEvent, emitEvents, type NewEvent } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { BetFact, BetStreamConsumer } from '../engagement/bet-stream.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import { activeExclusion, notExcludedSql } from '../rg/rg-service.ts';
import { audit, type Operator } from '../ops/operators.ts';
import type { RedEnvelopes } from '../red-envelopes/red-envelopes-service.ts';
import { createPromotionDrops } from './promotion-drops.ts';
import { bonusBalance, convertBonus, forfeitBonus, grantBonus, payReward, revertBonus, walletAvailableForUpdate, type MoneyRef } from './promotions-ledger.ts';
import { iso } from '../../db/iso.ts';
import { demoAmounts, findMerchantInfo, merchantInfo, merchantMoney } from '../merchants/merchant-money.ts';

export type PromotionRow = {
  id: string | number; merchant_code: string; category: TPromotionCategory; kind: TPromotionKind;
  title: Record<string, string>; rules: Record<string, string>; starts_at: Date | string; ends_at: Date | string | null;
  enabled: boolean; requires_join: boolean; reward_amount: string | number; reward_bps: number; reward_cap: string | number | null;
  min_deposit: string | number; wagering_bonus_x: number; wagering_deposit_x: number; weights: Record<string, number>;
  rebate_bps: Record<string, number>; bonus_days: number; draw_at: Date | string | null; winners: number | null;
  seed_hash: string | null; seed: string | null; drawn_at: Date | string | null;
};
export type RewardRow = {
  id: string | number; merchant_code: string; promotion_id: string | number; member_id: string | number; period_key: string;
  status: TRewardState; amount: string | number; deposit_amount: string | number; remark: string | null; decision_reason: string | null;
  wager_required: string | number; wager_progress: string | number; weights: Record<string, number>;
  expires_at: Date | string | null; claimed_at: Date | string | null; created_at: Date | string;
  /** Conversions so far and what the player kept of the bonus after a reverted one (migration 062). */
  conversions: number; owed: string | number;
};

const ms = (d: Date | string) => (d instanceof Date ? d : new Date(d)).getTime();
const n = (v: string | number | null) => (v === null ? 0 : Number(v));
const text = (m: Record<string, string>, lang: string) => m[lang] ?? m.EN ?? '';
/** Both languages of a promotion's title (the operator lists show both, as the promotions list does). */
const bothTitles = (m: Record<string, string>) => ({ EN: m.EN ?? '', TY: m.TY ?? '' });
export const sha256Hex = async (s: string) => createHash('sha256').update(s).digest('hex');

/** The merchant's calendar day (YYYY-MM-DD) of `at`. */
export function dayKey(at: Date, gmtOffsetMinutes: number): string {
  return new Date(at.getTime() + gmtOffsetMinutes * 60_000).toISOString().slice(0, 10);
}

export const REBATE_JOB = 'promo.rebate';
export const REBATE_TICK_JOB = 'promo.rebate.tick';
/** A merchant day is settled once it has been over this long (bets of its last seconds are in). */
export const REBATE_GRACE_MS = 5 * 60_000;
export const EXPIRE_JOB = 'promo.bonus.expire';
export const DRAW_JOB = 'promo.raffle.draw';
const DAY = 24 * 3600_000;

/** The state a promotion is in by itself (not yet started, over or disabled), or null while it runs. */
function ownState(p: PromotionRow, now: number): TActivityStatus | null {
  if (ms(p.starts_at) > now) return 'coming_soon';
  if (!p.enabled || (p.ends_at !== null && ms(p.ends_at) <= now)) return 'closed';
  if (p.kind === 'raffle' && (p.drawn_at !== null || ms(p.draw_at!) <= now)) return 'closed';
  return null;
}

/**
 * The caller's status on a promotion (spec section 4), from the rules:
 * coming soon before it starts; a reward of the current period decides (applying, rejected, claim,
 * processing, issued, claimed, closed when forfeited); then closed when over; then signed when joined
 * (today, for a daily sign-in); else join.
 */
export function promotionStatus(p: PromotionRow, joined: boolean, reward: RewardRow | null, now: number): TActivityStatus {
  if (ms(p.starts_at) > now) return 'coming_soon';
  if (reward) return rewardStatus(reward.status, reward.claimed_at !== null);
  const own = ownState(p, now);
  if (own) return own;
  if (joined) return 'signed';
  return 'join';
}

export function toOpsPromotion(p: PromotionRow, joins: number): TOpsPromotion {
  return {
    id: String(p.id), category: p.category, kind: p.kind, title: { EN: p.title.EN ?? '', TY: p.title.TY ?? '' }, rules: { EN: p.rules.EN ?? '', TY: p.rules.TY ?? '' },
    startsAt: iso(p.starts_at)!, endsAt: iso(p.ends_at), enabled: p.enabled, requiresJoin: p.requires_join,
    rewardAmount: n(p.reward_amount), rewardBps: p.reward_bps, rewardCap: p.reward_cap === null ? null : n(p.reward_cap), minDeposit: n(p.min_deposit),
    wageringBonusX: p.wagering_bonus_x, wageringDepositX: p.wagering_deposit_x, weights: p.weights, rebateBps: p.rebate_bps, bonusDays: p.bonus_days,
    drawAt: iso(p.draw_at), winners: p.winners, seedHash: p.seed_hash, drawnAt: iso(p.drawn_at), joins,
  };
}

function toPromotion(p: PromotionRow, lang: string, status: TActivityStatus, rewardId: string | null): TPromotion {
  return {
    id: String(p.id), category: p.category, kind: p.kind, title: text(p.title, lang), rules: text(p.rules, lang),
    startsAt: iso(p.starts_at)!, endsAt: iso(p.ends_at), requiresJoin: p.requires_join, rewardAmount: n(p.reward_amount), rewardBps: p.reward_bps,
    rewardCap: p.reward_cap === null ? null : n(p.reward_cap), minDeposit: n(p.min_deposit), wageringBonusX: p.wagering_bonus_x,
    wageringDepositX: p.wagering_deposit_x, weights: p.weights,
    rebateBps: p.kind === 'rebate' ? { ...REBATE_LABEL_BPS, ...p.rebate_bps } : p.rebate_bps, bonusDays: p.bonus_days,
    drawAt: iso(p.draw_at), winners: p.winners, status, rewardId,
  };
}

export function toReward(r: RewardRow & { title?: Record<string, string>; category?: TPromotionCategory }, lang: string): TReward {
  return {
    id: String(r.id), promotionId: String(r.promotion_id), title: text(r.title ?? {}, lang), category: r.category ?? 'special',
    state: r.status, status: rewardStatus(r.status, r.claimed_at !== null), amount: n(r.amount), periodKey: r.period_key,
    remark: r.remark, decisionReason: r.decision_reason, wagerRequired: n(r.wager_required), wagerProgress: n(r.wager_progress),
    owed: n(r.owed ?? 0), expiresAt: iso(r.expires_at), createdAt: iso(r.created_at)!,
  };
}

type Member = { memberId: number; account: string };

export function createPromotions(deps: { db: Db; merchants: MerchantDirectory; jobs: JobQueue | null; now?: () => Date; envelopes?: RedEnvelopes }) {
  const { db, merchants } = deps;
  const now = deps.now ?? (() => new Date());
  /** Red envelope drops attached to promotions (promotion-drops.ts); null without the red envelopes module. */
  const drops = deps.envelopes ? createPromotionDrops({ db, jobs: deps.jobs, envelopes: deps.envelopes, now }) : null;

  async function merchantOf(code: string) {
    const m = await merchants.byCode(code);
    if (!m) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
    return m;
  }
  /** Has the member a paid deposit? A first-deposit promotion is then closed to them (unless joined before). */
  async function hasPaidDeposit(q: Queryable, memberId: number): Promise<boolean> {
    return (await q.query(`SELECT 1 FROM deposits WHERE member_id = $1 AND status = 'paid' LIMIT 1`, [memberId])).rows.length > 0;
  }
  /** The amount of the member's first paid deposit (the one onDepositPaid judged), or null before any. */
  async function firstPaidDeposit(q: Queryable, memberId: number): Promise<number | null> {
    const r = await q.query<{ amount: string | number }>(
      `SELECT amount FROM deposits WHERE member_id = $1 AND status = 'paid' ORDER BY transfer_id NULLS LAST, id LIMIT 1`, [memberId]);
    return r.rows[0] ? n(r.rows[0].amount) : null;
  }
  /**
   * The running first-deposit promotion (other than `exceptId`) the member has joined, if any: a player
   * holds one first-deposit bonus at a time (onDepositPaid grants one), so the others are closed to them.
   */
  async function joinedFirstDeposit(q: Queryable, memberId: number, exceptId: number | string | null): Promise<string | null> {
    const r = await q.query<{ id: string | number }>(
      `SELECT p.id FROM promotion_joins j JOIN promotions p ON p.id = j.promotion_id
        WHERE j.member_id = $1 AND p.kind = 'first_deposit' AND p.enabled AND (p.ends_at IS NULL OR p.ends_at > now())
          AND ($2::bigint IS NULL OR p.id <> $2::bigint)
        ORDER BY j.id LIMIT 1`, [memberId, exceptId === null ? null : String(exceptId)]);
    return r.rows[0] ? String(r.rows[0].id) : null;
  }
  const periodOf = (p: PromotionRow, gmt: number) => (p.kind === 'daily_signin' ? dayKey(now(), gmt) : '');

  async function promotion(q: Queryable, merchant: string, id: number, lock = false): Promise<PromotionRow> {
    const r = await q.query<PromotionRow>(`SELECT * FROM promotions WHERE id = $1 AND merchant_code = $2${lock ? ' FOR UPDATE' : ''}`, [id, merchant]);
    if (!r.rows[0]) throw new AppError(ErrorCode.NOT_FOUND, 'No such promotion');
    return r.rows[0];
  }

  /** Players under an exclusion (self-exclusion, cooling-off, ...) are not marketed to: RG_EXCLUDED. Uses rg's exclusion check. */
  async function assertMarketable(q: Queryable, memberId: number) {
    const x = await activeExclusion(q, memberId);
    if (x) throw new AppError(ErrorCode.RG_EXCLUDED, 'Promotions are not offered during an exclusion', undefined, { until: iso(x.ends_at), kind: x.kind });
  }

  /** A promotion the player can act on now, else FORBIDDEN (not eligible) with the reason. */
  function assertRunning(p: PromotionRow) {
    const own = ownState(p, now().getTime());
    if (own === 'coming_soon') throw new AppError(ErrorCode.FORBIDDEN, 'This promotion has not started');
    if (own === 'closed') throw new AppError(ErrorCode.FORBIDDEN, 'This promotion is closed');
  }

  async function claimableCount(q: Queryable, memberId: number) {
    return (await q.query<{ c: number }>(`SELECT count(*)::int AS c FROM promotion_rewards WHERE member_id = $1 AND status = 'claimable'`, [memberId])).rows[0]!.c;
  }
  async function announceReward(tx: Tx, r: RewardRow) {
    await emitEvent(tx, r.merchant_code, userAudience(Number(r.member_id)), 'promotion.reward', {
      rewardId: String(r.id), promotionId: String(r.promotion_id), state: r.status, claimable: await claimableCount(tx, Number(r.member_id)),
    });
  }
  const progressEvent = (r: RewardRow): NewEvent => ({
    audience: userAudience(Number(r.member_id)), type: 'bonus.progress',
    payload: { rewardId: String(r.id), promotionId: String(r.promotion_id), state: r.status as 'processing' | 'completed' | 'forfeited', amount: n(r.amount), wagerRequired: n(r.wager_required), wagerProgress: n(r.wager_progress) },
  });

  /**
   * Give a reward's money: with a wagering requirement, into the bonus account (processing, expiring
   * after bonus_days); without, straight to the wallet (completed). `claimed` marks a player's claim.
   */
  async function grant(tx: Tx, p: PromotionRow, r: RewardRow, amount: number, claimed: boolean): Promise<RewardRow> {
    const m = await merchantInfo(tx, r.merchant_code);
    const ref: MoneyRef = { merchant: r.merchant_code, currency: m.currency, memberId: Number(r.member_id), rewardId: Number(r.id) };
    const required = wagerRequired(amount, n(r.deposit_amount), p.wagering_bonus_x, p.wagering_deposit_x);
    let row: RewardRow;
    if (amount > 0 && required > 0) {
      await grantBonus(tx, ref, amount);
      row = (await tx.query<RewardRow>(
        `UPDATE promotion_rewards SET status = 'processing', amount = $2, wager_required = $3, wager_progress = 0, weights = $4,
           expires_at = now() + make_interval(days => $5), claimed_at = CASE WHEN $6 THEN now() ELSE claimed_at END, updated_at = now()
         WHERE id = $1 RETURNING *`, [r.id, amount, required, JSON.stringify(p.weights), p.bonus_days, claimed])).rows[0]!;
      await emitEvents(tx, r.merchant_code, [progressEvent(row)]);
    } else {
      if (amount > 0) await payReward(tx, ref, amount);
      row = (await tx.query<RewardRow>(
        `UPDATE promotion_rewards SET status = 'completed', amount = $2, completed_at = now(), claimed_at = CASE WHEN $3 THEN now() ELSE claimed_at END, updated_at = now()
         WHERE id = $1 RETURNING *`, [r.id, amount, claimed])).rows[0]!;
    }
    await announceReward(tx, row);
    return row;
  }

  async function newReward(tx: Tx, p: PromotionRow, memberId: number, periodKey: string, status: TRewardState, fields: { amount?: number; deposit?: number; remark?: string | null } = {}) {
    const r = await tx.query<RewardRow>(
      `INSERT INTO promotion_rewards (merchant_code, promotion_id, member_id, period_key, status, amount, deposit_amount, remark)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (promotion_id, member_id, period_key) DO NOTHING RETURNING *`,
      [p.merchant_code, p.id, memberId, periodKey, status, fields.amount ?? 0, fields.deposit ?? 0, fields.remark ?? null]);
    return r.rows[0] ?? null;
  }

  async function list(merchant: string, memberId: number | null, lang: string, category: TPromotionCategory | undefined, gmt: number) {
    const ps = (await db.query<PromotionRow>(
      `SELECT * FROM promotions WHERE merchant_code = $1 AND ($2::text IS NULL OR category = $2) AND enabled
        ORDER BY (ends_at IS NOT NULL AND ends_at <= now()), starts_at DESC, id DESC LIMIT 200`, [merchant, category ?? null])).rows;
    const joins = new Set<string>();
    const rewards = new Map<string, RewardRow>();
    if (memberId !== null && ps.length) {
      const ids = ps.map((p) => p.id);
      const today = dayKey(now(), gmt);
      for (const j of (await db.query<{ promotion_id: string | number; period_key: string }>(
        'SELECT promotion_id, period_key FROM promotion_joins WHERE member_id = $1 AND promotion_id = ANY($2::bigint[])', [memberId, ids])).rows) {
        if (j.period_key === '' || j.period_key === today) joins.add(String(j.promotion_id));
      }
      for (const r of (await db.query<RewardRow>(
        `SELECT * FROM promotion_rewards WHERE member_id = $1 AND promotion_id = ANY($2::bigint[]) ORDER BY id`, [memberId, ids])).rows) {
        const p = ps.find((x) => String(x.id) === String(r.promotion_id))!;
        // A daily sign-in's reward belongs to its day; others: the latest reward decides.
        if (p.kind === 'daily_signin' && r.period_key !== today) continue;
        rewards.set(String(r.promotion_id), r);
      }
    }
    // A first-deposit promotion is closed to a player who has deposited without joining it first (the
    // join would answer PROMOTION_NOT_ELIGIBLE): the card offers no Join it cannot keep.
    const firstDeposit = memberId !== null && ps.some((p) => p.kind === 'first_deposit') ? await firstPaidDeposit(db, memberId) : null;
    const deposited = firstDeposit !== null;
    // Likewise the other first-deposit promotions of a player who joined one (one first-deposit bonus each).
    const firstDepositJoined = memberId !== null && ps.some((p) => p.kind === 'first_deposit')
      ? await joinedFirstDeposit(db, memberId, null) : null;
    const t = now().getTime();
    return {
      list: ps.map((p) => {
        const r = rewards.get(String(p.id)) ?? null;
        const joined = joins.has(String(p.id));
        // A daily sign-in paid in cash shows signed for its day (the reward itself is in the reward centre).
        let status = p.kind === 'daily_signin' && r?.status === 'completed' ? 'signed' : promotionStatus(p, joined, r, t);
        // One joined before a first deposit that paid it no bonus can pay nothing now: it said "Joined" for
        // good. Below its minimum it says so; otherwise (a deposit made during an exclusion) as above.
        const spent = p.kind === 'first_deposit' && status === 'signed' && joined && r === null && firstDeposit !== null;
        const closedBecause = spent ? (firstDeposit < n(p.min_deposit) ? 'below_minimum' as const : 'deposited' as const)
          : status !== 'join' || p.kind !== 'first_deposit' ? null
          : deposited ? 'deposited' as const
          : firstDepositJoined !== null && firstDepositJoined !== String(p.id) ? 'joined_other' as const : null;
        if (closedBecause) status = 'closed';
        return { ...toPromotion(p, lang, status, r ? String(r.id) : null), ...(closedBecause ? { closedBecause } : {}) };
      }),
    };
  }

  async function one(merchant: string, memberId: number, id: number, lang: string, gmt: number) {
    const all = await list(merchant, memberId, lang, undefined, gmt);
    const p = all.list.find((x) => x.id === String(id));
    if (!p) throw new AppError(ErrorCode.NOT_FOUND);
    return p;
  }

  /**
   * MCSFE_signUpPromotionJoin: sign up, enter a raffle, or sign in for today. A daily sign-in pays its reward
   * each day, a sign-up promotion with a reward pays it once, on joining (under wagering when the
   * promotion sets a multiple): its card advertised the reward and joining paid nothing.
   */
  async function join(merchant: string, who: Member, promotionId: number, lang: string, gmt: number) {
    await db.tx(async (tx) => {
      await assertMarketable(tx, who.memberId);
      const p = await promotion(tx, merchant, promotionId);
      assertRunning(p);
      if (!p.requires_join && p.kind !== 'daily_signin') throw new AppError(ErrorCode.FORBIDDEN, 'This promotion needs no sign-up');
      if (p.kind === 'first_deposit') {
        // A second join of the same promotion is the 409 every other join gives, not "you have deposited".
        if ((await tx.query('SELECT 1 FROM promotion_joins WHERE promotion_id = $1 AND member_id = $2', [p.id, who.memberId])).rows.length) {
          throw new AppError(ErrorCode.CONFLICT, 'Already joined');
        }
        if (await hasPaidDeposit(tx, who.memberId)) throw new AppError(ErrorCode.PROMOTION_NOT_ELIGIBLE);
        // One first-deposit bonus per player: the member's row is locked so that two joins of two such
        // promotions at once cannot both pass.
        await tx.query('SELECT 1 FROM members WHERE id = $1 FOR UPDATE', [who.memberId]);
        if (await joinedFirstDeposit(tx, who.memberId, p.id)) {
          throw new AppError(ErrorCode.CONFLICT, 'Already signed up for another first-deposit bonus');
        }
      }
      const period = periodOf(p, gmt);
      const j = await tx.query('INSERT INTO promotion_joins (promotion_id, member_id, period_key) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING id', [p.id, who.memberId, period]);
      if (!j.rows.length) throw new AppError(ErrorCode.CONFLICT, p.kind === 'daily_signin' ? 'Already signed in today' : 'Already joined');
      if ((p.kind === 'daily_signin' || p.kind === 'signup') && n(p.reward_amount) > 0) {
        const r = await newReward(tx, p, who.memberId, period, 'claimable');
        if (r) await grant(tx, p, r, n(p.reward_amount), false);
      }
    });
    return { promotion: await one(merchant, who.memberId, promotionId, lang, gmt) };
  }

  /** MCSFE_signUpRequestReward: a reward request with a remark (at most 140 characters), decided by an operator. */
  async function requestReward(merchant: string, who: Member, promotionId: number, remark: string, lang: string) {
    const r = await db.tx(async (tx) => {
      await assertMarketable(tx, who.memberId);
      const p = await promotion(tx, merchant, promotionId);
      if (p.kind !== 'request') throw new AppError(ErrorCode.FORBIDDEN, 'Rewards of this promotion are not requested');
      assertRunning(p);
      if (p.requires_join) {
        const j = await tx.query('SELECT 1 FROM promotion_joins WHERE promotion_id = $1 AND member_id = $2', [p.id, who.memberId]);
        if (!j.rows.length) throw new AppError(ErrorCode.FORBIDDEN, 'Join the promotion first');
      }
      const row = await newReward(tx, p, who.memberId, '', 'applying', { remark: remark || null });
      if (!row) throw new AppError(ErrorCode.CONFLICT, 'A reward of this promotion was already requested');
      await announceReward(tx, row);
      return { ...row, title: p.title, category: p.category };
    });
    return { reward: toReward(r, lang) };
  }

  /** The player claims a reward waiting for them (rebate, raffle prize): paid or put under wagering, once. */
  async function claim(merchant: string, who: Member, rewardId: number, lang: string) {
    const r = await db.tx(async (tx) => {
      await assertMarketable(tx, who.memberId);
      const row = (await tx.query<RewardRow>('SELECT * FROM promotion_rewards WHERE id = $1 AND member_id = $2 AND merchant_code = $3 FOR UPDATE', [rewardId, who.memberId, merchant])).rows[0];
      if (!row) throw new AppError(ErrorCode.NOT_FOUND);
      if (row.status !== 'claimable') throw new AppError(ErrorCode.CONFLICT, row.claimed_at ? 'Already claimed' : 'Nothing to claim', undefined, { state: row.status });
      const p = await promotion(tx, merchant, Number(row.promotion_id));
      return { ...(await grant(tx, p, row, n(row.amount), true)), title: p.title, category: p.category };
    });
    return { reward: toReward(r, lang) };
  }

  /** MCS2_claimRafflePromotion: the raffle prize of the caller. */
  async function claimRaffle(merchant: string, who: Member, promotionId: number, lang: string) {
    const p = await promotion(db, merchant, promotionId);
    if (p.kind !== 'raffle') throw new AppError(ErrorCode.FORBIDDEN, 'Not a raffle');
    const r = await db.query<{ id: string }>(`SELECT id FROM promotion_rewards WHERE promotion_id = $1 AND member_id = $2`, [p.id, who.memberId]);
    if (!r.rows[0]) throw new AppError(ErrorCode.FORBIDDEN, p.drawn_at ? 'This entry did not win' : 'The raffle has not been drawn yet');
    return claim(merchant, who, Number(r.rows[0].id), lang);
  }

  async function rewards(merchant: string, memberId: number, lang: string) {
    const m = await merchantOf(merchant);
    const r = await db.query<RewardRow & { title: Record<string, string>; category: TPromotionCategory }>(
      `SELECT r.*, p.title, p.category FROM promotion_rewards r JOIN promotions p ON p.id = r.promotion_id
        WHERE r.member_id = $1 AND r.merchant_code = $2 ORDER BY r.id DESC LIMIT 200`, [memberId, merchant]);
    const list = r.rows.map((x) => toReward(x, lang));
    return {
      list, claimable: list.filter((x) => x.state === 'claimable').length, processing: list.filter((x) => x.state === 'processing').length,
      bonusBalance: await bonusBalance(db, memberId, m.currency),
    };
  }

  async function raffle(merchant: string, memberId: number | null, promotionId: number) {
    const p = await promotion(db, merchant, promotionId);
    if (p.kind !== 'raffle') throw new AppError(ErrorCode.NOT_FOUND);
    const entries = (await db.query<{ id: string; member_id: string }>('SELECT id::text, member_id::text FROM promotion_joins WHERE promotion_id = $1 ORDER BY promotion_joins.id', [p.id])).rows;
    const winners = (await db.query<{ member_id: string }>('SELECT member_id::text FROM promotion_raffle_winners WHERE promotion_id = $1 ORDER BY position', [p.id])).rows;
    const entryOf = new Map(entries.map((e) => [e.member_id, e.id]));
    return {
      promotionId: String(p.id), drawAt: iso(p.draw_at)!, winners: p.winners!, seedHash: p.seed_hash!, seed: p.drawn_at ? p.seed : null, drawnAt: iso(p.drawn_at),
      entries: entries.map((e) => e.id), myEntry: memberId === null ? null : entryOf.get(String(memberId)) ?? null,
      winningEntries: winners.map((w) => entryOf.get(w.member_id)!),
    };
  }

  // ------------------------------------------------------------ automatic rules

  /**
   * First deposit bonus, in the deposit's own transaction when it becomes paid (exactly once: the deposit
   * moves to paid once, and the reward's key is one per promotion and member). Only the member's first paid
   * deposit counts; excluded players get nothing. One bonus per deposit: the promotion the member joined
   * (the earliest join), else the oldest running one that needs no join; bonuses of several promotions
   * do not stack (three joined promotions once paid 650 on a 300 deposit).
   */
  async function onDepositPaid(tx: Tx, d: { merchant_code: string; member_id: number; amount: number; id: number }) {
    const first = await tx.query<{ c: number }>(`SELECT count(*)::int AS c FROM deposits WHERE member_id = $1 AND status = 'paid'`, [d.member_id]);
    if (first.rows[0]!.c !== 1) return;
    const ps = (await tx.query<PromotionRow>(
      `SELECT p.* FROM promotions p WHERE p.merchant_code = $1 AND p.kind = 'first_deposit' AND p.enabled AND p.starts_at <= now()
          AND (p.ends_at IS NULL OR p.ends_at > now()) AND p.min_deposit <= $3
          AND (NOT p.requires_join OR EXISTS (SELECT 1 FROM promotion_joins j WHERE j.promotion_id = p.id AND j.member_id = $2))
        ORDER BY (SELECT min(j.id) FROM promotion_joins j WHERE j.promotion_id = p.id AND j.member_id = $2) NULLS LAST, p.id
        LIMIT 1`, [d.merchant_code, d.member_id, d.amount])).rows;
    if (!ps.length || (await activeExclusion(tx, d.member_id))) return;
    for (const p of ps) {
      const share = Math.floor((d.amount * p.reward_bps) / 10_000);
      const amount = Math.min(p.reward_cap === null ? Infinity : n(p.reward_cap), share + n(p.reward_amount));
      if (amount <= 0) continue;
      const r = await newReward(tx, p, d.member_id, '', 'claimable', { amount, deposit: d.amount });
      if (r) await grant(tx, p, r, amount, false);
    }
  }

  /**
   * Rebate of one merchant-local day (`day` = YYYY-MM-DD on the merchant's calendar: from its local midnight,
   * its brand's GMT offset, for 24 h): valid bets (bets not rolled back) of the day per game type x the
   * promotion's rate (default: the spec's rebate labels) become a claimable reward per member, period key = the
   * local day. Exactly once per merchant day: the rewards and the job's "done" commit together.
   */
  async function settleRebates(merchant: string, day: string, completeIn?: (tx: Tx) => Promise<void>) {
    if (!/^\d{4}-\d\d-\d\d$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw new Error(`bad rebate day ${day}`);
    const period = day;
    return db.tx(async (tx) => {
      const gmt = (await tx.query<{ gmt: number | null }>(`SELECT (brand->>'gmtOffsetMinutes')::int AS gmt FROM merchants WHERE code = $1`, [merchant])).rows[0]?.gmt ?? 0;
      const { start: dayStart, end: dayEnd } = merchantDay(day, gmt);
      let count = 0;
      const ps = (await tx.query<PromotionRow>(
        `SELECT * FROM promotions WHERE merchant_code = $3 AND kind = 'rebate' AND enabled AND starts_at < $2 AND (ends_at IS NULL OR ends_at > $1) ORDER BY id`, [dayStart, dayEnd, merchant])).rows;
      for (const p of ps) {
        const rates = { ...REBATE_LABEL_BPS, ...p.rebate_bps };
        const rows = (await tx.query<{ member_id: string; game_type: string | null; bets: string }>(
          `SELECT v.member_id::text, g.game_type, sum(v.amount)::text AS bets
             FROM vendor_transactions v
             JOIN members m ON m.id = v.member_id
             LEFT JOIN games g ON g.merchant_code = v.merchant_code AND g.vassalage = v.vendor AND g.game_code = v.game_code
            WHERE v.merchant_code = $1 AND v.kind = 'bet' AND v.status = 'applied' AND v.created_at >= $2 AND v.created_at < $3
              AND NOT (m.type = ANY($4::int[])) AND ${notExcludedSql('v.member_id')}
              AND (NOT $5 OR EXISTS (SELECT 1 FROM promotion_joins j WHERE j.promotion_id = $6 AND j.member_id = v.member_id))
            GROUP BY v.member_id, g.game_type`,
          [p.merchant_code, dayStart, dayEnd, (await merchantInfo(tx, p.merchant_code)).trialTypes, p.requires_join, p.id])).rows;
        const perMember = new Map<number, number>();
        for (const r of rows) {
          const bps = r.game_type ? rates[r.game_type] ?? 0 : 0;
          perMember.set(Number(r.member_id), (perMember.get(Number(r.member_id)) ?? 0) + Math.floor((Number(r.bets) * bps) / 10_000));
        }
        for (const [memberId, amount] of perMember) {
          if (amount <= 0) continue;
          const r = await newReward(tx, p, memberId, period, 'claimable', { amount });
          if (r) {
            count++;
            await announceReward(tx, r);
          }
        }
      }
      await completeIn?.(tx);
      return count;
    });
  }

  /** Bonuses past their time without meeting the wagering: forfeited, the money back to the cost account. */
  async function expireBonuses() {
    return db.tx(async (tx) => {
      const rows = (await tx.query<RewardRow>(
        `SELECT * FROM promotion_rewards WHERE status = 'processing' AND expires_at <= now() ORDER BY id LIMIT 500 FOR UPDATE SKIP LOCKED`)).rows;
      for (const r of rows) {
        const m = await merchantInfo(tx, r.merchant_code);
        // What the bonus account holds for this reward: its amount less what the player kept after a reverted conversion (owed stays on the reward).
        const held = n(r.amount) - n(r.owed);
        if (held > 0) await forfeitBonus(tx, { merchant: r.merchant_code, currency: m.currency, memberId: Number(r.member_id), rewardId: Number(r.id) }, held);
        const row = (await tx.query<RewardRow>(`UPDATE promotion_rewards SET status = 'forfeited', updated_at = now() WHERE id = $1 RETURNING *`, [r.id])).rows[0]!;
        await emitEvents(tx, r.merchant_code, [progressEvent(row)]);
        await announceReward(tx, row);
      }
      return rows.length;
    });
  }

  /** The raffle's draw at draw_at: entries closed, winners from the committed seed, prizes claimable. Once (job key = promotion). */
  async function draw(promotionId: number, completeIn?: (tx: Tx) => Promise<void>) {
    return db.tx(async (tx) => {
      const p = (await tx.query<PromotionRow>('SELECT * FROM promotions WHERE id = $1 FOR UPDATE', [promotionId])).rows[0];
      if (!p || p.kind !== 'raffle' || p.drawn_at !== null) {
        await completeIn?.(tx);
        return [];
      }
      const entries = (await tx.query<{ id: string; member_id: string }>(
        `SELECT j.id::text, j.member_id::text FROM promotion_joins j WHERE j.promotion_id = $1 AND j.created_at <= $2 ORDER BY j.id`, [p.id, p.draw_at])).rows;
      const won = await drawWinners(p.seed!, entries.map((e) => e.id), p.winners!, sha256Hex);
      const memberOf = new Map(entries.map((e) => [e.id, Number(e.member_id)]));
      let pos = 0;
      for (const entry of won) {
        const memberId = memberOf.get(entry)!;
        await tx.query('INSERT INTO promotion_raffle_winners (promotion_id, position, member_id) VALUES ($1, $2, $3)', [p.id, pos++, memberId]);
        const r = await newReward(tx, p, memberId, '', 'claimable', { amount: n(p.reward_amount) });
        if (r) await announceReward(tx, r);
      }
      await tx.query('UPDATE promotions SET drawn_at = now(), updated_at = now() WHERE id = $1', [p.id]);
      await completeIn?.(tx);
      return won;
    });
  }

  // ------------------------------------------------------------ wagering from the bet stream

  /**
   * Wagering, one bet-stream batch in the drain's transaction. A bet counts towards the member's oldest
   * bonus under wagering, weighted by its game type (the weights saved with the bonus); what it gave is
   * written down (promotion_wagers) so its rollback takes exactly that back. When progress reaches the
   * requirement the bonus converts to withdrawable money in one ledger transfer (key per reward and
   * conversion). A rollback that takes a converted bonus's progress back below its requirement undoes the
   * conversion: the bonus is under wagering again and the wallet gives the bonus back to the bonus account
   * (key per rolled-back bet), at most what the wallet has; what it lacks stays on the reward as `owed`,
   * netted from the next conversion (migration 062). Wins do not count. One bonus.progress per touched
   * bonus per batch (its state after the batch); promotion.reward for each bonus that converted or reverted.
   */
  const consumer: BetStreamConsumer = {
    name: 'promotions.wagering',
    async handle(tx, facts) {
      const members = [...new Set(facts.filter((f) => f.fact !== 'win').map((f) => f.memberId))];
      if (!members.length) return;
      const open = (await tx.query<RewardRow>(
        `SELECT * FROM promotion_rewards WHERE member_id = ANY($1::bigint[]) AND status = 'processing' ORDER BY id FOR UPDATE`, [members])).rows;
      const rollbacks = facts.filter((f) => f.fact === 'bet_rolled_back');
      // What earlier batches' bets gave, for this batch's rollbacks (a rollback in the same batch finds its bet below).
      const given = new Map<string, { rewardId: string; contributed: number }>();
      if (rollbacks.length) {
        const r = await tx.query<{ key: string; reward_id: string; contributed: string }>(
          `DELETE FROM promotion_wagers w USING unnest($1::text[], $2::text[], $3::text[]) AS x(m, v, t)
            WHERE w.merchant_code = x.m AND w.vendor = x.v AND w.transaction_id = x.t
            RETURNING w.merchant_code || '|' || w.vendor || '|' || w.transaction_id AS key, w.reward_id::text, w.contributed::text`,
          [rollbacks.map((f) => f.merchantCode), rollbacks.map((f) => f.vendor), rollbacks.map((f) => f.transactionId)]);
        for (const x of r.rows) given.set(x.key, { rewardId: x.reward_id, contributed: Number(x.contributed) });
      }
      // Converted bonuses that a rolled-back bet of an earlier batch fed: the rollback may undo their conversion.
      const openIds = new Set(open.map((r) => String(r.id)));
      const doneIds = [...new Set([...given.values()].map((g) => g.rewardId))].filter((id) => !openIds.has(id));
      const done = doneIds.length ? (await tx.query<RewardRow>(
        `SELECT * FROM promotion_rewards WHERE id = ANY($1::bigint[]) AND status = 'completed' AND wager_required > 0 ORDER BY id FOR UPDATE`, [doneIds])).rows : [];
      if (!open.length && !done.length) return;
      const all = [...open, ...done].sort((x, y) => Number(x.id) - Number(y.id));
      const byMember = new Map<number, RewardRow[]>();
      for (const r of all) byMember.set(Number(r.member_id), [...(byMember.get(Number(r.member_id)) ?? []), r]);
      const byId = new Map(all.map((r) => [String(r.id), r]));
      const currencies = new Map<string, string>();
      const ref = async (r: RewardRow): Promise<MoneyRef> => {
        let currency = currencies.get(r.merchant_code);
        if (!currency) currencies.set(r.merchant_code, currency = (await merchantInfo(tx, r.merchant_code)).currency);
        return { merchant: r.merchant_code, currency, memberId: Number(r.member_id), rewardId: Number(r.id) };
      };
      // Rewards touched by rollbacks but neither processing nor converted (forfeited) are in neither list: nothing to give back there.
      const touched = new Set<string>();
      const changed = new Set<string>();
      const wagers = new Map<string, { m: string; v: string; t: string; reward: string; c: number }>();
      for (const f of facts) {
        const key = `${f.merchantCode}|${f.vendor}|${f.transactionId}`;
        if (f.fact === 'bet') {
          const r = byMember.get(f.memberId)?.find((x) => x.status === 'processing');
          if (!r) continue;
          const c = wagerContribution(f.amount, f.gameType, r.weights);
          if (c <= 0) continue;
          r.wager_progress = n(r.wager_progress) + c;
          wagers.set(key, { m: f.merchantCode, v: f.vendor, t: f.transactionId, reward: String(r.id), c });
          touched.add(String(r.id));
          if (n(r.wager_progress) >= n(r.wager_required)) {
            // Converted now, in order with the batch's other moves (a later rollback in this batch may take it back).
            r.status = 'completed';
            r.conversions = n(r.conversions) + 1;
            const pay = n(r.amount) - n(r.owed);
            if (pay > 0) await convertBonus(tx, await ref(r), pay, r.conversions);
            r.owed = 0;
            changed.add(String(r.id));
          }
        } else if (f.fact === 'bet_rolled_back') {
          const w = wagers.get(key);
          const g = w ? { rewardId: w.reward, contributed: w.c } : given.get(key);
          if (w) wagers.delete(key);
          if (!g) continue;
          const r = byId.get(g.rewardId);
          if (!r || (r.status !== 'processing' && r.status !== 'completed')) continue;
          r.wager_progress = Math.max(0, n(r.wager_progress) - g.contributed);
          touched.add(String(r.id));
          if (r.status === 'completed' && n(r.wager_progress) < n(r.wager_required)) {
            // Undo the conversion: the bonus back under wagering, its money back from the wallet as far as the wallet has it.
            const m = await ref(r);
            const take = Math.min(n(r.amount), await walletAvailableForUpdate(tx, m));
            if (take > 0) await revertBonus(tx, m, take, { vendor: f.vendor, transactionId: f.transactionId });
            r.owed = n(r.amount) - take;
            r.status = 'processing';
            changed.add(String(r.id));
          }
        }
      }
      if (wagers.size) {
        const ws = [...wagers.values()];
        await tx.query(
          `INSERT INTO promotion_wagers (merchant_code, vendor, transaction_id, reward_id, contributed)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])`,
          [ws.map((w) => w.m), ws.map((w) => w.v), ws.map((w) => w.t), ws.map((w) => w.reward), ws.map((w) => w.c)]);
      }
      if (!touched.size) return;
      const rows = [...touched].map((id) => byId.get(id)!);
      await tx.query(
        `UPDATE promotion_rewards r SET wager_progress = x.p, status = x.s, conversions = x.c, owed = x.o,
           completed_at = CASE WHEN x.s <> 'completed' THEN NULL WHEN r.status = 'completed' THEN r.completed_at ELSE now() END, updated_at = now()
           FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::int[], $5::bigint[]) AS x(id, p, s, c, o) WHERE r.id = x.id`,
        [rows.map((r) => r.id), rows.map((r) => n(r.wager_progress)), rows.map((r) => r.status), rows.map((r) => n(r.conversions)), rows.map((r) => n(r.owed))]);
      const perMerchant = new Map<string, NewEvent[]>();
      for (const r of rows) perMerchant.set(r.merchant_code, [...(perMerchant.get(r.merchant_code) ?? []), progressEvent(r)]);
      for (const [merchant, events] of perMerchant) await emitEvents(tx, merchant, events);
      for (const id of changed) await announceReward(tx, byId.get(id)!);
    },
  };

  // ------------------------------------------------------------ operators

  async function opsList(merchant: string) {
    const r = await db.query<PromotionRow & { joins: number }>(
      `SELECT p.*, (SELECT count(*)::int FROM promotion_joins j WHERE j.promotion_id = p.id) AS joins FROM promotions p WHERE merchant_code = $1 ORDER BY id DESC LIMIT 500`, [merchant]);
    return { list: r.rows.map((p) => toOpsPromotion(p, p.joins)) };
  }

  type Body = {
    category: TPromotionCategory; kind: TPromotionKind; title: { EN: string; TY: string }; rules: { EN: string; TY: string };
    startsAt: string; endsAt: string | null; enabled: boolean; requiresJoin: boolean; rewardAmount: number; rewardBps: number; rewardCap: number | null;
    minDeposit: number; wageringBonusX: number; wageringDepositX: number; weights: Record<string, number>; rebateBps: Record<string, number>;
    bonusDays: number; drawAt: string | null; winners: number | null;
  };
  const columns = (b: Body) => [b.category, b.kind, JSON.stringify(b.title), JSON.stringify(b.rules), b.startsAt, b.endsAt, b.enabled, b.requiresJoin,
    b.rewardAmount, b.rewardBps, b.rewardCap, b.minDeposit, b.wageringBonusX, b.wageringDepositX, JSON.stringify(b.weights), JSON.stringify(b.rebateBps),
    b.bonusDays, b.drawAt, b.winners];

  async function create(op: Operator, merchant: string, b: Body) {
    return db.tx(async (tx) => {
      // A raffle commits to its seed now: the hash is public from the start, the seed after the draw.
      const seed = b.kind === 'raffle' ? randomBytes(32).toString('hex') : null;
      const p = (await tx.query<PromotionRow>(
        `INSERT INTO promotions (merchant_code, category, kind, title, rules, starts_at, ends_at, enabled, requires_join, reward_amount, reward_bps, reward_cap,
           min_deposit, wagering_bonus_x, wagering_deposit_x, weights, rebate_bps, bonus_days, draw_at, winners, seed, seed_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22) RETURNING *`,
        [merchant, ...columns(b), seed, seed ? await sha256Hex(seed) : null])).rows[0]!;
      await audit(tx, op, 'promotion.create', { type: 'promotion', id: String(p.id) }, null, toOpsPromotion(p, 0));
      if (p.kind === 'raffle' && deps.jobs) await deps.jobs.enqueue(DRAW_JOB, { promotionId: Number(p.id) }, { key: String(p.id), runAt: new Date(ms(p.draw_at!)) }, tx);
      return toOpsPromotion(p, 0);
    });
  }

  async function update(op: Operator, merchant: string, id: number, b: Body) {
    return db.tx(async (tx) => {
      const before = await promotion(tx, merchant, id, true);
      if (before.kind !== b.kind) throw new AppError(ErrorCode.INVALID_STATE, 'The kind of a promotion cannot change');
      if (before.kind === 'raffle' && before.drawn_at !== null && iso(before.draw_at) !== new Date(b.drawAt!).toISOString()) throw new AppError(ErrorCode.INVALID_STATE, 'The raffle was drawn');
      const p = (await tx.query<PromotionRow>(
        `UPDATE promotions SET category = $3, kind = $4, title = $5, rules = $6, starts_at = $7, ends_at = $8, enabled = $9, requires_join = $10,
           reward_amount = $11, reward_bps = $12, reward_cap = $13, min_deposit = $14, wagering_bonus_x = $15, wagering_deposit_x = $16, weights = $17,
           rebate_bps = $18, bonus_days = $19, draw_at = $20, winners = $21, updated_at = now()
         WHERE id = $1 AND merchant_code = $2 RETURNING *`, [id, merchant, ...columns(b)])).rows[0]!;
      const joins = (await tx.query<{ c: number }>('SELECT count(*)::int AS c FROM promotion_joins WHERE promotion_id = $1', [id])).rows[0]!.c;
      await audit(tx, op, 'promotion.update', { type: 'promotion', id: String(id) }, toOpsPromotion(before, joins), toOpsPromotion(p, joins));
      if (p.kind === 'raffle' && deps.jobs && p.drawn_at === null) await deps.jobs.enqueue(DRAW_JOB, { promotionId: id }, { key: `${id}:${iso(p.draw_at)}`, runAt: new Date(ms(p.draw_at!)) }, tx);
      return toOpsPromotion(p, joins);
    });
  }

  async function opsRequests(merchant: string) {
    const r = await db.query<{ id: string; promotion_id: string; title: Record<string, string>; member_id: number; account: string; remark: string | null; created_at: Date }>(
      `SELECT r.id::text, r.promotion_id::text, p.title, r.member_id, m.account, r.remark, r.created_at FROM promotion_rewards r
         JOIN promotions p ON p.id = r.promotion_id JOIN members m ON m.id = r.member_id
        WHERE r.merchant_code = $1 AND r.status = 'applying' ORDER BY r.id LIMIT 500`, [merchant]);
    return { list: r.rows.map((x) => ({ id: x.id, promotionId: x.promotion_id, promotionTitle: bothTitles(x.title), memberId: Number(x.member_id), account: x.account, remark: x.remark, createdAt: iso(x.created_at)! })) };
  }

  /** The latest requests an operator decided (approved: issued, paid or under wagering; or rejected), newest first. */
  async function opsDecidedRequests(merchant: string) {
    const r = await db.query<{ id: string; promotion_id: string; title: Record<string, string>; member_id: number; account: string; remark: string | null; created_at: Date; status: TRewardState; amount: number; decided_by: string; updated_at: Date; decision_reason: string | null }>(
      `SELECT r.id::text, r.promotion_id::text, p.title, r.member_id, m.account, r.remark, r.created_at, r.status, r.amount, r.decided_by, r.updated_at, r.decision_reason
         FROM promotion_rewards r JOIN promotions p ON p.id = r.promotion_id JOIN members m ON m.id = r.member_id
        WHERE r.merchant_code = $1 AND r.decided_by IS NOT NULL AND r.status <> 'applying' ORDER BY r.updated_at DESC, r.id DESC LIMIT 100`, [merchant]);
    return {
      list: r.rows.map((x) => ({
        id: x.id, promotionId: x.promotion_id, promotionTitle: bothTitles(x.title), memberId: Number(x.member_id), account: x.account, remark: x.remark, createdAt: iso(x.created_at)!,
        state: x.status, amount: Number(x.amount), decidedBy: x.decided_by, decidedAt: iso(x.updated_at)!, reason: x.decision_reason,
      })),
    };
  }

  /** An operator approves (the reward is issued: paid or put under wagering) or rejects a request. Audited; once. */
  async function decide(op: Operator, merchant: string, rewardId: number, b: { approve: boolean; amount?: number | undefined; reason: string }) {
    return db.tx(async (tx) => {
      const r = (await tx.query<RewardRow>('SELECT * FROM promotion_rewards WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [rewardId, merchant])).rows[0];
      if (!r) throw new AppError(ErrorCode.NOT_FOUND);
      if (r.status !== 'applying') throw new AppError(ErrorCode.CONFLICT, 'Already decided', undefined, { state: r.status });
      const p = await promotion(tx, merchant, Number(r.promotion_id));
      await tx.query('UPDATE promotion_rewards SET decided_by = $2, decision_reason = $3 WHERE id = $1', [r.id, op.username, b.reason || null]);
      let row: RewardRow;
      if (!b.approve) {
        row = (await tx.query<RewardRow>(`UPDATE promotion_rewards SET status = 'rejected', updated_at = now() WHERE id = $1 RETURNING *`, [r.id])).rows[0]!;
        await announceReward(tx, row);
      } else {
        const amount = b.amount ?? n(p.reward_amount);
        if (amount <= 0) throw new AppError(ErrorCode.VALIDATION, 'An amount is needed: the promotion has no fixed reward');
        row = await grant(tx, p, r, amount, false);
      }
      // The player hears of the decision in the message centre, as of a points redeem's.
      const m = await merchantInfo(tx, merchant);
      await postMessage(tx, merchant, Number(r.member_id), b.approve ? 'promotion_reward_approved' : 'promotion_reward_rejected', {
        reference: `P${r.id}`, ...titleParams(p.title), ...(b.approve ? { amount: merchantMoney(m, n(row.amount)) } : b.reason ? { reason: b.reason } : {}),
      });
      await audit(tx, op, b.approve ? 'promotion.reward.approve' : 'promotion.reward.reject', { type: 'promotion_reward', id: String(r.id) }, { state: r.status }, { state: row.status, amount: n(row.amount), reason: b.reason });
      return { id: String(row.id), state: row.status };
    });
  }

  /**
   * Rewards with a bonus still owed (migration 062): a converted bonus was taken back after a rolled-back
   * bet while the wallet held less than it, and the player kept `owed` of it. Newest first.
   */
  async function opsOwed(merchant: string, page: { pageNo: number; pageSize: number } = { pageNo: 1, pageSize: 20 }) {
    const [r, c] = await Promise.all([
      db.query<{ id: string; promotion_id: string; title: Record<string, string>; member_id: number; account: string; status: TRewardState; amount: string | number; owed: string | number; updated_at: Date }>(
        `SELECT r.id::text, r.promotion_id::text, p.title, r.member_id, m.account, r.status, r.amount, r.owed, r.updated_at
           FROM promotion_rewards r JOIN promotions p ON p.id = r.promotion_id JOIN members m ON m.id = r.member_id
          WHERE r.merchant_code = $1 AND r.owed > 0 ORDER BY r.id DESC LIMIT $2 OFFSET $3`, [merchant, page.pageSize, (page.pageNo - 1) * page.pageSize]),
      db.query<{ total: number }>(`SELECT count(*)::int AS total FROM promotion_rewards WHERE merchant_code = $1 AND owed > 0`, [merchant]),
    ]);
    return {
      list: r.rows.map((x) => ({
        id: x.id, promotionId: x.promotion_id, promotionTitle: bothTitles(x.title), memberId: Number(x.member_id), account: x.account, state: x.status,
        amount: n(x.amount), owed: n(x.owed), updatedAt: iso(x.updated_at)!,
      })),
      pageNo: page.pageNo, pageSize: page.pageSize, total: c.rows[0]?.total ?? 0,
    };
  }

  /** The promotion drops, or NOT_FOUND when this gateway runs without red envelopes. */
  const dropsOrNone = () => {
    if (!drops) throw new AppError(ErrorCode.NOT_FOUND);
    return drops;
  };

  return {
    list, join, requestReward, claim, claimRaffle, rewards, raffle, onDepositPaid, settleRebates, expireBonuses, draw, consumer,
    opsList, create, update, opsRequests, opsDecidedRequests, decide, opsOwed, drops, dropsOrNone,
  };
}
export type Promotions = ReturnType<typeof createPromotions>;

/**
 * The merchant-local days whose rebates are due at `at`: the last local day that ended at least
 * REBATE_GRACE_MS before `at`, and the `lookBack` - 1 days before it (catch-up after an outage).
 */
export function dueRebateDays(at: Date, gmtOffsetMinutes: number, lookBack = 3): string[] {
  const today = dayKey(new Date(at.getTime() - REBATE_GRACE_MS), gmtOffsetMinutes);
  const t = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: lookBack }, (_, i) => new Date(t - (i + 1) * DAY).toISOString().slice(0, 10));
}
/** The instants bounding merchant-local day `day` (YYYY-MM-DD) at that GMT offset: [start, end). */
export function merchantDay(day: string, gmtOffsetMinutes: number) {
  const start = new Date(Date.parse(`${day}T00:00:00Z`) - gmtOffsetMinutes * 60_000);
  return { start, end: new Date(start.getTime() + DAY) };
}
/** A merchant day's rebate job key: `MERCHANT:YYYY-MM-DD` (its local day). */
export const rebateKey = (merchant: string, day: string) => `${merchant}:${day}`;

/** The promotions' jobs: daily rebates (exactly once per merchant-local day), bonus expiry, raffle draws (one per raffle). */
export function registerPromotionJobs(jobs: JobQueue, promos: Promotions, db: Db) {
  // Every half hour (so a local midnight at any whole or half hour offset is picked up within 30 min), each
  // merchant with a rebate promotion gets one job per finished local day, keyed by merchant and day: the
  // queue's unique (name, key) and completeIn make each merchant day settle once.
  jobs.define(REBATE_TICK_JOB, async () => {
    const rows = (await db.query<{ code: string; gmt: number | null }>(
      `SELECT m.code, (m.brand->>'gmtOffsetMinutes')::int AS gmt FROM merchants m
        WHERE EXISTS (SELECT 1 FROM promotions p WHERE p.merchant_code = m.code AND p.kind = 'rebate')`)).rows;
    for (const r of rows) {
      for (const day of dueRebateDays(new Date(), r.gmt ?? 0)) {
        await jobs.enqueue(REBATE_JOB, { merchant: r.code, day }, { key: rebateKey(r.code, day) });
      }
    }
  }, { maxAttempts: 1 });
  jobs.schedule(REBATE_TICK_JOB, { cron: '10,40 * * * *' }, { catchUpMs: 3600_000, keepMs: DAY });
  jobs.define<Record<string, unknown>>(REBATE_JOB, async (job) => {
    // The key names the merchant and its local day (runNow passes no payload: the key is enough).
    const i = job.key.lastIndexOf(':');
    await promos.settleRebates(job.key.slice(0, i), job.key.slice(i + 1), (tx) => job.completeIn(tx));
  });
  jobs.define(EXPIRE_JOB, async () => {
    await promos.expireBonuses();
  }, { maxAttempts: 1 });
  jobs.schedule(EXPIRE_JOB, { everyMs: 60_000 }, { catchUpMs: 0, keepMs: 3600_000 });
  jobs.define<{ promotionId: number }>(DRAW_JOB, async (job) => {
    await promos.draw(job.payload.promotionId, (tx) => job.completeIn(tx));
  });
}

export type { BetFact };

/**
 * Demo promotions (SEED=demo, first start only): one of each rule but the raffle, so /promotions shows
 * something to try. Written once: nothing is added when the merchant has any promotion. Amounts are in
 * the merchant's currency (the peso amounts at its demo rate: a VND merchant's cap is 250,000).
 */
export async function seedDemoPromotions(db: Db, merchant = 'DEMO') {
  const has = await db.query('SELECT 1 FROM promotions WHERE merchant_code = $1 LIMIT 1', [merchant]);
  const info = await findMerchantInfo(db, merchant);
  if (has.rows.length || !info) return;
  const { amount, text } = demoAmounts(info);
  const rows: Array<[string, string, Record<string, string>, Record<string, string>, Record<string, unknown>]> = [
    ['newbie', 'first_deposit', { EN: 'Welcome bonus 100%', TY: 'Bonus sa pagsalubong 100%' },
      { EN: `Join, then make your first deposit: we match it 100% up to ${text(500_00)}. Wager the bonus 3 times within 7 days (fishing counts 50%) and it becomes withdrawable.`,
        TY: `Sumali, pagkatapos ay magdeposito sa unang pagkakataon: dodoblehin namin ito hanggang ${text(500_00)}. Itaya ang bonus nang 3 beses sa loob ng 7 araw (50% ang bilang ng pangingisda) at maaari na itong i-withdraw.` },
      { reward_bps: 10_000, reward_cap: amount(500_00), wagering_bonus_x: 3, weights: { FISH: 50 } }],
    ['daily', 'daily_signin', { EN: 'Daily sign-in', TY: 'Araw-araw na pag-sign in' },
      { EN: `Sign in once a day and receive ${text(1_00)}.`, TY: `Mag-sign in isang beses sa isang araw at tumanggap ng ${text(1_00)}.` }, { reward_amount: amount(1_00), requires_join: false }],
    ['high_rebate', 'rebate', { EN: 'Daily rebate on every bet', TY: 'Araw-araw na balik-bayad sa bawat taya' },
      { EN: 'Join and get back a share of yesterday\'s valid bets by game type, ready to claim each morning.', TY: 'Sumali at makabalik ng bahagi ng mga wastong taya kahapon ayon sa uri ng laro, handang kunin tuwing umaga.' }, {}],
    ['special', 'request', { EN: 'Share your big win', TY: 'Ibahagi ang iyong malaking panalo' },
      { EN: 'Join, then request your reward with a remark telling us about your win. Our team reviews every request.', TY: 'Sumali, pagkatapos ay hilingin ang iyong gantimpala na may paalala tungkol sa iyong panalo. Sinusuri ng aming koponan ang bawat hiling.' },
      { reward_amount: amount(50_00) }],
  ];
  for (const [category, kind, title, rules, extra] of rows) {
    await db.query(
      `INSERT INTO promotions (merchant_code, category, kind, title, rules, starts_at, requires_join, reward_amount, reward_bps, reward_cap, wagering_bonus_x, weights)
       VALUES ($1, $2, $3, $4, $5, now() - interval '1 day', $6, $7, $8, $9, $10, $11)`,
      [merchant, category, kind, JSON.stringify(title), JSON.stringify(rules), extra.requires_join ?? true, extra.reward_amount ?? 0, extra.reward_bps ?? 0,
        extra.reward_cap ?? null, extra.wagering_bonus_x ?? 0, JSON.stringify(extra.weights ?? {})]);
  }
}
