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
});
