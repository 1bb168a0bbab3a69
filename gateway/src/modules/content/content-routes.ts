import type { Express, NextFunction, Request, Response } from 'express';
import { CONTENT_IMAGE_PATH, contentCalls, contentImageUrl, newsCalls, type TAnnouncement, type TArticle, type TBanner } from '@portal/contracts/api/content';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { mountCall } from '../../app/http.ts';
import type { BootCache } from '../boot-cache/boot-cache.ts';

export type AnnRow = {
  id: number; group_id: number | string; kind: string; language: string; title: string; content: string;
  promotion_type: string | null; execution: 'A' | 'B' | 'F' | null; start_at: Date | string;
};

/**
 * The announcement as players get it; its date is the start's day on the merchant's clock (GMT+8 in
 * the Philippines), as the rest of the site and the console show times: in UTC an item started
 * 2026-12-06 04:38 read 2026-12-05.
 */
export function toAnnouncement(r: AnnRow, gmtOffsetMinutes: number): TAnnouncement {
  const start = r.start_at instanceof Date ? r.start_at : new Date(r.start_at);
  return {
    id: String(r.group_id), title: r.title, content: r.content, startDateStr: new Date(start.getTime() + gmtOffsetMinutes * 60_000).toISOString().slice(0, 10),
    promotionType: r.promotion_type, execution: r.execution,
  };
}

/**
 * One row per announcement item (its language rows share group_id): the asked language where the
 * item has it, otherwise EN. Order: the EN row's (rows arrive ordered by sort, id).
 */
export function pickLanguage(rows: AnnRow[], lang: string): AnnRow[] {
  const byGroup = new Map<string, AnnRow>();
  for (const r of rows) {
    const g = String(r.group_id);
    const cur = byGroup.get(g);
    if (!cur || (r.language === lang && cur.language !== lang)) byGroup.set(g, r);
  }
  const order = new Map<string, number>();
  rows.forEach((r, i) => {
    const g = String(r.group_id);
    if (!order.has(g) || r.language === 'EN') order.set(g, r.language === 'EN' ? i : (order.get(g) ?? i));
  });
  return [...byGroup.values()].sort((a, b) => order.get(String(a.group_id))! - order.get(String(b.group_id))!);
}

type ArticleRow = {
  id: number | string; title_en: string; summary_en: string; body_en: string; title_ty: string; summary_ty: string; body_ty: string;
  cover_image_id: number | string | null; published_at: Date | string; total?: number;
};
/** An article in the asked language; a TY text left empty (drafts only can) reads as EN. */
function toArticle(r: ArticleRow, lang: string): TArticle {
  const ty = lang === 'TY' && r.title_ty !== '' && r.body_ty !== '';
  const at = r.published_at instanceof Date ? r.published_at : new Date(r.published_at);
  return {
    id: String(r.id),
    title: ty ? r.title_ty : r.title_en,
    summary: ty ? r.summary_ty : r.summary_en,
    body: ty ? r.body_ty : r.body_en,
    coverUrl: r.cover_image_id === null ? null : contentImageUrl(r.cover_image_id),
    publishedAt: at.toISOString(),
  };
}

/**
 * Banners and announcements, from the bootstrap cache: per merchant, language, asked types, and member
 * or visitor (the popups differ; nothing else depends on who asks). An entry ends when the next
 * announcement starts or ends. Drafts (published false) are never shown. Also the news list and
 * articles, and the uploaded content images.
 */
export function mountContentRoutes(app: Express, db: Db, cache: BootCache, opts: { checkResponses: boolean } = { checkResponses: false }) {
  cache.mount(app, {
    def: contentCalls.announcements, scopes: ['content'], byMember: true,
    key: (query) => `${[...new Set(query.types.split(',').filter(Boolean))].sort().join(',')}|${query.language?.toUpperCase() ?? ''}`,
    load: async ({ merchant, query, variant }) => {
      const types = new Set(query.types.split(',').filter(Boolean));
      const lang = (query.language ?? merchant.brand.defaultLanguage).toUpperCase();
      let banners: TBanner[] = [];
      if (types.has('B')) {
        const r = await db.query<{ id: number; grp: TBanner['group']; url: string; title: string; title_ty: string; image_id: number | string | null; linkage_type: TBanner['linkageType']; linkage: string | null }>(
          'SELECT id, grp, url, title, title_ty, image_id, linkage_type, linkage FROM banners WHERE merchant_code = $1 AND active ORDER BY grp, sort, id',
          [merchant.code],
        );
        banners = r.rows.map((b) => ({
          id: String(b.id), group: b.grp, url: b.image_id !== null ? contentImageUrl(b.image_id) : b.url,
          title: lang === 'TY' && b.title_ty ? b.title_ty : b.title, linkageType: b.linkage_type, linkage: b.linkage,
        }));
      }
      const [r, next] = await Promise.all([
        db.query<AnnRow>(
          `SELECT id, coalesce(group_id, id) AS group_id, kind, language, title, content, promotion_type, execution, start_at FROM announcements
           WHERE merchant_code = $1 AND published AND language IN ($2, 'EN') AND start_at <= now() AND (end_at IS NULL OR end_at > now())
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
          notices: of('PL').map((a) => toAnnouncement(a, merchant.brand.gmtOffsetMinutes)),
          popup: popup.map((a) => toAnnouncement(a, merchant.brand.gmtOffsetMinutes)),
          promotion: of('PR').map((a) => toAnnouncement(a, merchant.brand.gmtOffsetMinutes)),
        },
        ...(ms != null ? { expiresAt: Number(ms) } : {}),
      };
    },
  });

  const langOf = (q: { language?: string | undefined }, fallback: string) => (q.language ?? fallback).toUpperCase();
  mountCall(app, newsCalls.list, async ({ ctx, query }) => {
    const r = await db.query<ArticleRow>(
      // Bodies are not listed: their first character is enough to tell an empty TY body.
      `SELECT id, title_en, summary_en, left(body_en, 1) AS body_en, title_ty, summary_ty, left(body_ty, 1) AS body_ty, cover_image_id, published_at,
              count(*) OVER ()::int AS total
       FROM articles WHERE merchant_code = $1 AND published AND published_at <= now() ORDER BY published_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [ctx.merchant.code, query.pageSize, (query.pageNo - 1) * query.pageSize],
    );
    const lang = langOf(query, ctx.merchant.brand.defaultLanguage);
    return {
      list: r.rows.map((a) => {
        const { body: _body, ...summary } = toArticle(a, lang);
        return summary;
      }),
      pageNo: query.pageNo, pageSize: query.pageSize, total: r.rows[0]?.total ?? 0,
    };
  }, opts);
  mountCall(app, newsCalls.article, async ({ ctx, query, req }) => {
    const id = Number(req.params.id);
    if (!/^\d{1,15}$/.test(String(req.params.id)) || !Number.isSafeInteger(id)) throw new AppError(ErrorCode.NOT_FOUND);
    const r = await db.query<ArticleRow>(
      'SELECT * FROM articles WHERE id = $1 AND merchant_code = $2 AND published AND published_at <= now()', [id, ctx.merchant.code]);
    if (!r.rows[0]) throw new AppError(ErrorCode.NOT_FOUND);
    return toArticle(r.rows[0], langOf(query, ctx.merchant.brand.defaultLanguage));
  }, opts);

  // Uploaded images: public and immutable (an image is never changed, only replaced by a new id).
  app.get(CONTENT_IMAGE_PATH, async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (!/^\d{1,15}$/.test(String(req.params.id))) throw new AppError(ErrorCode.NOT_FOUND);
      const r = await db.query<{ content_type: string; data: Uint8Array }>(
        'SELECT content_type, data FROM content_images WHERE id = $1 AND merchant_code = $2', [Number(req.params.id), req.ctx.merchant.code]);
      const img = r.rows[0];
      if (!img) throw new AppError(ErrorCode.NOT_FOUND);
      res.set({ 'Content-Type': img.content_type, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=31536000, immutable' });
      res.end(Buffer.from(img.data));
    } catch (err) {
      next(err);
    }
  });
}
