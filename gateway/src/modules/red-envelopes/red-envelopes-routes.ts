import type { Express, Request } from 'express';
import { missingMessageLanguages, opsRedEnvelopeCalls, redEnvelopeCalls } from '@portal/contracts/api/red-envelopes';
import type { Db } from '../../db/db.ts';
import { mountCall } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { Operators } from '../ops/operators.ts';
import { createOpsRouter } from '../ops/ops-router.ts';
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

/**
 * An envelope's message is written in every language the merchant's site offers, or in none (the
 * players' pages then say their own words). One language alone reached the others' players in it:
 * an English-only message on a Tagalog page.
 */
export function assertMessageLanguages(message: { en?: string | undefined; ty?: string | undefined }, supported: readonly string[]): void {
  const missing = missingMessageLanguages(message, supported);
  if (missing.length) {
    throw new AppError(ErrorCode.VALIDATION, 'Write the message in every language of the site, or leave it empty',
      missing.map((l) => ({ path: `message.${l.toLowerCase()}`, message: `the ${l} message is missing` })));
  }
}

/** /ops/api/envelopes through the console's gate (envelopes.read: list; envelopes.drop: drop), audited. */
export function mountRedEnvelopeOps(app: Express, deps: { db: Db; envelopes: RedEnvelopes; merchants: MerchantDirectory; operators: Operators; checkResponses: boolean }) {
  const { call, mount } = createOpsRouter(deps, { prefix: OPS_ENVELOPES });
  call(opsRedEnvelopeCalls.list, 'envelopes.read', async ({ query, ctx: { merchant } }) => deps.envelopes.list(merchant.code, query.pageNo, query.pageSize));
  call(opsRedEnvelopeCalls.drop, 'envelopes.drop', async ({ body, ctx: { merchant, operator: op } }) => {
    assertMessageLanguages(body.message, merchant.brand.supportedLanguages);
    return deps.envelopes.drop(op, merchant, body);
  });
  mount(app);
}
