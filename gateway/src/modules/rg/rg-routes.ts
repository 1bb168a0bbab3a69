import type { Express } from 'express';
import { opsRgCalls, opsRgListCalls, rgCalls, rgFamilyCall, RG_OPERATOR_LIFTABLE_KINDS, RG_RESTRICTED_MAX_CSV, ZOpsRgExcludeBody, ZOpsRgLiftBody } from '@portal/contracts/api/rg';
import type { Db } from '../../db/db.ts';
import { mountCall } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { Operators } from '../ops/operators.ts';
import { createOpsRouter } from '../ops/ops-router.ts';
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
    return rg.memberExclude(ctx.merchant.code, s.memberId, s.account, body.kind, body.duration);
  }, opts);
  mountCall(app, rgCalls.session, async ({ ctx, body }) => {
    const s = realMember(ctx);
    await rg.setSession(s.memberId, ctx.merchant.code, s.account, body);
    return rg.state(ctx.merchant.code, s.memberId, gmt(ctx), ctx.token ? hashToken(ctx.token) : null);
  }, opts);
  mountCall(app, rgCalls.events, async ({ ctx, query }) => {
    const page = await rg.events(ctx.merchant.code, ctx.session!.memberId, query.pageNo, query.pageSize);
    // The player is told an operator (or the system) acted, not which one nor why: an operator's or the
    // system's before and after carry the operator's reason, a relative's request and its note. Only the
    // player's own changes keep theirs (the page shows a limit's old and new amount from them).
    return { ...page, list: page.list.map(({ operator: _operator, reason: _reason, ...e }) => (e.by === 'you' ? e : { ...e, before: null, after: null })) };
  }, opts);
}

const OPS_RG = '/ops/api/rg';

/** Operator RG calls under /ops/api/rg (permission rg.exclude: administrator, risk): operator-initiated exclusion and its lifting, both audited. */
export function mountRgOps(app: Express, deps: { db: Db; rg: Rg; merchants: MerchantDirectory; operators: Operators; family: Family; restricted: Restricted; checkResponses: boolean }) {
  const ops = createOpsRouter(deps, { prefix: OPS_RG, deferJson: true, auditUrl: true });
  // A restricted-persons list is a larger body than any other call's (a few MB of CSV text).
  ops.json({ [opsRgListCalls.restrictedImport.path.slice(OPS_RG.length)]: RG_RESTRICTED_MAX_CSV * 2 });
  const who = (op: { id: number; username: string }) => ({ id: op.id, username: op.username });
  ops.router.post(opsRgCalls.exclude.path.slice(OPS_RG.length), ops.route(async (req) => {
    const { merchant, operator: op } = await ops.gate(req, 'rg.exclude');
    const b = ops.parse(ZOpsRgExcludeBody, req.body);
    const m = await deps.db.query('SELECT 1 FROM members WHERE id = $1 AND merchant_code = $2', [b.memberId, merchant.code]);
    if (!m.rows.length) throw new AppError(ErrorCode.NOT_FOUND);
    return deps.rg.exclude(merchant.code, b.memberId, { kind: 'operator', id: op.id, username: op.username }, 'operator', b.duration, b.reason);
  }));
  ops.router.post(opsRgCalls.lift.path.slice(OPS_RG.length), ops.route(async (req) => {
    const { merchant, operator: op } = await ops.gate(req, 'rg.exclude');
    const id = ops.idOf(req);
    const b = ops.parse(ZOpsRgLiftBody, req.body);
    // Only exclusions an operator decided (RG_OPERATOR_LIFTABLE_KINDS: operator, family, restricted person) are lifted here: a self-exclusion or cooling-off runs to its end.
    const lifted = await deps.db.tx(async (tx) => {
      const r = await tx.query<{ member_id: number; kind: string }>(
        `UPDATE rg_exclusions SET ended_at = now(), ended_by = $3 WHERE id = $1 AND merchant_code = $2 AND kind = ANY($4::text[]) AND ended_at IS NULL RETURNING member_id, kind`,
        [id, merchant.code, op.username, [...RG_OPERATOR_LIFTABLE_KINDS]]);
      const x = r.rows[0];
      if (!x) return false;
      await rgAudit(tx, merchant.code, { kind: 'operator', id: op.id, username: op.username }, 'rg.exclusion.end', x.member_id, { id: String(id), kind: x.kind }, { reason: b.reason });
      return true;
    });
    if (!lifted) {
      // Why not, when the exclusion is there (a player's own one answered 404 "Not found").
      const x = (await deps.db.query<{ kind: string; ended: boolean }>(
        'SELECT kind, ended_at IS NOT NULL AS ended FROM rg_exclusions WHERE id = $1 AND merchant_code = $2', [id, merchant.code])).rows[0];
      if (!x) throw new AppError(ErrorCode.NOT_FOUND);
      if (x.ended) throw new AppError(ErrorCode.INVALID_STATE, 'This exclusion has already ended');
      throw new AppError(ErrorCode.INVALID_STATE, "A player's own break or self-exclusion runs to its end: an operator cannot lift it");
    }
    return { lifted };
  }));

  const L = opsRgListCalls;
  ops.call(L.restrictedImport, 'rg.restricted.import', async ({ ctx, body }) => deps.restricted.importCsv(ctx.merchant.code, who(ctx.operator), body.csv));
  ops.call(L.restrictedSummary, 'rg.read', async ({ ctx }) => deps.restricted.summary(ctx.merchant.code));
  ops.call(L.restrictedMatches, 'rg.read', async ({ ctx, query }) => deps.restricted.matches(ctx.merchant.code, query.pageNo, query.pageSize));
  ops.call(L.familyRequests, 'rg.read', async ({ ctx, query }) => deps.family.list(ctx.merchant.code, query.status, query.pageNo, query.pageSize));
  ops.call(L.createFamilyRequest, 'rg.family.request', async ({ ctx, body }) => deps.family.request(ctx.merchant.code, body, { kind: 'support', ...who(ctx.operator) }));
  ops.call(L.decideFamilyRequest, 'rg.family.decide', async ({ ctx, body, id }) => deps.family.decide(ctx.merchant.code, who(ctx.operator), id, body));
  ops.mount(app);
}
