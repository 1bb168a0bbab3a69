import type { Express, NextFunction, Request, Response } from 'express';
import busboy from 'busboy';
import { FEEDBACK_LIMITS, FEEDBACK_PATHS, feedbackCalls, opsFeedbackCalls, ZFeedbackAnswerBody, ZFeedbackFields } from '@portal/contracts/api/feedback';
import type { Db } from '../../db/db.ts';
import { authorize, mountCall, refuseNul, zodDetails } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { Operators } from '../ops/operators.ts';
import { createOpsRouter } from '../ops/ops-router.ts';
import { realMember } from '../wallet/wallet-routes.ts';
import { checkImage } from './image-check.ts';
import type { Feedback, FeedbackImageFile } from './feedback-service.ts';

const INVALID_IMAGES = () => new AppError(ErrorCode.IMAGE_INVALID);

/**
 * Read the multipart feedback: the `content` field and up to 3 `images` of at most 5 MB each, every
 * image checked by its bytes (checkImage). Too many or too large files, another file field, a file
 * that is not really a png or jpg, or a body that is not multipart: a 4xx, nothing stored.
 */
export function readFeedback(req: Request): Promise<{ fields: Record<string, string>; images: FeedbackImageFile[] }> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: { files: FEEDBACK_LIMITS.maxFiles, fileSize: FEEDBACK_LIMITS.maxBytes + 1, fields: 4, fieldSize: 2048, parts: 8 },
      });
    } catch {
      return reject(new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Send multipart/form-data'));
    }
    const fields: Record<string, string> = {};
    const buffers: Buffer[] = [];
    let failure: AppError | null = null;
    const fail = (e: AppError) => {
      failure ??= e;
    };
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new AppError(ErrorCode.VALIDATION, `Field ${name} is too long`, [{ path: name, message: 'too long' }]));
      // A field sent twice is refused: keeping either value would check one and store the other's place.
      if (Object.hasOwn(fields, name)) fail(new AppError(ErrorCode.VALIDATION, `Field ${name} is sent more than once`, [{ path: name, message: 'sent more than once' }]));
      fields[name] = value;
    });
    bb.on('file', (name, stream) => {
      if (name !== FEEDBACK_LIMITS.field) {
        fail(new AppError(ErrorCode.IMAGE_INVALID, `Unexpected file field ${name}`));
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => fail(new AppError(ErrorCode.IMAGE_INVALID, 'An image is larger than 5 MB')));
      stream.on('end', () => {
        if ((stream as unknown as { truncated?: boolean }).truncated) return;
        const data = Buffer.concat(chunks);
        // An empty file input (nothing chosen) is no image.
        if (data.length > 0) buffers.push(data);
      });
    });
    bb.on('filesLimit', () => fail(new AppError(ErrorCode.IMAGE_INVALID, 'At most 3 images')));
    bb.on('fieldsLimit', () => fail(new AppError(ErrorCode.VALIDATION, 'Too many fields')));
    bb.on('partsLimit', () => fail(new AppError(ErrorCode.VALIDATION, 'Too many parts')));
    bb.on('error', () => reject(new AppError(ErrorCode.BAD_REQUEST, 'Malformed multipart body')));
    bb.on('close', () => {
      if (failure) return reject(failure);
      // Checked one after the other: a PNG is inflated to verify it, no need to do three at once.
      (async () => {
        const images: FeedbackImageFile[] = [];
        for (const data of buffers) {
          const v = await checkImage(data);
          if (!v.ok) throw new AppError(ErrorCode.IMAGE_INVALID, `Images must be png or jpg (${v.reason})`);
          images.push({ ...v.image, data });
        }
        return images;
      })().then((images) => resolve({ fields, images }), reject);
    });
    req.on('aborted', () => reject(new AppError(ErrorCode.BAD_REQUEST)));
    req.pipe(bb);
  });
}

const positive = (v: unknown) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0) throw new AppError(ErrorCode.NOT_FOUND);
  return n;
};
const imageIndex = (v: unknown) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0 || n >= FEEDBACK_LIMITS.maxFiles) throw new AppError(ErrorCode.NOT_FOUND);
  return n;
};
const IMAGE_HEADERS = (type: string) => ({
  'Content-Type': type, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, no-store', 'Content-Disposition': 'inline',
  // An image answered alone: nothing in it runs, whatever a browser makes of it.
  'Content-Security-Policy': "default-src 'none'; sandbox",
});

/** The player's feedback calls, inside the /wps router (merchant and session resolved). */
export function mountFeedbackRoutes(app: Express, deps: { feedback: Feedback }, opts: { checkResponses: boolean }) {
  const { feedback } = deps;
  app.put(FEEDBACK_PATHS.send, async (req: Request, res: Response, next: NextFunction) => {
    try {
      authorize({ auth: true }, req.ctx);
      const s = realMember(req.ctx);
      if (!req.is('multipart/form-data')) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Send multipart/form-data');
      const { fields, images } = await readFeedback(req);
      // Multipart fields pass no JSON body parser's NUL check: PostgreSQL refused a NUL in the text (a 500).
      refuseNul(fields);
      const f = ZFeedbackFields.safeParse(fields);
      if (!f.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid fields', zodDetails(f.error));
      const value = await feedback.send(req.ctx.merchant.code, s.memberId, f.data.content, images);
      res.json({ success: true, value });
    } catch (err) {
      // The rest of a refused upload is not read: close the connection rather than drain megabytes.
      if (!req.complete) res.set('Connection', 'close');
      next(err);
    }
  });
  mountCall(app, feedbackCalls.list, async ({ ctx, query }) => feedback.list(realMember(ctx).memberId, query.pageNo, query.pageSize), opts);
  app.get(FEEDBACK_PATHS.image, async (req: Request, res: Response, next: NextFunction) => {
    try {
      authorize({ auth: true }, req.ctx);
      const s = realMember(req.ctx);
      const img = await feedback.image(req.ctx.merchant.code, s.memberId, positive(req.params.id), imageIndex(req.params.n));
      if (!img) throw new AppError(ErrorCode.NOT_FOUND);
      res.set(IMAGE_HEADERS(img.content_type)).end(Buffer.from(img.data));
    } catch (err) {
      next(err);
    }
  });
}

const OPS_FEEDBACK = '/ops/api/feedback';

/** Operator feedback calls under /ops/api/feedback: list (feedback.read), answer once (feedback.answer), images. */
export function mountFeedbackOps(app: Express, deps: { db: Db; feedback: Feedback; merchants: MerchantDirectory; operators: Operators; checkResponses: boolean }) {
  const ops = createOpsRouter(deps, { prefix: OPS_FEEDBACK });
  const { answer, image } = opsFeedbackCalls;
  ops.call(opsFeedbackCalls.list, 'feedback.read', async ({ ctx, query }) => deps.feedback.opsList(ctx.merchant.code, query));
  ops.router.post('/:id/answer', ops.route(async (req) => {
    const { operator } = await ops.gate(req, 'feedback.answer', answer.path);
    const id = ops.idOf(req);
    return deps.feedback.answer(operator, id, ops.parse(ZFeedbackAnswerBody, req.body).answer);
  }, answer));
  ops.router.get('/:id/images/:n', ops.handle(async (req, res) => {
    const { operator } = await ops.gate(req, 'feedback.read', image.path);
    const img = await deps.feedback.image(operator.merchantCode, null, ops.idOf(req), imageIndex(req.params.n));
    if (!img) throw new AppError(ErrorCode.NOT_FOUND);
    res.set(IMAGE_HEADERS(img.content_type)).end(Buffer.from(img.data));
  }));
  ops.mount(app);
}
