import type { Express, Request } from 'express';
import { OPS_POINTS, opsPointCalls, pointCalls } from '@portal/contracts/api/points';
import type { Db } from '../../db/db.ts';
import { mountCall } from '../../app/http.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { Operators } from '../ops/operators.ts';
import { createOpsRouter } from '../ops/ops-router.ts';
import { realMember } from '../wallet/wallet-routes.ts';
import type { Points } from './points-service.ts';

/** Language of the texts in a write's answer: the `language` query parameter (EN or TY), else EN. */
const langOf = (req: Request): 'EN' | 'TY' => (req.query?.language === 'TY' ? 'TY' : 'EN');

/** The player's points calls (spec section 7). Guests read the catalogue and rules; trial accounts get TRIAL_FORBIDDEN elsewhere. */
export function mountPointRoutes(app: Express, deps: { points: Points }, opts: { checkResponses: boolean }) {
  const { points } = deps;
  mountCall(app, pointCalls.balance, async ({ ctx }) => points.balance(realMember(ctx).memberId), opts);
  mountCall(app, pointCalls.config, async ({ ctx }) => points.config(ctx.merchant.code), opts);
  mountCall(app, pointCalls.rewards, async ({ ctx, query }) => points.rewards(ctx.merchant.code, query.language), opts);
  mountCall(app, pointCalls.redeems, async ({ ctx, query }) => points.redeems(ctx.merchant.code, realMember(ctx).memberId, query.language, query.pageNo, query.pageSize, query.status ?? null), opts);
  mountCall(app, pointCalls.history, async ({ ctx, query }) => points.history(realMember(ctx).memberId, query.pageNo, query.pageSize), opts);
  mountCall(app, pointCalls.redeem, async ({ ctx, body, req }) => points.redeem(ctx.merchant, realMember(ctx).memberId, body, langOf(req)), opts);
  mountCall(app, pointCalls.convert, async ({ ctx, body }) => points.convert(ctx.merchant, realMember(ctx).memberId, body), opts);
}

/**
 * /ops/api/points through the console's gate: the catalogue and the rules (points.manage: administrator,
 * content), reading (points.read) and deciding redeems (points.decide: administrator, finance). Audited.
 */
export function mountPointOps(app: Express, deps: { db: Db; points: Points; merchants: MerchantDirectory; operators: Operators; checkResponses: boolean }) {
  const { call, mount } = createOpsRouter(deps, { prefix: OPS_POINTS });
  const { points } = deps;
  call(opsPointCalls.rewards, 'points.read', async ({ ctx }) => points.opsRewards(ctx.merchant.code));
  call(opsPointCalls.createReward, 'points.manage', async ({ ctx, body }) => points.createReward(ctx.operator, ctx.merchant.code, body));
  call(opsPointCalls.updateReward, 'points.manage', async ({ ctx, body, id }) => points.updateReward(ctx.operator, ctx.merchant.code, id, body));
  call(opsPointCalls.redeems, 'points.read', async ({ ctx, query }) => points.opsRedeems(ctx.merchant.code, query.status, query.pageNo, query.pageSize, query.language));
  call(opsPointCalls.decide, 'points.decide', async ({ ctx, body, id }) => points.decide(ctx.operator, ctx.merchant, id, body));
  call(opsPointCalls.config, 'points.read', async ({ ctx }) => points.config(ctx.merchant.code));
  call(opsPointCalls.updateConfig, 'points.manage', async ({ ctx, body }) => points.updateConfig(ctx.operator, ctx.merchant.code, body));
  mount(app, { notFound: true });
}
