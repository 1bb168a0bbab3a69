import { VENDOR_PREFIX } from '@portal/contracts/api/vendor';
import { signVendorRequest } from './vendor-routes.ts';

export type VendorOp = 'authenticate' | 'balance' | 'bet' | 'win' | 'rollback';

/** What the wallet said to a call that reached it: its value, or its refusal (code, message, HTTP status). */
export type VendorAnswer<T> = { ok: true; value: T } | { ok: false; code: string; message: string; status: number };

/**
 * One call of the seamless-wallet API as a vendor makes it: the body signed with the vendor's secret
 * (x-merchant-code, x-timestamp, x-signature over `<timestamp>.<body>`), a network error, a 5xx or
 * an answer that is not the envelope retried with the same body (same transaction id: the wallet's
 * idempotency makes the retry safe), a refusal (4xx) returned as it is. Used by the house game server
 * and by the vendor simulator, both of which call the portal over HTTP exactly as an outside vendor.
 * Throws `unreachable(reason)` once the retries are spent.
 */
export async function callVendorWallet<T>(a: {
  baseUrl: string; vendor: string; op: VendorOp; merchant: string; secret: string; body: Record<string, unknown>;
  retries: number; backoffMs: number; fetch?: typeof fetch; unreachable: (reason: string) => Error;
}): Promise<VendorAnswer<T>> {
  const raw = JSON.stringify(a.body);
  const doFetch = a.fetch ?? fetch;
  let lastErr: unknown = null;
  for (let attempt = 0; attempt <= a.retries; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, a.backoffMs * 2 ** (attempt - 1)));
    const ts = Math.floor(Date.now() / 1000);
    let res: Response;
    try {
      res = await doFetch(`${a.baseUrl}${VENDOR_PREFIX}/${encodeURIComponent(a.vendor)}/${a.op}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-merchant-code': a.merchant, 'x-timestamp': String(ts), 'x-signature': signVendorRequest(a.secret, ts, raw) },
        body: raw,
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      lastErr = err;
      continue;
    }
    const json = (await res.json().catch(() => null)) as { success: boolean; code?: string; message?: string; value?: T } | null;
    if (res.status >= 500 || !json) {
      lastErr = new Error(json ? `wallet answered ${res.status}` : `wallet answered ${res.status} without JSON`);
      continue;
    }
    if (!json.success) return { ok: false, code: json.code ?? 'BAD_REQUEST', message: json.message ?? '', status: res.status };
    return { ok: true, value: json.value as T };
  }
  throw a.unreachable(`wallet ${a.op} failed after ${a.retries + 1} attempts: ${String(lastErr)}`);
}
