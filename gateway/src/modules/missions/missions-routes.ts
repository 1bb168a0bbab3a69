import type { Express } from 'express';
import { missionCalls, OPS_MISSIONS, ZOpsMissionBody } from '@portal/contracts/api/missions';
import { ZNoQuery } from '@portal/contracts/api/envelope';
import { isTrialType } from '@portal/contracts/domain/member';
import type { Db } from '../../db/db.ts';
import { mountCall } from '../../app/http.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { Operators } from '../ops/operators.ts';
import { createOpsRouter } from '../ops/ops-router.ts';
import { realMember } from '../wallet/wallet-routes.ts';
import type { Missions } from './missions-service.ts';

/**
 * The player's mission calls (spec section 7): MCSFE_getMissionSummaryDetails (the missions with the
 * caller's progress), the claim, and getMissionLeaderboard (open to guests; a member sees their own
 * place). Trial accounts get no missions (realMember: TRIAL_FORBIDDEN).
 */
export function mountMissionRoutes(app: Express, deps: { missions: Missions }, opts: { checkResponses: boolean }) {
  const { missions } = deps;
  mountCall(app, missionCalls.summary, async ({ ctx, query }) => missions.summary(ctx.merchant.code, realMember(ctx).memberId, query.language), opts);
  mountCall(app, missionCalls.claim, async ({ ctx, body, req }) =>
    missions.claim(ctx.merchant.code, realMember(ctx).memberId, body.missionId, body.periodKey, req.query?.language === 'TY' ? 'TY' : 'EN'), opts);
  mountCall(app, missionCalls.leaderboard, async ({ ctx, query }) => {
    const s = ctx.session;
    const memberId = s && !isTrialType(s.memberType, ctx.merchant.trialTypes) ? s.memberId : null;
    return missions.leaderboard(ctx.merchant.code, memberId, query.period, query.limit);
  }, opts);
}

/** Operator calls under /ops/api/missions: read (missions.read), create and edit or disable (missions.manage). Audited in their transaction. */
export function mountMissionOps(app: Express, deps: { db: Db; missions: Missions; merchants: MerchantDirectory; operators: Operators }) {
  const { missions } = deps;
  const { router, gate, parse, idOf, route, mount } = createOpsRouter(deps, { prefix: OPS_MISSIONS });
  router.get('/', route(async (req) => {
    const { merchant } = await gate(req, 'missions.read');
    parse(ZNoQuery, req.query, 'query');
    return missions.opsList(merchant.code);
  }));
  router.post('/', route(async (req) => {
    const { merchant, operator: op } = await gate(req, 'missions.manage');
    return missions.create(op, merchant.code, parse(ZOpsMissionBody, req.body));
  }));
  router.put('/:id', route(async (req) => {
    const { merchant, operator: op } = await gate(req, 'missions.manage');
    return missions.update(op, merchant.code, idOf(req), parse(ZOpsMissionBody, req.body));
  }));
  mount(app, { notFound: true });
}
