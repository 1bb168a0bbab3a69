import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { SECOND_STEP_MAX_GUESSES_PER_HOUR } from './accounts-service.ts';
import { SMS_MAX_GUESSES_PER_WINDOW, SMS_MAX_PER_WINDOW } from './sms-codes.ts';

/**
 * Issue 10, finding 4: the second step of a login from a new address must not be brute-forced
 * (each resend and each new password login used to bring 5 fresh guesses) nor flood a number
 * (each password login opened a fresh challenge, so 25 logins sent 25 SMS).
 */
let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await t.stop();
});

type Json = Record<string, unknown>;
let ipCounter = 1;
const freshIp = () => `10.44.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;
const call = <T = Json>(path: string, ip: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
  api<T>(t.url, path, { ...init, headers: { 'x-forwarded-for': ip } });
/** Dev helpers are called from the loopback address itself. */
const dev = <T = Json>(path: string, body?: unknown) => api<T>(t.url, path, body === undefined ? {} : { body });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function botFields(account: string) {
  const c = (await dev<{ botId: string }>(`/wps/botcheck?account=${account}`)).json!.value!;
  const a = (await dev<{ answer: number; answerY: number }>(`/wps/dev/botcheck/${c.botId}`)).json!.value!;
  return { botId: c.botId, botAnswer: a.answer, botAnswerY: a.answerY };
}
async function passwordLogin(account: string, ip: string) {
  return call<{ token?: string; challengeId?: string; methods?: string[] }>('/wps/session/login', ip, {
    body: { username: account, password: 'abc12345', type: 'username', ...(await botFields(account)) },
  });
}
/** A member who has logged in once from `home`, so any other address asks for the second step. */
async function traveller(account: string, mobileNum: string, email?: string) {
  await dev('/wps/dev/members', { account, password: 'abc12345', mobileNum, ...(email ? { email } : {}) });
  const home = freshIp();
  expect((await passwordLogin(account, home)).status).toBe(200);
  return home;
}
const smsTo = (to: string) => t.portal.sink.for(to).filter((m) => m.channel === 'sms');
const codeIn = (body: string) => /(\d{6})/.exec(body)?.[1] ?? '';
const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

describe('second step of a login from a new address', () => {
  it('gives the member one guess budget across resends, challenges and new password logins', async () => {
    await traveller('guess2fa01', '9175550101');
    const ipA = freshIp();
    const first = await passwordLogin('guess2fa01', ipA);
    expect(first.json?.code).toBe('VERIFICATION_REQUIRED');
    const c1 = first.json!.value!.challengeId!;
    let guesses = 0;
    const guess = async (challengeId: string, code: string, ip: string) => {
      guesses++;
      return call('/wps/session/login/verify', ip, { body: { challengeId, method: 'sms', code } });
    };

    expect((await call('/wps/session/login/verify/send', ipA, { body: { challengeId: c1, method: 'sms' } })).status).toBe(200);
    let code = codeIn(smsTo('+639175550101')[0]!.body);
    for (let i = 0; i < 2; i++) expect((await guess(c1, wrongFor(code), ipA)).json?.code).toBe('SMS_CODE_INVALID');
    // a resend used to reset the challenge's attempts to zero
    await pause(1100);
    expect((await call('/wps/session/login/verify/send', ipA, { body: { challengeId: c1, method: 'sms' } })).status).toBe(200);
    code = codeIn(smsTo('+639175550101')[0]!.body);
    for (let i = 0; i < 2; i++) expect((await guess(c1, wrongFor(code), ipA)).json?.code).toBe('SMS_CODE_INVALID');
    // a new password login from elsewhere used to open a challenge with a fresh set of guesses
    const ipB = freshIp();
    const again = await passwordLogin('guess2fa01', ipB);
    const c2 = again.json!.value!.challengeId!;
    await pause(1100);
    expect((await call('/wps/session/login/verify/send', ipB, { body: { challengeId: c2, method: 'sms' } })).status).toBe(200);
    code = codeIn(smsTo('+639175550101')[0]!.body);
    while (guesses < SECOND_STEP_MAX_GUESSES_PER_HOUR) expect((await guess(c2, wrongFor(code), ipB)).json?.code).toBe('SMS_CODE_INVALID');

    // budget spent: even the right code is refused, and no new challenge or SMS is handed out
    const locked = await guess(c2, code, ipB);
    expect(locked.status).toBe(429);
    expect(locked.json).toMatchObject({ success: false, code: 'VERIFICATION_LOCKED' });
    const sentBefore = smsTo('+639175550101').length;
    const third = await passwordLogin('guess2fa01', freshIp());
    expect(third.json).toMatchObject({ success: false, code: 'VERIFICATION_LOCKED' });
    await pause(1100);
    expect((await call('/wps/session/login/verify/send', ipB, { body: { challengeId: c2, method: 'sms' } })).json?.code).toBe('VERIFICATION_LOCKED');
    expect(smsTo('+639175550101').length).toBe(sentBefore);
  });

  it('a challenge is finished only from the address it was given to, and its fifth wrong code says it is locked', async () => {
    await traveller('bound2fa01', '9175550131');
    const ip = freshIp();
    const c = (await passwordLogin('bound2fa01', ip)).json!.value!.challengeId!;
    expect((await call('/wps/session/login/verify/send', ip, { body: { challengeId: c, method: 'sms' } })).status).toBe(200);
    const code = codeIn(smsTo('+639175550131')[0]!.body);
    // in the page's language (none given: the brand's, Tagalog here; it was always English)
    expect(smsTo('+639175550131')[0]!.body).toContain('beripikasyon ng pag-log in');
    expect(smsTo('+639175550131')[0]!.body).toContain('May bisa nang 10 minuto');
    await pause(1100);
    // A resend says the minutes its challenge has left (the code lives as long as it): it said 10 whenever sent.
    await t.portal.db.query(`UPDATE login_challenges SET expires_at = now() + interval '170 seconds' WHERE id = $1`, [c]);
    expect((await call('/wps/session/login/verify/send', ip, { body: { challengeId: c, method: 'sms', language: 'EN' } })).status).toBe(200);
    expect(smsTo('+639175550131')[0]!.body).toContain('login verification code');
    expect(smsTo('+639175550131')[0]!.body).toContain('It expires in 3 minutes');
    const latest = codeIn(smsTo('+639175550131')[0]!.body);
    // the right code from another address finishes nothing (it did: a session for another address)
    const elsewhere = await call('/wps/session/login/verify', freshIp(), { body: { challengeId: c, method: 'sms', code: latest } });
    expect([elsewhere.status, elsewhere.json?.code]).toEqual([401, 'VERIFICATION_REQUIRED']);
    expect((await call('/wps/session/login/verify/send', freshIp(), { body: { challengeId: c, method: 'sms' } })).json?.code).toBe('VERIFICATION_REQUIRED');
    for (let i = 0; i < 4; i++) expect((await call('/wps/session/login/verify', ip, { body: { challengeId: c, method: 'sms', code: wrongFor(latest) } })).json?.code).toBe('SMS_CODE_INVALID');
    const fifth = await call('/wps/session/login/verify', ip, { body: { challengeId: c, method: 'sms', code: wrongFor(latest) } });
    expect([fifth.status, fifth.json?.code]).toEqual([429, 'VERIFICATION_LOCKED']);
    expect((await call('/wps/session/login/verify', ip, { body: { challengeId: c, method: 'sms', code: latest } })).json?.code).toBe('VERIFICATION_LOCKED');
  });

  it('counts authenticator guesses against the same budget', async () => {
    const home = await traveller('guess2fa02', '9175550102');
    const token = (await passwordLogin('guess2fa02', home)).json!.value!.token!;
    const setup = await call<{ secret: string }>('/wps/member/totp/setup', home, { body: {}, token });
    const { generate } = await import('otplib');
    const secret = setup.json!.value!.secret;
    expect((await call('/wps/member/totp/enable', home, { body: { code: await generate({ secret }) }, token })).status).toBe(200);
    for (let i = 0; i < SECOND_STEP_MAX_GUESSES_PER_HOUR; i++) {
      // each wrong guess from a login of its own: every challenge used to have its own 5 guesses
      const ip = freshIp();
      const c = (await passwordLogin('guess2fa02', ip)).json!.value!.challengeId!;
      expect((await call('/wps/session/login/verify', ip, { body: { challengeId: c, method: 'totp', code: '000000' } })).json?.code).toBe('TOTP_INVALID');
    }
    const ip = freshIp();
    const last = await passwordLogin('guess2fa02', ip);
    expect(last.json?.code).toBe('VERIFICATION_LOCKED');
  });

  it('an authenticator code is single-use: the one that turned it on, or one that finished a login, finishes no other login', async () => {
    const home = await traveller('replay2fa01', '9175550109');
    const token = (await passwordLogin('replay2fa01', home)).json!.value!.token!;
    const { secret } = (await call<{ secret: string }>('/wps/member/totp/setup', home, { body: {}, token })).json!.value!;
    const { generate } = await import('otplib');
    const enabling = await generate({ secret });
    expect((await call('/wps/member/totp/enable', home, { body: { code: enabling }, token })).status).toBe(200);
    const challenge = async () => {
      const ip = freshIp();
      return { ip, c: (await passwordLogin('replay2fa01', ip)).json!.value!.challengeId! };
    };
    // The enabling code is spent.
    const a = await challenge();
    const reused = await call('/wps/session/login/verify', a.ip, { body: { challengeId: a.c, method: 'totp', code: enabling } });
    expect([reused.status, reused.json?.code]).toEqual([400, 'TOTP_INVALID']);
    // The next step's code (within the one step of drift allowed) finishes one login, then no other.
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    expect((await call('/wps/session/login/verify', a.ip, { body: { challengeId: a.c, method: 'totp', code: next } })).status).toBe(200);
    const b = await challenge();
    const replay = await call('/wps/session/login/verify', b.ip, { body: { challengeId: b.c, method: 'totp', code: next } });
    expect([replay.status, replay.json?.code]).toEqual([400, 'TOTP_INVALID']);
  });

  it('a successful second step gives the budget back', async () => {
    await traveller('guess2fa03', '9175550103', 'g3@example.ph');
    for (let round = 0; round < 2; round++) {
      const ip = freshIp();
      const c = (await passwordLogin('guess2fa03', ip)).json!.value!.challengeId!;
      if (round) await pause(1100); // one message a second per address
      expect((await call('/wps/session/login/verify/send', ip, { body: { challengeId: c, method: 'email' } })).status).toBe(200);
      const code = codeIn(t.portal.sink.for('g3@example.ph')[0]!.body);
      for (let i = 0; i < SECOND_STEP_MAX_GUESSES_PER_HOUR - 1; i++) {
        expect((await call('/wps/session/login/verify', ip, { body: { challengeId: c, method: 'email', code: wrongFor(code) } })).json?.code).toBe('SMS_CODE_INVALID');
      }
      expect((await call('/wps/session/login/verify', ip, { body: { challengeId: c, method: 'email', code } })).status).toBe(200);
    }
  });

  it('25 correct-password logins do not send 25 SMS to the member', async () => {
    await traveller('flood2fa01', '9175550104');
    const attacker = freshIp();
    const challenges = new Set<string>();
    for (let i = 0; i < 25; i++) {
      // half the logins from one address, half from a new address each time
      const ip = i % 2 ? freshIp() : attacker;
      const r = await passwordLogin('flood2fa01', ip);
      expect(r.json?.code).toBe('VERIFICATION_REQUIRED');
      const c = r.json!.value!.challengeId!;
      if (ip === attacker) challenges.add(c);
      const sent = await call('/wps/session/login/verify/send', ip, { body: { challengeId: c, method: 'sms' } });
      expect([200, 429]).toContain(sent.status);
    }
    // one address keeps getting its open challenge back
    expect(challenges.size).toBe(1);
    // and the number is under the same send limits as every other SMS
    expect(smsTo('+639175550104').length).toBeLessThanOrEqual(SMS_MAX_PER_WINDOW);
    expect(smsTo('+639175550104').length).toBeGreaterThan(0);
  });

  it('second-step e-mails are under the same per-target send limits', async () => {
    await traveller('flood2fa02', '9175550105', 'flood@example.ph');
    for (let i = 0; i < SMS_MAX_PER_WINDOW + 2; i++) {
      const ip = freshIp();
      const c = (await passwordLogin('flood2fa02', ip)).json!.value!.challengeId!;
      await call('/wps/session/login/verify/send', ip, { body: { challengeId: c, method: 'email' } });
      await pause(1050);
    }
    expect(t.portal.sink.for('flood@example.ph').length).toBe(SMS_MAX_PER_WINDOW);
  });
});

describe('SMS code guesses', () => {
  it('a number has one guess budget across its codes: a resend brings no fresh guesses', async () => {
    await dev('/wps/dev/members', { account: 'smsguess01', password: 'abc12345', mobileNum: '9175550106' });
    let guesses = 0;
    let code = '';
    const body = { mobileNum: '9175550106', countryDialingCode: '63', purpose: 'login' };
    while (guesses < SMS_MAX_GUESSES_PER_WINDOW) {
      // a fresh code every 3 guesses, from a fresh address (the per-address limits are not the point here)
      if (guesses % 3 === 0) {
        await pause(1100);
        expect((await call('/wps/verification/sms/noLogin', freshIp(), { body })).status).toBe(200);
        code = codeIn(smsTo('+639175550106')[0]!.body);
      }
      const r = await call('/wps/session/login', freshIp(), { body: { username: '9175550106', password: wrongFor(code), type: 'sms', countryDialingCode: '63' } });
      expect(r.json?.code).toBe('SMS_CODE_INVALID');
      guesses++;
    }
    await pause(1100);
    await call('/wps/verification/sms/noLogin', freshIp(), { body });
    code = codeIn(smsTo('+639175550106')[0]!.body);
    const r = await call('/wps/session/login', freshIp(), { body: { username: '9175550106', password: code, type: 'sms', countryDialingCode: '63' } });
    expect(r.json).toMatchObject({ success: false, code: 'VERIFICATION_LOCKED' });
  });
});
