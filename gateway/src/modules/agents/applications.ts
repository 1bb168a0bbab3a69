import type { Express } from 'express';
import type { z } from 'zod';
import {
  agentApplicationCalls, opsAgentApplicationCalls,
  type TAgentApplication, type TOpsAgentApplication, type ZAgentApplicationBody, type ZOpsAgentApplicationDecision, type ZOpsAgentApplicationsQuery,
} from '@portal/contracts/api/agent-applications';
import type { Db, Queryable } from '../../db/db.ts';
import { iso } from '../../db/iso.ts';
import { mountCall } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { audit, type Operator } from '../ops/operators.ts';
import type { OpsCall } from '../ops/ops-router.ts';
import { promoteTopAgent } from '../ops/agents-contracts-ops.ts';
import { postMessage } from '../wallet/messages.ts';
import { realMember } from '../wallet/wallet-routes.ts';

type Row = {
  id: string | number; member_id: string | number; account?: string; contact_name: string; contact: string; channel: TAgentApplication['channel']; audience: string;
  status: TAgentApplication['status']; reason: string | null; decided_by: string | null; decided_at: Date | string | null; created_at: Date | string;
};
const toApplication = (r: Row): TAgentApplication => ({
  id: String(r.id), status: r.status, contactName: r.contact_name, contact: r.contact, channel: r.channel, audience: r.audience,
  createdAt: iso(r.created_at), decidedAt: iso(r.decided_at), reason: r.reason,
});
const toOps = (r: Row): TOpsAgentApplication => ({ ...toApplication(r), memberId: Number(r.member_id), account: r.account ?? '', decidedBy: r.decided_by });

/**
 * The affiliate application (contracts/api/agent-applications.ts): a player without an upline applies from
 * the agent page, an operator approves (promoteTopAgent, in the same transaction) or rejects with a reason;
 * either way the player gets a message.
 */
export function createAgentApplications(db: Db) {
  /** Why this member may not apply now, or null: a player (type 0) without an upline, active, with no open application. */
  async function refusal(q: Queryable, merchant: Merchant, memberId: number): Promise<AppError | null> {
    const m = (await q.query<{ type: number; parent_id: string | null; status: string }>(
      'SELECT type, parent_id, status FROM members WHERE id = $1 AND merchant_code = $2', [memberId, merchant.code])).rows[0];
    if (!m) return new AppError(ErrorCode.USER_NOT_FOUND);
    if (m.type !== 0) return new AppError(ErrorCode.INVALID_STATE, 'Only a player can apply to become an agent');
    if (m.parent_id !== null) return new AppError(ErrorCode.INVALID_STATE, 'Your upline agent can make you an agent');
    if (m.status !== 'active') return new AppError(ErrorCode.INVALID_STATE, 'This member is disabled');
    const open = await q.query('SELECT 1 FROM agent_applications WHERE member_id = $1 AND status = $2', [memberId, 'pending']);
    if (open.rows.length) return new AppError(ErrorCode.CONFLICT, 'You have applied already: the application is being reviewed');
    return null;
  }

  async function apply(merchant: Merchant, memberId: number, b: z.infer<typeof ZAgentApplicationBody>): Promise<TAgentApplication> {
    return db.tx(async (tx) => {
      // The member's row locked: two applications at once cannot both pass the open-application check.
      await tx.query('SELECT 1 FROM members WHERE id = $1 FOR UPDATE', [memberId]);
      const no = await refusal(tx, merchant, memberId);
      if (no) throw no;
      const r = await tx.query<Row>(
        `INSERT INTO agent_applications (merchant_code, member_id, contact_name, contact, channel, audience) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [merchant.code, memberId, b.contactName, b.contact, b.channel, b.audience]);
      return toApplication(r.rows[0]!);
    });
  }

  async function mine(merchant: Merchant, memberId: number) {
    const r = await db.query<Row>('SELECT * FROM agent_applications WHERE member_id = $1 AND merchant_code = $2 ORDER BY id DESC LIMIT 1', [memberId, merchant.code]);
    return { application: r.rows[0] ? toApplication(r.rows[0]) : null, canApply: (await refusal(db, merchant, memberId)) === null };
  }

  async function opsList(merchant: Merchant, q: z.infer<typeof ZOpsAgentApplicationsQuery>) {
    const r = await db.query<Row & { total: number }>(
      `SELECT a.*, m.account, count(*) OVER ()::int AS total FROM agent_applications a JOIN members m ON m.id = a.member_id
        WHERE a.merchant_code = $1 AND a.status = $2 ORDER BY a.id DESC LIMIT $3 OFFSET $4`,
      [merchant.code, q.status, q.pageSize, (q.pageNo - 1) * q.pageSize]);
    return { list: r.rows.map(toOps), pageNo: q.pageNo, pageSize: q.pageSize, total: r.rows[0]?.total ?? 0 };
  }

  async function opsDecide(merchant: Merchant, op: Operator, id: number, b: z.infer<typeof ZOpsAgentApplicationDecision>): Promise<TOpsAgentApplication> {
    return db.tx(async (tx) => {
      const a = (await tx.query<Row>('SELECT * FROM agent_applications WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, merchant.code])).rows[0];
      if (!a) throw new AppError(ErrorCode.NOT_FOUND);
      if (a.status !== 'pending') throw new AppError(ErrorCode.INVALID_STATE, 'This application has been decided', undefined, { status: a.status });
      const memberId = Number(a.member_id);
      // Approved: a top agent now, in this transaction (refused, and nothing decided, if it gained an upline or was frozen meanwhile).
      if (b.approve) await promoteTopAgent(tx, merchant, op, memberId, `agent application ${a.id}`);
      const r = await tx.query<Row>(
        `UPDATE agent_applications a SET status = $2, reason = $3, decided_by = $4, decided_at = now() FROM members m
          WHERE a.id = $1 AND m.id = a.member_id RETURNING a.*, m.account`,
        [id, b.approve ? 'approved' : 'rejected', b.approve ? (b.reason || null) : b.reason, op.username]);
      await audit(tx, op, b.approve ? 'agent.application.approve' : 'agent.application.reject', { type: 'member', id: memberId }, { status: 'pending' },
        { status: r.rows[0]!.status, application: String(a.id), reason: b.reason || null });
      await postMessage(tx, merchant.code, memberId, b.approve ? 'agent_application_approved' : 'agent_application_rejected', b.approve ? {} : { reason: b.reason });
      return toOps(r.rows[0]!);
    });
  }

  return { apply, mine, opsList, opsDecide };
}

/** The player's calls: a session, not a trial one. */
export function mountAgentApplications(app: Express, deps: { db: Db }, opts: { checkResponses: boolean }) {
  const apps = createAgentApplications(deps.db);
  mountCall(app, agentApplicationCalls.apply, async ({ ctx, body }) => apps.apply(ctx.merchant, realMember(ctx).memberId, body), opts);
  mountCall(app, agentApplicationCalls.mine, async ({ ctx }) => apps.mine(ctx.merchant, realMember(ctx).memberId), opts);
}

/** The console's calls: agents.read to list, agents.manage to decide. */
export function mountOpsAgentApplications(call: OpsCall, deps: { db: Db }) {
  const apps = createAgentApplications(deps.db);
  call(opsAgentApplicationCalls.list, 'agents.read', async ({ ctx, query }) => apps.opsList(ctx.merchant, query));
  call(opsAgentApplicationCalls.decide, 'agents.manage', async ({ ctx, body, id }) => apps.opsDecide(ctx.merchant, ctx.operator, id, body));
}
