import { z } from 'zod';
import { defineCall, ZNoQuery } from './envelope.ts';
import { LANGUAGE_CODES, MODULE_FLAGS, RESOURCE_TYPES } from '../domain/constants.ts';
import { ZBrandColorsServed } from '../domain/brand-colors.ts';

export const ZSystemStatus = z.object({
  /** 0 normal, 1 maintenance page, 2 region restricted (blocked page). */
  systemStatus: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  /** The visitor's IP as the server sees it. */
  ip: z.string(),
  message: z.string().optional(),
});
export type TSystemStatus = z.infer<typeof ZSystemStatus>;

export const ZModuleFlags = z.object(
  Object.fromEntries(MODULE_FLAGS.map((f) => [f, z.boolean()])) as Record<(typeof MODULE_FLAGS)[number], z.ZodBoolean>,
);

export const ZBrand = z.object({
  platform: z.literal('WEB'),
  merchantCode: z.string(),
  siteName: z.string(),
  logoUrl: z.string(),
  lotteryType: z.string(),
  defaultLanguage: z.enum(LANGUAGE_CODES),
  supportedLanguages: z.array(z.enum(LANGUAGE_CODES)),
  currency: z.string(),
  currencySymbol: z.string(),
  /** Minimum age to register, per market (PH: 21). */
  minAge: z.number().int(),
  /** Minutes east of UTC, for the agent header clock. */
  gmtOffsetMinutes: z.number().int(),
  videoUrl: z.string().optional(),
  /** The merchant's brand colours per theme (absent: the design card's), as served: see ZBrandColorsServed. */
  colors: ZBrandColorsServed.optional(),
});
export type TBrand = z.infer<typeof ZBrand>;

export const ZWhitelabel = z.object({
  merchantCode: z.string(),
  modules: ZModuleFlags,
  whitelabelVal: z.object({ CHNGPASSVERIF3: z.enum(['email', 'mobile']) }),
  brand: ZBrand,
  /** Login security the client must know about: whether username logins need the slider bot check. */
  security: z.object({ botCheck: z.boolean() }),
});
export type TWhitelabel = z.infer<typeof ZWhitelabel>;

export const ZResource = z.object({
  url: z.string(),
  labelNameEn: z.string(),
  resourceType: z.enum(RESOURCE_TYPES),
  name: z.string(),
});
export type TResource = z.infer<typeof ZResource>;

export const ZCustomerService = z.object({ csType: z.string(), title: z.string(), url: z.string() });

/** The permission response (spec section 3). */
export const ZPermission = z.object({
  info: z.object({
    domainRoute: z.string(),
    resources: z.array(ZResource),
    customerService: z.array(ZCustomerService),
    whitelabelVal: z.record(z.string(), z.string()),
    register: z.boolean(),
    mainDomain: z.string(),
    analytics: z.object({ gtagId: z.string().nullable() }),
    imageCDNs: z.array(z.string()),
    launchGameCDNs: z.array(z.string()),
  }),
  location: z.object({ ip: z.string() }),
  maintenance: z.boolean(),
  regionRestriction: z.boolean(),
});
export type TPermission = z.infer<typeof ZPermission>;

export const ZHelpQuery = z.object({ lang: z.string().max(8).optional(), device: z.string().max(16).optional() }).strict();
export const ZHelpItem = z.object({ id: z.string(), anchor: z.string(), title: z.string(), content: z.string() });
export type THelpItem = z.infer<typeof ZHelpItem>;


export const systemCalls = {
  status: defineCall({ method: 'GET', path: '/wps/system/status', auth: false, query: ZNoQuery, value: ZSystemStatus }),
  whitelabel: defineCall({ method: 'GET', path: '/wps/system/whitelabel', auth: false, query: ZNoQuery, value: ZWhitelabel }),
  domainRoute: defineCall({ method: 'GET', path: '/wps/system/domainRoute', auth: false, query: ZNoQuery, value: ZPermission }),
  helpCenter: defineCall({
    method: 'GET', path: '/wps/system/helpCenter', auth: false, query: ZHelpQuery, value: z.object({ list: z.array(ZHelpItem) }),
  }),
};
