import type { Express } from 'express';
import { contentCalls, type TAnnouncement, type TBanner } from '@portal/contracts/api/content';
import type { Db } from '../../db/db.ts';
import { mountCall } from '../../app/http.ts';

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

export function mountContentRoutes(app: Express, db: Db, opts: { checkResponses: boolean }) {
  mountCall(app, contentCalls.announcements, async ({ ctx, query }) => {
    const types = new Set(query.types.split(',').filter(Boolean));
    const lang = (query.language ?? ctx.merchant.brand.defaultLanguage).toUpperCase();
    let banners: TBanner[] = [];
    if (types.has('B')) {
      const r = await db.query<{ id: number; grp: TBanner['group']; url: string; title: string; linkage_type: TBanner['linkageType']; linkage: string | null }>(
        'SELECT id, grp, url, title, linkage_type, linkage FROM banners WHERE merchant_code = $1 AND active ORDER BY grp, sort, id',
        [ctx.merchant.code],
      );
      banners = r.rows.map((b) => ({ id: String(b.id), group: b.grp, url: b.url, title: b.title, linkageType: b.linkage_type, linkage: b.linkage }));
    }
    const r = await db.query<AnnRow>(
      `SELECT id, kind, language, title, content, promotion_type, execution, start_at FROM announcements
       WHERE merchant_code = $1 AND language IN ($2, 'EN') AND start_at <= now() AND (end_at IS NULL OR end_at > now())
       ORDER BY sort, id`,
      [ctx.merchant.code, lang],
    );
    const of = (kind: string) => (types.has(kind) ? pickLanguage(r.rows.filter((a) => a.kind === kind), lang) : []);
    // Anonymous visitors get execution A popups; members get B, and F (first login) which the client shows once.
    const loggedIn = ctx.session !== null;
    const popup = of('PU').filter((a) => (loggedIn ? a.execution === 'B' || a.execution === 'F' : a.execution === 'A'));
    return {
      banners,
      notices: of('PL').map(toAnnouncement),
      popup: popup.map(toAnnouncement),
      promotion: of('PR').map(toAnnouncement),
    };
  }, opts);
}
