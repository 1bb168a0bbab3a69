import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import { missionCalls, OPS_MISSIONS, ZOpsMissionBody } from '@portal/contracts/api/missions';
import type { OpsAction } from '@portal/contracts/api/ops';
import { LIMITS } from '@portal/contracts/domain/constants';
import { isTrialType } from '@portal/contracts/domain/member';
import type { Db } from '../../db/db.ts';
import { mountCall, refuseNulInBody, zodDetails } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { Operators } from '../ops/operators.ts';
import { gateOperator } from '../ops/ops-routes.ts';
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

const BEARER = /^Bearer ([A-Za-z0-9_-]{20,128})$/;

/** Operator calls under /ops/api/missions: read (missions.read), create and edit or disable (missions.manage). Audited in their transaction. */
export function mountMissionOps(app: Express, deps: { db: Db; missions: Missions; merchants: MerchantDirectory; operators: Operators }) {
  const { missions } = deps;
  const router = express.Router();
  router.use(express.json({ limit: LIMITS.MAX_BODY_BYTES, strict: true }));
  router.use(refuseNulInBody);
  async function gate(req: Request, action: OpsAction) {
    const header = req.headers['x-merchant-code'];
    const merchant = await deps.merchants.resolve({ host: req.hostname, code: typeof header === 'string' ? header : undefined });
    if (!merchant) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1] ?? null;
    const op = token ? await deps.operators.resolve(token) : null;
    if (!op || op.merchantCode !== merchant.code) throw new AppError(ErrorCode.UNAUTHORIZED);
    await gateOperator(deps.db, op, action, { method: req.method, path: req.originalUrl.split('?', 1)[0] ?? '' });
    return { merchant, op };
  }
  const parse = <S extends z.ZodType>(schema: S, v: unknown): z.infer<S> => {
    const b = schema.safeParse(v ?? {});
    if (!b.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid body', zodDetails(b.error));
    return b.data;
  };
  const idOf = (req: Request) => {
    const id = Number(req.params.id);
    if (!/^\d{1,15}$/.test(String(req.params.id)) || !Number.isSafeInteger(id) || id <= 0) throw new AppError(ErrorCode.NOT_FOUND);
    return id;
  };
  const route = (fn: (req: Request) => Promise<unknown>) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      res.json({ success: true, value: await fn(req) });
    } catch (err) {
      next(err);
    }
  };
  router.get('/', route(async (req) => {
    const { merchant } = await gate(req, 'missions.read');
    return missions.opsList(merchant.code);
  }));
  router.post('/', route(async (req) => {
    const { merchant, op } = await gate(req, 'missions.manage');
    return missions.create(op, merchant.code, parse(ZOpsMissionBody, req.body));
  }));
  router.put('/:id', route(async (req) => {
    const { merchant, op } = await gate(req, 'missions.manage');
    return missions.update(op, merchant.code, idOf(req), parse(ZOpsMissionBody, req.body));
  }));
  router.use((_req: Request, _res: Response, next: NextFunction) => next(new AppError(ErrorCode.NOT_FOUND)));
  app.use(OPS_MISSIONS, router);
}
