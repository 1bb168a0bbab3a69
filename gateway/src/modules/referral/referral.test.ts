import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { testMembers } from '../../testing/test-members.ts';
import { transfer } from '../wallet/ledger.ts';
import { maskAccount } from './referral-routes.ts';

let t: TestPortal;
const member = testMembers(() => t.url, { prefix: 'rf' });
beforeAll(async () => {
  t = await startTestPortal({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await t.stop();
});

type Summary = { code: string; link: string; registered: number; deposited: number; total: number; list: Array<{ account: string; hasDeposited: boolean; firstDepositAt: string | null; registeredAt: string }> };
async function register(username: string, codes: { referralCode?: string; affiliateCode?: string }, ip: string) {
  const c = (await api<{ captchaKey: string }>(t.url, '/wps/captcha')).json!.value!;
  const a = (await api<{ answer: string }>(t.url, `/wps/dev/captcha/${c.captchaKey}`)).json!.value!;
  return api<{ token: string }>(t.url, '/wps/member/register', {
    method: 'PUT', headers: { 'x-forwarded-for': ip },
    body: { username, password: 'abc12345', confirmPassword: 'abc12345', termsAccepted: true, ageConfirmed: true, payeeName: 'Juan Dela Cruz', birthday: '1990-01-01', captchaKey: c.captchaKey, captcha: a.answer, ...codes },
  });
}
const row = async (account: string) =>
  (await t.portal.db.query<{ id: number; referrer_id: number | null; parent_id: number | null }>('SELECT id, referrer_id, parent_id FROM members WHERE account_lower = lower($1)', [account])).rows[0]!;

describe('referral (member centre)', () => {
  it('gives a link on the merchant domain (never the request host), records who registered through it and their first deposit', async () => {
    const a = await member(0);
    const first = await api<Summary>(t.url, '/wps/v2/referral', { token: a.token });
    expect(first.status).toBe(200);
    const code = first.json!.value!.code;
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    // loopback in development: the same origin; the merchant's own domain: its main domain over https
    expect(first.json!.value!.link).toBe(`${t.url}/register?referralCode=${code}`);
    const onDomain = await api<Summary>(t.url, '/wps/v2/referral', { token: a.token, headers: { host: 'luckypeso.example' } });
    expect(onDomain.json?.value?.link).toBe(`https://luckypeso.example/register?referralCode=${code}`);
    // a host the merchant does not own gets no link at all
    const foreign = await api(t.url, '/wps/v2/referral', { token: a.token, headers: { host: 'evil.example', 'x-merchant-code': 'DEMO' } });
    expect(foreign.status).toBe(400);
    expect(foreign.json).toMatchObject({ success: false, code: 'UNKNOWN_MERCHANT' });
    // the code stays the same
    expect((await api<Summary>(t.url, '/wps/v2/referral', { token: a.token })).json!.value!.code).toBe(code);

    const r1 = await register('refkid01', { referralCode: code.toLowerCase() }, '10.88.0.1');
    expect(r1.status, r1.text).toBe(200);
    // both codes at once: the invitation code makes the agent the upline, the referral code the referrer
    const r2 = await register('refkid02', { referralCode: code, affiliateCode: 'LUCKY8' }, '10.88.0.1');
    expect(r2.status, r2.text).toBe(200);
    const agent = await row('agent01');
    expect(await row('refkid01')).toMatchObject({ referrer_id: a.memberId, parent_id: null });
    expect(await row('refkid02')).toMatchObject({ referrer_id: a.memberId, parent_id: agent.id });

    const kid2 = await row('refkid02');
    await t.portal.db.tx(async (tx) => {
      const tr = await transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `rf-dep-${kid2.id}`, kind: 'deposit', amount: 100_00, debit: { system: 'deposit' }, credit: { member: kid2.id } });
      await tx.query(`INSERT INTO deposits (merchant_code, member_id, channel_code, provider, provider_order_id, reference, request_id, amount, currency, status, transfer_id)
                      VALUES ('DEMO', $1, 'GCASH', 'sim', $2, $2, $2, 10000, 'PHP', 'paid', $3)`, [kid2.id, `RF${kid2.id}`, tr.transferId]);
    });
    const s = (await api<Summary>(t.url, '/wps/v2/referral', { token: a.token })).json!.value!;
    expect(s).toMatchObject({ registered: 2, deposited: 1, total: 2 });
    expect(s.list.map((x) => [x.account, x.hasDeposited])).toEqual([[maskAccount('refkid02'), true], [maskAccount('refkid01'), false]]);
    expect(s.list[0]!.firstDepositAt).not.toBeNull();
    expect(s.list[0]!.account).not.toContain('refkid');
    // another member sees none of them
    const b = await member(0);
    expect((await api<Summary>(t.url, '/wps/v2/referral', { token: b.token })).json!.value!).toMatchObject({ registered: 0, list: [] });
  });

  it('refuses an unknown referral code with a 4xx and counts it like an invitation miss; agents keep working', async () => {
    const r = await register('refkid03', { referralCode: 'NOPE2345' }, '10.88.0.2');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ success: false, code: 'REFERRAL_CODE_INVALID' });
    expect(await t.portal.db.query('SELECT 1 FROM members WHERE account_lower = $1', ['refkid03']).then((x) => x.rows.length)).toBe(0);
    const viaAgent = await register('refkid04', { affiliateCode: 'LUCKY8' }, '10.88.0.3');
    expect(viaAgent.status).toBe(200);
    expect((await row('refkid04')).referrer_id).toBeNull();
    expect((await api(t.url, '/wps/v2/referral')).status).toBe(401);
  });
});
