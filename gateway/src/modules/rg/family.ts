import type { z } from 'zod';
import type { RG_OPERATOR_DURATIONS, TRgFamilyRequestRow, ZRgFamilyRequestBody } from '@portal/contracts/api/rg';
import type { Db, Queryable } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { postMessage } from '../wallet/messages.ts';
import type { Rg } from './rg-service.ts';
import { iso } from '../../db/iso.ts';

type Body = z.infer<typeof ZRgFamilyRequestBody>;
type Duration = (typeof RG_OPERATOR_DURATIONS)[number];
type Row = {
  id: string; player_account: string; member_id: number | null; account: string | null; requester_name: string; relationship: TRgFamilyRequestRow['relationship'];
  requester_contact: string; reason: string; source: 'public' | 'support'; created_by: string; status: TRgFamilyRequestRow['status'];
  decided_by: string | null; decided_at: Date | string | null; decision_note: string | null; duration: string | null; created_at: Date | string;
};
/** The reference a requester is given (and quotes on the phone): FX + the id. */
export const familyReference = (id: number | string) => `FX${String(id).padStart(6, '0')}`;

const toRow = (r: Row): TRgFamilyRequestRow => ({
  id: Number(r.id), reference: familyReference(r.id), playerAccount: r.player_account, memberId: r.member_id === null ? null : Number(r.member_id), account: r.account,
  requesterName: r.requester_name, relationship: r.relationship, requesterContact: r.requester_contact, reason: r.reason, source: r.source,
  createdBy: r.created_by, status: r.status, decidedBy: r.decided_by, decidedAt: iso(r.decided_at), decisionNote: r.decision_note, duration: r.duration,
  createdAt: iso(r.created_at)!,
});
const SELECT = `SELECT f.*, f.id::text AS id, m.account FROM rg_family_requests f LEFT JOIN members m ON m.id = f.member_id`;

/**
 * Family exclusion (Philippine rules): a spouse, parent or adult child asks for a player's exclusion;
 * an operator with the risk role decides. Approval starts a `family` exclusion of the chosen
 * duration (sessions end at once, like every exclusion) and the player gets a message; every step is
 * in the audit trail (target: the member when known, else the request).
 */
export function createFamily(deps: { db: Db; rg: Rg }) {
  const { db } = deps;

  async function audit(q: Queryable, merchant: string, op: { id: number; username: string } | null, action: string, r: Row, after: unknown) {
    await q.query(
      `INSERT INTO audit_log (merchant_code, operator_id, operator_username, action, target_type, target_id, before, after) VALUES ($1, $2, $3, $4, $5, $6, NULL, $7)`,
      [merchant, op?.id ?? null, op?.username ?? 'public', action, r.member_id === null ? 'rg_family_request' : 'member', String(r.member_id ?? r.id),
        JSON.stringify({ request: familyReference(r.id), relationship: r.relationship, source: r.source, ...(after as object) })]);
  }

  async function byId(q: Queryable, merchant: string, id: number): Promise<Row | null> {
    return (await q.query<Row>(`${SELECT} WHERE f.id = $1 AND f.merchant_code = $2`, [id, merchant])).rows[0] ?? null;
  }

  return {
    /** File a request (public form or support). The account is resolved here, and the answer is the same whether it exists or not. */
    async request(merchant: string, b: Body, by: { kind: 'public' } | { kind: 'support'; id: number; username: string }): Promise<TRgFamilyRequestRow> {
      return db.tx(async (tx) => {
        const m = await tx.query<{ id: number }>(
          `SELECT id FROM members WHERE merchant_code = $1 AND (account_lower = lower($2) OR mobile_num = $3) AND type < 90 ORDER BY id LIMIT 1`,
          [merchant, b.playerAccount, b.playerAccount.replace(/\D/g, '').replace(/^0/, '') || '-']);
        const r = (await tx.query<Row>(
          `INSERT INTO rg_family_requests (merchant_code, player_account, member_id, requester_name, relationship, requester_contact, reason, source, created_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *, id::text AS id, NULL::text AS account`,
          [merchant, b.playerAccount, m.rows[0]?.id ?? null, b.requesterName, b.relationship, b.requesterContact, b.reason,
            by.kind === 'public' ? 'public' : 'support', by.kind === 'public' ? 'public' : by.username])).rows[0]!;
        await audit(tx, merchant, by.kind === 'public' ? null : by, 'rg.family.requested', r, {});
        return toRow((await byId(tx, merchant, Number(r.id)))!);
      });
    },

    async list(merchant: string, status: TRgFamilyRequestRow['status'] | undefined, pageNo: number, pageSize: number) {
      const r = await db.query<Row & { total: number }>(
        `${SELECT.replace('SELECT f.*', 'SELECT f.*, count(*) OVER ()::int AS total')} WHERE f.merchant_code = $1 AND ($2::text IS NULL OR f.status = $2)
          ORDER BY f.id DESC LIMIT $3 OFFSET $4`, [merchant, status ?? null, pageSize, (pageNo - 1) * pageSize]);
      return { list: r.rows.map(toRow), pageNo, pageSize, total: r.rows[0]?.total ?? 0 };
    },

    /**
     * Approve (exclusion of `duration`, null: until lifted; the player is told by a message) or reject.
     * A request is decided once (a second decision is INVALID_STATE); a request naming no account
     * can only be rejected.
     */
    async decide(merchant: string, op: { id: number; username: string }, id: number, d: { decision: 'approve'; duration: Duration | null; note: string } | { decision: 'reject'; note: string }) {
      // One transaction: the decision, the exclusion and the player's message (its event through the
      // outbox) commit together or not at all, so an approved request always has its exclusion.
      const claimed = await db.tx(async (tx) => {
        const cur = (await tx.query<Row>(`SELECT *, id::text AS id, NULL::text AS account FROM rg_family_requests WHERE id = $1 AND merchant_code = $2 FOR UPDATE`, [id, merchant])).rows[0];
        if (!cur) throw new AppError(ErrorCode.NOT_FOUND);
        if (cur.status !== 'pending') throw new AppError(ErrorCode.INVALID_STATE, 'This request is already decided');
        if (d.decision === 'approve' && cur.member_id === null) throw new AppError(ErrorCode.INVALID_STATE, 'The request names no account of this site');
        const duration = d.decision === 'approve' ? d.duration : null;
        await tx.query(
          `UPDATE rg_family_requests SET status = $2, decided_by = $3, decided_at = now(), decision_note = $4, duration = $5 WHERE id = $1`,
          [id, d.decision === 'approve' ? 'approved' : 'rejected', op.username, d.note, d.decision === 'approve' ? (duration ?? 'open') : null]);
        await audit(tx, merchant, op, d.decision === 'approve' ? 'rg.family.approved' : 'rg.family.rejected', cur, { note: d.note, duration });
        if (d.decision === 'approve') {
          const memberId = Number(cur.member_id);
          const x = await deps.rg.excludeIn(tx, merchant, memberId, { kind: 'operator', id: op.id, username: op.username }, 'family', d.duration,
            // the request's reference and the note, with no English around them (the console shows it in TY too)
            `${familyReference(id)}: ${d.note}`);
          await tx.query('UPDATE rg_family_requests SET exclusion_id = $2 WHERE id = $1', [id, x.id]);
          await postMessage(tx, merchant, memberId, 'rg_family_exclusion', { until: x.endsAt ?? '', reference: familyReference(id) });
        }
        return cur;
      });
      if (d.decision === 'approve') await deps.rg.disconnectMember(Number(claimed.member_id));
      return toRow((await byId(db, merchant, id))!);
    },
  };
}
export type Family = ReturnType<typeof createFamily>;
