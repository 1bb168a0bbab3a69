import { describe, expect, it } from 'vitest';
import { VENDOR_PREFIX } from '@portal/contracts/api/vendor';
import { callVendorWallet } from './vendor-client.ts';
import { signVendorRequest } from './vendor-routes.ts';

/** A fetch that answers from a script, one response per call, and keeps what it was sent. */
function scripted(answers: Array<Response | Error>) {
  const sent: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
  const f = (async (url: string, init: RequestInit) => {
    sent.push({ url, headers: init.headers as Record<string, string>, body: String(init.body) });
    const a = answers.shift();
    if (!a) throw new Error('no more answers');
    if (a instanceof Error) throw a;
    return a;
  }) as unknown as typeof fetch;
  return { f, sent };
}
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const base = { baseUrl: 'http://wallet', vendor: 'JILI', op: 'bet' as const, merchant: 'DEMO', secret: 's3cret', body: { transactionId: 't1', amount: 100 }, retries: 3, backoffMs: 1, unreachable: (r: string) => new Error(`unreachable: ${r}`) };

describe('callVendorWallet (house game server and vendor simulator)', () => {
  it('signs the body, retries a network error, a 5xx and a non-JSON answer with the same body, and returns the value', async () => {
    const s = scripted([new TypeError('ECONNRESET'), json(503, { success: false, code: 'INTERNAL' }), new Response('<html>', { status: 200 }), json(200, { success: true, value: { balance: 5 } })]);
    expect(await callVendorWallet({ ...base, fetch: s.f })).toEqual({ ok: true, value: { balance: 5 } });
    expect(s.sent).toHaveLength(4);
    expect(new Set(s.sent.map((x) => x.body)).size).toBe(1);
    for (const x of s.sent) {
      expect(x.url).toBe(`http://wallet${VENDOR_PREFIX}/JILI/bet`);
      expect(x.headers['x-merchant-code']).toBe('DEMO');
      expect(x.headers['x-signature']).toBe(signVendorRequest('s3cret', Number(x.headers['x-timestamp']), x.body));
    }
  });

  it('a refusal (4xx) is an answer, not retried', async () => {
    const s = scripted([json(409, { success: false, code: 'INSUFFICIENT_BALANCE', message: 'Not enough' })]);
    expect(await callVendorWallet({ ...base, fetch: s.f })).toEqual({ ok: false, code: 'INSUFFICIENT_BALANCE', message: 'Not enough', status: 409 });
    expect(s.sent).toHaveLength(1);
  });

  it('throws the caller\'s unreachable error once the retries are spent', async () => {
    const s = scripted([json(502, {}), json(502, {})]);
    await expect(callVendorWallet({ ...base, retries: 1, fetch: s.f })).rejects.toThrow(/^unreachable: wallet bet failed after 2 attempts/);
    expect(s.sent).toHaveLength(2);
  });
});
