import { opsPlatformCalls } from '@portal/contracts/api/ops-platform';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import { createMerchant, MerchantCreateError, normaliseMerchantInput } from '../merchants/merchant-create.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { merchantAudience } from '@portal/contracts/events/events';
import { MODULE_FLAGS } from '@portal/contracts/domain/constants';
import { audit, type Operator } from './operators.ts';
import type { OpsCall } from './ops-router.ts';

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
  const memberCounts = async (codes: string[]) => {
    const r = await db.query<{ merchant_code: string; n: number }>('SELECT merchant_code, count(*)::int AS n FROM members WHERE merchant_code = ANY($1::text[]) GROUP BY merchant_code', [codes]);
    return new Map(r.rows.map((x) => [x.merchant_code, Number(x.n)]));
  };
  const detail = (m: Merchant, memberCount: number) => ({
    code: m.code, name: m.name, domains: m.domains, mainDomain: m.mainDomain, market: m.market, currency: m.currency, isDefault: m.isDefault,
    currencySymbol: m.brand.currencySymbol, supportedLanguages: m.brand.supportedLanguages, defaultLanguage: m.brand.defaultLanguage,
    minAge: m.brand.minAge, gmtOffsetMinutes: m.brand.gmtOffsetMinutes, modules: { ...m.modules }, maintenance: m.maintenance, memberCount,
  });
  call(opsPlatformCalls.merchants, null, async ({ ctx }) => {
    requirePlatform(ctx.operator);
    const list = await merchants.all();
    const counts = await memberCounts(list.map((m) => m.code));
    return { list: list.map((m) => detail(m, counts.get(m.code) ?? 0)) };
  });
  call(opsPlatformCalls.updateMerchant, null, async ({ ctx, body, req }) => {
    requirePlatform(ctx.operator);
    const code = String(req.params.code ?? '');
    merchants.invalidate();
    const m = await merchants.byCode(code);
    if (!m) throw new AppError(ErrorCode.NOT_FOUND);
    let input;
    try {
      input = normaliseMerchantInput({
        // Domains are judged only when they change (the demo's own may be 'localhost' or an address).
        code: m.code, name: body.name ?? m.name, domains: body.domains ?? ['unchanged.invalid'],
        mainDomain: body.domains ? body.mainDomain ?? (body.domains.includes(m.mainDomain) ? m.mainDomain : undefined) : 'unchanged.invalid',
        market: body.market ?? m.market, currency: body.currency ?? m.currency,
        currencySymbol: body.currencySymbol ?? (body.currency && body.currency !== m.currency ? undefined : m.brand.currencySymbol),
        supportedLanguages: body.supportedLanguages ?? m.brand.supportedLanguages.filter((l) => l === 'EN' || l === 'TY'),
        defaultLanguage: body.defaultLanguage ?? (body.supportedLanguages && !body.supportedLanguages.includes(m.brand.defaultLanguage as never) ? body.supportedLanguages[0] : m.brand.defaultLanguage),
        minAge: body.minAge ?? m.brand.minAge, gmtOffsetMinutes: body.gmtOffsetMinutes ?? m.brand.gmtOffsetMinutes, modules: body.modules,
      });
    } catch (err) {
      if (err instanceof MerchantCreateError) throw new AppError(ErrorCode.VALIDATION, err.message, [{ path: err.field, message: err.message }]);
      throw err;
    }
    if (!body.domains) {
      if (body.mainDomain !== undefined && !m.domains.includes(body.mainDomain)) throw new AppError(ErrorCode.VALIDATION, 'mainDomain must be one of domains', [{ path: 'mainDomain', message: 'not one of domains' }]);
      input = { ...input, domains: m.domains, mainDomain: body.mainDomain ?? m.mainDomain };
    }
    const before = detail(m, 0);
    await db.tx(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [7_242_003]);
      const row = (await tx.query<{ brand: Record<string, unknown>; module_flags: Record<string, unknown> }>('SELECT brand, module_flags FROM merchants WHERE code = $1 FOR UPDATE', [code])).rows[0];
      if (!row) throw new AppError(ErrorCode.NOT_FOUND);
      const taken = await tx.query<{ code: string; domain: string }>(
        'SELECT code, d AS domain FROM merchants, unnest(domains || main_domain) AS d WHERE code <> $2 AND lower(d) = ANY($1::text[])', [input.domains, code]);
      if (taken.rows.length) throw new AppError(ErrorCode.CONFLICT, `domain ${taken.rows[0]!.domain} already belongs to merchant ${taken.rows[0]!.code}`, [{ path: 'domains', message: 'taken' }]);
      if (input.currency !== m.currency && (await tx.query('SELECT 1 FROM members WHERE merchant_code = $1 LIMIT 1', [code])).rows.length) {
        // Balances and records are in the old currency: a site with players keeps it.
        throw new AppError(ErrorCode.CONFLICT, 'The currency cannot change once players have registered', [{ path: 'currency', message: 'has players' }]);
      }
      const brand = {
        ...row.brand, siteName: row.brand.siteName === m.name ? input.name : row.brand.siteName, currency: input.currency, currencySymbol: input.currencySymbol,
        supportedLanguages: input.supportedLanguages, defaultLanguage: input.defaultLanguage, minAge: input.minAge, gmtOffsetMinutes: input.gmtOffsetMinutes,
      };
      const modules = { ...row.module_flags, ...Object.fromEntries(Object.entries(input.modules ?? {}).filter(([f, v]) => v !== undefined && (MODULE_FLAGS as readonly string[]).includes(f))) };
      await tx.query('UPDATE merchants SET name = $2, domains = $3, main_domain = $4, market = $5, currency = $6, brand = $7, module_flags = $8 WHERE code = $1',
        [code, input.name, input.domains, input.mainDomain, input.market, input.currency, JSON.stringify(brand), JSON.stringify(modules)]);
      await audit(tx, ctx.operator, 'merchant.update', { type: 'merchant', id: code }, before, { ...body, via: 'platform' });
      // Every node reloads the merchant (host names, flags) and drops its bootstrap answers; open pages re-read them.
      await emitEvent(tx, code, merchantAudience(code), 'system.changed', { parts: ['whitelabel', 'modules'] });
    });
    merchants.invalidate();
    const after = await merchants.byCode(code);
    return detail(after!, (await memberCounts([code])).get(code) ?? 0);
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
