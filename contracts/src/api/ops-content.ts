import { z } from 'zod';
import { isVisibleText } from '../domain/visible-text.ts';
import { ZInstant } from './instant.ts';
import { defineCall, ZNoQuery } from './envelope.ts';
import { ZPageQuery, zPage } from './cashier.ts';
import { BANNER_GROUPS, POPUP_EXECUTIONS } from '../domain/constants.ts';

/**
 * Operator-authored content under /ops/api/content: announcements (notices, popups, promotions),
 * banners, help articles, news, and marketing messages to players. Every text is written in EN and
 * TY: a published item needs both (TY is the brand's default language), a draft may leave TY empty.
 * Every change is audited and, when players see it, drops the bootstrap cache and tells open pages.
 */
const p = (path: string) => `/ops/api/content${path}`;

const title = z.string().trim().max(200);
const text = z.string().trim().max(5000);
/** One language's texts. */
export const ZTexts = z.object({ title, content: text }).strict();
export type TTexts = z.infer<typeof ZTexts>;
export { isVisibleText };
const filled = (t: { title: string; content: string }) => isVisibleText(t.title) && isVisibleText(t.content);

/**
 * A path of this site: "/" then letters, digits and / _ ? = & . -, with no empty segment ("//host" is
 * another site, and "/.//host" resolves to it) and no "." or ".." segment.
 */
export const isSitePath = (s: string) => {
  if (!/^\/[A-Za-z0-9/_?=&.-]*$/.test(s)) return false;
  const path = s.split('?')[0]!;
  return !path.slice(1).split('/').some((seg, i, all) => seg === '.' || seg === '..' || (seg === '' && i < all.length - 1));
};

/** ISO date-time or null (open end). */
const ZWhen = ZInstant;

export const ANNOUNCEMENT_KINDS = ['PL', 'PU', 'PR'] as const;
export const ZOpsAnnouncementBody = z
  .object({
    /** PL player notice (marquee and notice list), PU popup, PR promotion. */
    kind: z.enum(ANNOUNCEMENT_KINDS),
    /** Popups only: A anonymous visitors, B logged-in players, F first login. */
    execution: z.enum(POPUP_EXECUTIONS).nullable().default(null),
    promotionType: z.string().trim().max(32).nullable().default(null),
    startAt: ZWhen,
    endAt: ZWhen.nullable().default(null),
    sort: z.number().int().min(-10_000).max(10_000).default(0),
    published: z.boolean(),
    en: ZTexts,
    ty: ZTexts,
  })
  .strict()
  .refine((b) => filled(b.en), { path: ['en'], message: 'EN title and content are required' })
  .refine((b) => !b.published || filled(b.ty), { path: ['ty'], message: 'TY title and content are required to publish' })
  .refine((b) => (b.kind === 'PU') === (b.execution !== null), { path: ['execution'], message: 'Popups (and only popups) have an execution' })
  .refine((b) => b.endAt === null || Date.parse(b.endAt) > Date.parse(b.startAt), { path: ['endAt'], message: 'The end must be after the start' });
export type TOpsAnnouncementBody = z.infer<typeof ZOpsAnnouncementBody>;
export const ZOpsAnnouncement = z.object({
  id: z.number().int(),
  kind: z.enum(ANNOUNCEMENT_KINDS),
  execution: z.enum(POPUP_EXECUTIONS).nullable(),
  promotionType: z.string().nullable(),
  startAt: z.string(),
  endAt: z.string().nullable(),
  sort: z.number().int(),
  published: z.boolean(),
  en: ZTexts,
  ty: ZTexts,
});
export type TOpsAnnouncement = z.infer<typeof ZOpsAnnouncement>;

export const ZOpsBannerBody = z
  .object({
    group: z.enum(BANNER_GROUPS),
    /**
     * An uploaded image (POST /ops/api/content/images answers its id); null on an update keeps the
     * banner's picture (the seeded banners have one that is no upload). A new banner needs one.
     */
    imageId: z.number().int().positive().nullable(),
    titleEn: title.refine(isVisibleText, 'Required'),
    titleTy: title,
    linkageType: z.enum(['URL', 'ROUTE', 'GAME']).nullable().default(null),
    linkage: z.string().trim().max(500).nullable().default(null),
    sort: z.number().int().min(-10_000).max(10_000).default(0),
    published: z.boolean(),
  })
  .strict()
  .refine((b) => !b.published || isVisibleText(b.titleTy), { path: ['titleTy'], message: 'TY title is required to publish' })
  .refine((b) => (b.linkageType === null) === !b.linkage, { path: ['linkage'], message: 'A link needs its type and target' })
  .refine((b) => b.linkageType !== 'URL' || /^https:\/\//.test(b.linkage ?? ''), { path: ['linkage'], message: 'External links are https' })
  // A route of this site: "/" and a path, never "//host" (another site, which the player pages refuse to follow).
  .refine((b) => b.linkageType !== 'ROUTE' || isSitePath(b.linkage ?? ''), { path: ['linkage'], message: 'A route starts with / and names a page of this site' });
export const ZOpsBanner = z.object({
  id: z.number().int(),
  group: z.enum(BANNER_GROUPS),
  url: z.string(),
  imageId: z.number().int().nullable(),
  titleEn: z.string(),
  titleTy: z.string(),
  linkageType: z.enum(['URL', 'ROUTE', 'GAME']).nullable(),
  linkage: z.string().nullable(),
  sort: z.number().int(),
  published: z.boolean(),
});
export type TOpsBanner = z.infer<typeof ZOpsBanner>;

/** Banner images: png, jpg or webp by their bytes (not their name), at most 2 MB. */
export const CONTENT_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const CONTENT_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const ZContentImage = z.object({ id: z.number().int(), url: z.string(), contentType: z.enum(CONTENT_IMAGE_TYPES), bytes: z.number().int() });

/** A help topic's anchor (used in links to it): lower-case letters, digits and dashes. */
export const HELP_ANCHOR_PATTERN = /^[a-z0-9][a-z0-9-]{0,47}$/;
export const ZHelpAnchor = z.string().trim().regex(HELP_ANCHOR_PATTERN);
export const ZOpsHelpBody = z
  // create: a new topic (its anchor must be free: "New" with a used anchor replaced that topic's texts).
  .object({ anchor: ZHelpAnchor, sort: z.number().int().min(-10_000).max(10_000).default(0), en: ZTexts, ty: ZTexts, create: z.boolean().default(false) })
  .strict()
  .refine((b) => filled(b.en), { path: ['en'], message: 'EN title and content are required' })
  .refine((b) => filled(b.ty), { path: ['ty'], message: 'TY title and content are required' });
export const ZOpsHelp = z.object({ anchor: z.string(), sort: z.number().int(), en: ZTexts, ty: ZTexts });
export type TOpsHelp = z.infer<typeof ZOpsHelp>;

const body = z.string().trim().max(20_000);
export const ZArticleTexts = z.object({ title, summary: z.string().trim().max(500), body }).strict();
export type TArticleTexts = z.infer<typeof ZArticleTexts>;
const articleFilled = (t: TArticleTexts) => isVisibleText(t.title) && isVisibleText(t.body);
export const ZOpsArticleBody = z
  .object({ published: z.boolean(), coverImageId: z.number().int().positive().nullable().default(null), en: ZArticleTexts, ty: ZArticleTexts })
  .strict()
  .refine((b) => articleFilled(b.en), { path: ['en'], message: 'EN title and body are required' })
  .refine((b) => !b.published || articleFilled(b.ty), { path: ['ty'], message: 'TY title and body are required to publish' });
export const ZOpsArticle = z.object({
  id: z.number().int(),
  published: z.boolean(),
  publishedAt: z.string().nullable(),
  coverImageId: z.number().int().nullable(),
  en: ZArticleTexts,
  ty: ZArticleTexts,
});
export type TOpsArticle = z.infer<typeof ZOpsArticle>;

/**
 * Who a marketing message goes to. Self-excluded and cooling-off players are always left out
 * (responsible gaming), whatever the segment.
 */
export const MESSAGE_SEGMENTS = ['all', 'depositors', 'never_deposited', 'accounts'] as const;
export const ZOpsCampaignBody = z
  .object({
    segment: z.enum(MESSAGE_SEGMENTS),
    /** segment 'accounts': the player accounts, at most 500. */
    accounts: z.array(z.string().trim().min(1).max(64)).max(500).optional(),
    en: ZTexts,
    ty: ZTexts,
  })
  .strict()
  .refine((b) => filled(b.en) && filled(b.ty), { message: 'EN and TY title and content are required' })
  .refine((b) => (b.segment === 'accounts') === ((b.accounts?.length ?? 0) > 0), { path: ['accounts'], message: 'Accounts go with the accounts segment only' });
export const ZOpsCampaign = z.object({
  id: z.number().int(),
  segment: z.enum(MESSAGE_SEGMENTS),
  en: ZTexts,
  ty: ZTexts,
  recipients: z.number().int(),
  /** Players the segment matched but who are self-excluded or cooling off: not sent. */
  skippedExcluded: z.number().int(),
  operator: z.string(),
  createdAt: z.string(),
});
export type TOpsCampaign = z.infer<typeof ZOpsCampaign>;

const ok = z.object({ deleted: z.literal(true) });

export const opsContentCalls = {
  announcements: defineCall({ method: 'GET', path: p('/announcements'), auth: true, query: ZNoQuery, value: z.object({ list: z.array(ZOpsAnnouncement) }) }),
  createAnnouncement: defineCall({ method: 'POST', path: p('/announcements'), auth: true, body: ZOpsAnnouncementBody, value: ZOpsAnnouncement }),
  updateAnnouncement: defineCall({ method: 'PUT', path: p('/announcements/:id'), auth: true, body: ZOpsAnnouncementBody, value: ZOpsAnnouncement }),
  deleteAnnouncement: defineCall({ method: 'DELETE', path: p('/announcements/:id'), auth: true, value: ok }),

  banners: defineCall({ method: 'GET', path: p('/banners'), auth: true, query: ZNoQuery, value: z.object({ list: z.array(ZOpsBanner) }) }),
  createBanner: defineCall({ method: 'POST', path: p('/banners'), auth: true, body: ZOpsBannerBody, value: ZOpsBanner }),
  updateBanner: defineCall({ method: 'PUT', path: p('/banners/:id'), auth: true, body: ZOpsBannerBody, value: ZOpsBanner }),
  deleteBanner: defineCall({ method: 'DELETE', path: p('/banners/:id'), auth: true, value: ok }),
  /** The raw image bytes as the request body (any Content-Type); checked by content. Not JSON. */
  uploadImagePath: p('/images'),

  help: defineCall({ method: 'GET', path: p('/help'), auth: true, query: ZNoQuery, value: z.object({ list: z.array(ZOpsHelp) }) }),
  saveHelp: defineCall({ method: 'PUT', path: p('/help'), auth: true, body: ZOpsHelpBody, value: ZOpsHelp }),
  deleteHelp: defineCall({ method: 'DELETE', path: p('/help/:anchor'), auth: true, value: ok }),

  articles: defineCall({ method: 'GET', path: p('/articles'), auth: true, query: ZNoQuery, value: z.object({ list: z.array(ZOpsArticle) }) }),
  createArticle: defineCall({ method: 'POST', path: p('/articles'), auth: true, body: ZOpsArticleBody, value: ZOpsArticle }),
  updateArticle: defineCall({ method: 'PUT', path: p('/articles/:id'), auth: true, body: ZOpsArticleBody, value: ZOpsArticle }),
  deleteArticle: defineCall({ method: 'DELETE', path: p('/articles/:id'), auth: true, value: ok }),

  campaigns: defineCall({ method: 'GET', path: p('/campaigns'), auth: true, query: ZPageQuery, value: zPage(ZOpsCampaign) }),
  sendCampaign: defineCall({ method: 'POST', path: p('/campaigns'), auth: true, body: ZOpsCampaignBody, value: ZOpsCampaign }),
};
