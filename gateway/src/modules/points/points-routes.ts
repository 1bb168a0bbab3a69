import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import { OPS_POINTS, opsPointCalls, pointCalls } from '@portal/contracts/api/points';
import type { CallDef } from '@portal/contracts/api/envelope';
import type { OpsAction } from '@portal/contracts/api/ops';
import { LIMITS } from '@portal/contracts/domain/constants';
import type { Db } from '../../db/db.ts';
import { mountCall, refuseNulInBody, zodDetails } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant, MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { Operator, Operators } from '../ops/operators.ts';
import { gateOperator } from '../ops/ops-routes.ts';
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

const BEARER = /^Bearer ([A-Za-z0-9_-]{20,128})$/;
type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
const idOf = (req: Request) => {
  const id = Number(req.params.id);
  if (!/^\d{1,15}$/.test(String(req.params.id)) || !Number.isSafeInteger(id) || id <= 0) throw new AppError(ErrorCode.NOT_FOUND);
  return id;
};

/**
 * /ops/api/points through the console's gate: the catalogue and the rules (points.manage: administrator,
 * content), reading (points.read) and deciding redeems (points.decide: administrator, finance). Audited.
 */
export function mountPointOps(app: Express, deps: { db: Db; points: Points; merchants: MerchantDirectory; operators: Operators; checkResponses: boolean }) {
  const router = express.Router();
  router.use(express.json({ limit: LIMITS.MAX_BODY_BYTES, strict: true }));
  router.use(refuseNulInBody);
  function call<V extends z.ZodType, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
    def: CallDef<Q, B, V>, action: OpsAction,
    handler: (i: { query: Infer<Q>; body: Infer<B>; merchant: Merchant; op: Operator; req: Request }) => Promise<z.infer<V>>,
  ) {
    const method = def.method.toLowerCase() as 'get' | 'post' | 'put';
    router[method](def.path.slice(OPS_POINTS.length) || '/', async (req: Request, res: Response, next: NextFunction) => {
      try {
        const header = req.headers['x-merchant-code'];
        const merchant = await deps.merchants.resolve({ host: req.hostname, code: typeof header === 'string' ? header : undefined });
        if (!merchant) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
        const token = BEARER.exec(req.headers.authorization ?? '')?.[1] ?? null;
        const found = token ? await deps.operators.resolve(token) : null;
        const op = await gateOperator(deps.db, found && found.merchantCode === merchant.code ? found : null, action, { method: def.method, path: def.path });
        const parse = (schema: z.ZodType | undefined, input: unknown, what: string) => {
          if (!schema) return undefined;
          const r = schema.safeParse(input ?? {});
          if (!r.success) throw new AppError(ErrorCode.VALIDATION, `Invalid ${what}`, zodDetails(r.error));
          return r.data;
        };
        const query = parse(def.query, req.query, 'query') as Infer<Q>;
        const body = parse(def.body, req.body, 'body') as Infer<B>;
        const value = await handler({ query, body, merchant, op, req });
        if (deps.checkResponses) {
          const check = def.value.safeParse(value);
          if (!check.success) throw new Error(`response of ${def.path} breaks its contract: ${check.error.message}`);
        }
        res.json({ success: true, value });
      } catch (err) {
        next(err);
      }
    });
  }
  const { points } = deps;
  call(opsPointCalls.rewards, 'points.read', async ({ merchant }) => points.opsRewards(merchant.code));
  call(opsPointCalls.createReward, 'points.manage', async ({ merchant, op, body }) => points.createReward(op, merchant.code, body));
  call(opsPointCalls.updateReward, 'points.manage', async ({ merchant, op, body, req }) => points.updateReward(op, merchant.code, idOf(req), body));
  call(opsPointCalls.redeems, 'points.read', async ({ merchant, query }) => points.opsRedeems(merchant.code, query.status, query.pageNo, query.pageSize));
  call(opsPointCalls.decide, 'points.decide', async ({ merchant, op, body, req }) => points.decide(op, merchant, idOf(req), body));
  call(opsPointCalls.config, 'points.read', async ({ merchant }) => points.config(merchant.code));
  call(opsPointCalls.updateConfig, 'points.manage', async ({ merchant, op, body }) => points.updateConfig(op, merchant.code, body));
  router.use((_req: Request, _res: Response, next: NextFunction) => next(new AppError(ErrorCode.NOT_FOUND)));
  app.use(OPS_POINTS, router);
}
