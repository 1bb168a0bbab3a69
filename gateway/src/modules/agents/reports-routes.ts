import type { Express, Request } from 'express';
import { z } from 'zod';
import { agentReportCalls } from '@portal/contracts/api/agent-reports';
import type { Db } from '../../db/db.ts';
import { mountCall, type RequestContext } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { PasswordHasher } from '../auth/password-hasher.ts';
import { linkOrigin } from '../merchants/link-origin.ts';
import { createAgentReports, dayRange } from './reports-service.ts';

const ZPathId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The `:id` of a path: a positive integer, or VALIDATION (400). */
function idOf(req: Request): number {
  const r = ZPathId.safeParse(req.params.id);
  if (!r.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid id', [{ path: 'id', message: 'a positive integer' }]);
  return r.data;
}

/**
 * Agent reports and register centre calls (issue 11, contracts/src/api/agent-reports.ts). Each agent
 * call first checks: a session (mountCall: UNAUTHORIZED), not a trial (mountCall: TRIAL_FORBIDDEN),
 * the member's current type an agent type (NON_AGENT).
 */
export function mountAgentReportRoutes(app: Express, deps: { db: Db; hasher: PasswordHasher; isProduction: boolean }, opts: { checkResponses: boolean }) {
  const reports = createAgentReports({ db: deps.db, hasher: deps.hasher });
  const agent = async (ctx: RequestContext) => {
    const id = ctx.session!.memberId;
    await reports.requireAgent(ctx.merchant, id);
    return id;
  };
  const originOf = (req: Request) =>
    linkOrigin(req.ctx.merchant, { hostname: req.hostname, host: req.host, protocol: req.protocol }, { isProduction: deps.isProduction });
  const rangeOf = (ctx: RequestContext, q: { from?: string | undefined; to?: string | undefined }) => dayRange(q, ctx.merchant.brand.gmtOffsetMinutes);

  mountCall(app, agentReportCalls.teamOverview, async ({ ctx, query }) => {
    const id = await agent(ctx);
    return reports.overview(ctx.merchant, id, rangeOf(ctx, query), query.memberId);
  }, opts);
  mountCall(app, agentReportCalls.downlines, async ({ ctx, query }) => reports.downlines(ctx.merchant, await agent(ctx), query), opts);
  mountCall(app, agentReportCalls.createDownline, async ({ ctx, body, req }) => reports.createDownline(ctx.merchant, await agent(ctx), body, req.ip ?? ''), opts);
  mountCall(app, agentReportCalls.setAgent, async ({ ctx, req }) => reports.setAgent(ctx.merchant, await agent(ctx), idOf(req)), opts);
  mountCall(app, agentReportCalls.downlineContracts, async ({ ctx, req }) => reports.downlineContracts(ctx.merchant, await agent(ctx), idOf(req)), opts);
  mountCall(app, agentReportCalls.invitations, async ({ ctx, req }) => reports.invitations(ctx.merchant, await agent(ctx), originOf(req)), opts);
  mountCall(app, agentReportCalls.createInvitation, async ({ ctx, body, req }) => reports.createInvitation(ctx.merchant, await agent(ctx), body, originOf(req)), opts);
  mountCall(app, agentReportCalls.disableInvitation, async ({ ctx, req }) => reports.disableInvitation(ctx.merchant, await agent(ctx), idOf(req), originOf(req)), opts);
  mountCall(app, agentReportCalls.teamBets, async ({ ctx, query }) => {
    const id = await agent(ctx);
    return reports.teamBets(ctx.merchant, id, rangeOf(ctx, query), query);
  }, opts);
  mountCall(app, agentReportCalls.teamPnl, async ({ ctx, query }) => {
    const id = await agent(ctx);
    return reports.teamPnl(ctx.merchant, id, rangeOf(ctx, query), query);
  }, opts);
  mountCall(app, agentReportCalls.memTransDet, async ({ ctx, query }) => {
    const id = await agent(ctx);
    return reports.memTransDet(ctx.merchant, id, rangeOf(ctx, query), query);
  }, opts);
  // Module AGENTPOLICY3 (spec: the consolidated call runs only when it is on): off, the contract flags are
  // refused like the other modules' calls; the client then shows no contract item, as with the flags all off.
  mountCall(app, agentReportCalls.consolidatedFunds, async ({ ctx }) => {
    if (!ctx.merchant.modules.AGENTPOLICY3) throw new AppError(ErrorCode.MODULE_DISABLED);
    return reports.consolidated(ctx.merchant, ctx.session!.memberId);
  }, opts);
}
