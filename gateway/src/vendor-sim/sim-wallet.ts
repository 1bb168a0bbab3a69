import { VENDOR_PREFIX } from '@portal/contracts/api/vendor';
import { signVendorRequest } from '../modules/provider/vendor-routes.ts';
import { simVendorSecret } from './secrets.ts';

/** A refusal from the portal's wallet (4xx): its code, passed on to the game page. */
export class SimWalletRefused extends Error {
  constructor(readonly code: string, message: string, readonly status: number) {
    super(message);
  }
}
/** The wallet could not be reached after the retries (network error or 5xx). */
export class SimWalletUnreachable extends Error {}

type Envelope<T> = { success: boolean; code?: string; message?: string; value?: T };
type Op = 'authenticate' | 'balance' | 'bet' | 'win' | 'rollback';

/**
 * The simulator's client of the portal's seamless-wallet API, as an outside vendor's server would
 * call it: over HTTP, one vendor at a time, each request signed with that vendor's own secret. A
 * network error or 5xx is retried with the same body (same transaction id, so the wallet's
 * idempotency makes it safe); a 4xx is an answer.
 */
export function createSimWallet(opts: { walletUrl: string; masterSecret: string; retries?: number; backoffMs?: number }) {
  const base = opts.walletUrl.replace(/\/$/, '');
  const retries = opts.retries ?? 3;
  const backoff = opts.backoffMs ?? 200;

  async function call<T>(merchant: string, vendor: string, op: Op, body: Record<string, unknown>, secret?: string): Promise<T> {
    const raw = JSON.stringify(body);
    const key = secret ?? simVendorSecret(opts.masterSecret, merchant, vendor);
    let lastErr: unknown = null;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, backoff * 2 ** (attempt - 1)));
      const ts = Math.floor(Date.now() / 1000);
      let res: Response;
      try {
        res = await fetch(`${base}${VENDOR_PREFIX}/${encodeURIComponent(vendor)}/${op}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-merchant-code': merchant, 'x-timestamp': String(ts), 'x-signature': signVendorRequest(key, ts, raw) },
          body: raw,
          signal: AbortSignal.timeout(10_000),
        });
      } catch (err) {
        lastErr = err;
        continue;
      }
      const json = (await res.json().catch(() => null)) as Envelope<T> | null;
      if (res.status >= 500 || !json) {
        lastErr = new Error(`wallet answered ${res.status}`);
        continue;
      }
      if (!json.success) throw new SimWalletRefused(json.code ?? 'BAD_REQUEST', json.message ?? '', res.status);
      return json.value as T;
    }
    throw new SimWalletUnreachable(`wallet ${op} failed after ${retries + 1} attempts: ${String(lastErr)}`);
  }

  return {
    call,
    authenticate: (m: string, v: string, token: string) =>
      call<{ playerId: string; currency: string; balance: number; nickname: string; token: string; gameCode: string }>(m, v, 'authenticate', { token }),
    balance: (m: string, v: string, playerId: string, token: string) =>
      call<{ balance: number; currency: string }>(m, v, 'balance', { playerId, token }),
    bet: (m: string, v: string, b: { transactionId: string; playerId: string; roundId: string; gameCode: string; amount: number; token: string }) =>
      call<{ balance: number; replayed: boolean }>(m, v, 'bet', b),
    win: (m: string, v: string, b: { transactionId: string; playerId: string; roundId: string; gameCode: string; amount: number; token?: string }) =>
      call<{ balance: number; replayed: boolean }>(m, v, 'win', b),
    rollback: (m: string, v: string, b: { transactionId: string; playerId: string; roundId: string; refTransactionId: string }) =>
      call<{ balance: number; replayed: boolean }>(m, v, 'rollback', b),
  };
}
export type SimWallet = ReturnType<typeof createSimWallet>;
