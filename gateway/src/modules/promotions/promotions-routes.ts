import type { Express, Request } from 'express';
import {
  OPS_PROMOTIONS, promotionCalls, ZOpsDecideBody, ZOpsEnvelopeDropBody, ZOpsOwedQuery, ZOpsPromotionBody, ZOpsRewardRequestsQuery,
} from '@portal/contracts/api/promotions';
import type { OpsAction } from '@portal/contracts/api/ops';
import { ZNoQuery } from '@portal/contracts/api/envelope';
import type { Db } from '../../db/db.ts';
import { mountCall } from '../../app/http.ts';
import { isTrialType } from '@portal/contracts/domain/member';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { Operators } from '../ops/operators.ts';
import { createOpsRouter } from '../ops/ops-router.ts';
import { realMember } from '../wallet/wallet-routes.ts';
import type { Promotions } from './promotions-service.ts';
import { assertMessageLanguages } from '../red-envelopes/red-envelopes-routes.ts';

/** The player's promotion calls (spec section 7): list, sign-up, reward request, claims, reward centre, raffle. Trial accounts get none (realMember). */
export function mountPromotionRoutes(app: Express, deps: { promos: Promotions }, opts: { checkResponses: boolean }) {
  const { promos } = deps;
  const gmt = (ctx: { merchant: { brand: { gmtOffsetMinutes: number } } }) => ctx.merchant.brand.gmtOffsetMinutes;
  const who = (s: { memberId: number; account: string }) => ({ memberId: s.memberId, account: s.account });
  mountCall(app, promotionCalls.list, async ({ ctx, query }) => {
    // A guest or a trial account sees the promotions and their own states, without a member's statuses.
    const s = ctx.session;
    const memberId = s && !isTrialType(s.memberType, ctx.merchant.trialTypes) ? s.memberId : null;
    return promos.list(ctx.merchant.code, memberId, query.language, query.category, gmt(ctx));
  }, opts);
  mountCall(app, promotionCalls.join, async ({ ctx, body, req }) =>
    promos.join(ctx.merchant.code, who(realMember(ctx)), body.promotionId, langOf(req), gmt(ctx)), opts);
  mountCall(app, promotionCalls.requestReward, async ({ ctx, body, req }) =>
    promos.requestReward(ctx.merchant.code, who(realMember(ctx)), body.promotionId, body.remark, langOf(req)), opts);
  mountCall(app, promotionCalls.claim, async ({ ctx, body, req }) => promos.claim(ctx.merchant.code, who(realMember(ctx)), body.rewardId, langOf(req)), opts);
  mountCall(app, promotionCalls.claimRaffle, async ({ ctx, body, req }) => promos.claimRaffle(ctx.merchant.code, who(realMember(ctx)), body.promotionId, langOf(req)), opts);
  mountCall(app, promotionCalls.rewards, async ({ ctx, query }) => promos.rewards(ctx.merchant.code, realMember(ctx).memberId, query.language), opts);
  mountCall(app, promotionCalls.raffle, async ({ ctx, query }) => promos.raffle(ctx.merchant.code, ctx.session?.memberId ?? null, query.promotionId), opts);
}

/** Language of the texts in a write's answer: the `language` query parameter (EN or TY), else EN. */
function langOf(req: Request): 'EN' | 'TY' {
  return req.query?.language === 'TY' ? 'TY' : 'EN';
}

/**
 * Operator calls under /ops/api/promotions: authoring (promotions.manage: administrator, content),
 * reading (promotions.read) and deciding reward requests (promotions.decide: administrator, finance).
 * Every change is audited in its transaction. Promotions are not part of any bootstrap call, so no
 * cache is invalidated.
 */
export function mountPromotionOps(app: Express, deps: { db: Db; promos: Promotions; merchants: MerchantDirectory; operators: Operators }) {
  const { promos } = deps;
  const ops = createOpsRouter(deps, { prefix: OPS_PROMOTIONS });
  const { router, parse, idOf, route } = ops;
  const gate = async (req: Request, action: OpsAction) => {
    const { merchant, operator } = await ops.gate(req, action);
    return { merchant, op: operator };
  };
  router.get('/', route(async (req) => {
    const { merchant } = await gate(req, 'promotions.read');
    parse(ZNoQuery, req.query, 'query');
    return promos.opsList(merchant.code);
  }));
  router.post('/', route(async (req) => {
    const { merchant, op } = await gate(req, 'promotions.manage');
    return promos.create(op, merchant.code, parse(ZOpsPromotionBody, req.body));
  }));
  router.get('/requests', route(async (req) => {
    const { merchant } = await gate(req, 'promotions.read');
    const q = parse(ZOpsRewardRequestsQuery, req.query);
    return q.state === 'decided' ? promos.opsDecidedRequests(merchant.code) : promos.opsRequests(merchant.code);
  }));
  router.post('/requests/:id/decide', route(async (req) => {
    const { merchant, op } = await gate(req, 'promotions.decide');
    return promos.decide(op, merchant.code, idOf(req), parse(ZOpsDecideBody, req.body));
  }));
  // Red envelope drops attached to promotions (promotion-drops.ts): the list, schedule, cancel before it runs.
  router.get('/drops', route(async (req) => {
    const { merchant } = await gate(req, 'promotions.read');
    parse(ZNoQuery, req.query, 'query');
    return promos.dropsOrNone().list(merchant.code);
  }));
  router.post('/:id/drops', route(async (req) => {
    const { merchant, op } = await gate(req, 'promotions.drops');
    const body = parse(ZOpsEnvelopeDropBody, req.body);
    assertMessageLanguages(body.message, merchant.brand.supportedLanguages);
    return promos.dropsOrNone().schedule(op, merchant.code, idOf(req), body);
  }));
  router.post('/drops/:id/cancel', route(async (req) => {
    const { merchant, op } = await gate(req, 'promotions.drops');
    return promos.dropsOrNone().cancel(op, merchant.code, idOf(req));
  }));
  // Bonus owed after a reverted conversion (migration 062).
  router.get('/owed', route(async (req) => {
    const { merchant } = await gate(req, 'promotions.read');
    return promos.opsOwed(merchant.code, parse(ZOpsOwedQuery, req.query, 'query'));
  }));
  router.put('/:id', route(async (req) => {
    const { merchant, op } = await gate(req, 'promotions.manage');
    return promos.update(op, merchant.code, idOf(req), parse(ZOpsPromotionBody, req.body));
  }));
  ops.mount(app, { notFound: true });
}
