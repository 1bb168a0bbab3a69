import { MODULE_FLAGS, type ModuleFlag, type ModuleFlags } from '@portal/contracts/domain/constants';
import { ZBrand, type TBrand } from '@portal/contracts/api/system';
import { ZBrandColors } from '@portal/contracts/domain/brand-colors';
import type { Queryable } from '../../db/db.ts';
import { hostNameOf, merchantHosts } from './link-origin.ts';

export type Merchant = {
  code: string;
  name: string;
  /** ISO 3166 alpha-2 market (PH, VN, ...). */
  market: string;
  isDefault: boolean;
  domains: string[];
  mainDomain: string;
  modules: ModuleFlags;
  whitelabel: Record<string, string>;
  brand: TBrand;
  currency: string;
  maintenance: boolean;
  maintenanceMessage: string | null;
  blockedIps: string[];
  /** Country codes refused (when a trusted proxy names the visitor's country). */
  blockedRegions: string[];
  agentTypes: number[];
  trialTypes: number[];
  /** Per-field registration rule overrides (see auth/registration-settings.ts). */
  registration: unknown[];
  security: MerchantSecurity;
  /** What the permission response shows beside the brand (edited in the console's brand page). */
  siteConfig: SiteConfig;
};

/** Analytics tag and CDN lists of the permission response (spec section 3; migration 049). */
export type SiteConfig = { gtagId: string | null; imageCDNs: string[]; launchGameCDNs: string[] };

export function siteConfigOf(raw: unknown): SiteConfig {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return { gtagId: typeof o.gtagId === 'string' ? o.gtagId : null, imageCDNs: list(o.imageCDNs), launchGameCDNs: list(o.launchGameCDNs) };
}

/** Login security settings per merchant. */
export type MerchantSecurity = {
  /** Require the slider bot check on username logins. */
  botCheck: boolean;
  /** Failed logins (per account or IP, last hour) after which the captcha is asked. */
  captchaAfterFailures: number;
  /** Days a password lives before it expires (PWDEXPFORCECHANGE3 forces the change). 0: never. */
  passwordMaxAgeDays: number;
  /** Ask a second step on login from an address the member never used. */
  newIpVerification: boolean;
};

const DEFAULT_SECURITY: MerchantSecurity = { botCheck: true, captchaAfterFailures: 3, passwordMaxAgeDays: 180, newIpVerification: true };

type MerchantRow = {
  code: string;
  name: string;
  market?: string;
  is_default: boolean;
  domains: string[];
  main_domain: string;
  module_flags: Record<string, unknown>;
  whitelabel: Record<string, string>;
  brand: Record<string, unknown>;
  currency: string;
  maintenance: boolean;
  maintenance_message: string | null;
  blocked_ips: string[];
  blocked_regions?: string[];
  agent_types: number[];
  trial_types: number[];
  registration: unknown[];
  security: Record<string, unknown>;
  site_config?: unknown;
};

function toMerchant(r: MerchantRow): Merchant {
  const modules = Object.fromEntries(MODULE_FLAGS.map((f) => [f, r.module_flags[f] === true])) as ModuleFlags;
  // Stored colours are read trimmed and in lower case (ZBrandColors), then served as they are.
  const brand = ZBrand.parse({ ...r.brand, colors: ZBrandColors.optional().parse(r.brand.colors), merchantCode: r.code, platform: 'WEB' });
  return {
    code: r.code,
    name: r.name,
    market: r.market ?? 'PH',
    isDefault: r.is_default,
    domains: r.domains.map((d) => d.toLowerCase()),
    mainDomain: r.main_domain,
    modules,
    whitelabel: r.whitelabel,
    brand,
    currency: r.currency,
    maintenance: r.maintenance,
    maintenanceMessage: r.maintenance_message,
    blockedIps: r.blocked_ips,
    blockedRegions: r.blocked_regions ?? [],
    agentTypes: r.agent_types,
    trialTypes: r.trial_types,
    registration: Array.isArray(r.registration) ? r.registration : [],
    security: { ...DEFAULT_SECURITY, ...(r.security as Partial<MerchantSecurity>) },
    siteConfig: siteConfigOf(r.site_config),
  };
}

/**
 * Merchants are few and read on every request: kept in memory and reloaded after a short TTL, and at
 * once by `invalidate()` (on this node when it changes a merchant, and on every node when a
 * `content.changed` event of scope `merchant` arrives: see boot-cache). A merchant whose row did not
 * change keeps its object across reloads, so the object is its version: the bootstrap cache serves
 * what it built from one object only to requests that resolved that same object. A load that began
 * before an invalidation is not kept.
 */
export function createMerchantDirectory(db: Queryable, ttlMs = 2000) {
  let cache: Merchant[] | null = null;
  let loadedAt = 0;
  let loading: Promise<Merchant[]> | null = null;
  let gen = 0;
  /** code -> the row as loaded (JSON) and its object, to keep objects of unchanged rows. */
  let known = new Map<string, { row: string; merchant: Merchant }>();

  function load(): Promise<Merchant[]> {
    const startedGen = gen;
    const p: Promise<Merchant[]> = db
      .query<MerchantRow>('SELECT * FROM merchants ORDER BY code')
      .then((r) => {
        const next = new Map<string, { row: string; merchant: Merchant }>();
        const list = r.rows.map((row) => {
          const json = JSON.stringify(row);
          const prev = known.get(row.code);
          const merchant = prev && prev.row === json ? prev.merchant : toMerchant(row);
          next.set(row.code, { row: json, merchant });
          return merchant;
        });
        if (gen === startedGen) {
          known = next;
          cache = list;
          loadedAt = Date.now();
        }
        return list;
      })
      .finally(() => {
        if (loading === p) loading = null;
      });
    return p;
  }

  async function all(): Promise<Merchant[]> {
    if (cache && Date.now() - loadedAt < ttlMs) return cache;
    loading ??= load();
    return loading;
  }

  function pick(list: Merchant[], input: { host?: string | undefined; code?: string | undefined }): Merchant | null {
    const host = input.host ? hostNameOf(input.host) : '';
    if (host) {
      const byHost = list.find((m) => merchantHosts(m).includes(host));
      if (byHost) return byHost;
    }
    if (input.code) return list.find((m) => m.code === input.code) ?? null;
    return list.find((m) => m.isDefault) ?? null;
  }

  return {
    all,
    invalidate() {
      gen++;
      cache = null;
      loading = null;
    },
    async byCode(code: string): Promise<Merchant | null> {
      return (await all()).find((m) => m.code === code) ?? null;
    },
    /**
     * Host (domain route: `domains[]` or `main_domain`) first, then the explicit code, then the default
     * merchant. Calls that send links must not rely on the fallbacks: see link-origin.ts.
     */
    async resolve(input: { host?: string | undefined; code?: string | undefined }): Promise<Merchant | null> {
      return pick(await all(), input);
    },
    /** resolve() without waiting: undefined when the list must be (re)loaded first. */
    resolveNow(input: { host?: string | undefined; code?: string | undefined }): Merchant | null | undefined {
      if (!cache || Date.now() - loadedAt >= ttlMs) return undefined;
      return pick(cache, input);
    },
    isEnabled(m: Merchant, flag: ModuleFlag) {
      return m.modules[flag];
    },
  };
}
export type MerchantDirectory = ReturnType<typeof createMerchantDirectory>;
