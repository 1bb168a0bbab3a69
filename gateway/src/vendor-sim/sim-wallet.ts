import { callVendorWallet, type VendorOp } from '../modules/provider/vendor-client.ts';
import { simVendorSecret } from './secrets.ts';

/** A refusal from the portal's wallet (4xx): its code, passed on to the game page. */
export class SimWalletRefused extends Error {
  constructor(readonly code: string, message: string, readonly status: number) {
    super(message);
  }
}
/** The wallet could not be reached after the retries (network error or 5xx). */
export class SimWalletUnreachable extends Error {}

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

  async function call<T>(merchant: string, vendor: string, op: VendorOp, body: Record<string, unknown>, secret?: string): Promise<T> {
    const answer = await callVendorWallet<T>({
      baseUrl: base, vendor, op, merchant, secret: secret ?? simVendorSecret(opts.masterSecret, merchant, vendor), body,
      retries, backoffMs: backoff, unreachable: (reason) => new SimWalletUnreachable(reason),
    });
    if (!answer.ok) throw new SimWalletRefused(answer.code, answer.message, answer.status);
    return answer.value;
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
