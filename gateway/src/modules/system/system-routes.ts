import { BlockList, isIP } from 'node:net';
import type { Express } from 'express';
import { systemCalls } from '@portal/contracts/api/system';
import { SYSTEM_STATUS } from '@portal/contracts/domain/constants';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { HOST_SLOT, IP_SLOT, type BootCache } from '../boot-cache/boot-cache.ts';

/** Region restriction: exact addresses or CIDR subnets from the merchant's block list. */
export function isBlocked(m: Merchant, ip: string, region?: string | null): boolean {
  if (region && m.blockedRegions.includes(region.toUpperCase())) return true;
  if (!m.blockedIps.length) return false;
  const list = new BlockList();
  for (const entry of m.blockedIps) {
    const [addr, bits] = entry.split('/');
    const family = isIP(addr ?? '');
    if (!family) continue;
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits !== undefined) list.addSubnet(addr!, Number(bits), type);
    else list.addAddress(addr!, type);
  }
  const plain = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const family = isIP(plain);
  if (!family) return false;
  return list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
}

export function systemStatusOf(m: Merchant, ip: string, region?: string | null): 0 | 1 | 2 {
  if (isBlocked(m, ip, region)) return SYSTEM_STATUS.BLOCKED;
  if (m.maintenance) return SYSTEM_STATUS.MAINTENANCE;
  return SYSTEM_STATUS.NORMAL;
}

/**
 * The gate of every player call outside /wps/system and /wps/dev (HTTP, and the socket's grab):
 * maintenance answers MAINTENANCE with the merchant's message, a restricted region REGION_RESTRICTED.
 */
export function assertSystemOpen(m: Merchant, ip: string, region?: string | null): void {
  const status = systemStatusOf(m, ip, region);
  if (status === SYSTEM_STATUS.MAINTENANCE) throw new AppError(ErrorCode.MAINTENANCE, m.maintenanceMessage ?? undefined);
  if (status === SYSTEM_STATUS.BLOCKED) throw new AppError(ErrorCode.REGION_RESTRICTED);
}

/**
 * The system calls, served from the bootstrap cache (boot-cache.ts): the visitor's IP and the host name
 * are slots in the stored bytes, and status and domain route are kept per system status.
 */
export function mountSystemRoutes(app: Express, db: Db, cache: BootCache) {
  cache.setStatusOf(systemStatusOf);
  cache.mount(app, {
    def: systemCalls.status, scopes: [], open: true, byStatus: true,
    load: async ({ merchant, variant }) => ({
      value: {
        systemStatus: variant.status,
        ip: IP_SLOT,
        ...(variant.status === SYSTEM_STATUS.MAINTENANCE && merchant.maintenanceMessage ? { message: merchant.maintenanceMessage } : {}),
      },
    }),
  });

  cache.mount(app, {
    def: systemCalls.whitelabel, scopes: [], open: true,
    load: async ({ merchant }) => ({
      value: {
        merchantCode: merchant.code,
        modules: merchant.modules,
        whitelabelVal: { CHNGPASSVERIF3: merchant.whitelabel.CHNGPASSVERIF3 === 'mobile' ? ('mobile' as const) : ('email' as const) },
        brand: merchant.brand,
        security: { botCheck: merchant.security.botCheck },
      },
    }),
  });

  cache.mount(app, {
    def: systemCalls.domainRoute, scopes: ['site'], open: true, byStatus: true,
    load: async ({ merchant: m, variant }) => {
      const [resources, cs] = await Promise.all([
        db.query<{ url: string; label_name_en: string; resource_type: string; name: string }>(
          'SELECT url, label_name_en, resource_type, name FROM resources WHERE merchant_code = $1 ORDER BY sort, id', [m.code]),
        db.query<{ cs_type: string; title: string; url: string }>(
          'SELECT cs_type, title, url FROM customer_service WHERE merchant_code = $1 ORDER BY sort, id', [m.code]),
      ]);
      return {
        value: {
          info: {
            // The request's host name (or the main domain), lower-cased: spliced in per request.
            domainRoute: HOST_SLOT,
            resources: resources.rows.map((r) => ({
              url: r.url, labelNameEn: r.label_name_en, resourceType: r.resource_type as never, name: r.name,
            })),
            customerService: cs.rows.map((r) => ({ csType: r.cs_type, title: r.title, url: r.url })),
            whitelabelVal: m.whitelabel,
            register: m.modules.DIRECTREG3,
            mainDomain: m.mainDomain,
            analytics: { gtagId: m.siteConfig.gtagId },
            imageCDNs: m.siteConfig.imageCDNs,
            launchGameCDNs: m.siteConfig.launchGameCDNs,
          },
          location: { ip: IP_SLOT },
          maintenance: variant.status === SYSTEM_STATUS.MAINTENANCE,
          regionRestriction: variant.status === SYSTEM_STATUS.BLOCKED,
        },
      };
    },
  });

  cache.mount(app, {
    def: systemCalls.helpCenter, scopes: ['help'], open: true,
    key: (query) => (query.lang ?? 'EN').toUpperCase(),
    load: async ({ merchant, query }) => {
      const lang = (query.lang ?? 'EN').toUpperCase();
      const r = await db.query<{ id: number; anchor: string; title: string; content: string; language: string }>(
        `SELECT id, anchor, title, content, language FROM help_items
         WHERE merchant_code = $1 AND language IN ($2, 'EN') ORDER BY sort, id`,
        [merchant.code, lang],
      );
      // Prefer the asked language per anchor, fall back to EN.
      const byAnchor = new Map<string, (typeof r.rows)[number]>();
      for (const row of r.rows) {
        const prev = byAnchor.get(row.anchor);
        if (!prev || (prev.language !== lang && row.language === lang)) byAnchor.set(row.anchor, row);
      }
      return { value: { list: [...byAnchor.values()].map((x) => ({ id: String(x.id), anchor: x.anchor, title: x.title, content: x.content })) } };
    },
  });
}
