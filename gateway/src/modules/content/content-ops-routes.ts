import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { z } from 'zod';
import type { CallDef } from '@portal/contracts/api/envelope';
import type { OpsAction } from '@portal/contracts/api/ops';
import { CONTENT_IMAGE_MAX_BYTES, ZHelpAnchor, opsContentCalls } from '@portal/contracts/api/ops-content';
import { LIMITS } from '@portal/contracts/domain/constants';
import type { Db } from '../../db/db.ts';
import { refuseNulInBody, zodDetails } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant, MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { Operator, Operators } from '../ops/operators.ts';
import { gateOperator } from '../ops/ops-routes.ts';
import { createContentOps } from './content-ops.ts';

const PREFIX = '/ops/api/content';
const BEARER = /^Bearer ([A-Za-z0-9_-]{20,128})$/;
type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
type Ctx = { merchant: Merchant; operator: Operator };

/**
 * The content section of the back office under /ops/api/content: the same gate as every operator
 * call (session of this merchant, password changed, authenticator enrolled, the action's roles;
 * a refusal is 403 and audited). Reading needs content.read; changes content.manage; marketing
 * messages messages.send. Mounted before the back office router (its catch-all answers NOT_FOUND).
 */
export function mountContentOps(app: Express, deps: { db: Db; merchants: MerchantDirectory; operators: Operators; checkResponses: boolean }) {
  const ops = createContentOps(deps.db);
  const router = express.Router();

  async function gate(req: Request, action: OpsAction): Promise<Ctx> {
    const header = req.headers['x-merchant-code'];
    const merchant = await deps.merchants.resolve({ host: req.hostname, code: typeof header === 'string' ? header : undefined });
    if (!merchant) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1] ?? null;
    const op = token ? await deps.operators.resolve(token) : null;
    const operator = await gateOperator(deps.db, op && op.merchantCode === merchant.code ? op : null, action, { method: req.method, path: req.originalUrl.split('?', 1)[0] ?? '' });
    return { merchant, operator };
  }

  // The image upload: raw bytes, before the JSON parser (any Content-Type), checked by content.
  router.post(opsContentCalls.uploadImagePath.slice(PREFIX.length), async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { merchant, operator } = await gate(req, 'content.manage');
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > CONTENT_IMAGE_MAX_BYTES) throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'Images are at most 2 MB');
      const data = await readBody(req, CONTENT_IMAGE_MAX_BYTES);
      res.json({ success: true, value: await ops.uploadImage(operator, merchant.code, data) });
    } catch (err) {
      next(err);
    }
  });

  router.use(express.json({ limit: LIMITS.MAX_BODY_BYTES, strict: true }));
  router.use(refuseNulInBody);

  function call<V extends z.ZodType, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
    def: CallDef<Q, B, V>,
    action: OpsAction,
    handler: (i: { query: Infer<Q>; body: Infer<B>; ctx: Ctx; id: number; req: Request }) => Promise<z.infer<V>>,
  ) {
    const method = def.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[method](def.path.slice(PREFIX.length), async (req: Request, res: Response, next: NextFunction) => {
      try {
        const ctx = await gate(req, action);
        const parse = (schema: z.ZodType | undefined, input: unknown, what: string) => {
          if (!schema) return undefined;
          const r = schema.safeParse(input ?? {});
          if (!r.success) throw new AppError(ErrorCode.VALIDATION, `Invalid ${what}`, zodDetails(r.error));
          return r.data;
        };
        const query = parse(def.query, req.query, 'query') as Infer<Q>;
        const body = parse(def.body, req.body, 'body') as Infer<B>;
        const raw = typeof req.params.id === 'string' ? req.params.id : undefined;
        const id = raw === undefined ? 0 : /^\d{1,15}$/.test(raw) ? Number(raw) : -1;
        if (id < 0 || (raw !== undefined && id === 0)) throw new AppError(ErrorCode.NOT_FOUND);
        const value = await handler({ query, body, ctx, id, req });
        if (deps.checkResponses) {
          const check = def.value.safeParse(value);
          if (!check.success) throw new Error(`response of ${def.path} breaks its contract: ${check.error.message}`);
        }
        res.json({ success: true, value });
      } catch (err) {
        next(err);
      }
    });
  }

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

  app.use(PREFIX, router);
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
