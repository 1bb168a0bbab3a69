import { enrolOperatorTotp, OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallDef } from '@portal/contracts/api/envelope';
import { authCalls } from '@portal/contracts/api/auth';
import { cashierCalls } from '@portal/contracts/api/cashier';
import { contentCalls } from '@portal/contracts/api/content';
import { catalogueCalls, gameCalls } from '@portal/contracts/api/games';
import { opsCalls } from '@portal/contracts/api/ops';
import { systemCalls } from '@portal/contracts/api/system';
import { walletCalls } from '@portal/contracts/api/wallet';
import { houseCalls } from '@portal/contracts/api/house';
import { betsCalls } from '@portal/contracts/api/bets';
import { agentContractCalls } from '@portal/contracts/api/agent-contracts';
import { agentPayoutCalls, opsAgentDisputeCalls } from '@portal/contracts/api/agent-payouts';
import { agentReportCalls } from '@portal/contracts/api/agent-reports';
import { opsAgentCalls } from '@portal/contracts/api/ops-agents';
import { opsPlatformCalls } from '@portal/contracts/api/ops-platform';
import { opsPlayerCalls } from '@portal/contracts/api/ops-players';
import { DEMO_VN } from '../../db/seed.ts';
import { api, connectSocket, startTestPortal, waitFor, type TestPortal } from '../../testing/test-portal.ts';

/**
 * Two merchants in one portal (issue 13): the demo's DEMO (default, reached on 127.0.0.1) and DEMOVN
 * (Host vn.localhost). A's member, agent and operator walk every GET call of /wps and /ops/api while
 * B has data, with B's ids in the path: no B account, operator or winner name ever comes back, and
 * A's tokens are refused on B's host (HTTP and socket).
 */
let t: TestPortal;
const B_HOST = { host: DEMO_VN.host };
const A = { member: { id: 0, token: '' }, agent: { id: 0, token: '' }, ops: '' };
const B = { member: { id: 0, token: '' }, agent: { id: 0, token: '' }, ops: '' };
/** Strings only B's data carries. */
const B_MARKERS = ['bsecretplayer', 'bsecretagent', 'bsecretops', 'BSECRETWINNER', 'vnagent01', 'vnplayer01', 'vnops01', 'DEMOVN', 'LuckyDong', DEMO_VN.host];
const PASSWORD = 'Isolation-pass-42';

async function devSession(account: string, type: number, headers: Record<string, string> = {}) {
  const r = await api<{ memberId: number; token: string }>(t.url, '/wps/dev/sessions', { body: { account, type }, headers });
  expect(r.status, r.text).toBe(200);
  return { id: r.json!.value!.memberId, token: r.json!.value!.token };
}
async function opsLogin(username: string, headers: Record<string, string> = {}) {
  const r = await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username, password: PASSWORD, totp: await opsTotp(username, t.url) }, headers });
  expect(r.status, r.text).toBe(200);
  return r.json!.value!.token;
}

beforeAll(async () => {
  t = await startTestPortal();
  const ops = t.portal.cashier.operators;
  A.agent = await devSession('aagent1', 1);
  A.member = await devSession('amember1', 0);
  B.agent = await devSession('bsecretagent', 1, B_HOST);
  B.member = await devSession('bsecretplayer', 0, B_HOST);
  await t.portal.db.query('UPDATE members SET parent_id = $1 WHERE id = $2', [A.agent.id, A.member.id]);
  await t.portal.db.query('UPDATE members SET parent_id = $1 WHERE id = $2', [B.agent.id, B.member.id]);
  await ops.createOperator('DEMO', 'aopsadmin', PASSWORD, ['administrator'], { totpSecret: OPS_TOTP_SECRET });
  await ops.createOperator(DEMO_VN.code, 'bsecretops', PASSWORD, ['administrator'], { totpSecret: OPS_TOTP_SECRET });
  A.ops = await opsLogin('aopsadmin');
  B.ops = await opsLogin('bsecretops', B_HOST);
  // B's data: a winner on its merchant, and an audit row of its operator (its login).
  expect((await api(t.url, '/wps/dev/winners', { body: { customerName: 'BSECRETWINNER', gameName: 'B Game', iconUrl: null, winAmount: 100 }, headers: B_HOST })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

type AnyCall = CallDef<never, never, never>;
const groups: Record<string, Record<string, unknown>> = {
  authCalls, cashierCalls, contentCalls, gameCalls, catalogueCalls, opsCalls, systemCalls, walletCalls, houseCalls, betsCalls,
  agentContractCalls, agentReportCalls, agentPayoutCalls, opsAgentDisputeCalls, opsAgentCalls, opsPlatformCalls, opsPlayerCalls,
};
const gets = Object.entries(groups).flatMap(([g, defs]) =>
  Object.values(defs)
    .filter((d): d is AnyCall => typeof d === 'object' && d !== null && 'path' in d && (d as AnyCall).method === 'GET')
    .map((def) => ({ group: g, def })));

describe('the demo seeds a second merchant', () => {
  it('DEMOVN answers on vn.localhost: Vietnam, VND, 18+, EN only; the default host stays the Philippines', async () => {
    expect(DEMO_VN.code).toBe('DEMOVN');
    const vn = await t.portal.merchants.resolve({ host: `${DEMO_VN.host}:8080` });
    expect(vn).toMatchObject({ code: 'DEMOVN', market: 'VN', currency: 'VND', brand: { minAge: 18, currency: 'VND', supportedLanguages: ['EN'], defaultLanguage: 'EN' } });
    const ph = await t.portal.merchants.resolve({ host: '127.0.0.1' });
    expect(ph).toMatchObject({ code: 'DEMO', market: 'PH', currency: 'PHP', brand: { minAge: 21 } });
    // each site shows its own name in its logo (LuckyDong showed the LuckyPeso logo it copied)
    expect(vn!.brand.logoUrl).toBe('/img/logo.svg?n=LuckyDong');
    expect(ph!.brand.logoUrl).toBe('/img/logo.svg');
    // each site's mobile fields default to its own dialing code (the first country of the register settings)
    type Countries = { countries: { countryCode: string; countryDialingCode: string }[] };
    const vnCountries = (await api<Countries>(t.url, '/wps/system/setting/register', { headers: B_HOST })).json!.value!.countries;
    expect(vnCountries[0]).toEqual({ countryCode: 'VN', countryDialingCode: '84' });
    const phCountries = (await api<Countries>(t.url, '/wps/system/setting/register')).json!.value!.countries;
    expect(phCountries[0]).toEqual({ countryCode: 'PH', countryDialingCode: '63' });
    expect(vnCountries.map((c) => c.countryCode).sort()).toEqual(phCountries.map((c) => c.countryCode).sort());
    // its notices are its own: its clock, its minimum age, its name, no Philippine e-wallets, no Tagalog rows
    const notices = await t.portal.db.query<{ language: string; title: string; content: string }>(`SELECT language, title, content FROM announcements WHERE merchant_code = 'DEMOVN'`);
    expect(notices.rows.length).toBeGreaterThan(0);
    const all = JSON.stringify(notices.rows);
    expect(all).toContain('(GMT+7)');
    expect(all).not.toMatch(/GMT\+8|21 or older|LuckyPeso|GCash|Maya|₱/);
    expect(new Set(notices.rows.map((r) => r.language))).toEqual(new Set(['EN']));
    // the house slot is not named after the peso on a dong site
    const slots = await t.portal.db.query<{ merchant_code: string; game_name: string }>(`SELECT merchant_code, game_name FROM games WHERE node_id = 'HOUSE-SLOT1' ORDER BY merchant_code`);
    expect(Object.fromEntries(slots.rows.map((r) => [r.merchant_code, r.game_name]))).toMatchObject({ DEMO: 'Lucky Peso Reels', DEMOVN: 'Lucky Reels' });
    const banners = await t.portal.db.query<{ title: string }>(`SELECT title FROM banners WHERE merchant_code = 'DEMOVN'`);
    expect(JSON.stringify(banners.rows)).not.toContain('LuckyPeso');
    // the welcome bonus in its own money at the demo rate (₱500 -> ₫250,000; it read "₫5,000")
    expect(all).toContain('₫250,000');
    // its help, download links, support addresses and news are not LuckyPeso's (they were copied as they were)
    const help = await t.portal.db.query<{ language: string; content: string }>(`SELECT language, content FROM help_items WHERE merchant_code = 'DEMOVN'`);
    expect(help.rows.length).toBeGreaterThan(0);
    expect(new Set(help.rows.map((r) => r.language))).toEqual(new Set(['EN']));
    expect(JSON.stringify(help.rows)).not.toMatch(/LuckyPeso|Philippines|GCash|Maya|21\+/);
    const links = await t.portal.db.query<{ url: string }>(`SELECT url FROM resources WHERE merchant_code = 'DEMOVN' UNION ALL SELECT url FROM customer_service WHERE merchant_code = 'DEMOVN'`);
    expect(links.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(links.rows).toLowerCase()).not.toContain('luckypeso');
    expect((await t.portal.db.query(`SELECT 1 FROM articles WHERE merchant_code = 'DEMOVN'`)).rows).toEqual([]);
    const seeded = await t.portal.db.query<{ account: string }>(`SELECT account FROM members WHERE merchant_code = 'DEMOVN' AND NOT created_by_dev ORDER BY account`);
    expect(seeded.rows.map((r) => r.account)).toEqual(['vnagent01', 'vnplayer01']);
  });
});

describe("merchant A's member, agent and operator never see B's data", () => {
  it(`walks ${gets.length} GET calls with A's tokens and B's ids in the path`, async () => {
    expect(gets.length).toBeGreaterThan(40);
    const leaks: string[] = [];
    let answered = 0;
    for (const { group, def } of gets) {
      const isOps = def.path.startsWith('/ops/api');
      const tokens = isOps ? [A.ops] : [A.member.token, A.agent.token];
      for (const bId of [B.member.id, B.agent.id]) {
        const path = def.path.replace(/:([A-Za-z]+)/g, (_m, p: string) => (p === 'vendor' ? 'HOUSE' : p === 'provider' ? 'sim' : String(bId)));
        for (const token of tokens) {
          for (const q of ['', `?memberId=${bId}&account=bsecretplayer`]) {
            const r = await api(t.url, path + q, { token });
            expect(r.status, `${group} ${path}${q}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
            if (r.status === 200) answered++;
            for (const marker of B_MARKERS) if (r.text.includes(marker)) leaks.push(`${group} ${path}${q}: ${marker}`);
          }
        }
      }
    }
    expect(leaks).toEqual([]);
    // Not a walk of refusals only: most calls answer.
    expect(answered).toBeGreaterThan(40);
  }, 300_000);

  it("A's list calls name A's own data (the walk can see what it looks for)", async () => {
    const tree = await api(t.url, '/ops/api/agents/tree?search=aagent1', { token: A.ops });
    expect(tree.text).toContain('aagent1');
    const bTree = await api(t.url, '/ops/api/agents/tree?search=bsecretagent', { token: B.ops, headers: B_HOST });
    expect(bTree.text).toContain('bsecretagent');
    // player search: A's operator finds A's player, never B's
    expect((await api(t.url, `${opsPlayerCalls.players.path}?search=amember1`, { token: A.ops })).text).toContain('amember1');
    expect((await api(t.url, `${opsPlayerCalls.players.path}?search=bsecret`, { token: A.ops })).text).not.toContain('bsecret');
    expect((await api(t.url, `${opsPlayerCalls.players.path}?search=${B.member.id}`, { token: A.ops })).text).not.toContain('bsecretplayer');
  });

  it("A's tokens are refused on B's host, and B's on A's", async () => {
    expect((await api(t.url, walletCalls.balance.path, { token: A.member.token, headers: B_HOST })).status).toBe(401);
    expect((await api(t.url, opsCalls.me.path, { token: A.ops, headers: B_HOST })).status).toBe(401);
    expect((await api(t.url, opsCalls.me.path, { token: B.ops })).status).toBe(401);
    expect((await api(t.url, walletCalls.balance.path, { token: B.member.token })).status).toBe(401);
    // An explicit merchant code does not beat the host either.
    expect((await api(t.url, opsCalls.me.path, { token: A.ops, headers: { ...B_HOST, 'x-merchant-code': 'DEMO' } })).status).toBe(401);
    // A's operator cannot act on B's member.
    expect((await api(t.url, `/ops/api/members/${B.member.id}/status`, { token: A.ops, body: { status: 'disabled', reason: 'cross merchant' } })).status).toBe(404);
    const still = await t.portal.db.query<{ status: string }>('SELECT status FROM members WHERE id = $1', [B.member.id]);
    expect(still.rows[0]!.status).toBe('active');
  });

  it("an event of A never reaches a socket of B (and B's never A's)", async () => {
    const a = await connectSocket(t.url, { token: A.member.token });
    const b = await connectSocket(t.url, { token: B.member.token, merchant: DEMO_VN.code });
    try {
      // A's member token on B's merchant: the handshake is refused.
      await expect(connectSocket(t.url, { token: A.member.token, merchant: DEMO_VN.code })).rejects.toThrow(/UNAUTHORIZED/);
      await api(t.url, '/wps/dev/winners', { body: { customerName: 'AWINNERONLY', gameName: 'A Game', iconUrl: null, winAmount: 100 } });
      await api(t.url, '/wps/dev/winners', { body: { customerName: 'BWINNERONLY', gameName: 'B Game', iconUrl: null, winAmount: 100 }, headers: B_HOST });
      await waitFor(() => a.received.some((e) => JSON.stringify(e.payload).includes('AWINNERONLY')), 'A gets its winner');
      await waitFor(() => b.received.some((e) => JSON.stringify(e.payload).includes('BWINNERONLY')), 'B gets its winner');
      // A third event on A after B's: once A has it, A's earlier event had every chance to reach B.
      await api(t.url, '/wps/dev/winners', { body: { customerName: 'ALATER', gameName: 'A Game', iconUrl: null, winAmount: 100 } });
      await waitFor(() => a.received.some((e) => JSON.stringify(e.payload).includes('ALATER')), 'A gets its later winner');
      expect(JSON.stringify(b.received)).not.toMatch(/AWINNERONLY|ALATER/);
      expect(JSON.stringify(a.received)).not.toContain('BWINNERONLY');
      expect(b.received.every((e) => e.audience.includes(DEMO_VN.code) || e.audience.startsWith('user:'))).toBe(true);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });
});

describe('the platform administrator creates merchants', () => {
  const body = {
    code: 'THIRD', name: 'Third Site', domains: ['third.localhost', 'www.third.localhost'], market: 'VN', currency: 'VND',
    supportedLanguages: ['EN'], defaultLanguage: 'EN', minAge: 18, gmtOffsetMinutes: 420,
  };
  let platform = '';
  beforeAll(async () => {
    const login = await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username: 'platform01', password: '{secret}' } });
    expect(login.status, login.text).toBe(200);
    platform = login.json!.value!.token;
    // Like every operator, the published password must change first.
    expect((await api(t.url, opsPlatformCalls.createMerchant.path, { token: platform, body })).json).toMatchObject({ code: 'PASSWORD_CHANGE_REQUIRED' });
    const changed = await api(t.url, '/ops/api/session/password', { token: platform, body: { oldPassword: '{secret}', newPassword: PASSWORD, confirmNewPassword: PASSWORD } });
    expect(changed.status, changed.text).toBe(200);
    // and, like every operator, it enrols an authenticator before anything else.
    await enrolOperatorTotp(t.url, platform);
  });

  it('refuses other operators (any merchant, even admins), members and bad input; a duplicate code or domain is a 409', async () => {
    expect((await api(t.url, opsPlatformCalls.createMerchant.path, { token: A.ops, body })).json).toMatchObject({ success: false, code: 'FORBIDDEN' });
    expect((await api(t.url, opsPlatformCalls.merchants.path, { token: B.ops, headers: B_HOST })).status).toBe(403);
    expect((await api(t.url, opsPlatformCalls.createMerchant.path, { token: A.member.token, body })).status).toBe(401);
    for (const bad of [
      { ...body, domains: ['https://x.example'] }, { ...body, domains: [] }, { ...body, domains: ['x.example:80'] }, { ...body, mainDomain: 'other.example' },
      { ...body, currency: 'vnd1' }, { ...body, market: 'Vietnam' }, { ...body, supportedLanguages: ['VI'] }, { ...body, defaultLanguage: 'TY' },
      { ...body, minAge: 12 }, { ...body, code: 'bad code' }, { ...body, modules: { NOPE3: true } }, { ...body, extra: 1 },
    ]) {
      const r = await api(t.url, opsPlatformCalls.createMerchant.path, { token: platform, body: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.json).toMatchObject({ success: false, code: 'VALIDATION' });
    }
    expect((await api(t.url, opsPlatformCalls.createMerchant.path, { token: platform, body: { ...body, domains: ['third.localhost', DEMO_VN.host.toUpperCase()] } })).json)
      .toMatchObject({ success: false, code: 'CONFLICT' });
    expect((await api(t.url, opsPlatformCalls.createMerchant.path, { token: platform, body: { ...body, code: 'DEMOVN', domains: ['fresh.localhost'] } })).json)
      .toMatchObject({ success: false, code: 'CONFLICT' });
    expect((await t.portal.db.query(`SELECT 1 FROM merchants WHERE code = 'THIRD'`)).rows).toHaveLength(0);
  });

  it('creates one (audited), which then answers on its own host with its own settings', async () => {
    const r = await api(t.url, opsPlatformCalls.createMerchant.path, { token: platform, body });
    expect(r.status, r.text).toBe(200);
    expect(r.json?.value).toEqual({ code: 'THIRD', name: 'Third Site', domains: ['third.localhost', 'www.third.localhost'], mainDomain: 'third.localhost', market: 'VN', currency: 'VND', isDefault: false });
    const audit = await t.portal.db.query<{ operator_username: string; target_id: string }>(`SELECT operator_username, target_id FROM audit_log WHERE action = 'merchant.create'`);
    expect(audit.rows).toEqual([{ operator_username: 'platform01', target_id: 'THIRD' }]);
    expect(await t.portal.merchants.resolve({ host: 'www.third.localhost' })).toMatchObject({ code: 'THIRD', brand: { minAge: 18, currency: 'VND' } });
    const list = await api<{ list: Array<{ code: string }> }>(t.url, opsPlatformCalls.merchants.path, { token: platform });
    expect(list.json!.value!.list.map((m) => m.code)).toEqual(['DEMO', 'DEMOVN', 'THIRD']);
    // A member of the new site is its own: a session made there is refused on the demo host.
    const s = await devSession('thirdmember', 0, { host: 'third.localhost' });
    expect((await api(t.url, walletCalls.balance.path, { token: s.token })).status).toBe(401);
  });
});
