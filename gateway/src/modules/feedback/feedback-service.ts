import { FEEDBACK_LIMITS, type TFeedback, type TOpsFeedback } from '@portal/contracts/api/feedback';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { postMessage } from '../wallet/messages.ts';
import { audit, type Operator } from '../ops/operators.ts';
import type { CheckedImage } from './image-check.ts';
import { iso } from '../../db/iso.ts';

export type FeedbackImageFile = CheckedImage & { data: Buffer };

type Row = {
  id: number; member_id: number; account?: string; content: string; status: 'open' | 'answered'; answer: string | null;
  answered_by: string | null; answered_at: Date | string | null; created_at: Date | string;
  images: Array<{ n: number; content_type: 'image/png' | 'image/jpeg'; width: number; height: number; size: number }> | null; total?: number;
};


function toFeedback(r: Row): TFeedback {
  return {
    id: String(r.id), content: r.content, status: r.status, answer: r.answer, answeredAt: iso(r.answered_at), createdAt: iso(r.created_at)!,
    images: (r.images ?? []).map((i) => ({ n: i.n, contentType: i.content_type, width: i.width, height: i.height, size: i.size })),
  };
}
const toOps = (r: Row): TOpsFeedback => ({ ...toFeedback(r), memberId: Number(r.member_id), account: r.account ?? '', answeredBy: r.answered_by });

const SELECT = `SELECT f.*, m.account, (SELECT json_agg(json_build_object('n', i.n, 'content_type', i.content_type, 'width', i.width, 'height', i.height, 'size', i.size) ORDER BY i.n)
                   FROM feedback_images i WHERE i.feedback_id = f.id) AS images
                  FROM feedback f JOIN members m ON m.id = f.member_id`;

/** Feedback: players send it (text and checked images), operators answer it once, the answer is a message. */
export function createFeedback(db: Db) {
  return {
    async send(merchant: string, memberId: number, content: string, images: FeedbackImageFile[]): Promise<TFeedback> {
      if (images.length > FEEDBACK_LIMITS.maxFiles) throw new AppError(ErrorCode.IMAGE_INVALID);
      const id = await db.tx(async (tx) => {
        // One member's sends are serialized, so the hourly bound holds under concurrent requests.
        await tx.query('SELECT id FROM members WHERE id = $1 FOR UPDATE', [memberId]);
        const recent = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM feedback WHERE member_id = $1 AND created_at > now() - interval '1 hour'`, [memberId]);
        if ((recent.rows[0]?.n ?? 0) >= FEEDBACK_LIMITS.perHour) throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
        const r = await tx.query<{ id: number }>('INSERT INTO feedback (merchant_code, member_id, content) VALUES ($1, $2, $3) RETURNING id', [merchant, memberId, content]);
        const fid = r.rows[0]!.id;
        for (const [n, img] of images.entries()) {
          await tx.query('INSERT INTO feedback_images (feedback_id, n, content_type, width, height, size, data) VALUES ($1, $2, $3, $4, $5, $6, $7)',
            [fid, n, img.contentType, img.width, img.height, img.data.length, img.data]);
        }
        return fid;
      });
      return toFeedback((await db.query<Row>(`${SELECT} WHERE f.id = $1`, [id])).rows[0]!);
    },

    async list(memberId: number, pageNo: number, pageSize: number) {
      const r = await db.query<Row>(`${SELECT.replace('SELECT f.*', 'SELECT f.*, count(*) OVER ()::int AS total')} WHERE f.member_id = $1 ORDER BY f.id DESC LIMIT $2 OFFSET $3`,
        [memberId, pageSize, (pageNo - 1) * pageSize]);
      const total = r.rows[0]?.total ?? (pageNo > 1 ? (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM feedback WHERE member_id = $1', [memberId])).rows[0]!.n : 0);
      return { list: r.rows.map(toFeedback), pageNo, pageSize, total };
    },

    async opsList(merchant: string, q: { pageNo: number; pageSize: number; status?: 'open' | 'answered' | undefined }) {
      const r = await db.query<Row>(
        `${SELECT.replace('SELECT f.*', 'SELECT f.*, count(*) OVER ()::int AS total')} WHERE f.merchant_code = $1 AND ($2::text IS NULL OR f.status = $2)
          ORDER BY (f.status = 'open') DESC, f.id DESC LIMIT $3 OFFSET $4`,
        [merchant, q.status ?? null, q.pageSize, (q.pageNo - 1) * q.pageSize]);
      const total = r.rows[0]?.total ?? (q.pageNo > 1
        ? (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM feedback WHERE merchant_code = $1 AND ($2::text IS NULL OR status = $2)', [merchant, q.status ?? null])).rows[0]!.n
        : 0);
      return { list: r.rows.map(toOps), pageNo: q.pageNo, pageSize: q.pageSize, total };
    },

    /**
     * The operator's answer, once: the row, the audit entry and the player's message (with its live
     * `message.received` event) in one transaction. A second answer is INVALID_STATE.
     */
    async answer(op: Operator, id: number, answer: string): Promise<TOpsFeedback> {
      await db.tx(async (tx) => {
        const cur = await tx.query<{ member_id: number; status: string }>('SELECT member_id, status FROM feedback WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, op.merchantCode]);
        const row = cur.rows[0];
        if (!row) throw new AppError(ErrorCode.NOT_FOUND);
        if (row.status !== 'open') throw new AppError(ErrorCode.INVALID_STATE, 'This feedback is already answered');
        await tx.query(`UPDATE feedback SET status = 'answered', answer = $2, answered_by = $3, answered_at = now() WHERE id = $1`, [id, answer, op.username]);
        await audit(tx, op, 'feedback.answer', { type: 'feedback', id }, { status: 'open' }, { status: 'answered', answer });
        await postMessage(tx, op.merchantCode, Number(row.member_id), 'feedback_answered', { reference: `F${id}`, feedbackId: String(id) });
      });
      return toOps((await db.query<Row>(`${SELECT} WHERE f.id = $1`, [id])).rows[0]!);
    },

    /** One image, for its member (memberId) or for an operator of the merchant (memberId null). */
    async image(merchant: string, memberId: number | null, id: number, n: number) {
      const r = await db.query<{ content_type: string; data: Buffer | Uint8Array }>(
        `SELECT i.content_type, i.data FROM feedback_images i JOIN feedback f ON f.id = i.feedback_id
          WHERE i.feedback_id = $1 AND i.n = $2 AND f.merchant_code = $3 AND ($4::bigint IS NULL OR f.member_id = $4)`,
        [id, n, merchant, memberId]);
      return r.rows[0] ?? null;
    },
  };
}
export type Feedback = ReturnType<typeof createFeedback>;
