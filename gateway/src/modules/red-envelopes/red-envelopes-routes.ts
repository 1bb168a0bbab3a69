import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import { opsRedEnvelopeCalls, redEnvelopeCalls } from '@portal/contracts/api/red-envelopes';
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
import type { RedEnvelopes } from './red-envelopes-service.ts';

const envelopeId = (req: Request) => {
  const id = Number(req.params.id);
  if (!/^\d{1,15}$/.test(String(req.params.id)) || !Number.isSafeInteger(id) || id <= 0) throw new AppError(ErrorCode.NOT_FOUND);
  return id;
};

/** The player's calls: the open envelopes, a grab, the history (trial accounts: TRIAL_FORBIDDEN). */
export function mountRedEnvelopeRoutes(app: Express, deps: { envelopes: RedEnvelopes }, opts: { checkResponses: boolean }) {
  const { envelopes } = deps;
  mountCall(app, redEnvelopeCalls.open, async ({ ctx }) => ({ list: await envelopes.open(ctx.merchant.code, realMember(ctx).memberId) }), opts);
  mountCall(app, redEnvelopeCalls.grab, async ({ ctx, req }) => {
    const s = realMember(ctx);
    return envelopes.grab(ctx.merchant, s.memberId, envelopeId(req));
  }, opts);
  mountCall(app, redEnvelopeCalls.history, async ({ ctx, query }) => envelopes.history(ctx.merchant.code, realMember(ctx).memberId, query.pageNo, query.pageSize), opts);
}

const OPS_ENVELOPES = '/ops/api/envelopes';
const BEARER = /^Bearer ([A-Za-z0-9_-]{20,128})$/;
type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/** /ops/api/envelopes through the console's gate (envelopes.read: list; envelopes.drop: drop), audited. */
export function mountRedEnvelopeOps(app: Express, deps: { db: Db; envelopes: RedEnvelopes; merchants: MerchantDirectory; operators: Operators; checkResponses: boolean }) {
  const router = express.Router();
  router.use(express.json({ limit: LIMITS.MAX_BODY_BYTES, strict: true }));
  router.use(refuseNulInBody);
  function call<V extends z.ZodType, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
    def: CallDef<Q, B, V>, action: OpsAction,
    handler: (i: { query: Infer<Q>; body: Infer<B>; merchant: Merchant; op: Operator }) => Promise<z.infer<V>>,
  ) {
    const method = def.method.toLowerCase() as 'get' | 'post';
    router[method](def.path.slice(OPS_ENVELOPES.length) || '/', async (req: Request, res: Response, next: NextFunction) => {
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
        const value = await handler({ query, body, merchant, op });
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
  call(opsRedEnvelopeCalls.list, 'envelopes.read', async ({ query, merchant }) => deps.envelopes.list(merchant.code, query.pageNo, query.pageSize));
  call(opsRedEnvelopeCalls.drop, 'envelopes.drop', async ({ body, merchant, op }) => deps.envelopes.drop(op, merchant, body));
  app.use(OPS_ENVELOPES, router);
}
