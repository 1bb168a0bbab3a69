import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';

let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(async () => {
  await t.stop();
});

describe('operator session across reloads', () => {
  it('keeps the operator token in an HttpOnly cookie of its own call only; logout clears it', async () => {
    const token = (await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username: 'ops01', password: '{secret}' } })).json!.value!.token;
    const keep = `${t.url}/ops/api/session/keep`;
    const restore = async (cookie: string) => ((await (await fetch(keep, { headers: { cookie } })).json()) as { value?: { token: string | null } }).value;
    expect((await fetch(keep, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    // allowed before the first password change, like logout
    const kept = await fetch(keep, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
    expect(kept.status).toBe(200);
    expect(kept.headers.get('set-cookie')).toMatch(new RegExp(`^portal_ops=${token}; Path=/ops/api/session/keep; HttpOnly; SameSite=Strict$`));
    expect(await restore(`portal_ops=${token}`)).toEqual({ token });
    expect((await fetch(keep, { headers: { cookie: `portal_ops=${token}` } })).headers.get('cache-control')).toBe('private, no-store');
    // a member's cookie name is not the operator's
    expect(await restore(`portal_session=${token}`)).toEqual({ token: null });
    const out = await fetch(`${t.url}/ops/api/session`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^portal_ops=;.*Expires=Thu, 01 Jan 1970/);
    expect(await restore(`portal_ops=${token}`)).toEqual({ token: null });
  });
});
