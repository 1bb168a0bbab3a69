import type { Express, Request } from 'express';
import { CONTENT_IMAGE_MAX_BYTES, ZHelpAnchor, opsContentCalls } from '@portal/contracts/api/ops-content';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { Operators } from '../ops/operators.ts';
import { createOpsRouter } from '../ops/ops-router.ts';
import { createContentOps } from './content-ops.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';

const PREFIX = '/ops/api/content';

/**
 * The content section of the back office under /ops/api/content: the same gate as every operator
 * call (session of this merchant, password changed, authenticator enrolled, the action's roles;
 * a refusal is 403 and audited). Reading needs content.read; changes content.manage; marketing
 * messages messages.send. Mounted before the back office router (its catch-all answers NOT_FOUND).
 */
export function mountContentOps(app: Express, deps: { db: Db; merchants: MerchantDirectory; operators: Operators; checkResponses: boolean; jobs?: JobQueue }) {
  const ops = createContentOps(deps.db, deps.jobs);
  const section = createOpsRouter(deps, { prefix: PREFIX, deferJson: true, auditUrl: true });

  // The image upload: raw bytes, before the JSON parser (any Content-Type), checked by content.
  section.router.post(opsContentCalls.uploadImagePath.slice(PREFIX.length), section.route(async (req) => {
    const { merchant, operator } = await section.gate(req, 'content.manage');
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > CONTENT_IMAGE_MAX_BYTES) throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'Images are at most 2 MB');
    const data = await readBody(req, CONTENT_IMAGE_MAX_BYTES);
    return ops.uploadImage(operator, merchant.code, data);
  }));

  section.json();
  const { call } = section;

  const c = opsContentCalls;
  call(c.announcements, 'content.read', async ({ ctx }) => ops.announcements(ctx.merchant.code));
  call(c.createAnnouncement, 'content.manage', async ({ ctx, body }) => ops.createAnnouncement(ctx.operator, ctx.merchant.code, body));
  call(c.updateAnnouncement, 'content.manage', async ({ ctx, body, id }) => ops.updateAnnouncement(ctx.operator, ctx.merchant.code, id, body));
  call(c.deleteAnnouncement, 'content.manage', async ({ ctx, id }) => ops.deleteAnnouncement(ctx.operator, ctx.merchant.code, id));

  call(c.banners, 'content.read', async ({ ctx }) => ops.banners(ctx.merchant.code));
  call(c.createBanner, 'content.manage', async ({ ctx, body }) => ops.saveBanner(ctx.operator, ctx.merchant.code, null, body));
  call(c.updateBanner, 'content.manage', async ({ ctx, body, id }) => ops.saveBanner(ctx.operator, ctx.merchant.code, id, body));
  call(c.deleteBanner, 'content.manage', async ({ ctx, id }) => ops.deleteBanner(ctx.operator, ctx.merchant.code, id));

  call(c.help, 'content.read', async ({ ctx }) => ops.help(ctx.merchant.code));
  call(c.saveHelp, 'content.manage', async ({ ctx, body }) => ops.saveHelp(ctx.operator, ctx.merchant.code, body));
  call(c.deleteHelp, 'content.manage', async ({ ctx, req }) => {
    const anchor = ZHelpAnchor.safeParse(req.params.anchor);
    if (!anchor.success) throw new AppError(ErrorCode.NOT_FOUND);
    return ops.deleteHelp(ctx.operator, ctx.merchant.code, anchor.data);
  });

  call(c.articles, 'content.read', async ({ ctx }) => ops.articles(ctx.merchant.code));
  call(c.createArticle, 'content.manage', async ({ ctx, body }) => ops.saveArticle(ctx.operator, ctx.merchant.code, null, body));
  call(c.updateArticle, 'content.manage', async ({ ctx, body, id }) => ops.saveArticle(ctx.operator, ctx.merchant.code, id, body));
  call(c.deleteArticle, 'content.manage', async ({ ctx, id }) => ops.deleteArticle(ctx.operator, ctx.merchant.code, id));

  call(c.campaigns, 'content.read', async ({ ctx, query }) => ops.campaigns(ctx.merchant.code, query.pageNo, query.pageSize));
  call(c.sendCampaign, 'messages.send', async ({ ctx, body }) => ops.sendCampaign(ctx.operator, ctx.merchant, body));

  section.mount(app);
}

/** The request body, at most `max` bytes (413 beyond). */
function readBody(req: Request, max: number): Promise<Buffer> {
  // A body some parser already read (a JSON one) is not an image: nothing is left to read.
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        done = true;
        req.resume();
        reject(new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'Images are at most 2 MB'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) {
        done = true;
        resolve(Buffer.concat(chunks));
      }
    });
    req.on('error', () => {
      if (!done) {
        done = true;
        reject(new AppError(ErrorCode.BAD_REQUEST));
      }
    });
  });
}
