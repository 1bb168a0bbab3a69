import { z } from 'zod';
import { defineCall } from './envelope.ts';

/**
 * The seamless-wallet API that game vendors call (the house provider uses it exactly as an
 * outside vendor would). Every request is signed: header `X-Timestamp` (unix seconds) and
 * `X-Signature` = hex HMAC-SHA256 of `${timestamp}.${rawBody}` with the vendor's secret.
 * Every money call is idempotent on (vendor, transactionId): a replay returns the original answer;
 * the same id with another player, round or amount is refused. Amounts are integer minor units.
 */
export const VENDOR_PREFIX = '/vendor/v1';

const ZTxId = z.string().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/);
const ZMinorPositive = z.number().int().positive().max(1_000_000_000_000);
/**
 * A vendor's round or game code: no control or format characters (a right-to-left override in a
 * round id turned the player's records around where it was shown).
 */
const ZVendorText = z.string().min(1).max(64).regex(/^[^\p{Cc}\p{Cf}]+$/u, 'no control or format characters');

/**
 * The launch URL's `token` is a one-time launch code: valid for 60 s, traded once by this call for
 * the game session token (the value's `token`). A game session token may be sent again to check it.
 */
export const ZVendorAuthBody = z.object({ token: z.string().min(20).max(128) }).strict();
/** With a token, it must be the player's live game session (a revoked one is refused). */
export const ZVendorBalanceBody = z.object({ playerId: z.string().max(32), token: z.string().max(128).optional() }).strict();
export const ZVendorBetBody = z
  .object({
    transactionId: ZTxId,
    playerId: z.string().max(32),
    roundId: ZVendorText,
    gameCode: ZVendorText,
    amount: ZMinorPositive,
    token: z.string().max(128),
  })
  .strict();
export const ZVendorWinBody = z
  .object({
    transactionId: ZTxId,
    playerId: z.string().max(32),
    roundId: ZVendorText,
    gameCode: ZVendorText,
    /** Zero closes a lost round. */
    amount: z.number().int().nonnegative().max(1_000_000_000_000),
    /** Wins are accepted after the session token expired; the token is optional. */
    token: z.string().max(128).optional(),
  })
  .strict();
export const ZVendorRollbackBody = z
  .object({
    transactionId: ZTxId,
    playerId: z.string().max(32),
    roundId: ZVendorText,
    /** The bet to cancel. Its original amount is returned, whatever the vendor sends. */
    refTransactionId: ZTxId,
    token: z.string().max(128).optional(),
  })
  .strict();

export const ZVendorPlayer = z.object({ playerId: z.string(), currency: z.string(), balance: z.number().int(), nickname: z.string() });
export const ZVendorAuthValue = ZVendorPlayer.extend({
  /** The game session token for balance and bet calls (never in a URL); revoked when the member's portal session ends. */
  token: z.string(),
  /** The game this session was launched for: bets for another game are refused. */
  gameCode: z.string(),
});
export const ZVendorMoneyValue = z.object({
  transactionId: z.string(),
  balance: z.number().int(),
  currency: z.string(),
  /** True when this transaction id was seen before and nothing changed now. */
  replayed: z.boolean(),
});

export const vendorCalls = {
  authenticate: defineCall({ method: 'POST', path: `${VENDOR_PREFIX}/:vendor/authenticate`, auth: false, body: ZVendorAuthBody, value: ZVendorAuthValue }),
  balance: defineCall({ method: 'POST', path: `${VENDOR_PREFIX}/:vendor/balance`, auth: false, body: ZVendorBalanceBody, value: ZVendorPlayer }),
  bet: defineCall({ method: 'POST', path: `${VENDOR_PREFIX}/:vendor/bet`, auth: false, body: ZVendorBetBody, value: ZVendorMoneyValue }),
  win: defineCall({ method: 'POST', path: `${VENDOR_PREFIX}/:vendor/win`, auth: false, body: ZVendorWinBody, value: ZVendorMoneyValue }),
  rollback: defineCall({ method: 'POST', path: `${VENDOR_PREFIX}/:vendor/rollback`, auth: false, body: ZVendorRollbackBody, value: ZVendorMoneyValue }),
};

/** Game launch (spec: /wps/game/launchGame, token Y). */
export const ZLaunchBody = z.object({ nodeId: z.string().min(1).max(128), freePlay: z.boolean().optional() }).strict();
export const ZLaunchValue = z.object({ url: z.string(), vendor: z.string(), gameCode: z.string() });
export const launchCall = defineCall({ method: 'POST', path: '/wps/game/launchGame', auth: true, trial: true, body: ZLaunchBody, value: ZLaunchValue });
