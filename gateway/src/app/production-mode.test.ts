import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { api, startProductionTestPortal, type ProductionTestPortal } from '../testing/test-portal.ts';
import { PRODUCTION_TEST_DOMAIN } from '../testing/production-fixture.ts';
import { createRateLimiter } from '../modules/auth/rate-limit.ts';
import { createSmsCodes } from '../modules/auth/sms-codes.ts';
import { createAccounts } from '../modules/auth/accounts-service.ts';
import { createCaptchas, createSliderBotChecker } from '../modules/auth/challenges.ts';
import { createSmtpMailer } from '../modules/notify/notifier.ts';
import { opsTotp } from '../testing/ops-totp.ts';
import { DEMO_MANUAL_BANK } from '../modules/cashier/settings.ts';

/**
 * A portal in production mode with what production requires (no demo seed, secrets from the
 * environment, its merchant on portal.test) and no SMS gateway or SMTP configured.
 */
let t: ProductionTestPortal;
beforeAll(async () => {
  t = await startProductionTestPortal();
});
afterAll(async () => {
  await t.stop();
});

type Json = Record<string, unknown>;
const call = <T = Json>(path: string, init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {}) => api<T>(t.url, path, init);
async function count(sql: string, params: unknown[] = []): Promise<number> {
  return Number((await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]!.n);
}
async function login(account: string, password: string) {
  const r = await call<{ token: string }>('/wps/session/login', { body: { username: account, password, type: 'username' } });
  expect(r.status, r.text).toBe(200);
  return r.json!.value!.token;
}
async function opsLogin(username: string, password: string) {
  const r = await call<{ token: string }>('/ops/api/session/login', { body: { username, password, totp: await opsTotp(username, t.url) } });
  expect(r.status, r.text).toBe(200);
  return r.json!.value!.token;
}

describe('production without an SMS gateway or SMTP (finding 7)', () => {
  it('answers 503 PROVIDER_UNAVAILABLE for SMS codes and spends no limit, stores no code', async () => {
    const mobileNo = '9171234567';
    // More sends than any limit allows (5 per number per window, 1 a second): none is counted, so none is 429.
    for (let i = 0; i < 7; i++) {
      const reg = await call('/wps/verification/sms/register', { body: { countryDialingCode: '63', mobileNo } });
      expect(reg.status, reg.text).toBe(503);
      expect(reg.json).toMatchObject({ success: false, code: 'PROVIDER_UNAVAILABLE' });
    }
    const reset = await call('/wps/verification/sms/noLogin', { body: { countryDialingCode: '63', mobileNum: mobileNo, purpose: 'reset' } });
    expect(reset.status, reset.text).toBe(503);
    expect(reset.json).toMatchObject({ success: false, code: 'PROVIDER_UNAVAILABLE' });
    expect(await count(`rate_events WHERE key LIKE 'sms%'`)).toBe(0);
    expect(await count('sms_codes')).toBe(0);
  });

  it('answers 503 PROVIDER_UNAVAILABLE for the e-mailed reset and spends no limit, keeps no token', async () => {
    const [p] = t.fixture.players;
    for (let i = 0; i < 7; i++) {
      const r = await call('/wps/member/password/email', { body: { username: p.account, email: `${p.account}@portal.test` }, headers: { host: PRODUCTION_TEST_DOMAIN } });
      expect(r.status, r.text).toBe(503);
      expect(r.json).toMatchObject({ success: false, code: 'PROVIDER_UNAVAILABLE' });
    }
    expect(await count(`rate_events WHERE key LIKE 'forgot:%'`)).toBe(0);
    expect(await count('password_resets')).toBe(0);
  });

  it('the login second step by e-mail answers 503 and counts no send', async () => {
    const [p] = t.fixture.players;
    // The member knows another address only: this login from 127.0.0.1 asks a second step.
    await t.portal.db.query(`INSERT INTO member_ips (member_id, ip) VALUES ($1, '10.77.0.1')`, [p.memberId]);
    try {
      const r = await call<Json>('/wps/session/login', { body: { username: p.account, password: p.password, type: 'username' } });
      expect(r.json).toMatchObject({ success: false, code: 'VERIFICATION_REQUIRED' });
      const challengeId = (r.json as unknown as { value: { challengeId: string } }).value.challengeId;
      const send = await call('/wps/session/login/verify/send', { body: { challengeId, method: 'email' } });
      expect(send.status, send.text).toBe(503);
      expect(send.json).toMatchObject({ success: false, code: 'PROVIDER_UNAVAILABLE' });
      expect(await count('rate_events WHERE key = $1', [`2fa:${challengeId}`])).toBe(0);
    } finally {
      await t.portal.db.query(`INSERT INTO member_ips (member_id, ip) VALUES ($1, '127.0.0.1') ON CONFLICT DO NOTHING`, [p.memberId]);
    }
  });

  it('a configured provider that fails at send time: 503, and the counted send and the stored code are taken back', async () => {
    const limiter = createRateLimiter(t.portal.db);
    const failing = { isAvailable: true, send: async () => { throw new Error('gateway timed out'); } };
    const sms = createSmsCodes(t.portal.db, limiter, failing);
    const mobile = `918${randomBytes(3).readUIntBE(0, 3) % 10_000_000}`.padEnd(10, '0');
    await expect(sms.send(t.fixture.merchant, 'register', '63', mobile, '10.9.9.9', (c) => c)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE', status: 503 });
    expect(await count('rate_events WHERE key LIKE $1', [`%${mobile}%`])).toBe(0);
    expect(await count(`rate_events WHERE key LIKE 'sms-ip:%:10.9.9.9'`)).toBe(0);
    expect(await count('sms_codes WHERE mobile_num = $1', [mobile])).toBe(0);

    // SMTP that cannot be reached (nothing listens on port 1): the reset e-mail is not sent, nothing is kept.
    const mailer = createSmtpMailer('smtp://127.0.0.1:1', 'test <t@portal.test>', null, t.portal.log);
    const accounts = createAccounts({
      db: t.portal.db, sessions: t.portal.sessions, hasher: t.portal.hasher, limiter, captchas: createCaptchas(t.portal.db),
      bot: createSliderBotChecker(t.portal.db), sms, mailer, disconnectMember: async () => undefined,
    });
    const merchant = (await t.portal.merchants.byCode(t.fixture.merchant))!;
    const [p] = t.fixture.players;
    await expect(accounts.forgotByEmail(merchant, p.account, `${p.account}@portal.test`, `https://${PRODUCTION_TEST_DOMAIN}`, '127.0.0.1')).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect(await count(`rate_events WHERE key LIKE 'forgot:%'`)).toBe(0);
    expect(await count('password_resets')).toBe(0);
  });
});

describe('the console says what cannot be sent', () => {
  it('site settings answer which providers this node has (none here), so /ops/site can warn about the modules that need them', async () => {
    const admin = await opsLogin(t.fixture.admin.username, t.fixture.admin.password);
    const site = await call<{ providers: unknown }>('/ops/api/site', { token: admin });
    expect(site.status, site.text).toBe(200);
    expect(site.json!.value!.providers).toEqual({ sms: false, mail: false });
  });
});

describe('links in production (finding 1)', () => {
  it('refuses to send a reset link for a Host that is not the merchant\'s, whatever the fallback', async () => {
    const [p] = t.fixture.players;
    const body = { username: p.account, email: `${p.account}@portal.test` };
    const foreign: Array<Record<string, string>> = [
      { host: 'evil.example:8080' },
      { host: 'evil.example', 'x-merchant-code': t.fixture.merchant },
      // loopback is no exception in production: the default-merchant fallback sends no link
      { host: `127.0.0.1:${t.port}` },
    ];
    for (const headers of foreign) {
      const r = await call('/wps/member/password/email', { body, headers });
      expect(r.status, `${JSON.stringify(headers)}: ${r.text}`).toBe(400);
      expect(r.json).toMatchObject({ success: false, code: 'UNKNOWN_MERCHANT' });
    }
    // The merchant's own domain passes the check (and then meets the missing SMTP above).
    expect((await call('/wps/member/password/email', { body, headers: { host: PRODUCTION_TEST_DOMAIN } })).json?.code).toBe('PROVIDER_UNAVAILABLE');
  });
});

describe('authorization in production mode', () => {
  it('has no dev helpers: no dev sessions, no outbox', async () => {
    expect((await call('/wps/dev/sessions', { body: { account: t.fixture.players[0].account } })).status).toBe(404);
    expect((await call(`/wps/dev/outbox?to=${encodeURIComponent('playerp1@portal.test')}`)).status).toBe(404);
  });

  it('keeps members out of the back office, operators out of the member API, auditors read-only', async () => {
    const [p] = t.fixture.players;
    const player = await login(p.account, p.password);
    const admin = await opsLogin(t.fixture.admin.username, t.fixture.admin.password);
    const auditor = await opsLogin(t.fixture.auditor.username, t.fixture.auditor.password);
    expect((await call('/ops/api/withdrawals')).status).toBe(401);
    expect((await call('/ops/api/withdrawals', { token: player })).status).toBe(401);
    expect((await call('/wps/v2/wallets/balance', { token: admin })).status).toBe(401);
    expect((await call('/ops/api/withdrawals', { token: admin })).status).toBe(200);
    expect((await call('/ops/api/withdrawals', { token: auditor })).status).toBe(200);
    const adjust = await call('/ops/api/adjustments', { token: auditor, body: { account: p.account, amount: 100, reason: 'not allowed', requestId: `req_${randomBytes(6).toString('hex')}` } });
    expect(adjust.status).toBe(403);
    expect(adjust.json).toMatchObject({ success: false });
  });

  it('an agent reaches only its own tree; a player is not an agent', async () => {
    const { agent, players, outsider } = t.fixture;
    const agentToken = await login(agent.account, agent.password);
    const playerToken = await login(players[1].account, players[1].password);
    for (const [token, password] of [[agentToken, agent.password], [playerToken, players[1].password]] as const) {
      const r = await call('/wps/member/withdraw-password', { token, body: { loginPassword: password, newWithdrawPassword: 'pay12345', confirmNewWithdrawPassword: 'pay12345' } });
      expect(r.status, r.text).toBe(200);
    }
    const send = (token: string, body: Json) => call('/wps/relay/GCS_walletTransfer', { token, body: { withdrawPassword: 'pay12345', requestId: `req_${randomBytes(6).toString('hex')}`, ...body } });
    expect((await send(agentToken, { direction: 'downline', toAccount: outsider.account, amount: 100 })).json?.code).toBe('NOT_IN_TREE');
    expect((await send(playerToken, { direction: 'downline', toAccount: players[0].account, amount: 100 })).json?.code).toBe('NON_AGENT');
  });
});

describe('manual bank deposits in production', () => {
  it('offers no manual bank channel until an operator sets the receiving account, and never the demo seed\'s made-up one', async () => {
    const [, p] = t.fixture.players;
    const player = await login(p.account, p.password);
    const admin = await opsLogin(t.fixture.admin.username, t.fixture.admin.password);
    const channels = async () => (await call<{ list: Array<{ code: string; bankDetails: unknown }> }>('/wps/v2/deposit/channels', { token: player })).json!.value!.list;
    const settings = async () => (await call<{ manualBank: unknown }>('/ops/api/settings', { token: admin })).json!.value!;
    // A new production merchant: nothing to send money to, so no manual bank deposit (and no simulator channels).
    expect(await channels()).toEqual([]);
    expect((await settings()).manualBank).toBeNull();
    const refused = await call('/wps/v2/deposit/orders', { token: player, body: { channelCode: 'BANK', amount: 1000_00, requestId: `req_${randomBytes(6).toString('hex')}` } });
    expect(refused.status).toBe(404);
    expect(refused.json).toMatchObject({ success: false, code: 'NOT_AVAILABLE' });

    // Bad input is named, nothing is saved.
    const bad = await call('/ops/api/settings', { method: 'PUT', token: admin, body: { manualBank: { bankName: 'BPI', accountName: 'LP Gaming Corp.', accountNumber: '12' } } });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.json).toMatchObject({ success: false, code: 'VALIDATION' });
    expect((await settings()).manualBank).toBeNull();

    // The operator sets the account: players see it on the manual bank channel.
    const bank = { bankName: 'BPI', accountName: 'LP Gaming Corp.', accountNumber: '3141-5926-53' };
    const saved = await call('/ops/api/settings', { method: 'PUT', token: admin, body: { manualBank: bank } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toMatchObject({ value: { manualBank: bank, depositMin: 100_00 } });
    expect(await channels()).toEqual([expect.objectContaining({ code: 'BANK', bankDetails: bank })]);
    // The range shown is the one a deposit is held to: the channel's (500 to 500,000) within the cashier limits.
    expect(await channels()).toEqual([expect.objectContaining({ minAmount: 500_00, maxAmount: 50_000_00 })]);
    expect((await call('/ops/api/settings', { method: 'PUT', token: admin, body: { depositMin: 600_00, depositMax: 20_000_00 } })).status).toBe(200);
    expect(await channels()).toEqual([expect.objectContaining({ minAmount: 600_00, maxAmount: 20_000_00 })]);
    const over = await call('/wps/v2/deposit/orders', { token: player, body: { channelCode: 'BANK', amount: 20_000_01, requestId: `req_${randomBytes(6).toString('hex')}` } });
    expect(over.json).toMatchObject({ success: false, code: 'AMOUNT_OUT_OF_RANGE', value: { min: 600_00, max: 20_000_00 } });
    expect((await call('/ops/api/settings', { method: 'PUT', token: admin, body: { depositMin: 100_00, depositMax: 50_000_00 } })).status).toBe(200);
    const audited = await t.portal.db.query<{ after: { manualBank: unknown } }>(`SELECT after FROM audit_log WHERE action = 'settings.update' ORDER BY id DESC LIMIT 1`);
    expect(audited.rows[0]!.after.manualBank).toEqual(bank);

    // A database that got the demo seed's account before production stopped giving it: still never shown.
    await t.portal.db.query(`UPDATE payment_channels SET details = $2 WHERE merchant_code = $1 AND code = 'BANK'`, [t.fixture.merchant, JSON.stringify(DEMO_MANUAL_BANK)]);
    expect(await channels()).toEqual([]);
    expect((await settings()).manualBank).toBeNull();

    // Cleared again with null.
    expect((await call('/ops/api/settings', { method: 'PUT', token: admin, body: { manualBank: bank } })).status).toBe(200);
    expect((await call('/ops/api/settings', { method: 'PUT', token: admin, body: { manualBank: null } })).status).toBe(200);
    expect(await channels()).toEqual([]);
  });
});

describe('production with an HTTP SMS gateway', () => {
  it('delivers the code through the gateway, and a refusing gateway is a 503 that spends nothing', async () => {
    const { createServer } = await import('node:http');
    const received: Array<{ auth: string | undefined; body: { to: string; text: string; sender?: string } }> = [];
    let refuse = false;
    const gateway = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c));
      req.on('end', () => {
        if (refuse) return res.writeHead(500).end('down');
        received.push({ auth: req.headers.authorization, body: JSON.parse(raw) });
        res.writeHead(202, { 'content-type': 'application/json' }).end('{"queued":true}');
      });
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    const port = (gateway.address() as { port: number }).port;
    const p = await startProductionTestPortal({ SMS_GATEWAY_URL: `http://127.0.0.1:${port}/send`, SMS_GATEWAY_TOKEN: 'sms-test-token', SMS_SENDER: 'LuckyPeso' });
    try {
      const sent = await api(p.url, '/wps/verification/sms/register', { body: { countryDialingCode: '63', mobileNo: '9170000001' } });
      expect(sent.status, sent.text).toBe(200);
      expect(received).toHaveLength(1);
      expect(received[0]!.auth).toBe('Bearer sms-test-token');
      expect(received[0]!.body).toMatchObject({ to: '+639170000001', sender: 'LuckyPeso' });
      expect(received[0]!.body.text).toMatch(/\b\d{6}\b/);
      const admin = (await api<{ token: string }>(p.url, '/ops/api/session/login', { body: { username: p.fixture.admin.username, password: p.fixture.admin.password, totp: await opsTotp(p.fixture.admin.username, p.url) } })).json!.value!.token;
      expect((await api<{ providers: unknown }>(p.url, '/ops/api/site', { token: admin })).json!.value!.providers).toEqual({ sms: true, mail: false });

      refuse = true;
      const before = Number((await p.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rate_events WHERE key LIKE 'sms%'`)).rows[0]!.n);
      const refused = await api(p.url, '/wps/verification/sms/register', { body: { countryDialingCode: '63', mobileNo: '9170000002' } });
      expect(refused.status, refused.text).toBe(503);
      expect(refused.json).toMatchObject({ success: false, code: 'PROVIDER_UNAVAILABLE' });
      const after = Number((await p.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rate_events WHERE key LIKE 'sms%'`)).rows[0]!.n);
      expect(after).toBe(before);
      expect(Number((await p.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sms_codes WHERE mobile_num = '9170000002'`)).rows[0]!.n)).toBe(0);
    } finally {
      await p.stop();
      await new Promise<void>((r) => gateway.close(() => r()));
    }
  });
});
