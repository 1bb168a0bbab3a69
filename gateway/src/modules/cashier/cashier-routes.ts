import type { Express, NextFunction, Request, Response } from 'express';
import express from 'express';
import busboy from 'busboy';
import { PROOF_LIMITS, ZConfirmWithdrawalFields, cashierCalls, paymentCallbackPath } from '@portal/contracts/api/cashier';
import type { Db } from '../../db/db.ts';
import { authorize, mountCall, refuseNul, zodDetails } from '../../app/http.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { realMember } from '../wallet/wallet-routes.ts';
import type { Deposits } from './deposits.ts';
import type { ProofFile, Withdrawals } from './withdrawals.ts';
import type { PaymentProvider } from './payment-provider.ts';

type Log = { warn(o: unknown, m?: string): void; info(o: unknown, m?: string): void };

const idParam = (req: Request) => {
  const id = Number(req.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new AppError(ErrorCode.NOT_FOUND);
  return id;
};

/** png or jpeg by their magic bytes, whatever the upload claims. */
export function sniffImage(data: Buffer): ProofFile['contentType'] | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  return null;
}

/**
 * Read a multipart confirmation: small text fields and up to 3 `proof` files of at most 5 MB each.
 * Anything else (too many or too large files, another file field, not multipart) is a 4xx.
 */
export function readConfirmation(req: Request): Promise<{ fields: Record<string, string>; files: ProofFile[] }> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: PROOF_LIMITS.maxFiles, fileSize: PROOF_LIMITS.maxBytes + 1, fields: 10, fieldSize: 256, parts: 14 } });
    } catch {
      return reject(new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Send multipart/form-data'));
    }
    const fields: Record<string, string> = {};
    const files: ProofFile[] = [];
    let failure: AppError | null = null;
    const fail = (e: AppError) => {
      failure ??= e;
    };
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new AppError(ErrorCode.VALIDATION, `Field ${name} is too long`));
      fields[name] = value;
    });
    bb.on('file', (name, stream) => {
      if (name !== PROOF_LIMITS.field) {
        fail(new AppError(ErrorCode.PROOF_INVALID, `Unexpected file field ${name}`));
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => fail(new AppError(ErrorCode.PROOF_INVALID, 'An image is larger than 5 MB')));
      stream.on('end', () => {
        const data = Buffer.concat(chunks);
        if ((stream as unknown as { truncated?: boolean }).truncated) return;
        const type = sniffImage(data);
        if (!type) return fail(new AppError(ErrorCode.PROOF_INVALID, 'Images must be png or jpg'));
        files.push({ contentType: type, data });
      });
    });
    bb.on('filesLimit', () => fail(new AppError(ErrorCode.PROOF_INVALID, 'At most 3 images')));
    bb.on('fieldsLimit', () => fail(new AppError(ErrorCode.VALIDATION, 'Too many fields')));
    bb.on('partsLimit', () => fail(new AppError(ErrorCode.VALIDATION, 'Too many parts')));
    bb.on('error', () => reject(new AppError(ErrorCode.BAD_REQUEST, 'Malformed multipart body')));
    bb.on('close', () => (failure ? reject(failure) : resolve({ fields, files })));
    req.on('aborted', () => reject(new AppError(ErrorCode.BAD_REQUEST)));
    req.pipe(bb);
  });
}

/** Member cashier calls, inside the /wps router (merchant and session resolved). */
export function mountCashierRoutes(app: Express, deps: { deposits: Deposits; withdrawals: Withdrawals }, opts: { checkResponses: boolean }) {
  const { deposits, withdrawals } = deps;

  mountCall(app, cashierCalls.channels, async ({ ctx }) => ({ list: await deposits.channels(ctx.merchant) }), opts);
  mountCall(app, cashierCalls.createDeposit, async ({ ctx, body }) => {
    const s = realMember(ctx);
    return deposits.create(ctx.merchant, s.memberId, body, '/member?tab=depositv2');
  }, opts);
  mountCall(app, cashierCalls.deposits, async ({ ctx, query }) => deposits.list(ctx.session!.memberId, query.pageNo, query.pageSize), opts);
  mountCall(app, cashierCalls.deposit, async ({ ctx, req }) => deposits.get(ctx.session!.memberId, idParam(req)), opts);

  mountCall(app, cashierCalls.bankAccounts, async ({ ctx }) => ({ list: await withdrawals.bankAccounts(ctx.session!.memberId) }), opts);
  mountCall(app, cashierCalls.addBankAccount, async ({ ctx, body }) => withdrawals.addBankAccount(ctx.merchant, realMember(ctx).memberId, body), opts);
  mountCall(app, cashierCalls.removeBankAccount, async ({ ctx, req }) => {
    await withdrawals.removeBankAccount(ctx.session!.memberId, idParam(req));
    return {};
  }, opts);
  mountCall(app, cashierCalls.withdrawPasswordStatus, async ({ ctx }) => ({ isSet: await withdrawals.hasWithdrawPassword(ctx.session!.memberId) }), opts);
  mountCall(app, cashierCalls.setWithdrawPassword, async ({ ctx, body }) => withdrawals.setWithdrawPassword(realMember(ctx).memberId, body), opts);

  mountCall(app, cashierCalls.withdrawalLimits, async ({ ctx }) => withdrawals.limits(ctx.merchant, ctx.session!.memberId), opts);
  mountCall(app, cashierCalls.createWithdrawal, async ({ ctx, body }) => withdrawals.request(ctx.merchant, realMember(ctx).memberId, body), opts);
  mountCall(app, cashierCalls.withdrawals, async ({ ctx, query }) => withdrawals.list(ctx.session!.memberId, query.pageNo, query.pageSize), opts);
  mountCall(app, cashierCalls.withdrawal, async ({ ctx, req }) => withdrawals.get(ctx.session!.memberId, idParam(req)), opts);

  app.post(cashierCalls.confirmWithdrawal.path, async (req: Request, res: Response, next: NextFunction) => {
    try {
      authorize(cashierCalls.confirmWithdrawal, req.ctx);
      if (!req.ctx.session) throw new AppError(ErrorCode.UNAUTHORIZED);
      const id = idParam(req);
      if (!req.is('multipart/form-data')) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Send multipart/form-data');
      const { fields, files } = await readConfirmation(req);
      // As every JSON body: no NUL (its fields' patterns refuse one today; this holds for any field added).
      refuseNul(fields);
      const f = ZConfirmWithdrawalFields.safeParse(fields);
      if (!f.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid fields', zodDetails(f.error));
      const value = await withdrawals.confirm(req.ctx.session.memberId, id, f.data, files);
      res.json({ success: true, value });
    } catch (err) {
      // The rest of a refused upload is not read: close the connection rather than drain megabytes.
      if (!req.complete) res.set('Connection', 'close');
      next(err);
    }
  });
}

/**
 * Provider callbacks, mounted on the app ahead of the /wps router: they need the raw body for the
 * signature, come from the provider (no session, no merchant header), and work during maintenance.
 */
export function mountPaymentCallbacks(app: Express, deps: { db: Db; deposits: Deposits; providers: Map<string, PaymentProvider>; log: Log }) {
  const { db, deposits, providers, log } = deps;
  app.post(paymentCallbackPath(':provider'), express.raw({ type: () => true, limit: '64kb' }), async (req: Request, res: Response, next: NextFunction) => {
    const code = String(req.params.provider);
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const record = (orderId: string | null, valid: boolean, outcome: string) =>
      db.query('INSERT INTO payment_callbacks (provider, provider_order_id, valid, outcome, raw_body, ip) VALUES ($1, $2, $3, $4, $5, $6)', [
        code, orderId, valid, outcome, raw.toString('utf8').slice(0, 8192), req.ip ?? null,
      ]).catch((err: unknown) => log.warn({ err }, 'payment callback: could not record'));
    try {
      const provider = providers.get(code);
      if (!provider) throw new AppError(ErrorCode.NOT_FOUND, 'Unknown payment provider');
      const v = provider.verifyCallback(req.headers, raw);
      if (!v.ok) {
        log.warn({ provider: code, reason: v.reason, ip: req.ip }, 'payment callback refused');
        await record(null, false, `refused: ${v.reason}`);
        throw new AppError(ErrorCode.SIGNATURE_INVALID);
      }
      try {
        const r = await deposits.applyNotification(code, v.notification);
        await record(v.notification.providerOrderId, true, r.outcome);
        if (r.outcome === 'ignored') log.warn({ provider: code, order: v.notification.providerOrderId, status: r.deposit.status, notified: v.notification.status }, 'payment callback: stale outcome ignored');
        res.json({ success: true, value: { outcome: r.outcome, status: r.deposit.status } });
      } catch (err) {
        await record(v.notification.providerOrderId, true, `error: ${err instanceof AppError ? err.code : 'internal'}`);
        throw err;
      }
    } catch (err) {
      next(err);
    }
  });
}
