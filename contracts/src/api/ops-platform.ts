import { z } from 'zod';
import { defineCall } from './envelope.ts';
import { OPS_PREFIX } from './ops.ts';
import { MODULE_FLAGS, SUPPORTED_LANGUAGES } from '../domain/constants.ts';

/**
 * The platform administrator's calls (issue 13) under /ops/api/platform: only the operator flagged
 * `platform` (the first created with `npm run ops:create-operator -- --platform`, or the demo's
 * platform01) may call them; any other operator gets FORBIDDEN. Every creation is audited.
 */
const HOST = z.string().trim().toLowerCase().min(1).max(253);

export const ZCreateMerchantBody = z.object({
  code: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/),
  name: z.string().trim().min(1).max(100),
  /** Host names the site answers on (the merchant is resolved from the request's host); unique across merchants. */
  domains: z.array(HOST).min(1).max(20),
  /** The domain links in e-mails and SMS are built from: one of `domains` (default: the first). */
  mainDomain: HOST.optional(),
  /** ISO 3166 alpha-2, e.g. PH, VN. */
  market: z.string().regex(/^[A-Z]{2}$/),
  /** ISO 4217, e.g. PHP, VND. */
  currency: z.string().regex(/^[A-Z]{3}$/),
  currencySymbol: z.string().trim().min(1).max(8).optional(),
  /** The client is translated into EN and TY only. */
  supportedLanguages: z.array(z.enum(SUPPORTED_LANGUAGES)).min(1).max(SUPPORTED_LANGUAGES.length),
  defaultLanguage: z.enum(SUPPORTED_LANGUAGES),
  minAge: z.number().int().min(18).max(25),
  gmtOffsetMinutes: z.number().int().min(-840).max(840),
  /** Module flags that differ from the template (the demo merchant's). */
  modules: z.object(Object.fromEntries(MODULE_FLAGS.map((f) => [f, z.boolean().optional()])) as Record<(typeof MODULE_FLAGS)[number], z.ZodOptional<z.ZodBoolean>>).strict().optional(),
}).strict();
export type TCreateMerchantBody = z.infer<typeof ZCreateMerchantBody>;

export const ZPlatformMerchant = z.object({
  code: z.string(),
  name: z.string(),
  domains: z.array(z.string()),
  mainDomain: z.string(),
  market: z.string(),
  currency: z.string(),
  isDefault: z.boolean(),
});

/** A merchant as the platform administrator's list and editor show it. */
export const ZPlatformMerchantDetail = ZPlatformMerchant.extend({
  currencySymbol: z.string(),
  supportedLanguages: z.array(z.string()),
  defaultLanguage: z.string(),
  minAge: z.number().int(),
  gmtOffsetMinutes: z.number().int(),
  modules: z.record(z.string(), z.boolean()),
  maintenance: z.boolean(),
  /** Members registered: the currency cannot change once there are any (their money is in it). */
  memberCount: z.number().int(),
});
export type TPlatformMerchantDetail = z.infer<typeof ZPlatformMerchantDetail>;

/** Edit a merchant: what is given replaces what it had (domains stay unique across merchants). */
export const ZUpdateMerchantBody = ZCreateMerchantBody.omit({ code: true }).partial().strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'nothing to change');

export const opsPlatformCalls = {
  createMerchant: defineCall({ method: 'POST', path: `${OPS_PREFIX}/platform/merchants`, auth: true, body: ZCreateMerchantBody, value: ZPlatformMerchant }),
  merchants: defineCall({ method: 'GET', path: `${OPS_PREFIX}/platform/merchants`, auth: true, query: z.object({}).strict(), value: z.object({ list: z.array(ZPlatformMerchantDetail) }) }),
  updateMerchant: defineCall({ method: 'PUT', path: `${OPS_PREFIX}/platform/merchants/:code`, auth: true, body: ZUpdateMerchantBody, value: ZPlatformMerchantDetail }),
};
