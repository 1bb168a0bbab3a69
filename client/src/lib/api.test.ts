import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCall } from '@portal/contracts/api/envelope';
import { systemCalls } from '@portal/contracts/api/system';
import { ApiError, buildUrl, createApiClient, createSessionCalls } from './api';

type Seen = { url: string; init: RequestInit | undefined };

function fakeClient(response: { status?: number; body: unknown } | Error, token: string | null = null, merchant: string | null = null) {
  const seen: Seen[] = [];
  let unauthorized = 0;
  const call = createApiClient({
    fetch: async (input, init) => {
      seen.push({ url: String(input), init });
      if (response instanceof Error) throw response;
      return new Response(typeof response.body === 'string' ? response.body : JSON.stringify(response.body), {
        status: response.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      });
    },
    getToken: () => token,
    getMerchant: () => merchant,
    onUnauthorized: () => {
      unauthorized += 1;
    },
  });
  return { call, seen, unauthorized: () => unauthorized };
}

const headersOf = (s: Seen | undefined) => (s?.init?.headers ?? {}) as Record<string, string>;

describe('buildUrl', () => {
  it('fills path params and drops empty query values', () => {
    expect(buildUrl('/wps/x/:id', { id: 'a b' }, { lang: 'EN', device: undefined, empty: '' })).toBe('/wps/x/a%20b?lang=EN');
    expect(() => buildUrl('/wps/x/:id')).toThrow(ApiError);
  });
});

describe('call', () => {
  it('sends the token and merchant headers and returns the validated value', async () => {
    const c = fakeClient({ body: { success: true, value: { list: [{ id: '1', anchor: 'a', title: 't', content: 'c' }] } } }, 'tok', 'DEMO');
    const value = await c.call(systemCalls.helpCenter, { query: { lang: 'EN', device: 'WEB' } });
    expect(value.list[0]?.anchor).toBe('a');
    expect(c.seen[0]?.url).toBe('/wps/system/helpCenter?lang=EN&device=WEB');
    expect(headersOf(c.seen[0]).Authorization).toBe('Bearer tok');
    expect(headersOf(c.seen[0])['X-Merchant-Code']).toBe('DEMO');
  });

  it('sends no Authorization header without a session', async () => {
    const c = fakeClient({ body: { success: true, value: { systemStatus: 0, ip: '1.1.1.1' } } });
    await c.call(systemCalls.status, { query: {} });
    expect(headersOf(c.seen[0]).Authorization).toBeUndefined();
  });

  it('throws the envelope code and message on failure; 401 drops the session', async () => {
    const c = fakeClient({ status: 401, body: { success: false, code: 'UNAUTHORIZED', message: 'no' } }, 'tok');
    const err = await c.call(systemCalls.status, { query: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'UNAUTHORIZED', message: 'no', status: 401 });
    expect(c.unauthorized()).toBe(1);
  });

  it('keeps field details and the failure value of an error envelope', async () => {
    const { call } = fakeClient({
      status: 400,
      body: { success: false, code: 'VALIDATION', message: 'Invalid input', details: [{ path: 'username', message: 'reg_pattern_1:6-16' }, { bad: 1 }], value: { captcha: true } },
    });
    const e = await call(systemCalls.whitelabel, { query: {} }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).details).toEqual([{ path: 'username', message: 'reg_pattern_1:6-16' }]);
    expect((e as ApiError).value).toEqual({ captcha: true });
  });

  it("keeps a detail's rule, its kind and its size, and drops what it does not know", async () => {
    const { call } = fakeClient({
      status: 400,
      body: { success: false, code: 'VALIDATION', message: 'Invalid body', details: [
        { path: 'reason', message: 'Too big', rule: 'max', of: 'string', limit: 200 },
        { path: 'x', message: 'odd', rule: 'script', of: 'object', limit: -1 },
        { path: 'y', message: 'odd', rule: 'min', limit: 1.5 },
      ] },
    });
    const e = (await call(systemCalls.whitelabel, { query: {} }).catch((x: unknown) => x)) as ApiError;
    expect(e.details).toEqual([
      { path: 'reason', message: 'Too big', rule: 'max', of: 'string', limit: 200 },
      { path: 'x', message: 'odd' },
      { path: 'y', message: 'odd', rule: 'min' },
    ]);
  });

  it('rejects a value that does not match the contract', async () => {
    const c = fakeClient({ body: { success: true, value: { systemStatus: 7, ip: 'x' } } });
    await expect(c.call(systemCalls.status, { query: {} })).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });

  it('maps network failures and non-JSON answers to client codes', async () => {
    await expect(fakeClient(new TypeError('fetch failed')).call(systemCalls.status, { query: {} })).rejects.toMatchObject({ code: 'NETWORK' });
    await expect(fakeClient({ status: 502, body: '<html>' }).call(systemCalls.status, { query: {} })).rejects.toMatchObject({ code: 'BAD_RESPONSE', status: 502 });
  });

  it('gives up a call with no answer in time (TIMEOUT), and still passes the caller\'s own abort through', async () => {
    const hang = (_input: unknown, init?: RequestInit) => new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });
    const deps = { fetch: hang as typeof fetch, getToken: () => null, getMerchant: () => null, onUnauthorized: () => {} };
    const slow = createApiClient({ ...deps, timeoutMs: 50 });
    await expect(slow(systemCalls.status, { query: {} })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const patient = createApiClient({ ...deps, timeoutMs: 60_000 });
    const own = new AbortController();
    const pending = patient(systemCalls.status, { query: {}, signal: own.signal });
    own.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('sends a JSON body', async () => {
    const def = defineCall({ method: 'POST', path: '/wps/thing', auth: true, body: z.object({ a: z.number() }), value: z.object({ ok: z.boolean() }) });
    const c = fakeClient({ body: { success: true, value: { ok: true } } });
    await expect(c.call(def, { body: { a: 1 } })).resolves.toEqual({ ok: true });
    expect(c.seen[0]?.init?.body).toBe('{"a":1}');
    expect(c.seen[0]?.init?.method).toBe('POST');
  });
});

describe('member calls around a sign-out', () => {
  const memberCall = defineCall({ method: 'GET', path: '/wps/member/x', auth: true, value: z.object({}) });
  const logoutCall = defineCall({ method: 'DELETE', path: '/wps/session/logout', auth: true, value: z.object({}) });
  const publicCall = defineCall({ method: 'GET', path: '/wps/public', auth: false, value: z.object({}) });

  function setup() {
    let token: string | null = 't0ken';
    const sent: string[] = [];
    const pending: Array<() => void> = [];
    const base = createApiClient({
      fetch: (input, init) => {
        sent.push(String(input));
        return new Promise<Response>((resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
          pending.push(() => resolve(new Response(JSON.stringify({ success: true, value: {} }), { status: 200 })));
        });
      },
      getToken: () => token,
      getMerchant: () => null,
      onUnauthorized: () => undefined,
    });
    const s = createSessionCalls(base, () => token);
    return { s, sent, pending, drop: () => { token = null; s.endSignOut(); } };
  }

  it('aborts member calls in flight, holds new ones back but lets the logout call through', async () => {
    const { s, sent, pending } = setup();
    const inFlight = s.call(memberCall, {});
    s.beginSignOut(logoutCall);
    await expect(inFlight).rejects.toMatchObject({ name: 'AbortError' });
    await expect(s.call(memberCall, {})).rejects.toMatchObject({ name: 'AbortError' });
    const out = s.call(logoutCall, {});
    pending.at(-1)!();
    await expect(out).resolves.toEqual({});
    expect(sent).toEqual(['/wps/member/x', '/wps/session/logout']);
  });

  it('sends no member call without a token (no 401 to log); public calls go out', async () => {
    const { s, sent, pending, drop } = setup();
    drop();
    await expect(s.call(memberCall, {})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const pub = s.call(publicCall, {});
    pending.at(-1)!();
    await pub;
    expect(sent).toEqual(['/wps/public']);
  });
});
