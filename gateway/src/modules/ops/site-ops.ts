import { MODULE_FLAGS } from '@portal/contracts/domain/constants';
import type { TSiteSettings } from '@portal/contracts/api/ops';
import { merchantAudience } from '@portal/contracts/events/events';
import type { z } from 'zod';
import type { ZSiteSettingsPatch } from '@portal/contracts/api/ops';
import type { Db, Queryable } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import { audit, type Operator } from './operators.ts';

type SiteRow = {
  maintenance: boolean; maintenance_message: string | null; blocked_ips: string[]; blocked_regions: string[];
  module_flags: Record<string, unknown>; whitelabel: Record<string, string>; security: Record<string, unknown>;
};
const DEFAULT_SECURITY = { botCheck: true, captchaAfterFailures: 3, passwordMaxAgeDays: 180, newIpVerification: true };
/** The event the console emits when site settings change (bootstrap caches listen to it). */
export const SITE_CHANGED_EVENT = 'system.changed';
type Part = 'maintenance' | 'blocked' | 'modules' | 'whitelabel' | 'security';

async function siteRow(q: Queryable, code: string, lock = false) {
  const r = await q.query<SiteRow>(
    `SELECT maintenance, maintenance_message, blocked_ips, blocked_regions, module_flags, whitelabel, security FROM merchants WHERE code = $1${lock ? ' FOR UPDATE' : ''}`, [code]);
  if (!r.rows[0]) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
  return r.rows[0];
}

type Providers = { sms: boolean; mail: boolean };

const toSite = (r: SiteRow, regionHeader: string | null, providers: Providers): TSiteSettings => ({
  maintenance: r.maintenance,
  maintenanceMessage: r.maintenance_message,
  blockedIps: r.blocked_ips,
  blockedRegions: r.blocked_regions,
  modules: Object.fromEntries(MODULE_FLAGS.map((f) => [f, r.module_flags[f] === true])),
  whitelabel: r.whitelabel,
  security: { ...DEFAULT_SECURITY, ...(r.security as Partial<typeof DEFAULT_SECURITY>) },
  regionHeader,
  providers,
});

export function createSiteOps(deps: { db: Db; merchants: MerchantDirectory; regionHeader: string | null; providers?: Providers }) {
  const { db, merchants, regionHeader } = deps;
  const providers = deps.providers ?? { sms: true, mail: true };

  async function read(code: string) {
    return toSite(await siteRow(db, code), regionHeader, providers);
  }

  /**
   * Apply a patch in one transaction: the merchant row, one audit row (before/after of what changed),
   * a `system.changed` event naming the parts, and `system.maintenance` when maintenance flips (the
   * players' open pages switch to or from the maintenance page at once). This node's merchant cache is
   * dropped after commit; other nodes' caches expire within their TTL (or on the event).
   */
  async function update(op: Operator, code: string, patch: z.infer<typeof ZSiteSettingsPatch>) {
    const unknownFlag = Object.keys(patch.modules ?? {}).find((f) => !(MODULE_FLAGS as readonly string[]).includes(f));
    if (unknownFlag) throw new AppError(ErrorCode.VALIDATION, `Unknown module flag ${unknownFlag}`);
    const value = await db.tx(async (tx) => {
      const before = toSite(await siteRow(tx, code, true), regionHeader, providers);
      const next: TSiteSettings = {
        ...before,
        maintenance: patch.maintenance ?? before.maintenance,
        maintenanceMessage: patch.maintenanceMessage === undefined ? before.maintenanceMessage : patch.maintenanceMessage || null,
        blockedIps: patch.blockedIps ? [...new Set(patch.blockedIps)] : before.blockedIps,
        blockedRegions: patch.blockedRegions ? [...new Set(patch.blockedRegions)] : before.blockedRegions,
        modules: { ...before.modules, ...(patch.modules ?? {}) },
        whitelabel: { ...before.whitelabel, ...(patch.whitelabel ?? {}) },
        security: { ...before.security, ...(patch.security ?? {}) },
      };
      const parts: Part[] = [];
      const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
      if (next.maintenance !== before.maintenance || next.maintenanceMessage !== before.maintenanceMessage) parts.push('maintenance');
      if (!same(next.blockedIps, before.blockedIps) || !same(next.blockedRegions, before.blockedRegions)) parts.push('blocked');
      if (!same(next.modules, before.modules)) parts.push('modules');
      if (!same(next.whitelabel, before.whitelabel)) parts.push('whitelabel');
      if (!same(next.security, before.security)) parts.push('security');
      if (!parts.length) return next;
      await tx.query(
        `UPDATE merchants SET maintenance = $2, maintenance_message = $3, blocked_ips = $4, blocked_regions = $5, module_flags = $6, whitelabel = $7, security = $8 WHERE code = $1`,
        [code, next.maintenance, next.maintenanceMessage, next.blockedIps, next.blockedRegions, JSON.stringify(next.modules), JSON.stringify(next.whitelabel), JSON.stringify(next.security)],
      );
      const pick = (s: TSiteSettings) => Object.fromEntries(parts.flatMap((p): Array<[string, unknown]> => (
        p === 'maintenance' ? [['maintenance', s.maintenance], ['maintenanceMessage', s.maintenanceMessage]]
          : p === 'blocked' ? [['blockedIps', s.blockedIps], ['blockedRegions', s.blockedRegions]]
            : [[p, s[p]]])));
      await audit(tx, op, 'site.update', { type: 'merchant', id: code }, pick(before), pick(next));
      await emitEvent(tx, code, merchantAudience(code), SITE_CHANGED_EVENT, { parts });
      if (next.maintenance !== before.maintenance || (next.maintenance && next.maintenanceMessage !== before.maintenanceMessage)) {
        await emitEvent(tx, code, merchantAudience(code), 'system.maintenance', {
          systemStatus: next.maintenance ? 1 : 0,
          ...(next.maintenance && next.maintenanceMessage ? { message: next.maintenanceMessage } : {}),
        });
      }
      return next;
    });
    merchants.invalidate();
    return value;
  }

  return { read, update };
}
export type SiteOps = ReturnType<typeof createSiteOps>;
