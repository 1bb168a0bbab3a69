import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Express } from 'express';
import { z } from 'zod';
import {
  VENDOR_PREFIX, ZVendorAuthBody, ZVendorAuthValue, ZVendorBalanceBody, ZVendorBetBody, ZVendorMoneyValue, ZVendorPlayer, ZVendorRollbackBody, ZVendorWinBody, launchCall,
} from '@portal/contracts/api/vendor';
import { isTrialType } from '@portal/contracts/domain/member';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { errorBody, mountCall, nulError, nulInUrl, nulPath, zodDetails } from '../../app/http.ts';
import { ERROR_MESSAGES, ERROR_STATUS } from '@portal/contracts/api/errors';
import type { MerchantDirectory, Merchant } from '../merchants/merchant-directory.ts';
import type { VendorWallet } from './vendor-wallet.ts';
import { recordLaunch } from '../games/catalogue-routes.ts';
import { returnOrigin } from '../merchants/link-origin.ts';
import { hashToken as hashSessionToken } from '../sessions/session-store.ts';
import { vendorCalls as vendorCallCount, vendorDuration } from '../../obs/metrics.ts';
import { requestIdFrom, withRequestId } from '../../obs/request-id.ts';

/** Signed requests older or newer than this are refused (replay window). */
export const SIGNATURE_WINDOW_S = 300;

export function signVendorRequest(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

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

/** A vendor call's body: at most this many bytes of JSON (express.json's limit for it before). */
export const VENDOR_BODY_LIMIT = 16 * 1024;

const VENDOR_BODIES = {
  authenticate: ZVendorAuthBody, balance: ZVendorBalanceBody, bet: ZVendorBetBody, win: ZVendorWinBody, rollback: ZVendorRollbackBody,
} as const;
type VendorCall = keyof typeof VENDOR_BODIES;
const isVendorCall = (s: string): s is VendorCall => Object.hasOwn(VENDOR_BODIES, s);

/** Whether a request URL is the vendor API's (`/vendor/v1` and below; case-insensitive, as Express routed it). */
export function isVendorPath(url: string | undefined): boolean {
  return !!url && /^\/vendor\/v1(?:[/?]|$)/i.test(url);
}

type Logger = { error(obj: unknown, msg?: string): void };

/** The metrics label of a vendor URL: its call name when it is one, else openapi or other (bounded). */
export function vendorCallLabel(url: string): string {
  const parts = url.split('?', 1)[0]!.split('/');
  const last = (parts.at(-1) || parts.at(-2) || '').toLowerCase();
  return isVendorCall(last) ? last : last === 'openapi.json' ? 'openapi' : 'other';
}
export type VendorApiDeps = {
  db: Db;
  merchants: MerchantDirectory;
  wallet: VendorWallet;
  /** Express's compiled 'trust proxy' test, so the host is read as on every other route. */
  trustProxy: (addr: string, i: number) => boolean;
  log: Logger;
};

/** The request's host name as Express's req.hostname gives it (X-Forwarded-Host only from a trusted proxy). */
function hostnameOf(req: IncomingMessage, trust: VendorApiDeps['trustProxy']): string | undefined {
  const forwarded = req.headers['x-forwarded-host'];
  let host = Array.isArray(forwarded) ? forwarded.join(', ') : forwarded;
  if (!host || !trust(req.socket.remoteAddress ?? '', 0)) host = req.headers.host;
  else if (host.includes(',')) host = host.slice(0, host.indexOf(',')).trimEnd();
  if (!host) return undefined;
  const offset = host[0] === '[' ? host.indexOf(']') + 1 : 0;
  const colon = host.indexOf(':', offset);
  return colon !== -1 ? host.slice(0, colon) : host;
}

function reply(res: ServerResponse, status: number, body: unknown) {
  if (res.headersSent || res.destroyed) return;
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

/**
 * The raw body and its JSON, with express.json's rules for this API: only a JSON content type is
 * parsed (anything else leaves no body, so its signature is over ''), UTF-8 only, at most
 * VENDOR_BODY_LIMIT bytes, an object or array at the top (strict), an empty body is {}.
 */
async function readJsonBody(req: IncomingMessage): Promise<{ raw: string; body: unknown }> {
  const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
  if (!hasBody || (type !== 'application/json' && !(type.startsWith('application/') && type.endsWith('+json')))) {
    req.resume();
    return { raw: '', body: undefined };
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
  if (Number(req.headers['content-length'] ?? 0) > VENDOR_BODY_LIMIT) throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > VENDOR_BODY_LIMIT) throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    // The vendor hung up before the body was in (aborted, reset): a bad request that nobody hears, not an internal error.
    throw new AppError(ErrorCode.BAD_REQUEST, 'The request body did not arrive whole');
  }
  const raw = Buffer.concat(chunks, size).toString('utf8');
  if (raw.length === 0) return { raw, body: {} };
  const first = /^[\x20\x09\x0a\x0d]*(.)/s.exec(raw)?.[1];
  if (first !== '{' && first !== '[') throw new AppError(ErrorCode.MALFORMED_JSON);
  try {
    return { raw, body: JSON.parse(raw) as unknown };
  } catch {
    throw new AppError(ErrorCode.MALFORMED_JSON);
  }
}

/**
 * /vendor/v1/:vendor/* — the seamless-wallet API for game vendors, served straight from node:http.
 * It is the hottest path of the portal (two calls per game round, from servers, never browsers),
 * and Express's router, body parser and response helpers cost about as much gateway CPU per call as
 * the rest of the call, so it keeps only what the API needs. Order as before: the URL and body are
 * checked (NUL refused, JSON parsed), then the merchant, the vendor and the signature over the raw
 * body, then the call's schema; every failure is the usual envelope with a 4xx.
 */
export function createVendorApi(deps: VendorApiDeps): (req: IncomingMessage, res: ServerResponse) => void {
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
  let openApiJson: unknown = null;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = req.url ?? '/';
    // The same NUL checks as refuseNulInUrl / refuseNulInBody (the query parsed as Express's 'simple' parser does)
    const q = url.indexOf('?');
    const nul = nulInUrl(url, q < 0 ? {} : parseQuery(url.slice(q + 1)));
    if (nul !== null) throw nulError(nul);
    const { raw, body } = await readJsonBody(req);
    const bodyNul = nulPath(body);
    if (bodyNul !== null) throw nulError(bodyNul);
    const path = url.split('?', 1)[0]!.slice(VENDOR_PREFIX.length);
    const parts = path.split('/').filter((p, i) => i > 0 || p !== '');
    if (parts.at(-1) === '' && parts.length > 1) parts.pop(); // a trailing slash, as Express ignored it
    if (req.method === 'GET' && parts.length === 1 && parts[0]!.toLowerCase() === 'openapi.json') {
      openApiJson ??= openApi();
      return reply(res, 200, openApiJson);
    }
    if (parts.length === 0 || parts[0] === '') throw new AppError(ErrorCode.NOT_FOUND);
    let vendor: string;
    try {
      vendor = decodeURIComponent(parts[0]!);
    } catch {
      throw new AppError(ErrorCode.BAD_REQUEST);
    }
    const header = req.headers['x-merchant-code'];
    const merchant = await deps.merchants.resolve({ host: hostnameOf(req, deps.trustProxy), code: typeof header === 'string' ? header : undefined });
    if (!merchant) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
    const acc = await secretOf(merchant.code, vendor);
    if (!acc) throw new AppError(ErrorCode.UNKNOWN_VENDOR);
    const rawTs = req.headers['x-timestamp'];
    const sig = String(req.headers['x-signature'] ?? '');
    // A call without its signature (or timestamp) is unsigned, not stale: Number(undefined) is NaN and
    // was answered "timestamp too old or too new".
    if (!sig || typeof rawTs !== 'string' || rawTs === '') throw new AppError(ErrorCode.SIGNATURE_INVALID, 'Missing X-Timestamp or X-Signature');
    const ts = Number(rawTs);
    if (!Number.isInteger(ts) || Math.abs(Date.now() / 1000 - ts) > SIGNATURE_WINDOW_S) throw new AppError(ErrorCode.SIGNATURE_STALE);
    const want = Buffer.from(signVendorRequest(acc.secret, ts, raw), 'hex');
    const got = /^[0-9a-f]{64}$/i.test(sig) ? Buffer.from(sig, 'hex') : Buffer.alloc(0);
    if (got.length !== want.length || !timingSafeEqual(got, want)) throw new AppError(ErrorCode.SIGNATURE_INVALID);
    const call = parts[1]?.toLowerCase() ?? '';
    if (req.method !== 'POST' || parts.length !== 2 || !isVendorCall(call)) throw new AppError(ErrorCode.NOT_FOUND);
    const parsed = VENDOR_BODIES[call].safeParse(body ?? {});
    if (!parsed.success) throw new AppError(ErrorCode.VALIDATION, 'Invalid body', zodDetails(parsed.error));
    const b = parsed.data;
    const value = call === 'authenticate' ? await deps.wallet.authenticate(merchant, vendor, (b as z.infer<typeof ZVendorAuthBody>).token)
      : call === 'balance' ? await deps.wallet.balance(merchant, vendor, (b as z.infer<typeof ZVendorBalanceBody>).playerId, (b as z.infer<typeof ZVendorBalanceBody>).token)
      : call === 'bet' ? await deps.wallet.bet(merchant, vendor, b as z.infer<typeof ZVendorBetBody>)
      : call === 'win' ? await deps.wallet.win(merchant, vendor, b as z.infer<typeof ZVendorWinBody>)
      : await deps.wallet.rollback(merchant, vendor, b as z.infer<typeof ZVendorRollbackBody>);
    reply(res, 200, { success: true, value });
  }

  // Latency per call and outcome counts (ok, or the refusal's code); the request id is echoed as on
  // every other route and carried into the events the call causes (vendor_call records it).
  return (req, res) => {
    const start = performance.now();
    const call = vendorCallLabel(req.url ?? '/');
    const reqId = requestIdFrom(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', reqId);
    const done = (outcome: string) => {
      vendorDuration.observe({ call }, (performance.now() - start) / 1000);
      vendorCallCount.inc({ call, outcome });
    };
    withRequestId(reqId, () => handle(req, res)).then(() => done('ok'), (err: unknown) => {
      if (err instanceof AppError) {
        done(err.code);
        return reply(res, err.status, errorBody(err));
      }
      done(ErrorCode.INTERNAL);
      deps.log.error({ err, reqId }, 'unhandled error');
      reply(res, ERROR_STATUS.INTERNAL, { success: false, code: ErrorCode.INTERNAL, message: ERROR_MESSAGES.INTERNAL });
    });
  };
}

/** POST /wps/game/launchGame: a real, non-trial member opens a game of a connected vendor. */
export function mountLaunch(wps: Express, deps: { db: Db; wallet: VendorWallet; checkResponses: boolean; isProduction: boolean }) {
  mountCall(wps, launchCall, async ({ ctx, body, req }) => {
    const s = ctx.session!;
    if (!body.freePlay && isTrialType(s.memberType, ctx.merchant.trialTypes)) throw new AppError(ErrorCode.TRIAL_FORBIDDEN);
    const g = (await deps.db.query<{ vassalage: string; game_code: string; game_type: string; game_name: string; maintenance: boolean; vendor_maintenance: boolean | null; vendor_name: string | null; min_bet: string | number | null }>(
      `SELECT g.vassalage, g.game_code, g.game_type, g.game_name, g.maintenance, v.maintenance AS vendor_maintenance, v.display_name AS vendor_name, g.min_bet FROM games g
       LEFT JOIN vendors v ON v.merchant_code = g.merchant_code AND v.vassalage = g.vassalage AND v.game_type = g.game_type
       WHERE g.merchant_code = $1 AND g.node_id = $2`, [ctx.merchant.code, body.nodeId])).rows[0];
    if (!g) throw new AppError(ErrorCode.NOT_FOUND);
    if (g.maintenance || g.vendor_maintenance) throw new AppError(ErrorCode.GAME_MAINTENANCE);
    const acc = (await deps.db.query<{ launch_url: string; simulated: boolean; free_play: boolean }>(
      'SELECT launch_url, simulated, free_play FROM vendor_accounts WHERE merchant_code = $1 AND vendor = $2 AND active', [ctx.merchant.code, g.vassalage])).rows[0];
    // What the vendor's page needs besides the launch code: the game, its vendor and type, the operator (merchant)
    // and its currency (free play's play money; a real session takes the wallet's), and where its page links back
    // to (`lobbyUrl`: the portal host the player is on when the merchant owns it, else its main domain; see
    // returnOrigin); a simulated vendor also gets the game's and the vendor's names and the game's minimum bet
    // as the catalogue lists it (a real vendor knows its own: the simulator took ₱1 at a table listed from ₱20).
    const lobby = returnOrigin(ctx.merchant, { hostname: req.hostname, host: req.host, protocol: req.protocol }, { isProduction: deps.isProduction });
    const params = (extra: Record<string, string>) => new URLSearchParams({
      ...extra, game: g.game_code, vendor: g.vassalage, type: g.game_type, operator: ctx.merchant.code, currency: ctx.merchant.currency,
      ...(lobby ? { lobbyUrl: `${lobby}/` } : {}),
      ...(acc?.simulated ? {
        name: g.game_name, ...(g.vendor_name?.trim() ? { vendorName: g.vendor_name.trim() } : {}), ...(Number(g.min_bet) > 0 ? { minBet: String(Number(g.min_bet)) } : {}),
      } : {}),
    }).toString();
    if (body.freePlay) {
      // Free play (FREEPLAY3, trial users included): play money on the vendor's page, no wallet session.
      if (!ctx.merchant.modules.FREEPLAY3) throw new AppError(ErrorCode.MODULE_DISABLED);
      if (g.vassalage === 'HOUSE') {
        return { url: `/house/play?${new URLSearchParams({ game: g.game_code, mode: 'free' }).toString()}`, vendor: g.vassalage, gameCode: g.game_code };
      }
      if (!acc?.free_play) throw new AppError(ErrorCode.NOT_AVAILABLE, 'Free play is not offered for this game');
      return { url: `${acc.launch_url}?${params({ mode: 'free' })}`, vendor: g.vassalage, gameCode: g.game_code };
    }
    if (!acc) throw new AppError(ErrorCode.NOT_AVAILABLE, 'This provider is not connected');
    // The URL carries a one-time launch code (60 s, this game only), never the game session token:
    // the vendor trades it server side (authenticate), and the session ends with this portal session.
    const code = await deps.wallet.openLaunch(ctx.merchant, s.memberId, ctx.token ? hashSessionToken(ctx.token) : null, g.vassalage, g.game_code);
    const url = `${acc.launch_url}?${params({ token: code })}`;
    await recordLaunch(deps.db, ctx.merchant.code, s.memberId, body.nodeId); // GCS_recentGame (games module)
    return { url, vendor: g.vassalage, gameCode: g.game_code };
  }, { checkResponses: deps.checkResponses });
}

/** OpenAPI 3.1 description of the vendor API, generated from the contract's schemas. */
export function openApi() {
  const sec = [{ signature: [], timestamp: [] }];
  // Every call can also be refused for the request itself (signature, vendor, merchant, body).
  const common: ErrorCode[] = [ErrorCode.SIGNATURE_INVALID, ErrorCode.SIGNATURE_STALE, ErrorCode.UNKNOWN_VENDOR, ErrorCode.UNKNOWN_MERCHANT, ErrorCode.VALIDATION, ErrorCode.MALFORMED_JSON];
  const op = (summary: string, body: z.ZodType, value: z.ZodType, refusals: ErrorCode[]) => ({
    summary,
    security: sec,
    parameters: [{ name: 'vendor', in: 'path', required: true, schema: { type: 'string' } }],
    requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(body, { io: 'input' }) } } },
    responses: {
      200: { description: 'Done (or replayed: same answer as the first time)', content: { 'application/json': { schema: { type: 'object', properties: { success: { const: true }, value: z.toJSONSchema(value) } } } } },
      '4XX': {
        description: `Refused: { success: false, code, message }. Codes of this call: ${refusals.map((c) => `${c} (${ERROR_STATUS[c]}: ${ERROR_MESSAGES[c]})`).join('; ')}.`,
        content: { 'application/json': { schema: { type: 'object', properties: { success: { const: false }, code: { enum: [...refusals, ...common] }, message: { type: 'string' } } } } },
      },
    },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'LuckyPeso seamless wallet for game vendors',
      version: '1.0.0',
      description: 'Sign each request: X-Timestamp (unix seconds, within 300 s) and X-Signature = hex HMAC-SHA256(secret, `${timestamp}.${rawBody}`). ' +
        'Every money call is idempotent on transactionId: a replay returns the first answer; the same id with another player, round or amount is refused (TRANSACTION_CONFLICT). ' +
        'Game launch: the launch URL carries `token`, a one-time launch code valid for 60 s and bound to one game; authenticate trades it, once, for the game session token ' +
        '(value.token, with value.gameCode) to send with balance and bet calls; a second use of the code is refused (GAME_TOKEN_INVALID). ' +
        "It also carries `lobbyUrl`, the operator's page the game's back link should open (the portal host the player is on). " +
        "A game session ends when the player's portal session does (logout, password change, account disabled, exclusion): authenticate, balance and bet calls with its token are then refused (GAME_TOKEN_INVALID), " +
        'and so is a bet whose gameCode is not the game the session was launched for. ' +
        'A win settles a bet: it needs an accepted bet of the same player in the same round, else it is refused (BET_NOT_FOUND; ACCOUNT_DISABLED or TRIAL_FORBIDDEN for an account that may not play real money). ' +
        'Wins and rollbacks of a bet already accepted are settled even after the game token expired or was revoked, or the account was disabled. ' +
        'Bets are refused for disabled (ACCOUNT_DISABLED) and trial (TRIAL_FORBIDDEN) accounts. ' +
        'Responsible gaming: a bet of an excluded player (self-exclusion, cooling-off, family or operator exclusion) is refused (RG_EXCLUDED, with value.until), ' +
        'and a bet that would go beyond the player\'s wager or loss limit of the day, week or month (merchant calendar) is refused (RG_LIMIT_REACHED, with value.kind, period, limit, used); neither is stored, so the same transactionId may be retried. ' +
        'A rollback before its bet is remembered and the late bet refused (BET_ROLLED_BACK); a rollback always returns the original bet amount. ' +
        'A rollback names the bet\'s own round (another round: TRANSACTION_CONFLICT), and is refused once a win of that round has settled the bet (BET_SETTLED). ' +
        'A bet never takes the balance below zero (INSUFFICIENT_FUNDS). Amounts are integer minor units.',
    },
    components: {
      securitySchemes: {
        signature: { type: 'apiKey', in: 'header', name: 'X-Signature' },
        timestamp: { type: 'apiKey', in: 'header', name: 'X-Timestamp' },
      },
    },
    paths: {
      [`${VENDOR_PREFIX}/{vendor}/authenticate`]: { post: op('Trade the one-time launch code of a game launch for a game session token (or check a game session token)', ZVendorAuthBody, ZVendorAuthValue,
        [ErrorCode.GAME_TOKEN_INVALID, ErrorCode.ACCOUNT_DISABLED, ErrorCode.TRIAL_FORBIDDEN, ErrorCode.USER_NOT_FOUND]) },
      [`${VENDOR_PREFIX}/{vendor}/balance`]: { post: op('Player balance (with a token: only while that game session is live)', ZVendorBalanceBody, ZVendorPlayer,
        [ErrorCode.USER_NOT_FOUND, ErrorCode.GAME_TOKEN_INVALID]) },
      [`${VENDOR_PREFIX}/{vendor}/bet`]: { post: op('Debit a bet', ZVendorBetBody, ZVendorMoneyValue,
        [ErrorCode.USER_NOT_FOUND, ErrorCode.GAME_TOKEN_INVALID, ErrorCode.ACCOUNT_DISABLED, ErrorCode.TRIAL_FORBIDDEN, ErrorCode.BET_ROLLED_BACK, ErrorCode.INSUFFICIENT_FUNDS, ErrorCode.TRANSACTION_CONFLICT, ErrorCode.IDEMPOTENCY_MISMATCH, ErrorCode.RG_EXCLUDED, ErrorCode.RG_LIMIT_REACHED]) },
      [`${VENDOR_PREFIX}/{vendor}/win`]: { post: op('Credit a win for a bet of the same player and round (0 closes a lost round)', ZVendorWinBody, ZVendorMoneyValue,
        [ErrorCode.USER_NOT_FOUND, ErrorCode.GAME_TOKEN_INVALID, ErrorCode.BET_NOT_FOUND, ErrorCode.ACCOUNT_DISABLED, ErrorCode.TRIAL_FORBIDDEN, ErrorCode.TRANSACTION_CONFLICT, ErrorCode.IDEMPOTENCY_MISMATCH]) },
      [`${VENDOR_PREFIX}/{vendor}/rollback`]: { post: op('Cancel a bet, returning its original amount', ZVendorRollbackBody, ZVendorMoneyValue,
        [ErrorCode.USER_NOT_FOUND, ErrorCode.TRANSACTION_CONFLICT, ErrorCode.BET_SETTLED, ErrorCode.IDEMPOTENCY_MISMATCH]) },
    },
  };
}
