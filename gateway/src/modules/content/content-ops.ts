import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { contentImageUrl } from '@portal/contracts/api/content';
import type {
  TOpsAnnouncement, TOpsArticle, TOpsBanner, TOpsCampaign, TOpsHelp, ZOpsAnnouncementBody, ZOpsArticleBody, ZOpsBannerBody, ZOpsCampaignBody, ZOpsHelpBody,
} from '@portal/contracts/api/ops-content';
import { CONTENT_IMAGE_MAX_BYTES } from '@portal/contracts/api/ops-content';
import { TRIAL_TYPE } from '@portal/contracts/domain/constants';
import { MESSAGE_CATEGORIES, cacheAudience, merchantAudience, messageCategoryOf, userAudience, type ContentScope, type MessageCategory } from '@portal/contracts/events/events';
import type { Db, Tx } from '../../db/db.ts';
import { emitEvents, type NewEvent } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { audit, type Operator } from '../ops/operators.ts';
import { notExcludedSql } from '../rg/rg-service.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { MessageKind } from '../wallet/messages.ts';
import { iso } from '../../db/iso.ts';

type Part = 'announcements' | 'banners' | 'help' | 'news';
const SCOPE_OF: Record<Part, ContentScope | null> = { announcements: 'content', banners: 'content', help: 'help', news: null };

/**
 * What players see changed: every node drops the bootstrap cache entries of that scope
 * (`content.changed` on `cache:{code}`), and every open page of the merchant re-reads it
 * (`content.published` on `merchant:{code}`), both written in the change's transaction.
 */
async function announce(tx: Tx, merchant: string, part: Part) {
  const events: NewEvent[] = [];
  const scope = SCOPE_OF[part];
  if (scope) events.push({ audience: cacheAudience(merchant), type: 'content.changed', payload: { scopes: [scope] } });
  events.push({ audience: merchantAudience(merchant), type: 'content.published', payload: { parts: [part] } });
  await emitEvents(tx, merchant, events);
}

/** png, jpeg or webp by their magic bytes, whatever the upload claims. */
export function sniffContentImage(data: Buffer): 'image/png' | 'image/jpeg' | 'image/webp' | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 12 && data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}


type AnnRow = {
  group_id: string | number; kind: 'PL' | 'PU' | 'PR'; language: string; title: string; content: string; promotion_type: string | null;
  execution: 'A' | 'B' | 'F' | null; start_at: Date | string; end_at: Date | string | null; sort: number; published: boolean;
};
type BannerRow = {
  id: string | number; grp: TOpsBanner['group']; url: string; image_id: string | number | null; title: string; title_ty: string;
  linkage_type: TOpsBanner['linkageType']; linkage: string | null; sort: number; active: boolean;
};
type ArticleRow = {
  id: string | number; title_en: string; summary_en: string; body_en: string; title_ty: string; summary_ty: string; body_ty: string;
  cover_image_id: string | number | null; published: boolean; published_at: Date | string | null;
};

function toAnnouncements(rows: AnnRow[]): TOpsAnnouncement[] {
  const byGroup = new Map<string, AnnRow[]>();
  for (const r of rows) byGroup.set(String(r.group_id), [...(byGroup.get(String(r.group_id)) ?? []), r]);
  return [...byGroup.entries()].map(([id, rs]) => {
    const en = rs.find((r) => r.language === 'EN') ?? rs[0]!;
    const ty = rs.find((r) => r.language === 'TY');
    return {
      id: Number(id), kind: en.kind, execution: en.execution, promotionType: en.promotion_type, startAt: iso(en.start_at)!, endAt: iso(en.end_at),
      sort: en.sort, published: en.published, en: { title: en.title, content: en.content }, ty: { title: ty?.title ?? '', content: ty?.content ?? '' },
    };
  });
}
const toBanner = (r: BannerRow): TOpsBanner => ({
  id: Number(r.id), group: r.grp, url: r.image_id !== null ? contentImageUrl(r.image_id) : r.url, imageId: r.image_id === null ? null : Number(r.image_id),
  titleEn: r.title, titleTy: r.title_ty, linkageType: r.linkage_type, linkage: r.linkage, sort: r.sort, published: r.active,
});
const toArticle = (r: ArticleRow): TOpsArticle => ({
  id: Number(r.id), published: r.published, publishedAt: iso(r.published_at), coverImageId: r.cover_image_id === null ? null : Number(r.cover_image_id),
  en: { title: r.title_en, summary: r.summary_en, body: r.body_en }, ty: { title: r.title_ty, summary: r.summary_ty, body: r.body_ty },
});

/** How many marketing messages one event batch carries (one statement per batch). */
const EVENT_BATCH = 500;

/**
 * An announcement starts or ends at its scheduled time with nobody changing anything: at each future
 * edge a job (the PostgreSQL queue, once across nodes) announces the announcements again, so every
 * node's bootstrap cache and every open page read them anew (an open page kept an ended notice and
 * never showed one that started).
 */
export const ANNOUNCEMENT_EDGE_JOB = 'content.announcement.edge';

async function scheduleEdges(tx: Tx, jobs: JobQueue | undefined, merchant: string, id: number, b: { startAt: string; endAt: string | null; published: boolean }) {
  if (!jobs || !b.published) return;
  const now = Date.now();
  for (const edge of [b.startAt, b.endAt]) {
    if (edge === null) continue;
    const at = new Date(edge);
    if (at.getTime() <= now) continue;
    await jobs.enqueue(ANNOUNCEMENT_EDGE_JOB, { merchant }, { key: `${merchant}:${id}:${at.toISOString()}`, runAt: at }, tx);
  }
}

export function registerContentJobs(jobs: JobQueue, db: Db) {
  jobs.define<{ merchant: string }>(ANNOUNCEMENT_EDGE_JOB, async (job) => {
    await db.tx((tx) => announce(tx, job.payload.merchant, 'announcements'));
  });
}

export function createContentOps(db: Db, jobs?: JobQueue) {
  // ---- announcements ----
  async function announcements(merchant: string) {
    const r = await db.query<AnnRow>(
      `SELECT coalesce(group_id, id) AS group_id, kind, language, title, content, promotion_type, execution, start_at, end_at, sort, published
       FROM announcements WHERE merchant_code = $1 AND kind IN ('PL', 'PU', 'PR') ORDER BY kind, sort, coalesce(group_id, id), language`, [merchant]);
    return { list: toAnnouncements(r.rows) };
  }
  async function oneAnnouncement(q: Tx | Db, merchant: string, id: number, lock = false) {
    const r = await q.query<AnnRow>(
      `SELECT coalesce(group_id, id) AS group_id, kind, language, title, content, promotion_type, execution, start_at, end_at, sort, published
       FROM announcements WHERE merchant_code = $1 AND coalesce(group_id, id) = $2 ORDER BY language${lock ? ' FOR UPDATE' : ''}`, [merchant, id]);
    return r.rows.length ? toAnnouncements(r.rows)[0]! : null;
  }
  async function writeAnnouncementRows(tx: Tx, merchant: string, id: number | null, b: z.infer<typeof ZOpsAnnouncementBody>): Promise<number> {
    const cols = [merchant, b.kind, b.promotionType, b.execution, b.startAt, b.endAt, b.sort, b.published];
    let group = id;
    if (group === null) {
      const r = await tx.query<{ id: string }>(
        `INSERT INTO announcements (merchant_code, kind, language, title, content, promotion_type, execution, start_at, end_at, sort, published)
         VALUES ($1, $2, 'EN', $9, $10, $3, $4, $5, $6, $7, $8) RETURNING id`, [...cols, b.en.title, b.en.content]);
      group = Number(r.rows[0]!.id);
      await tx.query('UPDATE announcements SET group_id = id WHERE id = $1', [group]);
    } else {
      await tx.query('DELETE FROM announcements WHERE merchant_code = $1 AND coalesce(group_id, id) = $2 AND language NOT IN (\'EN\', \'TY\')', [merchant, group]);
      await tx.query(
        `UPDATE announcements SET kind = $2, promotion_type = $3, execution = $4, start_at = $5, end_at = $6, sort = $7, published = $8, title = $9, content = $10
         WHERE merchant_code = $1 AND coalesce(group_id, id) = $11 AND language = 'EN'`, [...cols, b.en.title, b.en.content, group]);
    }
    await tx.query('DELETE FROM announcements WHERE merchant_code = $1 AND coalesce(group_id, id) = $2 AND language = \'TY\'', [merchant, group]);
    if (b.ty.title || b.ty.content) {
      await tx.query(
        `INSERT INTO announcements (merchant_code, kind, language, title, content, promotion_type, execution, start_at, end_at, sort, published, group_id)
         VALUES ($1, $2, 'TY', $9, $10, $3, $4, $5, $6, $7, $8, $11)`, [...cols, b.ty.title, b.ty.content, group]);
    }
    return group;
  }
  async function createAnnouncement(op: Operator, merchant: string, b: z.infer<typeof ZOpsAnnouncementBody>) {
    return db.tx(async (tx) => {
      const id = await writeAnnouncementRows(tx, merchant, null, b);
      const after = (await oneAnnouncement(tx, merchant, id))!;
      await audit(tx, op, 'announcement.create', { type: 'announcement', id }, undefined, after);
      await announce(tx, merchant, 'announcements');
      await scheduleEdges(tx, jobs, merchant, id, b);
      return after;
    });
  }
  async function updateAnnouncement(op: Operator, merchant: string, id: number, b: z.infer<typeof ZOpsAnnouncementBody>) {
    return db.tx(async (tx) => {
      const before = await oneAnnouncement(tx, merchant, id, true);
      if (!before) throw new AppError(ErrorCode.NOT_FOUND);
      await writeAnnouncementRows(tx, merchant, id, b);
      const after = (await oneAnnouncement(tx, merchant, id))!;
      await audit(tx, op, 'announcement.update', { type: 'announcement', id }, before, after);
      await announce(tx, merchant, 'announcements');
      await scheduleEdges(tx, jobs, merchant, id, b);
      return after;
    });
  }
  async function deleteAnnouncement(op: Operator, merchant: string, id: number) {
    return db.tx(async (tx) => {
      const before = await oneAnnouncement(tx, merchant, id, true);
      if (!before) throw new AppError(ErrorCode.NOT_FOUND);
      await tx.query('DELETE FROM announcements WHERE merchant_code = $1 AND coalesce(group_id, id) = $2', [merchant, id]);
      await audit(tx, op, 'announcement.delete', { type: 'announcement', id }, before, undefined);
      await announce(tx, merchant, 'announcements');
      return { deleted: true as const };
    });
  }

  // ---- images and banners ----
  async function uploadImage(op: Operator, merchant: string, data: Buffer) {
    if (data.length === 0) throw new AppError(ErrorCode.VALIDATION, 'Send the image bytes as the body');
    if (data.length > CONTENT_IMAGE_MAX_BYTES) throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'Images are at most 2 MB');
    const type = sniffContentImage(data);
    if (!type) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Images must be png, jpg or webp');
    const sha = createHash('sha256').update(data).digest('hex');
    return db.tx(async (tx) => {
      const r = await tx.query<{ id: string }>(
        'INSERT INTO content_images (merchant_code, content_type, data, bytes, sha256, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
        [merchant, type, data, data.length, sha, op.id]);
      const id = Number(r.rows[0]!.id);
      await audit(tx, op, 'content.image.upload', { type: 'content_image', id }, undefined, { contentType: type, bytes: data.length, sha256: sha });
      return { id, url: contentImageUrl(id), contentType: type, bytes: data.length };
    });
  }
  /** The image of field `path` (a banner's imageId, an article's coverImageId) was uploaded to this merchant. */
  async function assertImage(tx: Tx, merchant: string, id: number | null, path: 'imageId' | 'coverImageId') {
    if (id === null) return;
    const r = await tx.query('SELECT 1 FROM content_images WHERE id = $1 AND merchant_code = $2', [id, merchant]);
    if (!r.rows.length) throw new AppError(ErrorCode.VALIDATION, 'Unknown image', [{ path, message: 'Upload the image first' }]);
  }
  async function banners(merchant: string) {
    const r = await db.query<BannerRow>('SELECT * FROM banners WHERE merchant_code = $1 ORDER BY grp, sort, id', [merchant]);
    return { list: r.rows.map(toBanner) };
  }
  async function saveBanner(op: Operator, merchant: string, id: number | null, b: z.infer<typeof ZOpsBannerBody>) {
    return db.tx(async (tx) => {
      if (b.imageId === null && id === null) throw new AppError(ErrorCode.VALIDATION, 'A new banner needs its image', [{ path: 'imageId', message: 'A new banner needs its image' }]);
      if (b.imageId !== null) await assertImage(tx, merchant, b.imageId, 'imageId');
      const cur = id === null ? undefined : (await tx.query<BannerRow>('SELECT * FROM banners WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, merchant])).rows[0];
      if (id !== null && !cur) throw new AppError(ErrorCode.NOT_FOUND);
      // No new image: the banner keeps its picture.
      const url = b.imageId !== null ? contentImageUrl(b.imageId) : cur!.url;
      const imageId = b.imageId ?? cur?.image_id ?? null;
      const args = [merchant, b.group, url, b.titleEn, b.titleTy, imageId, b.linkageType, b.linkage, b.sort, b.published];
      let before: TOpsBanner | undefined;
      let row: BannerRow;
      if (id === null) {
        row = (await tx.query<BannerRow>(
          `INSERT INTO banners (merchant_code, grp, url, title, title_ty, image_id, linkage_type, linkage, sort, active)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`, args)).rows[0]!;
      } else {
        before = toBanner(cur!);
        row = (await tx.query<BannerRow>(
          `UPDATE banners SET grp = $2, url = $3, title = $4, title_ty = $5, image_id = $6, linkage_type = $7, linkage = $8, sort = $9, active = $10
           WHERE merchant_code = $1 AND id = $11 RETURNING *`, [...args, id])).rows[0]!;
      }
      const after = toBanner(row);
      await audit(tx, op, id === null ? 'banner.create' : 'banner.update', { type: 'banner', id: after.id }, before, after);
      await announce(tx, merchant, 'banners');
      return after;
    });
  }
  async function deleteBanner(op: Operator, merchant: string, id: number) {
    return db.tx(async (tx) => {
      const cur = (await tx.query<BannerRow>('DELETE FROM banners WHERE id = $1 AND merchant_code = $2 RETURNING *', [id, merchant])).rows[0];
      if (!cur) throw new AppError(ErrorCode.NOT_FOUND);
      await audit(tx, op, 'banner.delete', { type: 'banner', id }, toBanner(cur), undefined);
      await announce(tx, merchant, 'banners');
      return { deleted: true as const };
    });
  }

  // ---- help centre ----
  async function help(merchant: string, q: Tx | Db = db) {
    const r = await q.query<{ anchor: string; language: string; title: string; content: string; sort: number }>(
      'SELECT anchor, language, title, content, sort FROM help_items WHERE merchant_code = $1 ORDER BY sort, anchor, language', [merchant]);
    const by = new Map<string, TOpsHelp>();
    for (const h of r.rows) {
      const cur = by.get(h.anchor) ?? { anchor: h.anchor, sort: h.sort, en: { title: '', content: '' }, ty: { title: '', content: '' } };
      if (h.language === 'EN') cur.en = { title: h.title, content: h.content };
      if (h.language === 'TY') cur.ty = { title: h.title, content: h.content };
      by.set(h.anchor, cur);
    }
    return { list: [...by.values()] };
  }
  async function saveHelp(op: Operator, merchant: string, b: z.infer<typeof ZOpsHelpBody>) {
    return db.tx(async (tx) => {
      // One topic per anchor at a time: two "New" saves of one anchor would both find it free.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`help:${merchant}:${b.anchor}`]);
      const before = (await help(merchant, tx)).list.find((h) => h.anchor === b.anchor);
      if (b.create && before) throw new AppError(ErrorCode.CONFLICT, 'A help topic with this anchor exists', [{ path: 'anchor', message: 'in use' }]);
      for (const [lang, t] of [['EN', b.en], ['TY', b.ty]] as const) {
        await tx.query(
          `INSERT INTO help_items (merchant_code, language, anchor, title, content, sort) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (merchant_code, language, anchor) DO UPDATE SET title = EXCLUDED.title, content = EXCLUDED.content, sort = EXCLUDED.sort`,
          [merchant, lang, b.anchor, t.title, t.content, b.sort]);
      }
      const after: TOpsHelp = { anchor: b.anchor, sort: b.sort, en: b.en, ty: b.ty };
      await audit(tx, op, before ? 'help.update' : 'help.create', { type: 'help', id: b.anchor }, before, after);
      await announce(tx, merchant, 'help');
      return after;
    });
  }
  async function deleteHelp(op: Operator, merchant: string, anchor: string) {
    return db.tx(async (tx) => {
      const r = await tx.query('DELETE FROM help_items WHERE merchant_code = $1 AND anchor = $2 RETURNING language', [merchant, anchor]);
      if (!r.rows.length) throw new AppError(ErrorCode.NOT_FOUND);
      await audit(tx, op, 'help.delete', { type: 'help', id: anchor }, { anchor }, undefined);
      await announce(tx, merchant, 'help');
      return { deleted: true as const };
    });
  }

  // ---- news and blog ----
  async function articles(merchant: string) {
    const r = await db.query<ArticleRow>('SELECT * FROM articles WHERE merchant_code = $1 ORDER BY coalesce(published_at, created_at) DESC, id DESC', [merchant]);
    return { list: r.rows.map(toArticle) };
  }
  async function saveArticle(op: Operator, merchant: string, id: number | null, b: z.infer<typeof ZOpsArticleBody>) {
    return db.tx(async (tx) => {
      await assertImage(tx, merchant, b.coverImageId, 'coverImageId');
      const args = [merchant, b.en.title, b.en.summary, b.en.body, b.ty.title, b.ty.summary, b.ty.body, b.coverImageId, b.published];
      let before: TOpsArticle | undefined;
      let row: ArticleRow;
      if (id === null) {
        row = (await tx.query<ArticleRow>(
          `INSERT INTO articles (merchant_code, title_en, summary_en, body_en, title_ty, summary_ty, body_ty, cover_image_id, published, published_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $9 THEN now() END) RETURNING *`, args)).rows[0]!;
      } else {
        const cur = (await tx.query<ArticleRow>('SELECT * FROM articles WHERE id = $1 AND merchant_code = $2 FOR UPDATE', [id, merchant])).rows[0];
        if (!cur) throw new AppError(ErrorCode.NOT_FOUND);
        before = toArticle(cur);
        // The first publication dates the article; later edits keep its date.
        row = (await tx.query<ArticleRow>(
          `UPDATE articles SET title_en = $2, summary_en = $3, body_en = $4, title_ty = $5, summary_ty = $6, body_ty = $7, cover_image_id = $8, published = $9,
             published_at = CASE WHEN $9 THEN coalesce(published_at, now()) ELSE published_at END, updated_at = now()
           WHERE merchant_code = $1 AND id = $10 RETURNING *`, [...args, id])).rows[0]!;
      }
      const after = toArticle(row);
      await audit(tx, op, id === null ? 'article.create' : 'article.update', { type: 'article', id: after.id }, before, after);
      await announce(tx, merchant, 'news');
      return after;
    });
  }
  async function deleteArticle(op: Operator, merchant: string, id: number) {
    return db.tx(async (tx) => {
      const cur = (await tx.query<ArticleRow>('DELETE FROM articles WHERE id = $1 AND merchant_code = $2 RETURNING *', [id, merchant])).rows[0];
      if (!cur) throw new AppError(ErrorCode.NOT_FOUND);
      await audit(tx, op, 'article.delete', { type: 'article', id }, toArticle(cur), undefined);
      await announce(tx, merchant, 'news');
      return { deleted: true as const };
    });
  }

  // ---- marketing messages ----
  /**
   * One message per player of the segment, in one transaction with its `message.received` events.
   * Left out always: self-excluded and cooling-off players (and every other exclusion in force; the
   * RG module's exclusion condition), disabled accounts and trial accounts.
   */
  async function sendCampaign(op: Operator, merchant: { code: string; trialTypes: number[] }, b: z.infer<typeof ZOpsCampaignBody>): Promise<TOpsCampaign> {
    const texts = { EN: b.en, TY: b.ty };
    const segmentSql = b.segment === 'depositors'
      ? `AND EXISTS (SELECT 1 FROM deposits d WHERE d.member_id = m.id AND d.status = 'paid')`
      : b.segment === 'never_deposited' ? `AND NOT EXISTS (SELECT 1 FROM deposits d WHERE d.member_id = m.id AND d.status = 'paid')`
        : b.segment === 'accounts' ? 'AND m.account_lower = ANY($3::text[])' : '';
    const base = `FROM members m WHERE m.merchant_code = $1 AND m.status = 'active' AND NOT (m.type = ANY($2::int[])) ${segmentSql}`;
    const args: unknown[] = [merchant.code, [TRIAL_TYPE, ...merchant.trialTypes]];
    if (b.segment === 'accounts') args.push([...new Set(b.accounts!.map((a) => a.toLowerCase()))]);
    if (b.segment === 'accounts') {
      // An account the merchant does not have is a mistake to show, not a recipient to skip silently
      // (a campaign to 'nosuchplayer' answered recipients 0). Disabled, trial and excluded ones are counted as skipped.
      const asked = args[2] as string[];
      const known = new Set((await db.query<{ a: string }>('SELECT account_lower AS a FROM members WHERE merchant_code = $1 AND account_lower = ANY($2::text[])', [merchant.code, asked])).rows.map((r) => r.a));
      const unknown = asked.filter((a) => !known.has(a));
      if (unknown.length) {
        throw new AppError(ErrorCode.VALIDATION, `Unknown accounts: ${unknown.slice(0, 20).join(', ')}${unknown.length > 20 ? ', …' : ''}`, [{ path: 'accounts', message: `Unknown accounts: ${unknown.slice(0, 20).join(', ')}${unknown.length > 20 ? ', …' : ''}` }]);
      }
    }
    return db.tx(async (tx) => {
      const counts = (await tx.query<{ matched: number; excluded: number }>(
        `SELECT count(*)::int AS matched, count(*) FILTER (WHERE NOT ${notExcludedSql('m.id')})::int AS excluded ${base}`, args)).rows[0]!;
      const c = (await tx.query<{ id: string; created_at: Date | string }>(
        `INSERT INTO message_campaigns (merchant_code, segment, texts, recipients, skipped_excluded, operator_id, operator_username)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, created_at`,
        [merchant.code, b.segment, JSON.stringify(texts), counts.matched - counts.excluded, counts.excluded, op.id, op.username])).rows[0]!;
      const sent = await tx.query<{ id: string; member_id: string }>(
        `INSERT INTO messages (merchant_code, member_id, kind, title, params, texts, campaign_id)
         SELECT m.merchant_code, m.id, 'marketing', 'message_marketing', '{}'::jsonb, $${args.length + 1}::jsonb, $${args.length + 2}
         ${base} AND ${notExcludedSql('m.id')} ORDER BY m.id RETURNING id, member_id`,
        [...args, JSON.stringify(texts), Number(c.id)]);
      for (let i = 0; i < sent.rows.length; i += EVENT_BATCH) {
        const batch = sent.rows.slice(i, i + EVENT_BATCH);
        // Each recipient's unread counts after the new message, one grouped query per batch.
        const u = await tx.query<{ member_id: string; kind: MessageKind; n: number }>(
          'SELECT member_id, kind, count(*)::int AS n FROM messages WHERE member_id = ANY($1::bigint[]) AND read_at IS NULL GROUP BY member_id, kind',
          [batch.map((m) => m.member_id)]);
        const unreadBy = new Map<string, { count: number; byCategory: Record<MessageCategory, number> }>();
        for (const row of u.rows) {
          const cur = unreadBy.get(String(row.member_id)) ?? { count: 0, byCategory: Object.fromEntries(MESSAGE_CATEGORIES.map((k) => [k, 0])) as Record<MessageCategory, number> };
          cur.count += row.n;
          cur.byCategory[messageCategoryOf(row.kind)] += row.n;
          unreadBy.set(String(row.member_id), cur);
        }
        const events: NewEvent[] = [];
        for (const m of batch) {
          const unread = unreadBy.get(String(m.member_id))!;
          events.push({
            audience: userAudience(m.member_id), type: 'message.received',
            payload: { messageId: String(m.id), kind: 'marketing', title: 'message_marketing', unreadCount: unread.count, unreadByCategory: unread.byCategory },
          });
        }
        await emitEvents(tx, merchant.code, events);
      }
      const value: TOpsCampaign = {
        id: Number(c.id), segment: b.segment, en: b.en, ty: b.ty, recipients: sent.rows.length, skippedExcluded: counts.excluded,
        operator: op.username, createdAt: iso(c.created_at)!,
      };
      await audit(tx, op, 'message.campaign', { type: 'campaign', id: value.id }, undefined, { segment: b.segment, recipients: value.recipients, skippedExcluded: value.skippedExcluded, en: b.en, ty: b.ty });
      return value;
    });
  }
  async function campaigns(merchant: string, pageNo: number, pageSize: number) {
    const r = await db.query<{ id: string; segment: TOpsCampaign['segment']; texts: { EN: TOpsCampaign['en']; TY: TOpsCampaign['ty'] }; recipients: number; skipped_excluded: number; operator_username: string; created_at: Date | string; total: number }>(
      'SELECT *, count(*) OVER ()::int AS total FROM message_campaigns WHERE merchant_code = $1 ORDER BY id DESC LIMIT $2 OFFSET $3', [merchant, pageSize, (pageNo - 1) * pageSize]);
    return {
      list: r.rows.map((c) => ({
        id: Number(c.id), segment: c.segment, en: c.texts.EN, ty: c.texts.TY, recipients: c.recipients, skippedExcluded: c.skipped_excluded, operator: c.operator_username, createdAt: iso(c.created_at)!,
      })),
      pageNo, pageSize, total: r.rows[0]?.total ?? 0,
    };
  }

  return {
    announcements, createAnnouncement, updateAnnouncement, deleteAnnouncement,
    uploadImage, banners, saveBanner, deleteBanner,
    help, saveHelp, deleteHelp,
    articles, saveArticle, deleteArticle,
    sendCampaign, campaigns,
  };
}
export type ContentOps = ReturnType<typeof createContentOps>;
