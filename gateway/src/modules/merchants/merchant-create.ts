import { MODULE_FLAGS, SUPPORTED_LANGUAGES } from '@portal/contracts/domain/constants';
import { ZBrand } from '@portal/contracts/api/system';
import type { Db } from '../../db/db.ts';
import { loadSeed } from '../../db/seed.ts';
import { cacheAudience } from '@portal/contracts/events/events';
import { emitEvent } from '../../bus/outbox.ts';

/**
 * Creating a merchant (a site), shared by `npm run merchant:create` and the platform administrator's
 * POST /ops/api/platform/merchants. Module flags, the white label and the brand start from the demo
 * merchant's settings; what the input gives replaces them.
 */
export type MerchantInput = {
  code: string;
  name: string;
  domains: string[];
  mainDomain?: string | undefined;
  market?: string | undefined;
  currency?: string | undefined;
  currencySymbol?: string | undefined;
  defaultLanguage?: string | undefined;
  supportedLanguages?: string[] | undefined;
  minAge?: number | undefined;
  gmtOffsetMinutes?: number | undefined;
  modules?: Partial<Record<string, boolean>> | undefined;
  makeDefault?: boolean | undefined;
};
export type CreatedMerchant = { code: string; name: string; domains: string[]; mainDomain: string; market: string; currency: string; isDefault: boolean };

/** Why a merchant cannot be created: `field` names the input at fault, `conflict` an existing merchant in the way. */
export class MerchantCreateError extends Error {
  constructor(message: string, readonly field: string, readonly conflict = false) {
    super(message);
  }
}

/** A DNS host name (no port, no scheme): what Express's req.hostname gives, lower-cased. */
export const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** Validate and normalise the input (throws MerchantCreateError). */
export function normaliseMerchantInput(input: MerchantInput) {
  const code = input.code ?? '';
  const name = input.name?.trim() ?? '';
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(code)) throw new MerchantCreateError('code: 1 to 32 of A-Z, a-z, 0-9, _ and -', 'code');
  if (!name || name.length > 100) throw new MerchantCreateError('name: 1 to 100 characters', 'name');
  const domains = [...new Set(input.domains.flatMap((d) => d.split(',')).map((d) => d.trim().toLowerCase()).filter(Boolean))];
  const bad = domains.filter((d) => !HOSTNAME.test(d));
  if (bad.length || !domains.length) throw new MerchantCreateError(`domain: a host name such as example.com, without scheme or port (refused: ${bad.join(', ') || 'none given'})`, 'domains');
  if (domains.length > 20) throw new MerchantCreateError('domain: at most 20', 'domains');
  const mainDomain = (input.mainDomain ?? domains[0]!).trim().toLowerCase();
  if (!domains.includes(mainDomain)) throw new MerchantCreateError(`main domain must be one of the domains (${domains.join(', ')})`, 'mainDomain');
  const market = (input.market ?? 'PH').toUpperCase();
  if (!/^[A-Z]{2}$/.test(market)) throw new MerchantCreateError('market: an ISO 3166 country code such as PH', 'market');
  const currency = (input.currency ?? 'PHP').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new MerchantCreateError('currency: an ISO 4217 code such as PHP', 'currency');
  const currencySymbol = input.currencySymbol ?? (currency === 'PHP' ? '₱' : currency === 'VND' ? '₫' : currency);
  if (!currencySymbol || currencySymbol.length > 8) throw new MerchantCreateError('currency symbol: 1 to 8 characters', 'currencySymbol');
  const langs = input.supportedLanguages ?? undefined;
  // The client is translated into EN and TY only: a site offers a subset of those.
  if (langs && (!langs.length || langs.some((l) => !(SUPPORTED_LANGUAGES as readonly string[]).includes(l)))) {
    throw new MerchantCreateError(`supported languages: one or more of ${SUPPORTED_LANGUAGES.join(', ')}`, 'supportedLanguages');
  }
  const defaultLanguage = input.defaultLanguage ?? langs?.[0];
  if (defaultLanguage !== undefined && !(langs ?? SUPPORTED_LANGUAGES).includes(defaultLanguage as never)) {
    throw new MerchantCreateError('default language: one of the supported languages', 'defaultLanguage');
  }
  if (input.minAge !== undefined && (!Number.isInteger(input.minAge) || input.minAge < 18 || input.minAge > 25)) throw new MerchantCreateError('minimum age: 18 to 25', 'minAge');
  if (input.gmtOffsetMinutes !== undefined && (!Number.isInteger(input.gmtOffsetMinutes) || Math.abs(input.gmtOffsetMinutes) > 14 * 60)) {
    throw new MerchantCreateError('UTC offset: -840 to 840 minutes', 'gmtOffsetMinutes');
  }
  const unknownFlag = Object.keys(input.modules ?? {}).find((f) => !(MODULE_FLAGS as readonly string[]).includes(f));
  if (unknownFlag) throw new MerchantCreateError(`module flag ${unknownFlag} is unknown`, 'modules');
  return { ...input, code, name, domains, mainDomain, market, currency, currencySymbol, defaultLanguage, supportedLanguages: langs };
}

/** Insert the merchant (one at a time: the demo seed's lock); domains are unique across merchants. */
export async function createMerchant(db: Db, raw: MerchantInput): Promise<CreatedMerchant> {
  const input = normaliseMerchantInput(raw);
  const template = (await loadSeed()).merchant;
  const brand = {
    ...template.brand,
    siteName: input.name,
    currency: input.currency,
    currencySymbol: input.currencySymbol,
    ...(input.supportedLanguages ? { supportedLanguages: input.supportedLanguages } : {}),
    ...(input.defaultLanguage ? { defaultLanguage: input.defaultLanguage } : {}),
    ...(input.minAge !== undefined ? { minAge: input.minAge } : {}),
    ...(input.gmtOffsetMinutes !== undefined ? { gmtOffsetMinutes: input.gmtOffsetMinutes } : {}),
  };
  ZBrand.parse({ ...brand, merchantCode: input.code, platform: 'WEB' });
  const modules = { ...template.modules, ...input.modules };
  const isDefault = await db.tx(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [7_242_003]);
    if ((await tx.query('SELECT 1 FROM merchants WHERE lower(code) = lower($1)', [input.code])).rows.length) {
      throw new MerchantCreateError(`merchant ${input.code} already exists`, 'code', true);
    }
    const taken = await tx.query<{ code: string; domain: string }>(
      `SELECT code, d AS domain FROM merchants, unnest(domains || main_domain) AS d WHERE lower(d) = ANY($1::text[])`,
      [input.domains],
    );
    if (taken.rows.length) throw new MerchantCreateError(`domain ${taken.rows[0]!.domain} already belongs to merchant ${taken.rows[0]!.code}`, 'domains', true);
    const hasDefault = (await tx.query('SELECT 1 FROM merchants WHERE is_default')).rows.length > 0;
    const makeDefault = !hasDefault || input.makeDefault === true;
    if (makeDefault && hasDefault) await tx.query('UPDATE merchants SET is_default = false WHERE is_default');
    await tx.query(
      `INSERT INTO merchants (code, name, is_default, domains, main_domain, module_flags, whitelabel, brand, currency, market)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [input.code, input.name, makeDefault, input.domains, input.mainDomain, JSON.stringify(modules), JSON.stringify(template.whitelabel), JSON.stringify(brand), input.currency, input.market],
    );
    // Running gateways reload their merchant list (new host names, maybe a new default merchant).
    await emitEvent(tx, input.code, cacheAudience(input.code), 'content.changed', { scopes: ['merchant'] });
    return makeDefault;
  });
  return { code: input.code, name: input.name, domains: input.domains, mainDomain: input.mainDomain, market: input.market, currency: input.currency, isDefault };
}
