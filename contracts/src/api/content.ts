import { z } from 'zod';
import { defineCall, relayPath } from './envelope.ts';
import { BANNER_GROUPS, POPUP_EXECUTIONS } from '../domain/constants.ts';

export const ZBanner = z.object({
  id: z.string(),
  group: z.enum(BANNER_GROUPS),
  url: z.string(),
  title: z.string(),
  /** When set, a click opens `linkage`: 'URL' (external), 'ROUTE' (in-app path) or 'GAME'. */
  linkageType: z.enum(['URL', 'ROUTE', 'GAME']).nullable(),
  linkage: z.string().nullable(),
});
export type TBanner = z.infer<typeof ZBanner>;

export const ZAnnouncement = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  startDateStr: z.string(),
  promotionType: z.string().nullable(),
  /** Popups only: A anonymous, B logged in, F first login. */
  execution: z.enum(POPUP_EXECUTIONS).nullable(),
});
export type TAnnouncement = z.infer<typeof ZAnnouncement>;

export const ZAnnouncementsQuery = z
  .object({
    types: z.string().max(64).regex(/^[A-Z,]*$/).default('B,PL,PU,PR,H'),
    platform: z.enum(['W', 'M']).default('W'),
    language: z.string().max(8).optional(),
  })
  .strict();

export const ZAnnouncements = z.object({
  banners: z.array(ZBanner),
  notices: z.array(ZAnnouncement),
  popup: z.array(ZAnnouncement),
  promotion: z.array(ZAnnouncement),
});
export type TAnnouncements = z.infer<typeof ZAnnouncements>;

export const contentCalls = {
  announcements: defineCall({
    method: 'GET', path: relayPath('MCSFE_getListAnnouncements'), auth: false, query: ZAnnouncementsQuery, value: ZAnnouncements,
  }),
};

// ---- blog and news (players) ----

/** A news or blog article in the asked language (TY falls back to EN only where TY is empty). */
export const ZArticleSummary = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  /** Cover image URL (an uploaded image), if any. */
  coverUrl: z.string().nullable(),
  publishedAt: z.string(),
});
export type TArticleSummary = z.infer<typeof ZArticleSummary>;
export const ZArticle = ZArticleSummary.extend({ body: z.string() });
export type TArticle = z.infer<typeof ZArticle>;

export const ZNewsQuery = z
  .object({
    language: z.string().max(8).optional(),
    pageNo: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(50).default(10),
  })
  .strict();
export const ZArticleQuery = z.object({ language: z.string().max(8).optional() }).strict();

/** Where uploaded content images are served (public, immutable): GET, the image bytes. */
export const CONTENT_IMAGE_PATH = '/wps/content/images/:id';
export const contentImageUrl = (id: string | number) => `/wps/content/images/${id}`;

export const newsCalls = {
  list: defineCall({
    method: 'GET', path: '/wps/content/news', auth: false, query: ZNewsQuery,
    value: z.object({ list: z.array(ZArticleSummary), pageNo: z.number().int(), pageSize: z.number().int(), total: z.number().int() }),
  }),
  article: defineCall({ method: 'GET', path: '/wps/content/news/:id', auth: false, query: ZArticleQuery, value: ZArticle }),
};
