import { VENDOR_PREFIX } from '@portal/contracts/api/vendor';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { signVendorRequest } from '../provider/vendor-routes.ts';

export const HOUSE_VENDOR = 'HOUSE';

/** A refusal from the wallet: its code and HTTP status, passed on to the player. */
export class WalletRefused extends AppError {}

/** The wallet could not be reached after the retries (network error or 5xx). */
export class WalletUnreachable extends Error {}

type Envelope<T> = { success: boolean; code?: string; message?: string; value?: T };

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
  const doFetch = opts.fetch ?? fetch;

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

  async function call<T>(merchantCode: string, op: 'authenticate' | 'balance' | 'bet' | 'win' | 'rollback', body: Record<string, unknown>): Promise<T> {
    if (!baseUrl) throw new WalletUnreachable('wallet base URL not set');
    const raw = JSON.stringify(body);
    const secret = await secretOf(merchantCode);
    let lastErr: unknown = null;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, backoff * 2 ** (attempt - 1)));
      const ts = Math.floor(Date.now() / 1000);
      let res: Response;
      try {
        res = await doFetch(`${baseUrl}${VENDOR_PREFIX}/${HOUSE_VENDOR}/${op}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-merchant-code': merchantCode, 'x-timestamp': String(ts), 'x-signature': signVendorRequest(secret, ts, raw) },
          body: raw,
          signal: AbortSignal.timeout(10_000),
        });
      } catch (err) {
        lastErr = err;
        continue;
      }
      if (res.status >= 500) {
        lastErr = new Error(`wallet answered ${res.status}`);
        continue;
      }
      const json = (await res.json().catch(() => null)) as Envelope<T> | null;
      if (!json) {
        lastErr = new Error('wallet answered no JSON');
        continue;
      }
      if (!json.success) {
        if (res.status === 401 && (json.code === ErrorCode.SIGNATURE_INVALID)) secrets.delete(merchantCode);
        throw new WalletRefused((json.code ?? ErrorCode.BAD_REQUEST) as ErrorCode, json.message);
      }
      return json.value as T;
    }
    throw new WalletUnreachable(`wallet ${op} failed after ${retries + 1} attempts: ${String(lastErr)}`);
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
