import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { callVendorWallet, type VendorOp } from '../provider/vendor-client.ts';

export const HOUSE_VENDOR = 'HOUSE';

/** A refusal from the wallet: its code and HTTP status, passed on to the player. */
export class WalletRefused extends AppError {}

/** The wallet could not be reached after the retries (network error or 5xx). */
export class WalletUnreachable extends Error {}

/**
 * The house game server's client of the seamless-wallet API: it calls the gateway over HTTP,
 * signed with the HOUSE secret from vendor_accounts, exactly as an outside vendor would. A network
 * error or 5xx is retried with the same body (same transaction id), so the wallet's idempotency
 * makes the retry safe; a 4xx is an answer and is not retried.
 */
export function createWalletClient(db: Db, opts: { retries?: number; backoffMs?: number; fetch?: typeof fetch } = {}) {
  let baseUrl: string | null = null;
  const secrets = new Map<string, string>();
  const retries = opts.retries ?? 4;
  const backoff = opts.backoffMs ?? 150;

  async function secretOf(merchantCode: string): Promise<string> {
    const hit = secrets.get(merchantCode);
    if (hit) return hit;
    const r = await db.query<{ secret: string }>(
      'SELECT secret FROM vendor_accounts WHERE merchant_code = $1 AND vendor = $2 AND active', [merchantCode, HOUSE_VENDOR]);
    const s = r.rows[0]?.secret;
    if (!s) throw new AppError(ErrorCode.NOT_AVAILABLE, 'The house provider is not connected');
    secrets.set(merchantCode, s);
    return s;
  }

  async function call<T>(merchantCode: string, op: VendorOp, body: Record<string, unknown>): Promise<T> {
    if (!baseUrl) throw new WalletUnreachable('wallet base URL not set');
    const answer = await callVendorWallet<T>({
      baseUrl, vendor: HOUSE_VENDOR, op, merchant: merchantCode, secret: await secretOf(merchantCode), body,
      retries, backoffMs: backoff, fetch: opts.fetch, unreachable: (reason) => new WalletUnreachable(reason),
    });
    if (answer.ok) return answer.value;
    // A secret changed since it was read: read it again for the next call.
    if (answer.status === 401 && answer.code === ErrorCode.SIGNATURE_INVALID) secrets.delete(merchantCode);
    throw new WalletRefused(answer.code as ErrorCode, answer.message);
  }

  return {
    /** Where the wallet API is: the node's own loopback address after listen, or HOUSE_WALLET_URL. */
    setBaseUrl(url: string) {
      baseUrl = url.replace(/\/$/, '');
    },
    get baseUrl() {
      return baseUrl;
    },
    /** Trades the launch code (once) for the game session token and the game it is bound to. */
    authenticate: (m: string, token: string) =>
      call<{ playerId: string; currency: string; balance: number; nickname: string; token: string; gameCode: string }>(m, 'authenticate', { token }),
    /** With the game session token, so a revoked session is refused (GAME_TOKEN_INVALID). */
    balance: (m: string, playerId: string, token?: string) =>
      call<{ playerId: string; currency: string; balance: number; nickname: string }>(m, 'balance', token === undefined ? { playerId } : { playerId, token }),
    bet: (m: string, b: { transactionId: string; playerId: string; roundId: string; gameCode: string; amount: number; token: string }) =>
      call<{ balance: number; replayed: boolean }>(m, 'bet', b),
    win: (m: string, b: { transactionId: string; playerId: string; roundId: string; gameCode: string; amount: number; token?: string }) =>
      call<{ balance: number; replayed: boolean }>(m, 'win', b),
    rollback: (m: string, b: { transactionId: string; playerId: string; roundId: string; refTransactionId: string }) =>
      call<{ balance: number; replayed: boolean }>(m, 'rollback', b),
  };
}
export type WalletClient = ReturnType<typeof createWalletClient>;
