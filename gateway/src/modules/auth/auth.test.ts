import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { generate } from 'otplib';
import { api, connectSocket, startTestPortal, waitFor, type TestPortal } from '../../testing/test-portal.ts';

let t: TestPortal;
beforeAll(async () => {
  // TRUST_PROXY lets a test speak from several addresses through X-Forwarded-For.
  t = await startTestPortal({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await t.stop();
});

type Json = Record<string, unknown>;
let ipCounter = 10;
/** Every test speaks from its own address, so per-IP counters do not leak between tests. */
const freshIp = () => `10.1.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

function call<T = Json>(path: string, init: { method?: string; body?: unknown; token?: string; ip?: string } = {}) {
  // The dev helpers are the test's own tools: they answer this machine only, not a request forwarded for another address.
  const headers: Record<string, string> = path.startsWith('/wps/dev/') ? {} : { 'x-forwarded-for': init.ip ?? '10.0.0.1' };
  return api<T>(t.url, path, { ...init, headers });
}
async function bot(account: string, purpose: 'login' | 'sms-register' = 'login') {
  const c = (await call<{ botId: string }>(`/wps/botcheck?account=${encodeURIComponent(account)}&purpose=${purpose}`)).json!.value!;
  const a = (await call<{ answer: number; answerY: number }>(`/wps/dev/botcheck/${c.botId}`)).json!.value!;
  return { botId: c.botId, botAnswer: a.answer, botAnswerY: a.answerY };
}
async function captcha() {
  const c = (await call<{ captchaKey: string; image: string }>('/wps/captcha')).json!.value!;
  expect(c.image).toMatch(/^data:image\/png;base64,iVBOR/);
  const a = (await call<{ answer: string }>(`/wps/dev/captcha/${c.captchaKey}`)).json!.value!;
  return { captchaKey: c.captchaKey, captcha: a.answer };
}
async function lastCode(to: string): Promise<string> {
  const r = await call<{ list: Array<{ body: string }> }>(`/wps/dev/outbox?to=${encodeURIComponent(to)}`);
  const body = r.json!.value!.list[0]?.body ?? '';
  return /(\d{6})/.exec(body)?.[1] ?? '';
}
async function login(username: string, password: string, extra: Json = {}, ip?: string) {
  return call<{ token: string; isAgent: boolean; defaultPassword: boolean; firstTimeLogin: boolean; passwordExpired: boolean; isTrial: boolean }>(
    '/wps/session/login', { body: { username, password, type: 'username', ...(await bot(username)), ...extra }, ...(ip ? { ip } : {}) });
}
async function register(fields: Json, ip = freshIp()) {
  return call<{ token?: string; memberId: number }>('/wps/member/register', {
    method: 'PUT', ip, body: { password: 'abc12345', confirmPassword: 'abc12345', termsAccepted: true, ageConfirmed: true, payeeName: 'Juan Dela Cruz', birthday: '1990-01-01', ...(await captcha()), ...fields },
  });
}
async function member(body: Json) {
  return (await call<{ memberId: number }>('/wps/dev/members', { body })).json!.value!.memberId;
}

describe('registration', () => {
  it('registers by username and logs in automatically', async () => {
    const r = await register({ username: 'juan2026', email: 'juan@example.ph' });
    expect(r.status).toBe(200);
    expect(r.json?.value?.token).toBeTruthy();
    const info = await call<{ account: string; isAgent: boolean; isTrial: boolean; email: string }>('/wps/member/info', { token: r.json!.value!.token! });
    expect(info.json?.value).toMatchObject({ account: 'juan2026', isAgent: false, isTrial: false, email: 'j***@example.ph' });
  });

  it('enforces every field rule on the server with catalogue messages', async () => {
    const short = await register({ username: 'ab' });
    expect(short.status).toBe(400);
    expect(short.json).toMatchObject({ code: 'VALIDATION' });
    expect((short.json as unknown as { details: Json[] }).details).toContainEqual({ path: 'username', message: 'reg_pattern_1:6-16' });
    const mismatch = await register({ username: 'maria2026', confirmPassword: 'zzz12345' });
    expect((mismatch.json as unknown as { details: Json[] }).details).toContainEqual({ path: 'confirmPassword', message: 'Confirmation password is not correct.' });
    // The Philippine demo merchant screens identities: a full name of punctuation only is no name.
    const noName = await register({ username: 'maria2026', payeeName: '.. -' });
    expect(noName.status).toBe(400);
    expect((noName.json as unknown as { details: Json[] }).details.map((d) => d.path)).toContain('payeeName');
    expect((await register({ username: 'maria2026', termsAccepted: false })).json?.code).toBe('TERMS_NOT_ACCEPTED');
    expect((await register({ username: 'maria2026', ageConfirmed: false })).json?.code).toBe('UNDERAGE');
    const year = new Date().getUTCFullYear();
    // The demo merchant is Philippine: 21, not the spec's generic 18.
    expect((await register({ username: 'maria2026', birthday: `${year - 19}-01-01` })).json?.code).toBe('UNDERAGE');
    expect((await register({ username: 'maria2026', affiliateCode: 'NOPE1' })).json?.code).toBe('INVALID_INVITATION_CODE');
    expect((await register({ username: 'maria2026', captcha: '0000', captchaKey: 'x' })).json?.code).toBe('CAPTCHA_INVALID');
    expect((await register({ username: 'maria2026', unknownField: 1 })).status).toBe(400);
    expect((await register({ username: 'maria2026', birthday: `${year - 30}-01-01`, affiliateCode: 'LUCKY8' })).status).toBe(200);
    const dup = await register({ username: 'MARIA2026' });
    expect(dup.status).toBe(409);
    expect(dup.json?.code).toBe('ACCOUNT_EXISTS');
    const row = await t.portal.db.query<{ parent: string }>(
      `SELECT p.account AS parent FROM members m JOIN members p ON p.id = m.parent_id WHERE m.account_lower = 'maria2026'`);
    expect(row.rows[0]?.parent).toBe('agent01');
    const maria = (await login('maria2026', 'abc12345', {}, freshIp())).json!.value!.token;
    expect((await call<{ hasUpline?: boolean }>('/wps/member/info', { token: maria })).json!.value!.hasUpline).toBe(true);
  });

  it('checks an invitation code on its own', async () => {
    expect((await call('/wps/agent/affiliate?code=LUCKY8')).status).toBe(200);
    // Typed in small letters, the code names the same upline.
    expect((await call('/wps/agent/affiliate?code=lucky8')).status).toBe(200);
    expect((await call('/wps/agent/affiliate?code=WRONG')).json?.code).toBe('INVALID_INVITATION_CODE');
  });

  it('registers by mobile with a single-use SMS code and a password (the same rules as username registration)', async () => {
    const ip = freshIp();
    const smsBody = { mobileNo: '09171234567', countryDialingCode: '63' };
    // The bot check is on (the default): no slider, a slider solved for another number or for a login,
    // a wrong answer: each refused, and no code sent.
    const wrong = async () => {
      const b = await bot('09171234567', 'sms-register');
      return { ...b, botAnswer: (b.botAnswer + 40) % 200 };
    };
    for (const extra of [{}, await bot('09170000000', 'sms-register'), await bot('09171234567'), await wrong()]) {
      const refused = await call('/wps/verification/sms/register', { body: { ...smsBody, ...extra }, ip });
      expect(refused.json, JSON.stringify(extra)).toMatchObject({ success: false, code: 'BOT_CHECK_REQUIRED' });
    }
    expect((await t.portal.db.query(`SELECT 1 FROM sms_codes WHERE mobile_num LIKE '%9171234567'`)).rows).toEqual([]);
    // Registration switched off: no registration code is texted (one was, and could never be used).
    expect((await call('/wps/dev/merchant', { body: { modules: { DIRECTREG3: false } } })).status).toBe(200);
    try {
      const closed = await call('/wps/verification/sms/register', { body: { ...smsBody, ...(await bot('09171234567', 'sms-register')) }, ip });
      expect([closed.status, closed.json?.code]).toEqual([403, 'MODULE_DISABLED']);
      expect((await t.portal.db.query(`SELECT 1 FROM sms_codes WHERE mobile_num LIKE '%9171234567'`)).rows).toEqual([]);
    } finally {
      await call('/wps/dev/merchant', { body: { modules: { DIRECTREG3: true } } });
    }
    const solved = await bot('09171234567', 'sms-register');
    const sent = await call<{ expiredMinutes: number }>('/wps/verification/sms/register', { body: { ...smsBody, ...solved }, ip });
    expect(sent.json?.value?.expiredMinutes).toBe(1);
    // "response success, message, value.expiredMinutes" (spec section 7)
    expect(sent.json).toMatchObject({ success: true, message: 'Verification code sent' });
    // A solved slider is good for one send.
    expect((await call('/wps/verification/sms/register', { body: { ...smsBody, ...solved }, ip })).json).toMatchObject({ code: 'BOT_CHECK_REQUIRED' });
    const code = await lastCode('+639171234567');
    expect(code).toMatch(/^\d{6}$/);
    const base = { mobileNum: '9171234567', countryDialingCode: '63', verificationCode: code, termsAccepted: true, ageConfirmed: true, payeeName: 'Juan Dela Cruz', birthday: '1990-01-01' };
    // no password, a password against the pattern, a confirmation that differs: refused, the code is not spent
    for (const extra of [{}, { password: 'abc', confirmPassword: 'abc' }, { password: 'abc12345', confirmPassword: 'abc12346' }]) {
      const bad = await call('/wps/member/register/mobile', { method: 'PUT', ip, body: { ...base, ...extra, ...(await captcha()) } });
      expect(bad.status, JSON.stringify(extra)).toBe(400);
      expect(bad.json).toMatchObject({ success: false, code: 'VALIDATION' });
      expect((bad.json as { details?: Array<{ path: string }> }).details?.map((d) => d.path).some((p) => p === 'password' || p === 'confirmPassword')).toBe(true);
    }
    // An invitation or referral code that does not exist: refused, the SMS code is not spent (it was, and
    // the corrected form needed another text).
    for (const extra of [{ affiliateCode: 'NOSUCHCODE1' }, { referralCode: 'NOSUCH23' }]) {
      const badCode = await call('/wps/member/register/mobile', { method: 'PUT', ip, body: { ...base, password: 'abc12345', confirmPassword: 'abc12345', ...extra, ...(await captcha()) } });
      expect([badCode.status, badCode.json?.success], JSON.stringify(extra)).toEqual([400, false]);
    }
    const reg = await call<{ token: string }>('/wps/member/register/mobile', {
      method: 'PUT', ip, body: { ...base, password: 'abc12345', confirmPassword: 'abc12345', ...(await captcha()) },
    });
    expect(reg.json).toMatchObject({ success: true });
    const info = await call<{ account: string; mobileNum: string }>('/wps/member/info', { token: reg.json!.value!.token });
    expect(info.json?.value?.account).toBe('9171234567');
    // the password chosen signs in
    const signIn = await login('9171234567', 'abc12345', {}, ip);
    expect(signIn.json, JSON.stringify(signIn.json)).toMatchObject({ success: true });
    const again = await call('/wps/member/register/mobile', {
      method: 'PUT', ip, body: { ...base, password: 'abc12345', confirmPassword: 'abc12345', ...(await captcha()) },
    });
    expect(again.json?.code).toBe('SMS_CODE_INVALID');
    // A +84 number is another person's: their own account, named with the dialing code (it was
    // ACCOUNT_EXISTS, with the code spent). A Vietnamese mobile number has nine digits (0912 345 678).
    const vnSent = await call('/wps/verification/sms/register', { body: { mobileNo: '912345670', countryDialingCode: '84', ...(await bot('912345670', 'sms-register')) }, ip });
    expect(vnSent.status).toBe(200);
    const vn = await call<{ token: string }>('/wps/member/register/mobile', {
      method: 'PUT', ip, body: { ...base, mobileNum: '912345670', countryDialingCode: '84', verificationCode: await lastCode('+84912345670'), password: 'abc12345', confirmPassword: 'abc12345', ...(await captcha()) },
    });
    expect(vn.json, JSON.stringify(vn.json)).toMatchObject({ success: true });
    const vnInfo = await call<{ account: string }>('/wps/member/info', { token: vn.json!.value!.token });
    expect(vnInfo.json?.value?.account).toBe('84912345670');
    expect((await login('84912345670', 'abc12345', {}, ip)).json).toMatchObject({ success: true });
    // Digits that are no mobile number of the country (a Manila landline, 1234567) get no code (they did).
    for (const mobileNo of ['1234567', '0281234567']) {
      const landline = await call('/wps/verification/sms/register', { body: { mobileNo, countryDialingCode: '63', ...(await bot(mobileNo, 'sms-register')) }, ip });
      expect([mobileNo, landline.status, landline.json?.code]).toEqual([mobileNo, 400, 'INVALID_PHONE']);
    }
  });

  it('keeps nothing of a field the merchant has switched off (a transaction password of "x" and an ID number of "<>" were saved unchecked)', async () => {
    const r = await register({ username: 'offfields01', paymentPassword: 'x', idNumber: '!!<>!!', whatsapp: 'abc', line: 'l1' });
    expect(r.json).toMatchObject({ success: true });
    const row = (await t.portal.db.query<{ payment_password_hash: string | null; profile: Record<string, unknown> }>(
      `SELECT payment_password_hash, profile FROM members WHERE account_lower = 'offfields01'`)).rows[0]!;
    expect(row.payment_password_hash).toBeNull();
    expect(row.profile).not.toHaveProperty('idNumber');
    expect(row.profile).not.toHaveProperty('whatsapp');
    expect(row.profile).not.toHaveProperty('line');
    // a field that is on is kept
    expect(row.profile).toMatchObject({ birthday: '1990-01-01' });
  });

  it('proves an optional mobile number given on username registration (SMS verification on): without its code nothing is created', async () => {
    const ip = freshIp();
    const unproven = await register({ username: 'squatter01', mobileNum: '9175550101', countryDialingCode: '63' }, ip);
    expect(unproven.status).toBe(400);
    expect((await t.portal.db.query(`SELECT 1 FROM members WHERE account_lower = 'squatter01'`)).rows).toEqual([]);
    // with its code it is kept; without a number no code is asked
    const sent = await call('/wps/verification/sms/register', { body: { mobileNo: '09175550101', countryDialingCode: '63', ...(await bot('09175550101', 'sms-register')) }, ip });
    expect(sent.status).toBe(200);
    // A username already taken: refused before the code is spent, so the corrected form goes through with it.
    await register({ username: 'takenname01' }, ip);
    const taken = await register({ username: 'TakenName01', mobileNum: '9175550101', countryDialingCode: '63', verificationCode: await lastCode('+639175550101') }, ip);
    expect([taken.status, taken.json?.code]).toEqual([409, 'ACCOUNT_EXISTS']);
    const proven = await register({ username: 'prover01', mobileNum: '9175550101', countryDialingCode: '63', verificationCode: await lastCode('+639175550101') }, ip);
    expect(proven.json).toMatchObject({ success: true });
    expect((await register({ username: 'nonumber01' }, ip)).json).toMatchObject({ success: true });
  });
});

describe('SMS codes', () => {
  it('throttles to one a second and locks a number for 5 minutes after too many', async () => {
    const ip = freshIp();
    const body = { mobileNum: '9170000001', countryDialingCode: '63', purpose: 'login' };
    expect((await call('/wps/verification/sms/noLogin', { body, ip })).status).toBe(200);
    const fast = await call('/wps/verification/sms/noLogin', { body, ip });
    expect(fast.json?.code).toBe('SMS_THROTTLED');
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 1050));
      expect((await call('/wps/verification/sms/noLogin', { body, ip })).status).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 1050));
    const locked = await call('/wps/verification/sms/noLogin', { body, ip });
    expect(locked.status).toBe(429);
    expect(locked.json?.message).toBe('Too many requests, please try again after 5 minutes.');
    // Once the 5 minutes are over (the lock and the sends moved 5 minutes into the past), the number is
    // sent to again: the sends before the lock do not lock it a second time.
    const key = 'sms:DEMO:639170000001';
    await t.portal.db.query(`UPDATE rate_locks SET until = now() - interval '1 second' WHERE key = $1`, [key]);
    await t.portal.db.query(`UPDATE rate_events SET at = at - interval '5 minutes 1 second' WHERE key = $1`, [key]);
    expect((await call('/wps/verification/sms/noLogin', { body, ip })).status).toBe(200);
  });

  it("texts only the register settings' countries: another dialing code (a premium range) is a 400 and nothing is sent", async () => {
    const ip = freshIp();
    for (const countryDialingCode of ['882', '999', '1']) {
      const r = await call('/wps/verification/sms/noLogin', { body: { mobileNum: '9170000077', countryDialingCode, purpose: 'login' }, ip });
      expect([r.status, r.json?.success, r.json?.code]).toEqual([400, false, 'INVALID_PHONE']);
      expect((await call<{ list: unknown[] }>(`/wps/dev/outbox?to=${encodeURIComponent(`+${countryDialingCode}9170000077`)}`)).json!.value!.list).toHaveLength(0);
    }
  });

  it('login and reset codes go to members\' numbers only; a stranger\'s number gets the same answer and no text', async () => {
    await member({ account: 'smsvn01', password: 'abc12345', mobileNum: '912345678', dialingCode: '84' });
    const outbox = async (to: string) => (await call<{ list: unknown[] }>(`/wps/dev/outbox?to=${encodeURIComponent(to)}`)).json!.value!.list.length;
    let loginCode = '';
    for (const purpose of ['login', 'reset']) {
      // The member's +84 number gets its code; a +63 mobile number nobody has: 200, nothing sent. The same
      // nine digits under +63 are no Philippine mobile number (9XX XXX XXXX): 400, nothing sent either.
      const known = await call<{ expiredMinutes: number }>('/wps/verification/sms/noLogin', { body: { mobileNum: '912345678', countryDialingCode: '84', purpose }, ip: freshIp() });
      const stranger = await call<{ expiredMinutes: number }>('/wps/verification/sms/noLogin', { body: { mobileNum: '9912345678', countryDialingCode: '63', purpose }, ip: freshIp() });
      const notMobile = await call('/wps/verification/sms/noLogin', { body: { mobileNum: '912345678', countryDialingCode: '63', purpose }, ip: freshIp() });
      expect([notMobile.status, notMobile.json?.code]).toEqual([400, 'INVALID_PHONE']);
      expect([known.status, stranger.status]).toEqual([200, 200]);
      expect(stranger.json).toEqual(known.json);
      if (purpose === 'login') loginCode = await lastCode('+84912345678');
      await new Promise((r) => setTimeout(r, 1050));
    }
    expect(await outbox('+84912345678')).toBe(2);
    expect(await outbox('+63912345678')).toBe(0);
    expect(await outbox('+639912345678')).toBe(0);
    // The +84 member signs in with its code.
    const r = await call<{ token: string }>('/wps/session/login', { body: { username: '912345678', password: loginCode, type: 'sms', countryDialingCode: '84' }, ip: freshIp() });
    expect(r.status, r.text).toBe(200);
  });

  it('codes and the reset e-mail are written in the page\'s language (TY; EN for others; none: the brand\'s default)', async () => {
    await member({ account: 'tagalog1', password: 'abc12345', mobileNum: '9170000321', email: 'tagalog1@example.ph' });
    const outbox = async (to: string) => (await call<{ list: Array<{ subject?: string; body: string }> }>(`/wps/dev/outbox?to=${encodeURIComponent(to)}`)).json!.value!.list[0]!;
    const sms = async (language: string | undefined) => {
      const body = { mobileNum: '9170000321', countryDialingCode: '63', purpose: 'login', ...(language ? { language } : {}) };
      expect((await call('/wps/verification/sms/noLogin', { body, ip: freshIp() })).status).toBe(200);
      const text = (await outbox('+639170000321')).body;
      await new Promise((r) => setTimeout(r, 1050));
      return text.replace(/\d{6}/, '######');
    };
    expect(await sms('TY')).toBe('LuckyPeso: ang iyong code sa pag-log in ay ######. May bisa nang 5 minuto. Huwag itong ibahagi kaninuman.');
    expect(await sms('EN')).toBe('LuckyPeso: your login code is ######. Valid 5 minutes. Never share it.');
    expect(await sms('VI')).toBe('LuckyPeso: your login code is ######. Valid 5 minutes. Never share it.');
    const brandDefault = (await t.portal.db.query<{ l: string }>(`SELECT brand->>'defaultLanguage' AS l FROM merchants WHERE code = 'DEMO'`)).rows[0]!.l;
    expect(await sms(undefined)).toBe(await sms(brandDefault));
    expect((await call('/wps/verification/sms/noLogin', { body: { mobileNum: '9170000321', language: 'tagalog' }, ip: freshIp() })).status).toBe(400);
    const solved = await bot('9170000654', 'sms-register');
    const reg = await call('/wps/verification/sms/register', { body: { mobileNo: '9170000654', language: 'TY', ...solved }, ip: freshIp() });
    expect(reg.status, reg.text).toBe(200);
    expect((await outbox('+639170000654')).body).toMatch(/^LuckyPeso: ang iyong code sa pagpaparehistro ay \d{6}\./);
    expect((await call('/wps/member/password/email', { body: { username: 'tagalog1', email: 'tagalog1@example.ph', language: 'TY' }, ip: freshIp() })).status).toBe(200);
    const mail = await outbox('tagalog1@example.ph');
    expect(mail.body).toMatch(/^Kumusta tagalog1,\n\nBuksan ang link na ito sa loob ng 30 minuto/);
    expect(mail.body).toMatch(/resetToken=/);
  });

  it('security centre: a member adds a mobile number (its code and the login password) and an e-mail; others\' numbers and wrong passwords are refused', async () => {
    await member({ account: 'binder01', password: 'abc12345' });
    await member({ account: 'binder02', password: 'abc12345', mobileNum: '9170000888' });
    const token = (await login('binder01', 'abc12345', {}, freshIp())).json!.value!.token;
    const info = async () => (await call<{ mobileNum: string | null; email: string | null }>('/wps/member/info', { token })).json!.value!;
    expect(await info()).toMatchObject({ mobileNum: null, email: null });
    // No session: 401; a code for the number, in TY.
    expect((await call('/wps/verification/sms/bind', { body: { mobileNum: '9170000999' } })).status).toBe(401);
    expect((await call('/wps/verification/sms/bind', { token, body: { mobileNum: '9170000999', language: 'TY' }, ip: freshIp() })).status).toBe(200);
    const sent = (await call<{ list: Array<{ body: string }> }>('/wps/dev/outbox?to=%2B639170000999')).json!.value!.list[0]!.body;
    expect(sent).toMatch(/^LuckyPeso: ang iyong code sa pagdagdag ng numerong ito ay \d{6}\./);
    const code = /(\d{6})/.exec(sent)![1]!;
    const bind = (body: Json) => call<{ mobileNum: string | null; email: string | null }>('/wps/member/info/mobile', { token, method: 'PUT', body: { mobileNum: '9170000999', countryDialingCode: '63', verificationCode: code, password: 'abc12345', ...body }, ip: freshIp() });
    // A wrong password is refused before the code is looked at (no guess spent); a wrong code; another member's number.
    expect((await bind({ password: 'nope1234' })).json?.code).toBe('OLD_PASSWORD_WRONG');
    expect((await bind({ verificationCode: code === '000000' ? '111111' : '000000' })).json?.code).toBe('SMS_CODE_INVALID');
    expect((await bind({ mobileNum: '9170000888' })).json?.code).toBe('MOBILE_EXISTS');
    expect((await info()).mobileNum).toBeNull();
    const ok = await bind({});
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json!.value!.mobileNum).toBe('+63 917****999');
    expect((await info()).mobileNum).toBe('+63 917****999');
    // The code was used: a second bind with it is refused.
    expect((await bind({})).json?.code).toBe('SMS_CODE_INVALID');
    // The number now signs in by SMS and resets the password.
    await new Promise((r) => setTimeout(r, 1050));
    expect((await call('/wps/verification/sms/noLogin', { body: { mobileNum: '9170000999', purpose: 'reset' }, ip: freshIp() })).status).toBe(200);
    expect(await lastCode('+639170000999')).not.toBe(code);
    // E-mail: a bad address (400, nothing changed), a wrong password, then set; the reset by e-mail works with it.
    const email = (body: Json) => call<{ email: string | null }>('/wps/member/info/email', { token, method: 'PUT', body: { email: 'binder01@example.ph', password: 'abc12345', ...body } });
    expect((await email({ email: 'not-an-address' })).status).toBe(400);
    expect((await email({ password: 'nope1234' })).json?.code).toBe('OLD_PASSWORD_WRONG');
    expect((await info()).email).toBeNull();
    expect((await email({})).json!.value!.email).toBe('b***@example.ph');
    expect((await call('/wps/member/password/email', { body: { username: 'binder01', email: 'binder01@example.ph' }, ip: freshIp() })).status).toBe(200);
    // Unknown fields are refused, no 500.
    expect((await email({ extra: 1 })).status).toBe(400);
  });

  it('refuses bad numbers, and burns a code after five wrong guesses', async () => {
    expect((await call('/wps/verification/sms/noLogin', { body: { mobileNum: '12ab', countryDialingCode: '63' } })).json?.code).toBe('INVALID_PHONE');
    await member({ account: 'smsuser1', password: 'abc12345', mobileNum: '9170000002' });
    const ip = freshIp();
    await call('/wps/verification/sms/noLogin', { body: { mobileNum: '9170000002', countryDialingCode: '63' }, ip });
    const code = await lastCode('+639170000002');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await call('/wps/session/login', { body: { username: '9170000002', password: wrong, type: 'sms', countryDialingCode: '63' }, ip });
      expect(r.json?.code).toBe('SMS_CODE_INVALID');
    }
    const right = await call('/wps/session/login', { body: { username: '9170000002', password: code, type: 'sms', countryDialingCode: '63' }, ip });
    expect(right.json?.code).toBe('SMS_CODE_INVALID');
  });

  it('logs in by SMS code', async () => {
    await member({ account: 'smsuser2', password: 'abc12345', mobileNum: '9170000003' });
    const ip = freshIp();
    await call('/wps/verification/sms/noLogin', { body: { mobileNum: '09170000003', countryDialingCode: '63' }, ip });
    const code = await lastCode('+639170000003');
    const r = await call<{ token: string }>('/wps/session/login', { body: { username: '9170000003', password: code, type: 'sms', countryDialingCode: '63' }, ip });
    expect(r.status).toBe(200);
    expect(r.json?.value?.token).toBeTruthy();
  });
});

describe('login', () => {
  it('needs the bot check, refuses wrong passwords, then asks for a captcha', async () => {
    await member({ account: 'loginuser1', password: 'abc12345' });
    const ip = freshIp();
    const noBot = await call('/wps/session/login', { body: { username: 'loginuser1', password: 'abc12345' }, ip });
    expect(noBot.json?.code).toBe('BOT_CHECK_REQUIRED');
    for (let i = 0; i < 3; i++) {
      const r = await login('loginuser1', 'wrong999', {}, ip);
      expect(r.status).toBe(401);
      expect(r.json?.code).toBe('INVALID_CREDENTIALS');
    }
    const needs = await login('loginuser1', 'abc12345', {}, ip);
    expect(needs.json?.code).toBe('CAPTCHA_REQUIRED');
    expect(needs.json?.value).toMatchObject({ captcha: true });
    const ok = await login('loginuser1', 'abc12345', await captcha(), ip);
    expect(ok.status).toBe(200);
    expect(ok.json?.value).toMatchObject({ firstTimeLogin: true, isAgent: false, defaultPassword: false });
    const unknown = await login('nobody_here', 'abc12345', await captcha(), freshIp());
    expect(unknown.json?.code).toBe('INVALID_CREDENTIALS');
  });

  it('judges no more guesses than the captcha allows when they are sent at once', async () => {
    // Counted, judged, then recorded, 15 parallel guesses were all judged before the captcha was asked
    // for after 3: each attempt now holds a failure slot while it is judged.
    await member({ account: 'racer1', password: 'abc12345' });
    const bots = await Promise.all(Array.from({ length: 10 }, () => bot('racer1')));
    const answers = await Promise.all(bots.map((b, i) => call('/wps/session/login', { body: { username: 'racer1', password: `wrong${i}x`, type: 'username', ...b }, ip: freshIp() })));
    const codes = answers.map((r) => r.json?.code).sort();
    expect(codes).toEqual([...Array(7).fill('CAPTCHA_REQUIRED'), ...Array(3).fill('INVALID_CREDENTIALS')]);
    // The refused ones cost no failure: with a captcha the right password is let in.
    expect((await login('racer1', 'abc12345', await captcha(), freshIp())).status).toBe(200);
  });

  it("an address's captcha threshold holds for wrong passwords sent at once to many accounts", async () => {
    // Each account's own count was fine; only the address's was counted after judging (24 at once were judged).
    const ip = freshIp();
    const names = Array.from({ length: 12 }, (_, i) => `sprayed${i}`);
    for (const account of names) await member({ account, password: 'abc12345' });
    const bots = await Promise.all(names.map((n) => bot(n)));
    const answers = await Promise.all(names.map((username, i) => call('/wps/session/login', { body: { username, password: 'Summer2026', type: 'username', ...bots[i] }, ip })));
    const codes = answers.map((r) => r.json?.code).sort();
    // captchaAfterFailures 3 -> 9 failures per address
    expect(codes, JSON.stringify(codes)).toEqual([...Array(3).fill('CAPTCHA_REQUIRED'), ...Array(9).fill('INVALID_CREDENTIALS')]);
  });

  it('a signed-in member has one budget of wrong passwords: old passwords, and comparisons that guess the other password', async () => {
    const session = async (account: string) => (await call<{ token: string }>('/wps/dev/sessions', { body: { account } })).json!.value!.token;
    // The old password of a change: five wrong ones lock it, the right one included.
    await member({ account: 'oldguess1', password: 'login12345' });
    let token = await session('oldguess1');
    for (let i = 0; i < 5; i++) {
      expect((await call('/wps/member/password', { token, body: { oldPassword: `wrong${i}xx`, newPassword: 'fresh12345', confirmNewPassword: 'fresh12345' } })).json?.code).toBe('OLD_PASSWORD_WRONG');
    }
    const late = await call('/wps/member/password', { token, body: { oldPassword: 'login12345', newPassword: 'fresh12345', confirmNewPassword: 'fresh12345' } });
    expect([late.status, late.json?.code]).toEqual([429, 'WITHDRAW_PASSWORD_LOCKED']);

    // A new login password is compared with the transaction password: each change guessed it, without
    // limit (PASSWORDS_MUST_DIFFER told when a guess was right). Comparisons have a budget of their own:
    // five in 15 minutes, then changes wait; right passwords spend nothing of the wrong-password budget.
    await member({ account: 'cmpguess1', password: 'login12345' });
    token = await session('cmpguess1');
    expect((await call('/wps/member/withdraw-password', { token, body: { loginPassword: 'login12345', newWithdrawPassword: 'pay123456', confirmNewWithdrawPassword: 'pay123456' } })).status).toBe(200);
    let current = 'login12345';
    for (let i = 0; i < 5; i++) {
      const next = `guess${i}aaa`;
      const r = await call('/wps/member/password', { token: await session('cmpguess1'), body: { oldPassword: current, newPassword: next, confirmNewPassword: next } });
      expect(r.status, `change ${i}`).toBe(200);
      current = next;
    }
    const right = await call('/wps/member/password', { token: await session('cmpguess1'), body: { oldPassword: current, newPassword: 'pay123456', confirmNewPassword: 'pay123456' } });
    expect([right.status, right.json?.code]).toEqual([429, 'PASSWORD_CHANGES_LOCKED']);
    // ... and the transaction password still works: five correct changes are no wrong passwords
    token = await session('cmpguess1');
    const bank = await call('/wps/v2/bank-accounts', { token, body: { bankName: 'BPI', accountName: 'Ana Cruz', accountNumber: '1234567890', withdrawPassword: 'pay123456' } });
    expect(bank.status, JSON.stringify(bank.json)).toBe(200);
  });

  it('takes the mobile number for the username when MOBILENUMPASSREG3 is on (mobile number + password login), and only then', async () => {
    await member({ account: 'mobilepass1', password: 'abc12345', mobileNum: '9170000177' });
    // Off (the demo's setting): a number is only a username, and no account has that name.
    expect((await login('09170000177', 'abc12345', {}, freshIp())).json?.code).toBe('INVALID_CREDENTIALS');
    await call('/wps/dev/merchant', { body: { modules: { MOBILENUMPASSREG3: true } } });
    try {
      // On: local and international writings of the number, the form's dialing code or the default 63
      // (from one address: a login from a new one asks for a second step).
      const ip = freshIp();
      for (const [username, extra] of [['09170000177', {}], ['+63 917 000 0177', {}], ['9170000177', { countryDialingCode: '63' }]] as const) {
        const r = await login(username, 'abc12345', extra, ip);
        expect([username, r.status, r.json?.code]).toEqual([username, 200, undefined]);
        const info = await call<{ account: string }>('/wps/member/info', { token: r.json!.value!.token });
        expect(info.json?.value?.account).toBe('mobilepass1');
      }
      // The password still decides; an unknown number or another country's is not an account.
      expect((await login('09170000177', 'wrong999', {}, freshIp())).json?.code).toBe('INVALID_CREDENTIALS');
      expect((await login('09170000178', 'abc12345', {}, freshIp())).json?.code).toBe('INVALID_CREDENTIALS');
      expect((await login('9170000177', 'abc12345', { countryDialingCode: '84' }, freshIp())).json?.code).toBe('INVALID_CREDENTIALS');
      // The username keeps working beside it.
      expect((await login('mobilepass1', 'abc12345', {}, ip)).status).toBe(200);
      // Another country's number whose digits are the home number's account name: the number decides
      // when its code is given or written in full (it signed in to the +63 account).
      // (A Vietnamese mobile number has nine digits: the +63 account is named with them.)
      await member({ account: '917000018', password: 'phpass123' });
      await member({ account: '84917000018', password: 'vnpass123', mobileNum: '917000018', dialingCode: '84' });
      for (const [username, extra] of [['917000018', { countryDialingCode: '84' }], ['+84 917 000 018', {}]] as const) {
        const vn = await login(username, 'vnpass123', extra, ip);
        expect([username, vn.status]).toEqual([username, 200]);
        expect((await call<{ account: string }>('/wps/member/info', { token: vn.json!.value!.token })).json?.value?.account).toBe('84917000018');
        expect((await login(username, 'phpass123', extra, freshIp())).json?.code).toBe('INVALID_CREDENTIALS');
      }
      const ph = await login('917000018', 'phpass123', {}, ip);
      expect((await call<{ account: string }>('/wps/member/info', { token: ph.json!.value!.token })).json?.value?.account).toBe('917000018');
    } finally {
      await call('/wps/dev/merchant', { body: { modules: { MOBILENUMPASSREG3: false } } });
    }
  });

  it('keeps agents and non-members in their place', async () => {
    await member({ account: 'agentx1', password: 'abc12345', type: 42 });
    await member({ account: 'playerx1', password: 'abc12345', type: 0 });
    await member({ account: 'operx1', password: 'abc12345', type: 95 });
    const a = await login('agentx1', 'abc12345', { agentLogin: true }, freshIp());
    expect(a.json?.value?.isAgent).toBe(true);
    expect((await login('playerx1', 'abc12345', { agentLogin: true }, freshIp())).json?.code).toBe('NON_AGENT');
    expect((await login('operx1', 'abc12345', {}, freshIp())).json?.code).toBe('NON_MEMBER');
  });

  it('forces a change of the default password, skipping the old one, then logs in again', async () => {
    const ip = freshIp();
    const r = await login('player01', '{secret}', {}, ip);
    expect(r.json?.value?.defaultPassword).toBe(true);
    const token = r.json!.value!.token;
    // Until it changes, the session (a reload, another tab: the same token) reads but writes nothing else.
    const info = await call<{ passwordChangeRequired?: boolean }>('/wps/member/info', { token, ip });
    expect(info.json?.value?.passwordChangeRequired).toBe(true);
    expect((await call('/wps/v2/wallets/balance', { token, ip })).status).toBe(200);
    const icon = await call('/wps/member/info/icon', { method: 'PUT', body: { icon: 'a02' }, token, ip });
    expect([icon.status, icon.json?.code]).toEqual([403, 'PASSWORD_CHANGE_REQUIRED']);
    const launch = await call('/wps/game/launchGame', { body: { gameCode: 'HOUSE_SLOT' }, token, ip });
    expect([launch.status, launch.json?.code]).toEqual([403, 'PASSWORD_CHANGE_REQUIRED']);
    const weak = await call('/wps/member/password', { body: { newPassword: 'short', confirmNewPassword: 'short' }, token, ip });
    expect(weak.json?.code).toBe('PASSWORD_RULE');
    const changed = await call<{ token: string }>('/wps/member/password', { body: { newPassword: 'newpass123', confirmNewPassword: 'newpass123' }, token, ip });
    expect(changed.status).toBe(200);
    expect((await call('/wps/member/info', { token })).status).toBe(401);
    const after = await call<{ passwordChangeRequired?: boolean }>('/wps/member/info', { token: changed.json!.value!.token });
    expect([after.status, after.json?.value?.passwordChangeRequired]).toEqual([200, false]);
    expect((await call('/wps/member/info/icon', { method: 'PUT', body: { icon: 'a02' }, token: changed.json!.value!.token, ip })).status).toBe(200);
    const next = await call('/wps/member/password', { body: { newPassword: 'other12345', confirmNewPassword: 'other12345' }, token: changed.json!.value!.token, ip });
    expect(next.json?.code).toBe('VALIDATION');
    const wrongOld = await call('/wps/member/password', { body: { oldPassword: 'nope', newPassword: 'other12345', confirmNewPassword: 'other12345' }, token: changed.json!.value!.token, ip });
    expect(wrongOld.json?.code).toBe('OLD_PASSWORD_WRONG');
    // The same password again is no change: refused on the field, the session kept.
    const same = await call('/wps/member/password', { body: { oldPassword: 'newpass123', newPassword: 'newpass123', confirmNewPassword: 'newpass123' }, token: changed.json!.value!.token, ip });
    expect([same.status, same.json?.code, (same.json as { details?: Array<{ path: string }> } | undefined)?.details?.[0]?.path]).toEqual([400, 'PASSWORD_UNCHANGED', 'newPassword']);
    expect((await call('/wps/member/info', { token: changed.json!.value!.token })).status).toBe(200);
  });

  it('reports an expired password when the forced-change module is on', async () => {
    await member({ account: 'expired1', password: 'abc12345', passwordExpired: true });
    const ip = freshIp();
    const r = await login('expired1', 'abc12345', {}, ip);
    expect(r.json?.value?.passwordExpired).toBe(true);
    // The session must change it before anything else; the old password was just proven, so it is not asked again.
    const token = r.json!.value!.token;
    expect((await call<{ passwordChangeRequired?: boolean }>('/wps/member/info', { token, ip })).json?.value?.passwordChangeRequired).toBe(true);
    expect((await call('/wps/member/info/icon', { method: 'PUT', body: { icon: 'a03' }, token, ip })).json?.code).toBe('PASSWORD_CHANGE_REQUIRED');
    // The password it already has is no change: the forced change cannot be skipped by typing it again.
    const same = await call('/wps/member/password', { body: { newPassword: 'abc12345', confirmNewPassword: 'abc12345' }, token, ip });
    expect([same.status, same.json?.code]).toEqual([400, 'PASSWORD_UNCHANGED']);
    expect((await call<{ passwordChangeRequired?: boolean }>('/wps/member/info', { token, ip })).json?.value?.passwordChangeRequired).toBe(true);
    const changed = await call<{ token: string; passwordExpired: boolean }>('/wps/member/password', { body: { newPassword: 'fresh12345', confirmNewPassword: 'fresh12345' }, token, ip });
    expect([changed.status, changed.json?.value?.passwordExpired]).toEqual([200, false]);
    expect((await call('/wps/member/info/icon', { method: 'PUT', body: { icon: 'a03' }, token: changed.json!.value!.token, ip })).status).toBe(200);
  });

  it('blocks an account after 100 failed logins in an hour', async () => {
    await call('/wps/dev/merchant', { body: { security: { botCheck: false, captchaAfterFailures: 100 } } });
    try {
      await member({ account: 'bruteuser', password: 'abc12345' });
      for (let i = 0; i < 100; i++) {
        const r = await call('/wps/session/login', { body: { username: 'bruteuser', password: `guess${i}` }, ip: `10.9.${Math.floor(i / 200)}.${i % 200}` });
        if (r.json?.code !== 'INVALID_CREDENTIALS') throw new Error(`attempt ${i}: ${r.json?.code}`);
      }
      const locked = await call('/wps/session/login', { body: { username: 'bruteuser', password: 'abc12345' }, ip: freshIp() });
      expect(locked.json?.code).toBe('LOGIN_LOCKED');
    } finally {
      await call('/wps/dev/merchant', { body: { security: { botCheck: true, captchaAfterFailures: 3 } } });
    }
  });

  it('asks a second step from a new address: SMS, e-mail or authenticator', async () => {
    await member({ account: 'traveler1', password: 'abc12345', mobileNum: '9170000009', email: 'trav@example.ph' });
    const home = freshIp();
    const first = await login('traveler1', 'abc12345', {}, home);
    expect(first.status).toBe(200);
    const token = first.json!.value!.token;
    // enrol an authenticator
    const setup = await call<{ secret: string; qr: string }>('/wps/member/totp/setup', { body: {}, token, ip: home });
    expect(setup.json?.value?.qr).toMatch(/^data:image\/png;base64,/);
    const secret = setup.json!.value!.secret;
    expect((await call('/wps/member/totp/enable', { body: { code: '000000' }, token, ip: home })).json?.code).toBe('TOTP_INVALID');
    expect((await call('/wps/member/totp/enable', { body: { code: await generate({ secret }) }, token, ip: home })).status).toBe(200);
    // A session cannot set up another one while it is on: that turned the working one off (a stolen
    // session removed the second factor without a password or a code).
    const again = await call('/wps/member/totp/setup', { body: {}, token, ip: home });
    expect([again.status, again.json?.code]).toEqual([409, 'INVALID_STATE']);
    expect((await call<{ totpEnabled: boolean }>('/wps/member/info', { token, ip: home })).json?.value?.totpEnabled).toBe(true);

    const away = freshIp();
    const second = await login('traveler1', 'abc12345', {}, away);
    expect(second.json?.code).toBe('VERIFICATION_REQUIRED');
    const ch = second.json!.value as unknown as { challengeId: string; methods: string[] };
    expect(ch.methods).toEqual(['sms', 'email', 'totp']);
    await call('/wps/session/login/verify/send', { body: { challengeId: ch.challengeId, method: 'email' }, ip: away });
    const mailed = await lastCode('trav@example.ph');
    expect(mailed).toMatch(/^\d{6}$/);
    const bad = await call('/wps/session/login/verify', { body: { challengeId: ch.challengeId, method: 'email', code: mailed === '000000' ? '111111' : '000000' }, ip: away });
    expect(bad.json?.code).toBe('SMS_CODE_INVALID');
    const ok = await call<{ token: string }>('/wps/session/login/verify', { body: { challengeId: ch.challengeId, method: 'email', code: mailed }, ip: away });
    expect(ok.status).toBe(200);
    const reuse = await call('/wps/session/login/verify', { body: { challengeId: ch.challengeId, method: 'email', code: mailed }, ip: away });
    expect(reuse.json?.code).toBe('VERIFICATION_REQUIRED');

    const elsewhere = freshIp();
    const third = await login('traveler1', 'abc12345', {}, elsewhere);
    const ch3 = third.json!.value as unknown as { challengeId: string };
    // The next step's code: the current one turned the authenticator on and is spent (single-use).
    const viaTotp = await call('/wps/session/login/verify', { body: { challengeId: ch3.challengeId, method: 'totp', code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }) }, ip: elsewhere });
    expect(viaTotp.status).toBe(200);
  });
});

describe('sessions', () => {
  it('keeps the token across reloads in an HttpOnly cookie of its own call only, and logout clears it', async () => {
    await member({ account: 'keeper01', password: 'abc12345' });
    const token = (await login('keeper01', 'abc12345', {}, freshIp())).json!.value!.token;
    const keep = `${t.url}/wps/session/keep`;
    const restore = async (cookie?: string) => {
      const r = await fetch(keep, { headers: cookie ? { cookie } : {} });
      return { status: r.status, setCookie: r.headers.get('set-cookie'), cacheControl: r.headers.get('cache-control'), json: (await r.json()) as { value?: { token: string | null } } };
    };
    expect((await restore()).json.value).toEqual({ token: null });
    // other cookies of the host (an identity provider on another port, another service) are not
    // ours: a restore without ours clears nothing, so it cannot undo a keep it raced with
    const foreign = await restore('_session=abc; _interaction=def');
    expect(foreign.json.value).toEqual({ token: null });
    expect(foreign.setCookie).toBeNull();
    // keeping needs the session itself
    expect((await fetch(keep, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    const kept = await fetch(keep, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
    expect(kept.status).toBe(200);
    const set = kept.headers.get('set-cookie') ?? '';
    expect(set).toContain(`portal_session=${token}`);
    expect(set).toMatch(/Path=\/wps\/session\/keep/);
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Strict/);
    expect(set).not.toMatch(/Expires|Max-Age/i); // gone with the browser session
    const restored = await restore(`portal_session=${token}`);
    expect(restored.json.value).toEqual({ token });
    // An answer that carries the token, or a signed-in member's data, is kept by no cache.
    expect(restored.cacheControl).toBe('private, no-store');
    expect((await fetch(`${t.url}/wps/member/info`, { headers: { authorization: `Bearer ${token}` } })).headers.get('cache-control')).toBe('private, no-store');
    // during maintenance too (a page reloaded then read 503 as no session and showed the player signed
    // out once it ended); everything else stays closed
    expect((await call('/wps/dev/merchant', { body: { maintenance: true } })).status).toBe(200);
    try {
      expect((await restore(`portal_session=${token}`)).json.value).toEqual({ token });
      expect((await fetch(`${t.url}/wps/member/info`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(503);
    } finally {
      await call('/wps/dev/merchant', { body: { maintenance: false } });
    }
    // a junk or unknown cookie restores nothing and is cleared
    const junk = await restore(`portal_session=${'x'.repeat(43)}`);
    expect(junk.json.value).toEqual({ token: null });
    expect(junk.setCookie).toMatch(/portal_session=;.*Expires=Thu, 01 Jan 1970/);
    // logout clears it, and the revoked token is not restored
    const out = await fetch(`${t.url}/wps/session/logout`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/portal_session=;.*Path=\/wps\/session\/keep/);
    expect((await restore(`portal_session=${token}`)).json.value).toEqual({ token: null });
  });

  it('logout revokes the token and closes the member sockets within a second', async () => {
    await member({ account: 'leaver01', password: 'abc12345' });
    const r = await login('leaver01', 'abc12345', {}, freshIp());
    const token = r.json!.value!.token;
    const s = await connectSocket(t.url, { token });
    const closedAt = new Promise<number>((resolve) => s.once('disconnect', () => resolve(Date.now())));
    const start = Date.now();
    const out = await call('/wps/session/logout', { method: 'DELETE', token });
    expect(out.status).toBe(200);
    expect((await closedAt) - start).toBeLessThan(1000);
    expect((await call('/wps/member/info', { token })).status).toBe(401);
    expect((await call('/wps/session/logout', { method: 'DELETE', token })).status).toBe(401);
    await expect(connectSocket(t.url, { token })).rejects.toThrow(/UNAUTHORIZED/);
    // The event names the session that ended: the member's pages of another session stay signed in.
    const ev = await t.portal.db.query<{ payload: { reason: string; session?: string } }>(
      `SELECT o.payload FROM outbox o JOIN members m ON o.audience = 'user:' || m.id WHERE m.account = 'leaver01' AND o.type = 'system.logout' ORDER BY o.pos DESC LIMIT 1`);
    expect(ev.rows[0]?.payload).toEqual({ reason: 'logout', session: createHash('sha256').update(token).digest('hex').slice(0, 16) });
  });

  it('disabling an account ends its sessions and sockets and refuses new logins', async () => {
    const id = await member({ account: 'badguy01', password: 'abc12345' });
    const r = await login('badguy01', 'abc12345', {}, freshIp());
    const s = await connectSocket(t.url, { token: r.json!.value!.token });
    const closed = new Promise((resolve) => s.once('disconnect', resolve));
    await call(`/wps/dev/members/${id}/disable`, { body: {} });
    await closed;
    expect((await call('/wps/member/info', { token: r.json!.value!.token })).status).toBe(401);
    expect((await login('badguy01', 'abc12345', {}, freshIp())).json?.code).toBe('ACCOUNT_DISABLED');
  });

  it('stores only hashes of tokens', async () => {
    const r = await login('agentx1', 'abc12345', {}, freshIp());
    const token = r.json!.value!.token;
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const rows = await t.portal.db.query<{ token_hash: Buffer }>('SELECT token_hash FROM sessions');
    expect(rows.rows.some((x) => Buffer.from(x.token_hash).toString('base64url') === token)).toBe(false);
  });
});

describe('recovery and free play', () => {
  it('builds the reset link from the merchant\'s domain, never from the Host header', async () => {
    await member({ account: 'hostreset', password: 'abc12345', email: 'hostreset@example.ph' });
    const body = { username: 'hostreset', email: 'hostreset@example.ph' };
    const forgot = (headers: Record<string, string> = {}) => api(t.url, '/wps/member/password/email', { body, headers: { 'x-forwarded-for': freshIp(), ...headers } });
    const mails = async () => (await call<{ list: Array<{ body: string }> }>('/wps/dev/outbox?to=hostreset@example.ph')).json!.value!.list.map((m) => m.body);

    // The attack: a Host the merchant does not own, alone, with the merchant's code, or as a trusted proxy's X-Forwarded-Host.
    for (const headers of [{ host: 'evil.example:8080' }, { host: 'evil.example', 'x-merchant-code': 'DEMO' }, { 'x-forwarded-host': 'evil.example' }] as Array<Record<string, string>>) {
      const r = await forgot(headers);
      expect(r.status, `${JSON.stringify(headers)}: ${r.text}`).toBe(400);
      expect(r.json).toMatchObject({ success: false, code: 'UNKNOWN_MERCHANT' });
    }
    expect(await mails()).toEqual([]);
    // Refused before counting: the address's send limit is untouched.
    expect((await t.portal.db.query(`SELECT 1 FROM rate_events WHERE key = 'mail:DEMO:hostreset@example.ph'`)).rows).toEqual([]);

    // The merchant's own domain: the link is https://<main_domain>, whatever the request's scheme and port.
    await t.portal.db.query(`UPDATE merchants SET domains = ARRAY['play.luckypeso.test'] WHERE code = 'DEMO'`);
    t.portal.merchants.invalidate();
    try {
      expect((await forgot({ host: 'play.luckypeso.test:8443' })).status).toBe(200);
      expect((await mails())[0]).toMatch(/^(Hello|Kumusta)[\s\S]*\nhttps:\/\/luckypeso\.example\/\?resetToken=[A-Za-z0-9_-]+\n/);
    } finally {
      await t.portal.db.query(`UPDATE merchants SET domains = '{}' WHERE code = 'DEMO'`);
      t.portal.merchants.invalidate();
    }
    // Outside production a loopback request (npm start on localhost) links back to itself (a second
    // mail to the same address, a second later: one a second).
    await new Promise((r) => setTimeout(r, 1100));
    expect((await forgot()).status).toBe(200);
    expect((await mails())[0]).toContain(`\n${t.url}/?resetToken=`);
  });

  it('takes the forgot-password call as a form POST too (spec section 7), validated the same', async () => {
    await member({ account: 'formreset', password: 'abc12345', email: 'formreset@example.ph' });
    const post = (body: string) => fetch(`${t.url}/wps/member/password/email`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshIp() }, body,
    });
    const ok = await post('username=formreset&email=formreset%40example.ph');
    expect(ok.status, await ok.clone().text()).toBe(200);
    const mails = (await call<{ list: Array<{ body: string }> }>('/wps/dev/outbox?to=formreset@example.ph')).json!.value!.list;
    expect(mails).toHaveLength(1);
    const wrong = await post('username=formreset&email=other%40example.ph');
    expect([wrong.status, ((await wrong.json()) as { code: string }).code]).toEqual([404, 'USER_NOT_FOUND']);
    // Nested or repeated fields are not strings: refused as invalid input, nothing sent.
    const nested = await post('username[a]=formreset&email=formreset%40example.ph&email=x');
    expect(nested.status).toBe(400);
  });

  it('resets a password through the e-mailed link, once', async () => {
    await member({ account: 'forgetful', password: 'abc12345', email: 'forget@example.ph' });
    expect((await call('/wps/member/password/email', { body: { username: 'forgetful', email: 'other@example.ph' } })).json?.message).toBe('Username/Email does not exist');
    // A malformed address or an empty username is a field error (it read "does not exist")
    for (const body of [{ username: 'forgetful', email: 'notanemail' }, { username: '  ', email: 'forget@example.ph' }]) {
      const bad = await call('/wps/member/password/email', { body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.json).toMatchObject({ success: false, code: 'VALIDATION' });
    }
    let links = 0;
    const link = async () => {
      // One mail a second to an address.
      if (links++) await new Promise((r) => setTimeout(r, 1100));
      expect((await call('/wps/member/password/email', { body: { username: 'forgetful', email: 'FORGET@example.ph' } })).status).toBe(200);
      const mail = (await call<{ list: Array<{ body: string }> }>('/wps/dev/outbox?to=forget@example.ph')).json!.value!.list[0]!.body;
      return /resetToken=([A-Za-z0-9_-]+)/.exec(mail)![1]!;
    };
    // A password the rules refuse leaves the link usable.
    let resetToken = await link();
    expect((await call('/wps/member/password/reset', { body: { resetToken, newPassword: 'short', confirmNewPassword: 'short' } })).json?.code).toBe('PASSWORD_RULE');
    // Not to the transaction password: the refusal spends the link (one guess of it per link).
    await t.portal.db.query(`UPDATE members SET payment_password_hash = $1 WHERE account_lower = 'forgetful'`, [await t.portal.hasher.hash('pay12345')]);
    const same = await call('/wps/member/password/reset', { body: { resetToken, newPassword: 'pay12345', confirmNewPassword: 'pay12345' } });
    expect([same.status, same.json?.code]).toEqual([400, 'PASSWORDS_MUST_DIFFER']);
    expect((await call('/wps/member/password/reset', { body: { resetToken, newPassword: 'fresh1234', confirmNewPassword: 'fresh1234' } })).json?.code).toBe('RESET_TOKEN_INVALID');
    // Nor to the password it has (a change to it is refused too).
    resetToken = await link();
    const current = await call('/wps/member/password/reset', { body: { resetToken, newPassword: 'abc12345', confirmNewPassword: 'abc12345' } });
    expect([current.status, current.json?.code]).toEqual([400, 'PASSWORD_UNCHANGED']);
    resetToken = await link();
    const r = await call<{ token: string }>('/wps/member/password/reset', { body: { resetToken, newPassword: 'fresh1234', confirmNewPassword: 'fresh1234' } });
    expect(r.status).toBe(200);
    expect((await call('/wps/member/password/reset', { body: { resetToken, newPassword: 'fresh5678', confirmNewPassword: 'fresh5678' } })).json?.code).toBe('RESET_TOKEN_INVALID');
    // from the address the reset came from: a new one would ask for a second step (the member has an e-mail)
    expect((await login('forgetful', 'fresh1234')).status).toBe(200);
  });

  it('limits reset e-mails per address as well as per username (no probing of username/e-mail pairs)', async () => {
    const ip = freshIp();
    const codes: Array<string | undefined> = [];
    for (let i = 0; i < 21; i++) {
      const r = await call('/wps/member/password/email', { body: { username: `probe${i}`, email: `probe${i}@example.ph` }, ip });
      codes.push(r.json?.code);
    }
    // 20 answers that say whether the pair exists, then refusals for any name from that address
    expect(codes.slice(0, 20)).toEqual(Array(20).fill('USER_NOT_FOUND'));
    expect(codes[20]).toBe('TOO_MANY_REQUESTS');
    expect((await call('/wps/member/password/email', { body: { username: 'probe99', email: 'probe99@example.ph' }, ip })).json?.code).toBe('TOO_MANY_REQUESTS');
    // another address is not affected
    expect((await call('/wps/member/password/email', { body: { username: 'probe99', email: 'probe99@example.ph' }, ip: freshIp() })).json?.code).toBe('USER_NOT_FOUND');
  });

  it('counts wrong e-mails against the address that sent them, not the account: its owner can still reset; one mail a second', async () => {
    await member({ account: 'lockedout1', password: 'abc12345', email: 'lockedout1@example.ph' });
    // Someone else, from other addresses, tries the username with wrong e-mails, more than the old per-account limit.
    for (let i = 0; i < 7; i++) {
      const r = await call('/wps/member/password/email', { body: { username: 'lockedout1', email: `x${i}@attacker.example` }, ip: freshIp() });
      expect(r.json?.code).toBe('USER_NOT_FOUND');
    }
    const ip = freshIp();
    const own = () => call('/wps/member/password/email', { body: { username: 'lockedout1', email: 'lockedout1@example.ph' }, ip });
    expect((await own()).status).toBe(200);
    // At once again: refused (a mail a second per address, as SMS codes), and no second mail.
    const again = await own();
    expect([again.status, again.json?.code]).toEqual([429, 'SMS_THROTTLED']);
    const mails = (await call<{ list: unknown[] }>('/wps/dev/outbox?to=lockedout1@example.ph')).json!.value!.list;
    expect(mails).toHaveLength(1);
  });

  it('resets a password by mobile code and signs in', async () => {
    await member({ account: 'mobforget', password: 'abc12345', mobileNum: '9170000077' });
    const ip = freshIp();
    await call('/wps/verification/sms/noLogin', { body: { mobileNum: '9170000077', countryDialingCode: '63', purpose: 'reset' }, ip });
    const code = await lastCode('+639170000077');
    const r = await call<{ token: string }>('/wps/member/password/verification', { body: { mobileNum: '9170000077', countryDialingCode: '63', verificationCode: code, newPassword: 'mobile123' }, ip });
    expect(r.status).toBe(200);
    expect(r.json?.value?.token).toBeTruthy();
  });

  it('a member picks a profile picture (PUT /wps/member/info/icon): shown as imgUrl; anything else is refused with nothing changed', async () => {
    await member({ account: 'iconpick', password: 'abc12345' });
    const token = (await login('iconpick', 'abc12345', {}, freshIp())).json!.value!.token;
    const info = async () => (await call<{ imgUrl: string | null }>('/wps/member/info', { token })).json!.value!.imgUrl;
    expect(await info()).toBeNull();
    // no parent in the team tree: no upline to transfer to (the client then offers no "to my upline")
    expect((await call<{ hasUpline?: boolean }>('/wps/member/info', { token })).json!.value!.hasUpline).toBe(false);
    const r = await call<{ imgUrl: string }>('/wps/member/info/icon', { method: 'PUT', body: { icon: 'a07' }, token });
    expect(r.status).toBe(200);
    expect(r.json!.value).toEqual({ imgUrl: '/img/avatar/a07.svg' });
    expect(await info()).toBe('/img/avatar/a07.svg');
    for (const body of [{ icon: 'a13' }, { icon: '../x' }, { icon: 7 }, {}]) {
      const bad = await call('/wps/member/info/icon', { method: 'PUT', body, token });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.json).toMatchObject({ success: false, code: 'VALIDATION' });
    }
    expect(await info()).toBe('/img/avatar/a07.svg');
    expect((await call('/wps/member/info/icon', { method: 'PUT', body: { icon: 'a01' } })).status).toBe(401);
    const trial = (await call<{ token: string }>('/wps/session/login/freeplay', { body: { platform: 'W' }, ip: freshIp() })).json!.value!.token;
    expect((await call('/wps/member/info/icon', { method: 'PUT', body: { icon: 'a01' }, token: trial })).json?.code).toBe('TRIAL_FORBIDDEN');
    // The pictures themselves: every icon is an SVG, an unknown one 404.
    for (const icon of ['a01', 'a12']) {
      const img = await fetch(`${t.url}/img/avatar/${icon}.svg`);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toContain('image/svg+xml');
      expect(await img.text()).toMatch(/^<svg /);
    }
    expect((await fetch(`${t.url}/img/avatar/a13.svg`)).status).toBe(404);
  });

  it('free play gives a trial session that the member calls know as trial', async () => {
    const r = await call<{ token: string; isTrial: boolean }>('/wps/session/login/freeplay', { body: { platform: 'W' }, ip: freshIp() });
    expect(r.json?.value?.isTrial).toBe(true);
    const info = await call<{ isTrial: boolean; type: number }>('/wps/member/info', { token: r.json!.value!.token });
    expect(info.json?.value).toMatchObject({ isTrial: true, type: 4 });
    const change = await call('/wps/member/password', { body: { newPassword: 'abc12345', confirmNewPassword: 'abc12345' }, token: r.json!.value!.token });
    expect(change.json?.code).toBe('TRIAL_FORBIDDEN');
    const totp = await call('/wps/member/totp/setup', { body: {}, token: r.json!.value!.token });
    expect(totp.json?.code).toBe('TRIAL_FORBIDDEN');
    await call('/wps/dev/merchant', { body: { modules: { FREEPLAY3: false } } });
    expect((await call('/wps/session/login/freeplay', { body: {}, ip: freshIp() })).json?.code).toBe('MODULE_DISABLED');
    await call('/wps/dev/merchant', { body: { modules: { FREEPLAY3: true } } });
  });

  it('serves the registration settings with every field rule', async () => {
    const r = await call<{ fields: Array<{ field: string; patternId: number }>; minAge: number }>('/wps/system/setting/register');
    expect(r.json?.value?.minAge).toBe(21);
    const wl = await call<{ security: { botCheck: boolean } }>('/wps/system/whitelabel');
    expect(wl.json?.value?.security.botCheck).toBe(true);
    expect(r.json?.value?.fields.find((f) => f.field === 'username')?.patternId).toBe(1);
  });
});

describe('waitFor sanity', () => {
  it('times out with the name of what it waited for', async () => {
    await expect(waitFor(() => false, 'nothing', 50)).rejects.toThrow('nothing');
  });
});
