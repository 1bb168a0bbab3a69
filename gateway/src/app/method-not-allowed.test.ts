import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from '../testing/test-portal.ts';

let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(async () => {
  await t.stop();
});

describe('a call with the wrong method', () => {
  it('answers 405 METHOD_NOT_ALLOWED with Allow where the path is served with other methods, 404 where it is not served at all', async () => {
    const cases: Array<[string, string, string]> = [
      ['POST', '/wps/system/status', 'GET, HEAD'],
      ['DELETE', '/wps/session/login', 'POST'],
      ['PATCH', '/lgw/games/game_menus', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await fetch(t.url + path, { method, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      expect(await res.json(), `${method} ${path}`).toMatchObject({ success: false, code: 'METHOD_NOT_ALLOWED' });
    }
    // The right method still reaches its route; an unknown path is still 404.
    expect((await fetch(t.url + '/wps/system/status')).status).toBe(200);
    const missing = await fetch(t.url + '/wps/no/such/call', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('allow')).toBeNull();
    expect(await missing.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('answers the same under /ops/api, whichever section serves the path (the sections share the prefix)', async () => {
    const cases: Array<[string, string, string]> = [
      // The back office's own router (its tail answers for the whole prefix).
      ['GET', '/ops/api/session/login', 'POST'],
      // A section with its own tail.
      ['DELETE', '/ops/api/envelopes', 'GET, HEAD, POST'],
      // A section without a tail: the back office's tail finds its route.
      ['PUT', '/ops/api/chats', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await fetch(t.url + path, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      expect(await res.json(), `${method} ${path}`).toMatchObject({ success: false, code: 'METHOD_NOT_ALLOWED' });
    }
    // The right method still reaches its gate (no token: 401); an unserved path is 404 without Allow.
    expect((await fetch(t.url + '/ops/api/envelopes')).status).toBe(401);
    for (const path of ['/ops/api/no/such/call', '/ops/api/envelopes/no/such']) {
      const missing = await fetch(t.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(missing.status, path).toBe(404);
      expect(missing.headers.get('allow'), path).toBeNull();
      expect(await missing.json(), path).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
  });
});
