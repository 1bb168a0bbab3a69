import type { Express, Request } from 'express';
import { z } from 'zod';
import { agentContractCalls, ZContractId } from '@portal/contracts/api/agent-contracts';
import type { Db } from '../../db/db.ts';
import { mountCall, zodDetails, type RequestContext } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { createAgentContracts } from './contracts-service.ts';
import { mountPayoutRoutes } from './payouts-routes.ts';
import { mountAgentApplications } from './applications.ts';
import type { AgentSettlement } from './settlement.ts';

/** The `:id` of a contract path: a positive integer, or VALIDATION (400). */
function contractIdOf(req: Request): number {
  const r = ZContractId.safeParse(req.params.id);
  if (!r.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid contract id', [{ path: 'id', message: 'a positive integer' }]);
  return r.data;
}

/**
 * Agent calls (issue 11). Every one runs the same guard first: a session (mountCall: UNAUTHORIZED),
 * not a trial account (mountCall: TRIAL_FORBIDDEN), of an agent type (NON_AGENT).
 * `isProduction` false also mounts the dev helper that gives a top agent its house contract.
 */
export function mountAgentRoutes(app: Express, deps: { db: Db; isProduction: boolean; settlement: AgentSettlement }, opts: { checkResponses: boolean }) {
  const contracts = createAgentContracts({ db: deps.db });
  const agent = (ctx: RequestContext) => {
    const s = ctx.session!;
    contracts.requireAgent(ctx.merchant, s.memberType);
    return s.memberId;
  };

  mountCall(app, agentContractCalls.list, async ({ ctx, query }) => contracts.list(ctx.merchant, agent(ctx), query), opts);
  mountCall(app, agentContractCalls.offer, async ({ ctx, body }) => contracts.offer(ctx.merchant, agent(ctx), body), opts);
  mountCall(app, agentContractCalls.acceptancePlan, async ({ ctx, req }) => contracts.acceptancePlan(ctx.merchant, agent(ctx), contractIdOf(req)), opts);
  mountCall(app, agentContractCalls.accept, async ({ ctx, req, body }) => contracts.accept(ctx.merchant, agent(ctx), contractIdOf(req), body.endContractIds), opts);
  mountCall(app, agentContractCalls.reject, async ({ ctx, req }) => contracts.reject(ctx.merchant, agent(ctx), contractIdOf(req)), opts);
  mountCall(app, agentContractCalls.withdraw, async ({ ctx, req }) => contracts.withdraw(ctx.merchant, agent(ctx), contractIdOf(req)), opts);
  mountCall(app, agentContractCalls.terminate, async ({ ctx, req }) => contracts.terminate(ctx.merchant, agent(ctx), contractIdOf(req)), opts);

  mountPayoutRoutes(app, { db: deps.db, contracts, settlement: deps.settlement, isProduction: deps.isProduction }, opts);
  // The affiliate application: players' calls (the console's are mounted with the other agent ops calls).
  mountAgentApplications(app, { db: deps.db }, opts);

  if (!deps.isProduction) {
    // QA and tests: the house's contract with a top agent (what an operator screen will do). Mounted
    // after mountDevRoutes, so its /wps/dev guard (local requests only) applies.
    const ZHouseBody = z.object({ memberId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER), terms: z.unknown() }).strict();
    app.post('/wps/dev/agent-contracts/house', async (req, res, next) => {
      try {
        const b = ZHouseBody.safeParse(req.body ?? {});
        if (!b.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid body', zodDetails(b.error));
        res.json({ success: true, value: await contracts.grantHouseContract(req.ctx.merchant, b.data.memberId, b.data.terms) });
      } catch (err) {
        next(err);
      }
    });
  }
}
