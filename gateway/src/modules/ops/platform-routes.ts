import { opsPlatformCalls } from '@portal/contracts/api/ops-platform';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import { createMerchant, MerchantCreateError } from '../merchants/merchant-create.ts';
import { audit, type Operator } from './operators.ts';
import type { OpsCall } from './ops-routes.ts';

function requirePlatform(op: Operator) {
  if (!op.isPlatform) throw new AppError(ErrorCode.FORBIDDEN);
}

/**
 * The platform administrator's section (issue 13): create a merchant with the same code as
 * `npm run merchant:create` (validation, domains unique across merchants), audited on the operator's
 * own merchant. Other operators, whatever their role, get FORBIDDEN.
 */
export function mountOpsPlatformRoutes(call: OpsCall, deps: { db: Db; merchants: MerchantDirectory }) {
  const { db, merchants } = deps;
  call(opsPlatformCalls.merchants, null, async ({ ctx }) => {
    requirePlatform(ctx.operator);
    const list = await merchants.all();
    return { list: list.map((m) => ({ code: m.code, name: m.name, domains: m.domains, mainDomain: m.mainDomain, market: m.market, currency: m.currency, isDefault: m.isDefault })) };
  });
  call(opsPlatformCalls.createMerchant, null, async ({ ctx, body }) => {
    requirePlatform(ctx.operator);
    if (body.mainDomain !== undefined && !body.domains.includes(body.mainDomain)) throw new AppError(ErrorCode.VALIDATION, 'mainDomain must be one of domains', [{ path: 'mainDomain', message: 'not one of domains' }]);
    if (!body.supportedLanguages.includes(body.defaultLanguage)) throw new AppError(ErrorCode.VALIDATION, 'defaultLanguage must be supported', [{ path: 'defaultLanguage', message: 'not supported' }]);
    let created;
    try {
      created = await createMerchant(db, { ...body, makeDefault: false });
    } catch (err) {
      if (err instanceof MerchantCreateError) {
        throw new AppError(err.conflict ? ErrorCode.CONFLICT : ErrorCode.VALIDATION, err.message, [{ path: err.field, message: err.message }]);
      }
      throw err;
    }
    await db.tx((tx) => audit(tx, ctx.operator, 'merchant.create', { type: 'merchant', id: created.code }, undefined, { ...body, via: 'platform' }));
    merchants.invalidate();
    return created;
  });
}
