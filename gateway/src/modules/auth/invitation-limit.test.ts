import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { INVITATION_MAX_MISSES } from './accounts-service.ts';

/**
 * Issue 10, finding 8: invitation codes could be enumerated without a limit, through the code check
 * (GET /wps/agent/affiliate) and through registration with a code.
 */
let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await t.stop();
});

type Json = Record<string, unknown>;
const lookup = (code: string, ip: string) => api(t.url, `/wps/agent/affiliate?code=${code}`, { headers: { 'x-forwarded-for': ip } });
async function register(username: string, affiliateCode: string, ip: string) {
  const c = (await api<{ captchaKey: string }>(t.url, '/wps/captcha')).json!.value!;
  const a = (await api<{ answer: string }>(t.url, `/wps/dev/captcha/${c.captchaKey}`)).json!.value!;
  return api<Json>(t.url, '/wps/member/register', {
    method: 'PUT', headers: { 'x-forwarded-for': ip },
    body: { username, password: 'abc12345', confirmPassword: 'abc12345', termsAccepted: true, ageConfirmed: true, payeeName: 'Juan Dela Cruz', birthday: '1990-01-01', captchaKey: c.captchaKey, captcha: a.answer, affiliateCode },
  });
}

describe('invitation code lookups', () => {
  it('lock an address out after too many codes that do not exist', async () => {
    const ip = '10.77.0.1';
    expect((await lookup('LUCKY8', ip)).status).toBe(200);
    for (let i = 0; i < INVITATION_MAX_MISSES; i++) {
      const r = await lookup(`GUESS${i}`, ip);
      expect(r.json).toMatchObject({ success: false, code: 'INVALID_INVITATION_CODE' });
    }
    // locked: even a real code is not confirmed any more, by the check nor by a registration
    const locked = await lookup('LUCKY8', ip);
    expect(locked.status).toBe(429);
    expect(locked.json).toMatchObject({ success: false, code: 'TOO_MANY_REQUESTS' });
    expect((await register('invitee01', 'LUCKY8', ip)).json?.code).toBe('TOO_MANY_REQUESTS');
    // another address is not affected
    expect((await lookup('LUCKY8', '10.77.0.2')).status).toBe(200);
  });

  it('count misses made through registration too', async () => {
    const ip = '10.77.0.3';
    for (let i = 0; i < INVITATION_MAX_MISSES; i++) {
      const r = i % 2 ? await register(`invitee1${i}`, `GUESS${i}`, ip) : await lookup(`GUESS${i}`, ip);
      expect(r.json?.code).toBe('INVALID_INVITATION_CODE');
    }
    expect((await register('invitee19', 'LUCKY8', ip)).json?.code).toBe('TOO_MANY_REQUESTS');
    expect((await register('invitee19', 'LUCKY8', '10.77.0.4')).status).toBe(200);
  });
});
