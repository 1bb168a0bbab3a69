import type { Express } from 'express';
import { contentCalls, type TAnnouncement, type TBanner } from '@portal/contracts/api/content';
import type { Db } from '../../db/db.ts';
import type { BootCache } from '../boot-cache/boot-cache.ts';

type AnnRow = {
  id: number; kind: string; language: string; title: string; content: string;
  promotion_type: string | null; execution: 'A' | 'B' | 'F' | null; start_at: Date | string;
};

function toAnnouncement(r: AnnRow): TAnnouncement {
  const start = r.start_at instanceof Date ? r.start_at : new Date(r.start_at);
  return {
    id: String(r.id), title: r.title, content: r.content, startDateStr: start.toISOString().slice(0, 10),
    promotionType: r.promotion_type, execution: r.execution,
  };
}

/** Pick the asked language where it exists, otherwise EN, per announcement slot (kind + sort). */
function pickLanguage(rows: AnnRow[], lang: string): AnnRow[] {
  const hasLang = rows.some((r) => r.language === lang);
  return rows.filter((r) => r.language === (hasLang ? lang : 'EN'));
}

/**
 * Banners and announcements, from the bootstrap cache: per merchant, language, asked types, and member
 * or visitor (the popups differ; nothing else depends on who asks). An entry ends when the next
 * announcement starts or ends.
 */
export function mountContentRoutes(app: Express, db: Db, cache: BootCache) {
  cache.mount(app, {
    def: contentCalls.announcements, scopes: ['content'], byMember: true,
    key: (query) => `${[...new Set(query.types.split(',').filter(Boolean))].sort().join(',')}|${query.language?.toUpperCase() ?? ''}`,
    load: async ({ merchant, query, variant }) => {
      const types = new Set(query.types.split(',').filter(Boolean));
      const lang = (query.language ?? merchant.brand.defaultLanguage).toUpperCase();
      let banners: TBanner[] = [];
      if (types.has('B')) {
        const r = await db.query<{ id: number; grp: TBanner['group']; url: string; title: string; linkage_type: TBanner['linkageType']; linkage: string | null }>(
          'SELECT id, grp, url, title, linkage_type, linkage FROM banners WHERE merchant_code = $1 AND active ORDER BY grp, sort, id',
          [merchant.code],
        );
        banners = r.rows.map((b) => ({ id: String(b.id), group: b.grp, url: b.url, title: b.title, linkageType: b.linkage_type, linkage: b.linkage }));
      }
      const [r, next] = await Promise.all([
        db.query<AnnRow>(
          `SELECT id, kind, language, title, content, promotion_type, execution, start_at FROM announcements
           WHERE merchant_code = $1 AND language IN ($2, 'EN') AND start_at <= now() AND (end_at IS NULL OR end_at > now())
           ORDER BY sort, id`,
          [merchant.code, lang],
        ),
        // When the answer changes by itself: the next start or end of an announcement.
        db.query<{ ms: number | null }>(
          `SELECT (extract(epoch FROM min(t)) * 1000)::float8 AS ms FROM (
             SELECT min(start_at) AS t FROM announcements WHERE merchant_code = $1 AND start_at > now()
             UNION ALL SELECT min(end_at) FROM announcements WHERE merchant_code = $1 AND end_at > now()) x`,
          [merchant.code],
        ),
      ]);
      const of = (kind: string) => (types.has(kind) ? pickLanguage(r.rows.filter((a) => a.kind === kind), lang) : []);
      // Anonymous visitors get execution A popups; members get B, and F (first login) which the client shows once.
      const popup = of('PU').filter((a) => (variant.member ? a.execution === 'B' || a.execution === 'F' : a.execution === 'A'));
      const ms = next.rows[0]?.ms;
      return {
        value: {
          banners,
          notices: of('PL').map(toAnnouncement),
          popup: popup.map(toAnnouncement),
          promotion: of('PR').map(toAnnouncement),
        },
        ...(ms != null ? { expiresAt: Number(ms) } : {}),
      };
    },
  });
}
