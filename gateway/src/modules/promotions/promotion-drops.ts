import type { TOpsEnvelopeDrop } from '@portal/contracts/api/promotions';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { audit, type Operator } from '../ops/operators.ts';
import type { RedEnvelopes } from '../red-envelopes/red-envelopes-service.ts';
import { iso } from '../../db/iso.ts';

/**
 * Red envelope drops attached to a promotion (issue 14, "an operator or a promotion drops an envelope";
 * migration 065). An operator schedules one (total, count, smallest share, minutes open, when); at that
 * time the job PROMO_DROP_JOB (key <promotion>:<drop id>, enqueued in the scheduling transaction) drops
 * ONE envelope to the promotion's participants through the red envelopes' own drop (segment 'promotion',
 * funded from the promotion cost account (system 'bonus', which pays the promotion's bonuses, so its cost
 * is complete) -> envelope escrow, its unclaimed shares going back there at expiry; an operator's own drop
 * stays on the house account), audited as `envelope.drop` under the operator
 * who scheduled it). Exactly once: the drop row is locked and moved to `dropped`, the envelope is
 * written (request id promo-drop:<id>) and the job marked done, all in one transaction; a second run
 * (another node, a restart, runNow) finds the row no longer `scheduled` and only completes. A cancel
 * locks the same row, so it either comes before the run (nothing drops) or is refused (409).
 */
export const PROMO_DROP_JOB = 'promo.envelope.drop';
/** At most this far ahead. */
const MAX_AHEAD_MS = 366 * 24 * 3600_000;

type DropRow = {
  id: number | string; merchant_code: string; promotion_id: number | string; total_amount: number | string; share_count: number; min_share: number | string;
  expires_in_minutes: number; message_en: string | null; message_ty: string | null; run_at: Date | string; status: TOpsEnvelopeDrop['status'];
  envelope_id: number | string | null; failure: string | null; created_by: string; created_by_id: number | string; cancelled_by: string | null;
  created_at: Date | string; title?: Record<string, string>;
};
const toDrop = (r: DropRow, title: Record<string, string> | undefined): TOpsEnvelopeDrop => ({
  id: String(r.id), promotionId: String(r.promotion_id), promotionTitle: { EN: title?.EN ?? '', TY: title?.TY ?? '' }, totalAmount: Number(r.total_amount), count: r.share_count,
  minShare: Number(r.min_share), expiresInMinutes: r.expires_in_minutes, runAt: iso(r.run_at), status: r.status,
  envelopeId: r.envelope_id === null ? null : String(r.envelope_id), failure: r.failure, createdBy: r.created_by, cancelledBy: r.cancelled_by,
  createdAt: iso(r.created_at),
});
export const promoDropKey = (promotionId: number | string, dropId: number | string) => `${promotionId}:${dropId}`;

export type ScheduleDropInput = {
  totalAmount: number; count: number; minShare: number; expiresInMinutes: number; runAt: string; message: { en?: string | undefined; ty?: string | undefined };
};

export function createPromotionDrops(deps: { db: Db; jobs: JobQueue | null; envelopes: RedEnvelopes; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  async function titleOf(q: Queryable, promotionId: number | string) {
    return (await q.query<{ title: Record<string, string> }>('SELECT title FROM promotions WHERE id = $1', [promotionId])).rows[0]?.title;
  }

  async function list(merchant: string) {
    const r = await db.query<DropRow & { title: Record<string, string> }>(
      `SELECT d.*, p.title FROM promotion_envelope_drops d JOIN promotions p ON p.id = d.promotion_id
        WHERE d.merchant_code = $1 ORDER BY d.id DESC LIMIT 500`, [merchant]);
    return { list: r.rows.map((x) => toDrop(x, x.title)) };
  }

  async function schedule(op: Operator, merchant: string, promotionId: number, b: ScheduleDropInput) {
    const runAt = new Date(b.runAt);
    // A time a little in the past (the form's "now") drops at once; further back is a mistake.
    if (runAt.getTime() < now().getTime() - 5 * 60_000 || runAt.getTime() > now().getTime() + MAX_AHEAD_MS) {
      throw new AppError(ErrorCode.VALIDATION, 'Invalid body', [{ path: 'runAt', message: 'from now to a year ahead' }]);
    }
    return db.tx(async (tx) => {
      const p = (await tx.query<{ id: string; title: Record<string, string> }>('SELECT id, title FROM promotions WHERE id = $1 AND merchant_code = $2', [promotionId, merchant])).rows[0];
      if (!p) throw new AppError(ErrorCode.NOT_FOUND, 'No such promotion');
      const row = (await tx.query<DropRow>(
        `INSERT INTO promotion_envelope_drops (merchant_code, promotion_id, total_amount, share_count, min_share, expires_in_minutes, message_en, message_ty,
           run_at, created_by, created_by_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
        [merchant, promotionId, b.totalAmount, b.count, b.minShare, b.expiresInMinutes, b.message.en || null, b.message.ty || null, runAt, op.username, op.id])).rows[0]!;
      const d = toDrop(row, p.title);
      await audit(tx, op, 'promotion.drop.schedule', { type: 'promotion_drop', id: d.id }, null, d);
      if (deps.jobs) await deps.jobs.enqueue(PROMO_DROP_JOB, { id: d.id }, { key: promoDropKey(promotionId, d.id), runAt }, tx);
      return d;
    });
  }

  async function cancel(op: Operator, merchant: string, dropId: number) {
    return db.tx(async (tx) => {
      const r = (await tx.query<DropRow>('SELECT * FROM promotion_envelope_drops WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [dropId, merchant])).rows[0];
      if (!r) throw new AppError(ErrorCode.NOT_FOUND);
      const title = await titleOf(tx, r.promotion_id);
      if (r.status !== 'scheduled') throw new AppError(ErrorCode.CONFLICT, 'The drop already ran or was cancelled', undefined, { state: r.status });
      const row = (await tx.query<DropRow>(
        `UPDATE promotion_envelope_drops SET status = 'cancelled', cancelled_by = $2, updated_at = now() WHERE id = $1 RETURNING *`, [dropId, op.username])).rows[0]!;
      await audit(tx, op, 'promotion.drop.cancel', { type: 'promotion_drop', id: String(dropId) }, toDrop(r, title), toDrop(row, title));
      // The queued job stays: when it runs it finds the drop cancelled and only completes.
      return toDrop(row, title);
    });
  }

  /**
   * The job's work. Returns what became of the drop (null: not found). Nothing is done before run_at
   * (the queue runs it at run_at; runNow in tests may call it early: it throws, the attempt fails).
   */
  async function run(dropId: number, completeIn?: (tx: Tx) => Promise<void>): Promise<TOpsEnvelopeDrop['status'] | null> {
    try {
      return await db.tx(async (tx) => {
        const r = (await tx.query<DropRow & { due: boolean }>('SELECT *, run_at <= now() AS due FROM promotion_envelope_drops WHERE id = $1 FOR UPDATE', [dropId])).rows[0];
        if (!r || r.status !== 'scheduled') {
          if (completeIn) await completeIn(tx);
          return r ? r.status : null;
        }
        if (!r.due) throw new Error(`promotion drop ${dropId} is not due yet`);
        const m = (await tx.query<{ currency: string; trial_types: number[] }>('SELECT currency, trial_types FROM merchants WHERE code = $1', [r.merchant_code])).rows[0]!;
        // The operator who scheduled it drops it: the envelope's created_by and its `envelope.drop` audit name them.
        const op: Operator = { id: Number(r.created_by_id), merchantCode: r.merchant_code, username: r.created_by, roles: [], mustChangePassword: false, totpEnrolled: true };
        const dropped = await deps.envelopes.dropIn(tx, op, { code: r.merchant_code, currency: m.currency, trialTypes: m.trial_types }, {
          totalAmount: Number(r.total_amount), count: r.share_count, minShare: Number(r.min_share), expiresInMinutes: r.expires_in_minutes,
          audience: { kind: 'promotion', promotionId: String(r.promotion_id) }, message: { en: r.message_en ?? undefined, ty: r.message_ty ?? undefined },
          requestId: `promo-drop:${r.id}`,
          // Paid by the promotion cost account, as the promotion's bonuses are (its cost is complete); unclaimed shares go back there.
          fundFrom: 'bonus',
        });
        await tx.query(`UPDATE promotion_envelope_drops SET status = 'dropped', envelope_id = $2, updated_at = now() WHERE id = $1`, [dropId, dropped.envelope.envelopeId]);
        if (completeIn) await completeIn(tx);
        return 'dropped' as const;
      });
    } catch (err) {
      // Refused by the drop's own checks (no participant we may send to, ...): nothing moved; the drop
      // is marked failed with the reason, once, so the queue does not retry a drop that cannot happen.
      if (!(err instanceof AppError)) throw err;
      const reason = `${err.code}: ${err.message}`;
      return db.tx(async (tx) => {
        const row = (await tx.query<DropRow>(
          `UPDATE promotion_envelope_drops SET status = 'failed', failure = $2, updated_at = now() WHERE id = $1 AND status = 'scheduled' RETURNING *`, [dropId, reason])).rows[0];
        if (completeIn) await completeIn(tx);
        return row ? 'failed' as const : null;
      });
    }
  }

  return { list, schedule, cancel, run };
}
export type PromotionDrops = ReturnType<typeof createPromotionDrops>;

export function registerPromotionDropJobs(jobs: JobQueue, drops: PromotionDrops) {
  jobs.define<{ id: string }>(PROMO_DROP_JOB, async (job) => {
    await drops.run(Number(job.payload.id), (tx) => job.completeIn(tx));
  });
}
