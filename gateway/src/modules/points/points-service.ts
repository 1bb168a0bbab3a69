import type { TOpsRedeem, TOpsReward, TPointConfig, TPointReward, TPointsEntry, TRedeem } from '@portal/contracts/api/points';
import { scaleCentavos } from '@portal/contracts/domain/money';
import { canMoveRedeem, cashForPoints, pointsForBet, type TPointsKind, type TRedeemStatus } from '@portal/contracts/domain/points';
import { userAudience } from '@portal/contracts/events/events';
import { TRIAL_TYPE } from '@portal/contracts/domain/constants';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { emitEvent, emitEvents, type NewEvent } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { BetStreamConsumer } from '../engagement/bet-stream.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { assertNotExcluded } from '../rg/rg-service.ts';
import { audit, type Operator } from '../ops/operators.ts';
import { transfer } from '../wallet/ledger.ts';
import { postMessage, titleParams } from '../wallet/messages.ts';
import { iso } from '../../db/iso.ts';
import { demoAmounts, findMerchantInfo } from '../merchants/merchant-money.ts';

/**
 * The points mall (migration 058). Points are whole numbers in point_accounts, every change a row of the
 * append-only points_ledger with a unique key (points_post: one round trip under the account's lock).
 *
 * - Earning: a consumer of the bet stream. Each accepted bet of real money earns floor(bet / ratio)
 *   points (key earn:<vendor>:<transaction>) in the drain's transaction. Trial accounts and players
 *   marketing may not reach (responsible gaming exclusion, disabled account: rg_marketable_members) earn
 *   nothing: points are a marketing incentive, and an excluded player is not to be drawn back to play.
 * - Rollback: a rolled-back bet takes back exactly what it earned (key clawback:<vendor>:<transaction>).
 *   When those points were already spent the balance goes to zero and the rest is recorded as owed,
 *   netted against the next earnings (never against a refund). A rolled-back bet that earned nothing
 *   takes nothing.
 * - Redeem: under the transaction password; the reward row is locked, its stock and the points are
 *   taken in one transaction (status processing). An operator approves (a cash reward is paid by one
 *   ledger transfer from the merchant's bonus cost account, key points:redeem:<id>:pay) or rejects
 *   (points and stock returned), once: processing -> approved | rejected only.
 * - Convert: points -> wallet at the conversion rate, one ledger transfer (key points:convert:<member>:<request>)
 *   with the points debited in the same transaction.
 * Every change announces points.changed (and points.redeem for redeems) to the member in its transaction.
 */

type RewardRow = {
  id: string | number; merchant_code: string; title: Record<string, string>; remark: Record<string, string>; points_required: string | number;
  amount: string | number; stock: number; status: 'active' | 'inactive'; sort: number;
};
type RedeemRow = {
  id: string | number; merchant_code: string; member_id: string | number; reward_id: string | number; request_id: string; quantity: number;
  points: string | number; amount: string | number; status: TRedeemStatus; decided_by: string | null; reason: string | null;
  created_at: Date | string; decided_at: Date | string | null; title: Record<string, string>; account?: string; total?: number;
};
type PostResult = { outcome: 'ok' | 'replay'; balance: number; owed: number; delta: number };

const n = (v: string | number) => Number(v);
const text = (m: Record<string, string> | undefined, lang: string) => (m ? m[lang] ?? m.EN ?? '' : '');

/** A PHP merchant's points without its own config: a point per ₱1.00 of valid bet, a point worth ₱0.01, 100 points to convert. */
export const DEFAULT_POINT_CONFIG: TPointConfig = { betPerPoint: 100, minorPerPoint: 1, minConvert: 100, enabled: true };
/** The default config in a merchant's currency, its amounts at the currency's demo rate (VND: a point per ₫500 of bet, worth ₫5). */
export function defaultPointConfig(currency: string): TPointConfig {
  return { ...DEFAULT_POINT_CONFIG, betPerPoint: scaleCentavos(DEFAULT_POINT_CONFIG.betPerPoint, currency), minorPerPoint: scaleCentavos(DEFAULT_POINT_CONFIG.minorPerPoint, currency) };
}
/** SQLSTATE raised by points_post when a debit is more than the balance. */
const POINTS_SQLSTATE = 'PT001';

/** One change of a member's points (points_post). A debit over the balance: POINTS_INSUFFICIENT. */
export async function postPoints(tx: Tx, merchant: string, memberId: number, key: string, kind: TPointsKind, points: number, ref: string | null): Promise<PostResult> {
  try {
    const r = (await tx.query<{ o_outcome: 'ok' | 'replay'; o_balance: string | number; o_owed: string | number; o_delta: string | number }>(
      'SELECT * FROM points_post($1, $2, $3, $4, $5, $6)', [merchant, memberId, key, kind, points, ref])).rows[0]!;
    return { outcome: r.o_outcome, balance: n(r.o_balance), owed: n(r.o_owed), delta: n(r.o_delta) };
  } catch (err) {
    if ((err as { code?: string }).code === POINTS_SQLSTATE) throw new AppError(ErrorCode.POINTS_INSUFFICIENT);
    throw err;
  }
}

async function configOf(q: Queryable, merchant: string): Promise<TPointConfig> {
  const r = await q.query<{ bet_per_point: string | number; minor_per_point: number; min_convert: number; enabled: boolean }>(
    'SELECT bet_per_point, minor_per_point, min_convert, enabled FROM points_config WHERE merchant_code = $1', [merchant]);
  const c = r.rows[0];
  if (c) return { betPerPoint: n(c.bet_per_point), minorPerPoint: c.minor_per_point, minConvert: c.min_convert, enabled: c.enabled };
  const m = (await q.query<{ currency: string }>('SELECT currency FROM merchants WHERE code = $1', [merchant])).rows[0];
  return defaultPointConfig(m?.currency ?? 'PHP');
}

const toReward = (r: RewardRow, lang: string): TPointReward => ({
  id: String(r.id), title: text(r.title, lang), remark: text(r.remark, lang), pointsRequired: n(r.points_required), amount: n(r.amount), quantity: r.stock, status: r.status,
});
const toOpsReward = (r: RewardRow & { processing?: number }): TOpsReward => ({
  id: String(r.id), title: { EN: r.title.EN ?? '', TY: r.title.TY ?? '' }, remark: { EN: r.remark.EN ?? '', TY: r.remark.TY ?? '' },
  pointsRequired: n(r.points_required), amount: n(r.amount), quantity: r.stock, status: r.status, sort: r.sort, processing: Number(r.processing ?? 0),
});
const toRedeem = (r: RedeemRow, lang: string): TRedeem => ({
  id: String(r.id), rewardId: String(r.reward_id), title: text(r.title, lang), quantity: r.quantity, points: n(r.points), amount: n(r.amount),
  status: r.status, reason: r.reason, createdAt: iso(r.created_at)!, decidedAt: iso(r.decided_at),
});
const toOpsRedeem = (r: RedeemRow, lang = 'EN'): TOpsRedeem => ({ ...toRedeem(r, lang), memberId: n(r.member_id), account: r.account ?? '', decidedBy: r.decided_by });

/** A redeem with its own title (the reward's when it was redeemed, migration 080) and the member's account. */
const REDEEM_SELECT = `SELECT d.*, m.account, count(*) OVER ()::int AS total FROM point_redemptions d
  JOIN members m ON m.id = d.member_id`;

export function createPoints(deps: { db: Db; verifyWithdrawPassword(memberId: number, pw: string): Promise<void> }) {
  const { db } = deps;

  async function changed(tx: Tx, merchant: string, memberId: number, r: PostResult, reason: TPointsKind) {
    await emitEvent(tx, merchant, userAudience(memberId), 'points.changed', { balance: r.balance, owed: r.owed, delta: r.delta, reason });
  }
  async function announceRedeem(tx: Tx, d: RedeemRow) {
    await emitEvent(tx, d.merchant_code, userAudience(n(d.member_id)), 'points.redeem', {
      redeemId: String(d.id), rewardId: String(d.reward_id), status: d.status, points: n(d.points), amount: n(d.amount),
    });
  }

  // ------------------------------------------------------------ player

  async function balance(memberId: number) {
    const r = await db.query<{ balance: string; owed: string; earned: string }>('SELECT balance::text, owed::text, earned::text FROM point_accounts WHERE member_id = $1', [memberId]);
    const a = r.rows[0];
    return { balance: a ? n(a.balance) : 0, owed: a ? n(a.owed) : 0, earned: a ? n(a.earned) : 0 };
  }

  async function config(merchant: string) {
    return configOf(db, merchant);
  }

  async function rewards(merchant: string, lang: string) {
    const r = await db.query<RewardRow>(`SELECT * FROM point_rewards WHERE merchant_code = $1 AND status = 'active' ORDER BY sort, id LIMIT 200`, [merchant]);
    return { list: r.rows.map((x) => toReward(x, lang)) };
  }

  /** getRedeemPointList: the member's redeems, newest first; `status` keeps one status (none: all). */
  async function redeems(merchant: string, memberId: number, lang: string, pageNo: number, pageSize: number, status: TRedeemStatus | null = null) {
    const r = await db.query<RedeemRow>(`${REDEEM_SELECT} WHERE d.member_id = $1 AND d.merchant_code = $2 AND ($5::text IS NULL OR d.status = $5) ORDER BY d.id DESC LIMIT $3 OFFSET $4`,
      [memberId, merchant, pageSize, (pageNo - 1) * pageSize, status]);
    return { list: r.rows.map((x) => toRedeem(x, lang)), pageNo, pageSize, total: r.rows[0]?.total ?? (await countRedeems(merchant, memberId, status)) };
  }
  async function countRedeems(merchant: string, memberId: number, status: TRedeemStatus | null) {
    return (await db.query<{ c: number }>('SELECT count(*)::int AS c FROM point_redemptions WHERE member_id = $1 AND merchant_code = $2 AND ($3::text IS NULL OR status = $3)',
      [memberId, merchant, status])).rows[0]!.c;
  }

  async function history(memberId: number, pageNo: number, pageSize: number) {
    const r = await db.query<{ id: string; kind: TPointsKind; delta: string; owed_delta: string; balance_after: string; ref: string | null; created_at: Date | string; total: number }>(
      `SELECT id::text, kind, delta::text, owed_delta::text, balance_after::text, ref, created_at, count(*) OVER ()::int AS total
         FROM points_ledger WHERE member_id = $1 ORDER BY points_ledger.id DESC LIMIT $2 OFFSET $3`, [memberId, pageSize, (pageNo - 1) * pageSize]);
    const total = r.rows[0]?.total ?? (await db.query<{ c: number }>('SELECT count(*)::int AS c FROM points_ledger WHERE member_id = $1', [memberId])).rows[0]!.c;
    const list: TPointsEntry[] = r.rows.map((x) => ({
      id: x.id, kind: x.kind, delta: n(x.delta), owedDelta: n(x.owed_delta), balanceAfter: n(x.balance_after), ref: x.ref, createdAt: iso(x.created_at)!,
    }));
    return { list, pageNo, pageSize, total };
  }

  /** passwordCheck/MCS2_redeemPointReward: points and stock taken at once; the same requestId answers the first redeem. */
  async function redeem(m: Merchant, memberId: number, b: { rewardId: number; quantity: number; withdrawPassword: string; requestId: string }, lang: string) {
    const cfg = await configOf(db, m.code);
    if (!cfg.enabled) throw new AppError(ErrorCode.MODULE_DISABLED);
    await deps.verifyWithdrawPassword(memberId, b.withdrawPassword);
    return db.tx(async (tx) => {
      await assertNotExcluded(tx, memberId);
      const prior = (await tx.query<RedeemRow>(`${REDEEM_SELECT} WHERE d.member_id = $1 AND d.request_id = $2`, [memberId, b.requestId])).rows[0];
      if (prior) {
        if (n(prior.reward_id) !== b.rewardId || prior.quantity !== b.quantity) throw new AppError(ErrorCode.IDEMPOTENCY_MISMATCH);
        return { redeem: toRedeem(prior, lang), balance: (await balanceIn(tx, memberId)) };
      }
      // Lock order: the reward row, then the member's points account (points_post).
      const reward = (await tx.query<RewardRow>('SELECT * FROM point_rewards WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [b.rewardId, m.code])).rows[0];
      if (!reward) throw new AppError(ErrorCode.NOT_FOUND, 'No such reward');
      // A reward taken out of the catalogue is no longer offered (its stock may be left): not "out of stock".
      if (reward.status !== 'active') throw new AppError(ErrorCode.NOT_FOUND, 'This reward is no longer offered');
      if (reward.stock < b.quantity) throw new AppError(ErrorCode.POINTS_OUT_OF_STOCK, undefined, undefined, { left: reward.stock });
      const points = n(reward.points_required) * b.quantity;
      const amount = n(reward.amount) * b.quantity;
      const d = (await tx.query<RedeemRow>(
        `INSERT INTO point_redemptions (merchant_code, member_id, reward_id, request_id, quantity, points, amount, title) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [m.code, memberId, reward.id, b.requestId, b.quantity, points, amount, JSON.stringify(reward.title)])).rows[0]!;
      const post = await postPoints(tx, m.code, memberId, `redeem:${d.id}`, 'redeem', -points, `R${d.id}`);
      await tx.query('UPDATE point_rewards SET stock = stock - $2, updated_at = now() WHERE id = $1', [reward.id, b.quantity]);
      await changed(tx, m.code, memberId, post, 'redeem');
      await announceRedeem(tx, d);
      return { redeem: toRedeem(d, lang), balance: post.balance };
    });
  }

  async function balanceIn(q: Queryable, memberId: number) {
    return n((await q.query<{ b: string }>('SELECT coalesce((SELECT balance FROM point_accounts WHERE member_id = $1), 0)::text AS b', [memberId])).rows[0]!.b);
  }

  /** passwordCheck/MCS2_convertPoint: points -> wallet at the conversion rate, one transfer, points debited in the same transaction. */
  async function convert(m: Merchant, memberId: number, b: { points: number; withdrawPassword: string; requestId: string }) {
    const cfg = await configOf(db, m.code);
    if (!cfg.enabled) throw new AppError(ErrorCode.MODULE_DISABLED);
    if (b.points < cfg.minConvert) throw new AppError(ErrorCode.AMOUNT_OUT_OF_RANGE, `At least ${cfg.minConvert} points`, [{ path: 'points', message: `at least ${cfg.minConvert}` }]);
    const amount = cashForPoints(b.points, cfg.minorPerPoint);
    if (!Number.isSafeInteger(amount) || amount > 1_000_000_000_000) throw new AppError(ErrorCode.AMOUNT_OUT_OF_RANGE);
    await deps.verifyWithdrawPassword(memberId, b.withdrawPassword);
    return db.tx(async (tx) => {
      await assertNotExcluded(tx, memberId);
      const prior = (await tx.query<{ points: string; amount: string; transfer_id: string }>(
        'SELECT points::text, amount::text, transfer_id::text FROM point_conversions WHERE member_id = $1 AND request_id = $2', [memberId, b.requestId])).rows[0];
      if (prior) {
        if (n(prior.points) !== b.points) throw new AppError(ErrorCode.IDEMPOTENCY_MISMATCH);
        return { points: n(prior.points), amount: n(prior.amount), transferId: prior.transfer_id, balance: await balanceIn(tx, memberId), replayed: true };
      }
      // Points first (their lock and the balance check), then the money.
      const post = await postPoints(tx, m.code, memberId, `convert:${memberId}:${b.requestId}`, 'convert', -b.points, b.requestId);
      const t = await transfer(tx, {
        merchant: m.code, currency: m.currency, key: `points:convert:${memberId}:${b.requestId}`, kind: 'points.convert',
        debit: { system: 'bonus' }, credit: { member: memberId }, amount, memo: { points: b.points, requestId: b.requestId },
      });
      await tx.query('INSERT INTO point_conversions (merchant_code, member_id, request_id, points, amount, transfer_id) VALUES ($1, $2, $3, $4, $5, $6)',
        [m.code, memberId, b.requestId, b.points, amount, t.transferId]);
      await changed(tx, m.code, memberId, post, 'convert');
      return { points: b.points, amount, transferId: String(t.transferId), balance: post.balance, replayed: false };
    });
  }

  // ------------------------------------------------------------ earning from the bet stream

  /**
   * One bet-stream batch, in the drain's transaction. Bets of eligible players earn; rollbacks take back
   * what their bet earned (whoever the player is now). One points.changed per touched member.
   */
  const consumer: BetStreamConsumer = {
    name: 'points.earn',
    async handle(tx, facts) {
      const relevant = facts.filter((f) => f.fact === 'bet' || f.fact === 'bet_rolled_back');
      if (!relevant.length) return;
      const betMembers = [...new Set(relevant.filter((f) => f.fact === 'bet').map((f) => f.memberId))];
      const eligible = new Set<number>();
      if (betMembers.length) {
        const r = await tx.query<{ id: string }>(
          `SELECT m.id::text FROM members m JOIN merchants mc ON mc.code = m.merchant_code JOIN rg_marketable_members mk ON mk.member_id = m.id
            WHERE m.id = ANY($1::bigint[]) AND m.type <> $2 AND NOT (m.type = ANY(mc.trial_types))`, [betMembers, TRIAL_TYPE]);
        for (const x of r.rows) eligible.add(n(x.id));
      }
      const configs = new Map<string, TPointConfig>();
      const rows: Array<{ m: string; member: number; kind: 'earn' | 'clawback'; v: string; t: string; p: number }> = [];
      for (const f of relevant) {
        let cfg = configs.get(f.merchantCode);
        if (!cfg) configs.set(f.merchantCode, (cfg = await configOf(tx, f.merchantCode)));
        if (f.fact === 'bet') {
          if (!cfg.enabled || !eligible.has(f.memberId)) continue;
          const points = pointsForBet(f.amount, cfg.betPerPoint);
          if (points > 0) rows.push({ m: f.merchantCode, member: f.memberId, kind: 'earn', v: f.vendor, t: f.transactionId, p: points });
        } else {
          rows.push({ m: f.merchantCode, member: f.memberId, kind: 'clawback', v: f.vendor, t: f.transactionId, p: 0 });
        }
      }
      if (!rows.length) return;
      // One round trip for the batch (points_apply_facts, in stream order).
      const applied = await tx.query<{ o_member: string; o_merchant: string; o_kind: 'earn' | 'clawback'; o_outcome: 'ok' | 'replay'; o_balance: string; o_owed: string; o_delta: string }>(
        'SELECT * FROM points_apply_facts($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[])',
        [rows.map((r) => r.m), rows.map((r) => r.member), rows.map((r) => r.kind), rows.map((r) => r.v), rows.map((r) => r.t), rows.map((r) => r.p)]);
      const last = new Map<number, { merchant: string; r: PostResult; reason: TPointsKind; sum: number }>();
      for (const a of applied.rows) {
        if (a.o_outcome !== 'ok') continue;
        const memberId = n(a.o_member);
        const r: PostResult = { outcome: 'ok', balance: n(a.o_balance), owed: n(a.o_owed), delta: n(a.o_delta) };
        last.set(memberId, { merchant: a.o_merchant, r, reason: a.o_kind, sum: (last.get(memberId)?.sum ?? 0) + r.delta });
      }
      const perMerchant = new Map<string, NewEvent[]>();
      for (const [memberId, x] of last) {
        perMerchant.set(x.merchant, [...(perMerchant.get(x.merchant) ?? []), {
          audience: userAudience(memberId), type: 'points.changed', payload: { balance: x.r.balance, owed: x.r.owed, delta: x.sum, reason: x.reason },
        }]);
      }
      for (const [merchant, events] of perMerchant) await emitEvents(tx, merchant, events);
    },
  };

  // ------------------------------------------------------------ operators

  async function opsRewards(merchant: string) {
    const r = await db.query<RewardRow & { processing: number }>(
      `SELECT r.*, (SELECT count(*)::int FROM point_redemptions d WHERE d.reward_id = r.id AND d.status = 'processing') AS processing
         FROM point_rewards r WHERE r.merchant_code = $1 ORDER BY r.sort, r.id LIMIT 500`, [merchant]);
    return { list: r.rows.map(toOpsReward) };
  }

  type RewardBody = { title: { EN: string; TY: string }; remark: { EN: string; TY: string }; pointsRequired: number; amount: number; quantity: number; status: 'active' | 'inactive'; sort: number };
  async function createReward(op: Operator, merchant: string, b: RewardBody) {
    return db.tx(async (tx) => {
      const r = (await tx.query<RewardRow>(
        `INSERT INTO point_rewards (merchant_code, title, remark, points_required, amount, stock, status, sort) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [merchant, JSON.stringify(b.title), JSON.stringify(b.remark), b.pointsRequired, b.amount, b.quantity, b.status, b.sort])).rows[0]!;
      await audit(tx, op, 'points.reward.create', { type: 'point_reward', id: String(r.id) }, null, toOpsReward(r));
      return toOpsReward(r);
    });
  }

  /** Edits apply to later redeems: a redeem keeps the points and amount it was made with. */
  async function updateReward(op: Operator, merchant: string, id: number, b: RewardBody) {
    return db.tx(async (tx) => {
      const before = (await tx.query<RewardRow>('SELECT * FROM point_rewards WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, merchant])).rows[0];
      if (!before) throw new AppError(ErrorCode.NOT_FOUND);
      const r = (await tx.query<RewardRow>(
        `UPDATE point_rewards SET title = $3, remark = $4, points_required = $5, amount = $6, stock = $7, status = $8, sort = $9, updated_at = now()
          WHERE id = $1 AND merchant_code = $2 RETURNING *`,
        [id, merchant, JSON.stringify(b.title), JSON.stringify(b.remark), b.pointsRequired, b.amount, b.quantity, b.status, b.sort])).rows[0]!;
      await audit(tx, op, 'points.reward.update', { type: 'point_reward', id: String(id) }, toOpsReward(before), toOpsReward(r));
      return toOpsReward(r);
    });
  }

  async function opsRedeems(merchant: string, status: TRedeemStatus | undefined, pageNo: number, pageSize: number, lang = 'EN') {
    const r = await db.query<RedeemRow>(`${REDEEM_SELECT} WHERE d.merchant_code = $1 AND ($2::text IS NULL OR d.status = $2) ORDER BY d.id DESC LIMIT $3 OFFSET $4`,
      [merchant, status ?? null, pageSize, (pageNo - 1) * pageSize]);
    const total = r.rows[0]?.total ?? (await db.query<{ c: number }>('SELECT count(*)::int AS c FROM point_redemptions WHERE merchant_code = $1 AND ($2::text IS NULL OR status = $2)', [merchant, status ?? null])).rows[0]!.c;
    return { list: r.rows.map((row) => toOpsRedeem(row, lang)), pageNo, pageSize, total };
  }

  /** Approve (a cash reward is paid: bonus cost account -> wallet, keyed) or reject (points and stock back). Once; audited. */
  async function decide(op: Operator, m: Merchant, id: number, b: { approve: boolean; reason: string }) {
    return db.tx(async (tx) => {
      const d = (await tx.query<RedeemRow>('SELECT * FROM point_redemptions WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, m.code])).rows[0];
      if (!d) throw new AppError(ErrorCode.NOT_FOUND);
      const to: TRedeemStatus = b.approve ? 'approved' : 'rejected';
      if (!canMoveRedeem(d.status, to)) throw new AppError(ErrorCode.CONFLICT, 'Already decided', undefined, { status: d.status });
      const memberId = n(d.member_id);
      let transferId: number | null = null;
      if (b.approve) {
        if (n(d.amount) > 0) {
          transferId = (await transfer(tx, {
            merchant: m.code, currency: m.currency, key: `points:redeem:${d.id}:pay`, kind: 'points.redeem',
            debit: { system: 'bonus' }, credit: { member: memberId }, amount: n(d.amount), memo: { redeemId: String(d.id), operator: op.username },
          })).transferId;
        }
      } else {
        await tx.query('UPDATE point_rewards SET stock = stock + $2, updated_at = now() WHERE id = $1', [d.reward_id, d.quantity]);
        const post = await postPoints(tx, m.code, memberId, `refund:${d.id}`, 'refund', n(d.points), `R${d.id}`);
        await changed(tx, m.code, memberId, post, 'refund');
      }
      const row = (await tx.query<RedeemRow>(
        `UPDATE point_redemptions SET status = $2, decided_by = $3, reason = $4, transfer_id = $5, decided_at = now() WHERE id = $1 AND status = 'processing' RETURNING *`,
        [d.id, to, op.username, b.reason || null, transferId])).rows[0]!;
      await announceRedeem(tx, row);
      await postMessage(tx, m.code, memberId, b.approve ? 'points_redeem_approved' : 'points_redeem_rejected', {
        reference: `R${d.id}`, points: n(d.points), ...titleParams(row.title), ...(!b.approve && b.reason ? { reason: b.reason } : {}),
      });
      await audit(tx, op, b.approve ? 'points.redeem.approve' : 'points.redeem.reject', { type: 'point_redemption', id: String(d.id) }, { status: d.status }, { status: to, reason: b.reason, transferId });
      const full = (await tx.query<RedeemRow>(`${REDEEM_SELECT} WHERE d.id = $1`, [d.id])).rows[0]!;
      return toOpsRedeem(full);
    });
  }

  async function updateConfig(op: Operator, merchant: string, c: TPointConfig) {
    return db.tx(async (tx) => {
      const before = await configOf(tx, merchant);
      await tx.query(
        `INSERT INTO points_config (merchant_code, bet_per_point, minor_per_point, min_convert, enabled) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (merchant_code) DO UPDATE SET bet_per_point = $2, minor_per_point = $3, min_convert = $4, enabled = $5, updated_at = now()`,
        [merchant, c.betPerPoint, c.minorPerPoint, c.minConvert, c.enabled]);
      await audit(tx, op, 'points.config.update', { type: 'points_config', id: merchant }, before, c);
      return configOf(tx, merchant);
    });
  }

  return { balance, config, rewards, redeems, history, redeem, convert, consumer, opsRewards, createReward, updateReward, opsRedeems, decide, updateConfig };
}
export type Points = ReturnType<typeof createPoints>;

/**
 * Demo rewards (SEED=demo, first start only): two cash rewards and one item, so /pointMall shows a
 * catalogue. Written once: nothing is added when the merchant has any reward.
 */
export async function seedDemoPointRewards(db: Db, merchant = 'DEMO') {
  const has = await db.query('SELECT 1 FROM point_rewards WHERE merchant_code = $1 LIMIT 1', [merchant]);
  const info = await findMerchantInfo(db, merchant);
  if (has.rows.length || !info) return;
  // Cash in the merchant's currency, with its symbol as every amount of the page shows it: the peso
  // amounts at its demo rate (VND: Cash ₫5,000 for 1,000 points).
  const { amount: a, text } = demoAmounts(info);
  const rows: Array<[Record<string, string>, Record<string, string>, number, number, number]> = [
    [{ EN: `Cash ${text(10_00)}`, TY: `Cash na ${text(10_00)}` }, { EN: 'Credited to your wallet once approved.', TY: 'Ikredito sa iyong wallet kapag naaprubahan.' }, 1_000, a(10_00), 500],
    [{ EN: `Cash ${text(100_00)}`, TY: `Cash na ${text(100_00)}` }, { EN: 'Credited to your wallet once approved.', TY: 'Ikredito sa iyong wallet kapag naaprubahan.' }, 9_000, a(100_00), 100],
    [{ EN: 'Brand T-shirt', TY: 'T-shirt ng brand' }, { EN: 'Our team contacts you for the size and delivery address.', TY: 'Kokontakin ka ng aming koponan para sa sukat at address ng padala.' }, 5_000, 0, 20],
  ];
  let sort = 0;
  for (const [title, remark, points, amount, stock] of rows) {
    await db.query('INSERT INTO point_rewards (merchant_code, title, remark, points_required, amount, stock, sort) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [merchant, JSON.stringify(title), JSON.stringify(remark), points, amount, stock, sort++]);
  }
}
