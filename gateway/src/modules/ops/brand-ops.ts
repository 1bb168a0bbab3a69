import { merchantAudience } from '@portal/contracts/events/events';
import { opsPlayerCalls, type TOpsBrand } from '@portal/contracts/api/ops-players';
import { ZBrand } from '@portal/contracts/api/system';
import { ZBrandColors } from '@portal/contracts/domain/brand-colors';
import { patternById } from '@portal/contracts/domain/patterns';
import type { Db, Queryable } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { siteConfigOf, type MerchantDirectory } from '../merchants/merchant-directory.ts';
import { fixedRegistrationFields, registrationRules } from '../auth/registration-settings.ts';
import { audit } from './operators.ts';
import { SITE_CHANGED_EVENT } from './site-ops.ts';
import type { OpsCall } from './ops-router.ts';

type BrandRow = { brand: Record<string, unknown>; site_config: unknown; registration: unknown[] };

async function brandRow(q: Queryable, code: string, lock = false) {
  const r = await q.query<BrandRow>(`SELECT brand, site_config, registration FROM merchants WHERE code = $1${lock ? ' FOR UPDATE' : ''}`, [code]);
  if (!r.rows[0]) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
  return r.rows[0];
}

/** The generated demo logo (assets/svg-art.ts: the name `n` beside its initial). */
const GENERATED_LOGO = '/img/logo.svg';
const isGeneratedLogo = (url: string) => url === GENERATED_LOGO || url.startsWith(`${GENERATED_LOGO}?`);
const generatedLogo = (siteName: string) => `${GENERATED_LOGO}?n=${encodeURIComponent(siteName)}`;

const toBrand = (r: BrandRow): TOpsBrand => {
  const s = siteConfigOf(r.site_config);
  const b = r.brand;
  return {
    siteName: typeof b.siteName === 'string' ? b.siteName : '',
    logoUrl: typeof b.logoUrl === 'string' ? b.logoUrl : '',
    videoUrl: typeof b.videoUrl === 'string' ? b.videoUrl : null,
    lotteryType: typeof b.lotteryType === 'string' ? b.lotteryType : '',
    gtagId: s.gtagId, imageCDNs: s.imageCDNs, launchGameCDNs: s.launchGameCDNs,
    colors: ZBrandColors.safeParse(b.colors).data ?? null,
  };
};

/**
 * Brand configuration and registration field rules, edited live (issue 13): one transaction writes
 * the merchant row, an audit row (before and after) and a `system.changed` event; every node drops
 * the merchant's bootstrap answers (whitelabel, domain route, registration settings) on that event,
 * and connected browsers re-read them.
 */
export function mountOpsBrandRoutes(call: OpsCall, deps: { db: Db; merchants: MerchantDirectory }) {
  const { db, merchants } = deps;

  call(opsPlayerCalls.brand, 'site.read', async ({ ctx }) => toBrand(await brandRow(db, ctx.merchant.code)));
  call(opsPlayerCalls.updateBrand, 'brand.update', async ({ ctx, body }) => {
    const value = await db.tx(async (tx) => {
      const row = await brandRow(tx, ctx.merchant.code, true);
      const before = toBrand(row);
      const next: TOpsBrand = {
        ...before,
        ...(body.siteName !== undefined ? { siteName: body.siteName } : {}),
        ...(body.logoUrl !== undefined ? { logoUrl: body.logoUrl } : {}),
        ...(body.videoUrl !== undefined ? { videoUrl: body.videoUrl || null } : {}),
        ...(body.gtagId !== undefined ? { gtagId: body.gtagId } : {}),
        ...(body.imageCDNs !== undefined ? { imageCDNs: [...new Set(body.imageCDNs)] } : {}),
        ...(body.launchGameCDNs !== undefined ? { launchGameCDNs: [...new Set(body.launchGameCDNs)] } : {}),
        ...(body.colors !== undefined ? { colors: body.colors } : {}),
      };
      // The generated demo logo draws the site's name: a new name with that logo kept gets a logo that
      // says it (the header showed the old name in the picture while the tab said the new one).
      // (The console's form sends the logo it shows, unchanged: that counts as keeping it.)
      const keepsLogo = body.logoUrl === undefined || body.logoUrl === before.logoUrl;
      if (keepsLogo && next.siteName !== before.siteName && isGeneratedLogo(next.logoUrl)) next.logoUrl = generatedLogo(next.siteName);
      if (JSON.stringify(next) === JSON.stringify(before)) return next;
      const brand: Record<string, unknown> = { ...row.brand, siteName: next.siteName, logoUrl: next.logoUrl };
      if (next.videoUrl) brand.videoUrl = next.videoUrl;
      else delete brand.videoUrl;
      if (next.colors) brand.colors = next.colors;
      else delete brand.colors;
      // What the whitelabel call will answer must still be a valid brand.
      if (!ZBrand.safeParse({ ...brand, merchantCode: ctx.merchant.code, platform: 'WEB' }).success) throw new AppError(ErrorCode.VALIDATION, 'Invalid brand');
      const siteConfig = { gtagId: next.gtagId, imageCDNs: next.imageCDNs, launchGameCDNs: next.launchGameCDNs };
      await tx.query('UPDATE merchants SET brand = $2, site_config = $3 WHERE code = $1', [ctx.merchant.code, JSON.stringify(brand), JSON.stringify(siteConfig)]);
      const changed = (Object.keys(next) as Array<keyof TOpsBrand>).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(before[k]));
      await audit(tx, ctx.operator, 'brand.update', { type: 'merchant', id: ctx.merchant.code },
        Object.fromEntries(changed.map((k) => [k, before[k]])), Object.fromEntries(changed.map((k) => [k, next[k]])));
      await emitEvent(tx, ctx.merchant.code, merchantAudience(ctx.merchant.code), SITE_CHANGED_EVENT, { parts: ['whitelabel'] });
      return next;
    });
    merchants.invalidate();
    return value;
  });

  call(opsPlayerCalls.registration, 'site.read', async ({ ctx }) => ({ fields: registrationRules(ctx.merchant), fixed: fixedRegistrationFields(ctx.merchant) }));
  call(opsPlayerCalls.updateRegistration, 'registration.update', async ({ ctx, body }) => {
    const seen = new Set<string>();
    // The account's fields and the market's (a Philippine site's full name and birth date): switching one
    // off was answered 200 and then ignored.
    const fixed = fixedRegistrationFields(ctx.merchant);
    for (const f of body.fields) {
      if (seen.has(f.field)) throw new AppError(ErrorCode.VALIDATION, `${f.field} twice`, [{ path: 'fields', message: `${f.field} twice` }]);
      seen.add(f.field);
      if (fixed.includes(f.field) && (!f.enabled || !f.required)) {
        throw new AppError(ErrorCode.VALIDATION, `${f.field} is always shown and required`, [{ path: f.field, message: 'always shown and required' }]);
      }
      if (f.minLength > f.maxLength) throw new AppError(ErrorCode.VALIDATION, `${f.field}: minimum above maximum`, [{ path: f.field, message: 'minLength above maxLength' }]);
      if (!patternById(f.patternId)) throw new AppError(ErrorCode.VALIDATION, `${f.field}: unknown pattern`, [{ path: f.field, message: 'unknown patternId' }]);
    }
    const value = await db.tx(async (tx) => {
      const row = await brandRow(tx, ctx.merchant.code, true);
      const stored = (Array.isArray(row.registration) ? row.registration : []) as Array<Record<string, unknown>>;
      const before = registrationRules({ ...ctx.merchant, registration: stored });
      const byField = new Map(stored.filter((o) => o && typeof o.field === 'string').map((o) => [o.field as string, o]));
      for (const f of body.fields) byField.set(f.field, { ...(byField.get(f.field) ?? {}), ...f });
      const overrides = [...byField.values()];
      const next = registrationRules({ ...ctx.merchant, registration: overrides });
      const changed = next.filter((r, i) => JSON.stringify(r) !== JSON.stringify(before[i]));
      if (!changed.length) return next;
      await tx.query('UPDATE merchants SET registration = $2 WHERE code = $1', [ctx.merchant.code, JSON.stringify(overrides)]);
      await audit(tx, ctx.operator, 'registration.update', { type: 'merchant', id: ctx.merchant.code },
        before.filter((r) => changed.some((c) => c.field === r.field)), changed);
      await emitEvent(tx, ctx.merchant.code, merchantAudience(ctx.merchant.code), SITE_CHANGED_EVENT, { parts: ['registration'] });
      return next;
    });
    merchants.invalidate();
    return { fields: value, fixed };
  });
}
