import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import type { CallDef } from '@portal/contracts/api/envelope';
import type { OpsAction } from '@portal/contracts/api/ops';
import { opsRgCalls, opsRgListCalls, rgCalls, rgFamilyCall, RG_RESTRICTED_MAX_CSV, ZOpsRgExcludeBody, ZOpsRgLiftBody } from '@portal/contracts/api/rg';
import { LIMITS } from '@portal/contracts/domain/constants';
import type { Db } from '../../db/db.ts';
import { mountCall, refuseNulInBody, zodDetails } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { Operators } from '../ops/operators.ts';
import { gateOperator } from '../ops/ops-routes.ts';
import { hashToken } from '../sessions/session-store.ts';
import { realMember } from '../wallet/wallet-routes.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { rgAudit, type Rg } from './rg-service.ts';
import type { Family } from './family.ts';
import type { Restricted } from './restricted.ts';

/** Family exclusion requests from the public form, per address per hour (beyond: 429). */
export const FAMILY_REQUESTS_PER_HOUR = 5;

/** The player's responsible-gaming calls (member centre): limits, exclusion, reality checks, the RG events. */
export function mountRgRoutes(app: Express, deps: { rg: Rg; family: Family; limiter: RateLimiter }, opts: { checkResponses: boolean }) {
  const { rg } = deps;
  // The public family exclusion form: no session; the answer is the same whether the account exists.
  mountCall(app, rgFamilyCall, async ({ ctx, body }) => {
    const key = `rg-family:${ctx.merchant.code}:${ctx.ip}`;
    if ((await deps.limiter.count(key, 3600_000)) >= FAMILY_REQUESTS_PER_HOUR) throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
    await deps.limiter.hit(key);
    const r = await deps.family.request(ctx.merchant.code, body, { kind: 'public' });
    return { reference: r.reference };
  }, opts);
  const gmt = (ctx: { merchant: { brand: { gmtOffsetMinutes: number } } }) => ctx.merchant.brand.gmtOffsetMinutes;
  const who = (s: { memberId: number; account: string }) => ({ id: s.memberId, account: s.account });
  mountCall(app, rgCalls.state, async ({ ctx }) => rg.state(ctx.merchant.code, ctx.session!.memberId, gmt(ctx), ctx.token ? hashToken(ctx.token) : null), opts);
  mountCall(app, rgCalls.setLimit, async ({ ctx, body }) => rg.setLimit(ctx.merchant.code, who(realMember(ctx)), gmt(ctx), body.kind, body.period, body.amount), opts);
  mountCall(app, rgCalls.confirmLimit, async ({ ctx, body }) => rg.confirmLimit(ctx.merchant.code, who(realMember(ctx)), gmt(ctx), body.kind, body.period), opts);
  mountCall(app, rgCalls.exclude, async ({ ctx, body }) => {
    const s = realMember(ctx);
    return rg.exclude(ctx.merchant.code, s.memberId, { kind: 'member', account: s.account }, body.kind, body.duration);
  }, opts);
  mountCall(app, rgCalls.session, async ({ ctx, body }) => {
    const s = realMember(ctx);
    await rg.setSession(s.memberId, ctx.merchant.code, s.account, body);
    return rg.state(ctx.merchant.code, s.memberId, gmt(ctx), ctx.token ? hashToken(ctx.token) : null);
  }, opts);
  mountCall(app, rgCalls.events, async ({ ctx, query }) => rg.events(ctx.merchant.code, ctx.session!.memberId, query.pageNo, query.pageSize), opts);
}

const OPS_RG = '/ops/api/rg';
const BEARER = /^Bearer ([A-Za-z0-9_-]{20,128})$/;

/** Operator RG calls under /ops/api/rg (permission rg.exclude: administrator, risk): operator-initiated exclusion and its lifting, both audited. */
export function mountRgOps(app: Express, deps: { db: Db; rg: Rg; merchants: MerchantDirectory; operators: Operators; family: Family; restricted: Restricted; checkResponses: boolean }) {
  const router = express.Router();
  // A restricted-persons list is a larger body than any other call's (a few MB of CSV text).
  router.use(opsRgListCalls.restrictedImport.path.slice(OPS_RG.length), express.json({ limit: RG_RESTRICTED_MAX_CSV * 2, strict: true }));
  router.use(express.json({ limit: LIMITS.MAX_BODY_BYTES, strict: true }));
  router.use(refuseNulInBody);
  async function admin(req: Request, action: OpsAction = 'rg.exclude') {
    const header = req.headers['x-merchant-code'];
    const merchant = await deps.merchants.resolve({ host: req.hostname, code: typeof header === 'string' ? header : undefined });
    if (!merchant) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1] ?? null;
    const op = token ? await deps.operators.resolve(token) : null;
    if (!op || op.merchantCode !== merchant.code) throw new AppError(ErrorCode.UNAUTHORIZED);
    // The console's one gate: password changed, authenticator enrolled, the action's roles (403 audited).
    await gateOperator(deps.db, op, action, { method: req.method, path: req.originalUrl.split('?', 1)[0] ?? '' });
    return { merchant, op };
  }
  router.post(opsRgCalls.exclude.path.slice(OPS_RG.length), async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { merchant, op } = await admin(req);
      const b = ZOpsRgExcludeBody.safeParse(req.body ?? {});
      if (!b.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid body', zodDetails(b.error));
      const m = await deps.db.query('SELECT 1 FROM members WHERE id = $1 AND merchant_code = $2', [b.data.memberId, merchant.code]);
      if (!m.rows.length) throw new AppError(ErrorCode.NOT_FOUND);
      const value = await deps.rg.exclude(merchant.code, b.data.memberId, { kind: 'operator', id: op.id, username: op.username }, 'operator', b.data.duration, b.data.reason);
      res.json({ success: true, value });
    } catch (err) {
      next(err);
    }
  });
  router.post(opsRgCalls.lift.path.slice(OPS_RG.length), async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { merchant, op } = await admin(req);
      const id = Number(req.params.id);
      if (!Number.isSafeInteger(id) || id <= 0) throw new AppError(ErrorCode.NOT_FOUND);
      const b = ZOpsRgLiftBody.safeParse(req.body ?? {});
      if (!b.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid body', zodDetails(b.error));
      // Only exclusions an operator decided (operator, family, restricted person) are lifted here: a self-exclusion or cooling-off runs to its end.
      const lifted = await deps.db.tx(async (tx) => {
        const r = await tx.query<{ member_id: number; kind: string }>(
          `UPDATE rg_exclusions SET ended_at = now(), ended_by = $3 WHERE id = $1 AND merchant_code = $2 AND kind IN ('operator', 'family', 'restricted') AND ended_at IS NULL RETURNING member_id, kind`,
          [id, merchant.code, op.username]);
        const x = r.rows[0];
        if (!x) return false;
        await rgAudit(tx, merchant.code, { kind: 'operator', id: op.id, username: op.username }, 'rg.exclusion.end', x.member_id, { id: String(id), kind: x.kind }, { reason: b.data.reason });
        return true;
      });
      if (!lifted) throw new AppError(ErrorCode.NOT_FOUND);
      res.json({ success: true, value: { lifted } });
    } catch (err) {
      next(err);
    }
  });

  /** One operator call: gate (session, authenticator, role), parse, handler, envelope. */
  function call<V extends z.ZodType, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
    def: CallDef<Q, B, V>, action: OpsAction,
    handler: (i: { merchant: { code: string }; op: { id: number; username: string }; query: Q extends z.ZodType ? z.infer<Q> : undefined; body: B extends z.ZodType ? z.infer<B> : undefined; id: number }) => Promise<z.infer<V>>,
  ) {
    const method = def.method.toLowerCase() as 'get' | 'post';
    router[method](def.path.slice(OPS_RG.length), async (req: Request, res: Response, next: NextFunction) => {
      try {
        const { merchant, op } = await admin(req, action);
        const parse = (schema: z.ZodType | undefined, input: unknown, what: string) => {
          if (!schema) return undefined;
          const r = schema.safeParse(input ?? {});
          if (!r.success) throw new AppError(ErrorCode.VALIDATION, `Invalid ${what}`, zodDetails(r.error));
          return r.data;
        };
        const id = req.params.id === undefined ? 0 : Number(req.params.id);
        if (req.params.id !== undefined && (!Number.isSafeInteger(id) || id <= 0)) throw new AppError(ErrorCode.NOT_FOUND);
        const value = await handler({
          merchant, op: { id: op.id, username: op.username }, id,
          query: parse(def.query, req.query, 'query') as Q extends z.ZodType ? z.infer<Q> : undefined,
          body: parse(def.body, req.body, 'body') as B extends z.ZodType ? z.infer<B> : undefined,
        });
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
  const L = opsRgListCalls;
  call(L.restrictedImport, 'rg.restricted.import', async ({ merchant, op, body }) => deps.restricted.importCsv(merchant.code, op, body.csv));
  call(L.restrictedSummary, 'rg.read', async ({ merchant }) => deps.restricted.summary(merchant.code));
  call(L.restrictedMatches, 'rg.read', async ({ merchant, query }) => deps.restricted.matches(merchant.code, query.pageNo, query.pageSize));
  call(L.familyRequests, 'rg.read', async ({ merchant, query }) => deps.family.list(merchant.code, query.status, query.pageNo, query.pageSize));
  call(L.createFamilyRequest, 'rg.family.request', async ({ merchant, op, body }) => deps.family.request(merchant.code, body, { kind: 'support', ...op }));
  call(L.decideFamilyRequest, 'rg.family.decide', async ({ merchant, op, body, id }) => deps.family.decide(merchant.code, op, id, body));
  app.use(OPS_RG, router);
}
