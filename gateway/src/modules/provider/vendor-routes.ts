import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  VENDOR_PREFIX, ZVendorAuthBody, ZVendorBalanceBody, ZVendorBetBody, ZVendorMoneyValue, ZVendorPlayer, ZVendorRollbackBody, ZVendorWinBody, launchCall,
} from '@portal/contracts/api/vendor';
import { isTrialType } from '@portal/contracts/domain/member';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { mountCall, sendError } from '../../app/http.ts';
import type { MerchantDirectory, Merchant } from '../merchants/merchant-directory.ts';
import type { VendorWallet } from './vendor-wallet.ts';
import { recordLaunch } from '../games/catalogue-routes.ts';

/** Signed requests older or newer than this are refused (replay window). */
export const SIGNATURE_WINDOW_S = 300;

export function signVendorRequest(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

type VendorReq = Request & { rawBody?: Buffer; vendor?: { code: string; merchant: Merchant } };

/** The built-in house provider's account: its secret from HOUSE_VENDOR_SECRET or made once and kept. */
export async function ensureHouseVendor(db: Db, merchants: MerchantDirectory, secretFromEnv: string | undefined) {
  for (const m of await merchants.all()) {
    await db.query(
      `INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url) VALUES ($1, 'HOUSE', $2, '/house/play')
       ON CONFLICT (merchant_code, vendor) DO ${secretFromEnv ? 'UPDATE SET secret = EXCLUDED.secret' : 'NOTHING'}`,
      [m.code, secretFromEnv ?? randomBytes(32).toString('hex')],
    );
  }
}

/**
 * /vendor/v1/:vendor/* — the seamless-wallet API for game vendors. Raw body kept for the HMAC,
 * then the contract's schema; every failure is the usual envelope with a 4xx.
 */
export function mountVendorApi(app: Express, deps: { db: Db; merchants: MerchantDirectory; wallet: VendorWallet; checkResponses: boolean }) {
  // Vendor secrets are read on every call: kept for a few seconds (a disabled vendor stops within that).
  const secrets = new Map<string, { at: number; row: { secret: string } | null }>();
  const secretOf = async (merchant: string, vendor: string) => {
    const key = `${merchant}:${vendor}`;
    const hit = secrets.get(key);
    if (hit && Date.now() - hit.at < 5000) return hit.row;
    const row = (await deps.db.query<{ secret: string }>(
      'SELECT secret FROM vendor_accounts WHERE merchant_code = $1 AND vendor = $2 AND active', [merchant, vendor])).rows[0] ?? null;
    if (secrets.size > 1000) secrets.clear();
    secrets.set(key, { at: Date.now(), row });
    return row;
  };
  const router = express.Router();
  router.use(express.json({ limit: 16 * 1024, strict: true, verify: (req, _res, buf) => ((req as VendorReq).rawBody = Buffer.from(buf)) }));
  router.get('/openapi.json', (_req, res) => res.json(openApi()));
  router.use('/:vendor', async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const vendor = String(req.params.vendor ?? '');
      const header = req.headers['x-merchant-code'];
      const merchant = await deps.merchants.resolve({ host: req.hostname, code: typeof header === 'string' ? header : undefined });
      if (!merchant) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
      const acc = await secretOf(merchant.code, vendor);
      if (!acc) throw new AppError(ErrorCode.UNKNOWN_VENDOR);
      const ts = Number(req.headers['x-timestamp']);
      const sig = String(req.headers['x-signature'] ?? '');
      if (!Number.isInteger(ts) || Math.abs(Date.now() / 1000 - ts) > SIGNATURE_WINDOW_S) throw new AppError(ErrorCode.SIGNATURE_STALE);
      const want = Buffer.from(signVendorRequest(acc.secret, ts, (req as VendorReq).rawBody?.toString('utf8') ?? ''), 'hex');
      const got = /^[0-9a-f]{64}$/i.test(sig) ? Buffer.from(sig, 'hex') : Buffer.alloc(0);
      if (got.length !== want.length || !timingSafeEqual(got, want)) throw new AppError(ErrorCode.SIGNATURE_INVALID);
      (req as VendorReq).vendor = { code: vendor, merchant };
      next();
    } catch (err) {
      next(err);
    }
  });
  const on = <B extends z.ZodType, V>(path: string, body: B, handler: (v: { code: string; merchant: Merchant }, b: z.infer<B>) => Promise<V>) => {
    router.post(`/:vendor/${path}`, async (req: Request, res: Response, next: NextFunction) => {
      try {
        const parsed = body.safeParse(req.body ?? {});
        if (!parsed.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid body', parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
        res.json({ success: true, value: await handler((req as VendorReq).vendor!, parsed.data) });
      } catch (err) {
        next(err);
      }
    });
  };
  on('authenticate', ZVendorAuthBody, (v, b) => deps.wallet.authenticate(v.merchant, v.code, b.token));
  on('balance', ZVendorBalanceBody, (v, b) => deps.wallet.balance(v.merchant, b.playerId));
  on('bet', ZVendorBetBody, (v, b) => deps.wallet.bet(v.merchant, v.code, b));
  on('win', ZVendorWinBody, (v, b) => deps.wallet.win(v.merchant, v.code, b));
  on('rollback', ZVendorRollbackBody, (v, b) => deps.wallet.rollback(v.merchant, v.code, b));
  router.use((_req: Request, res: Response) => sendError(res, new AppError(ErrorCode.NOT_FOUND)));
  app.use(VENDOR_PREFIX, router);
}

/** POST /wps/game/launchGame: a real, non-trial member opens a game of a connected vendor. */
export function mountLaunch(wps: Express, deps: { db: Db; wallet: VendorWallet; checkResponses: boolean }) {
  mountCall(wps, launchCall, async ({ ctx, body }) => {
    const s = ctx.session!;
    if (!body.freePlay && isTrialType(s.memberType, ctx.merchant.trialTypes)) throw new AppError(ErrorCode.TRIAL_FORBIDDEN);
    const g = (await deps.db.query<{ vassalage: string; game_code: string; maintenance: boolean; vendor_maintenance: boolean | null }>(
      `SELECT g.vassalage, g.game_code, g.maintenance, v.maintenance AS vendor_maintenance FROM games g
       LEFT JOIN vendors v ON v.merchant_code = g.merchant_code AND v.vassalage = g.vassalage AND v.game_type = g.game_type
       WHERE g.merchant_code = $1 AND g.node_id = $2`, [ctx.merchant.code, body.nodeId])).rows[0];
    if (!g) throw new AppError(ErrorCode.NOT_FOUND);
    if (g.maintenance || g.vendor_maintenance) throw new AppError(ErrorCode.GAME_MAINTENANCE);
    if (body.freePlay) {
      // Free play (FREEPLAY3, trial users included): play money on the house game page, no wallet session.
      if (!ctx.merchant.modules.FREEPLAY3) throw new AppError(ErrorCode.MODULE_DISABLED);
      if (g.vassalage !== 'HOUSE') throw new AppError(ErrorCode.NOT_AVAILABLE, 'Free play is not offered for this game');
      return { url: `/house/play?${new URLSearchParams({ game: g.game_code, mode: 'free' }).toString()}`, vendor: g.vassalage, gameCode: g.game_code };
    }
    const acc = (await deps.db.query<{ launch_url: string }>(
      'SELECT launch_url FROM vendor_accounts WHERE merchant_code = $1 AND vendor = $2 AND active', [ctx.merchant.code, g.vassalage])).rows[0];
    if (!acc) throw new AppError(ErrorCode.NOT_AVAILABLE, 'This provider is not connected');
    const token = await deps.wallet.openSession(ctx.merchant, s.memberId, g.vassalage, g.game_code);
    const url = `${acc.launch_url}?${new URLSearchParams({ token, game: g.game_code, vendor: g.vassalage }).toString()}`;
    await recordLaunch(deps.db, ctx.merchant.code, s.memberId, body.nodeId); // GCS_recentGame (games module)
    return { url, vendor: g.vassalage, gameCode: g.game_code };
  }, { checkResponses: deps.checkResponses });
}

/** OpenAPI 3.1 description of the vendor API, generated from the contract's schemas. */
export function openApi() {
  const sec = [{ signature: [], timestamp: [] }];
  const op = (summary: string, body: z.ZodType, value: z.ZodType) => ({
    summary,
    security: sec,
    parameters: [{ name: 'vendor', in: 'path', required: true, schema: { type: 'string' } }],
    requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(body, { io: 'input' }) } } },
    responses: {
      200: { description: 'Done (or replayed: same answer as the first time)', content: { 'application/json': { schema: { type: 'object', properties: { success: { const: true }, value: z.toJSONSchema(value) } } } } },
      '4XX': { description: 'Refused: { success: false, code, message }' },
    },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'LuckyPeso seamless wallet for game vendors',
      version: '1.0.0',
      description: 'Sign each request: X-Timestamp (unix seconds, within 300 s) and X-Signature = hex HMAC-SHA256(secret, `${timestamp}.${rawBody}`). ' +
        'Every money call is idempotent on transactionId: a replay returns the first answer; the same id with another player, round or amount is refused (TRANSACTION_CONFLICT). ' +
        'Wins and rollbacks are accepted after the game token expired. A rollback before its bet is remembered and the late bet refused (BET_ROLLED_BACK); a rollback always returns the original bet amount. ' +
        'A bet never takes the balance below zero (INSUFFICIENT_FUNDS). Amounts are integer minor units.',
    },
    components: {
      securitySchemes: {
        signature: { type: 'apiKey', in: 'header', name: 'X-Signature' },
        timestamp: { type: 'apiKey', in: 'header', name: 'X-Timestamp' },
      },
    },
    paths: {
      [`${VENDOR_PREFIX}/{vendor}/authenticate`]: { post: op('Check a player token from a game launch', ZVendorAuthBody, ZVendorPlayer) },
      [`${VENDOR_PREFIX}/{vendor}/balance`]: { post: op('Player balance', ZVendorBalanceBody, ZVendorPlayer) },
      [`${VENDOR_PREFIX}/{vendor}/bet`]: { post: op('Debit a bet', ZVendorBetBody, ZVendorMoneyValue) },
      [`${VENDOR_PREFIX}/{vendor}/win`]: { post: op('Credit a win (0 closes a lost round)', ZVendorWinBody, ZVendorMoneyValue) },
      [`${VENDOR_PREFIX}/{vendor}/rollback`]: { post: op('Cancel a bet, returning its original amount', ZVendorRollbackBody, ZVendorMoneyValue) },
    },
  };
}
