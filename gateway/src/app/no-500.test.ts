import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallDef } from '@portal/contracts/api/envelope';
import { authCalls, oidcCalls } from '@portal/contracts/api/auth';
import { cashierCalls } from '@portal/contracts/api/cashier';
import { contentCalls, newsCalls } from '@portal/contracts/api/content';
import { opsContentCalls } from '@portal/contracts/api/ops-content';
import { catalogueCalls, gameCalls } from '@portal/contracts/api/games';
import { opsCalls } from '@portal/contracts/api/ops';
import { systemCalls } from '@portal/contracts/api/system';
import { launchCall, vendorCalls } from '@portal/contracts/api/vendor';
import { walletCalls } from '@portal/contracts/api/wallet';
import { houseCalls } from '@portal/contracts/api/house';
import { betsCalls } from '@portal/contracts/api/bets';
import { agentContractCalls } from '@portal/contracts/api/agent-contracts';
import { agentPayoutCalls, devAgentSettlementCalls, opsAgentDisputeCalls } from '@portal/contracts/api/agent-payouts';
import { agentReportCalls } from '@portal/contracts/api/agent-reports';
import { opsAgentCalls } from '@portal/contracts/api/ops-agents';
import { opsPlatformCalls } from '@portal/contracts/api/ops-platform';
import { opsRgCalls, opsRgListCalls, rgCalls, rgFamilyCall } from '@portal/contracts/api/rg';
import { FEEDBACK_PATHS, feedbackCalls, opsFeedbackCalls } from '@portal/contracts/api/feedback';
import { chatCalls, opsChatCalls } from '@portal/contracts/api/chat';
import { referralCalls } from '@portal/contracts/api/referral';
import { profitCalls } from '@portal/contracts/api/profit';
import { opsPlayerCalls } from '@portal/contracts/api/ops-players';
import { opsPromotionCalls, promotionCalls } from '@portal/contracts/api/promotions';
import { missionCalls, opsMissionCalls } from '@portal/contracts/api/missions';
import { opsRedEnvelopeCalls, redEnvelopeCalls } from '@portal/contracts/api/red-envelopes';
import { opsPointCalls, pointCalls } from '@portal/contracts/api/points';
import { opsProviderCalls } from '@portal/contracts/api/ops-providers';
import { OPS_TOTP_SECRET, opsTotp } from '../testing/ops-totp.ts';
import { api, startProductionTestPortal, startTestPortal, type ProductionTestPortal, type TestPortal } from '../testing/test-portal.ts';

/**
 * No endpoint answers 500 to anything a client can send: every call of the contracts gets junk
 * bodies and queries, as a guest and with a member token, and must answer a 4xx envelope (or 2xx).
 */
let t: TestPortal;
let token = '';
beforeAll(async () => {
  t = await startTestPortal();
  token = (await api<{ token: string }>(t.url, '/wps/dev/sessions', { body: { account: 'junkuser1' } })).json!.value!.token;
});
afterAll(async () => {
  await t.stop();
});

type AnyCall = CallDef<never, never, never>;
const groups: Record<string, Record<string, unknown>> = {
  authCalls, oidcCalls, cashierCalls, contentCalls, gameCalls, catalogueCalls, opsCalls, systemCalls, vendorCalls, walletCalls, houseCalls, betsCalls, agentContractCalls, agentReportCalls, agentPayoutCalls, opsAgentDisputeCalls, devAgentSettlementCalls, opsAgentCalls, opsPlatformCalls, rgCalls, opsRgCalls, opsPlayerCalls, opsPromotionCalls, promotionCalls, opsMissionCalls, missionCalls, newsCalls, opsContentCalls, opsRgListCalls, rgFamily: { rgFamilyCall }, opsRedEnvelopeCalls, redEnvelopeCalls, launch: { launchCall },
  feedbackCalls, opsFeedbackCalls, referralCalls, profitCalls,
  // Mounted by hand (multipart upload, image bytes): junk JSON and queries must be 4xx too.
  feedbackHand: { send: { method: 'PUT', path: FEEDBACK_PATHS.send }, image: { method: 'GET', path: FEEDBACK_PATHS.image } },
  opsPointCalls, pointCalls, opsProviderCalls, chatCalls, opsChatCalls,
};
const calls = Object.entries(groups).flatMap(([g, defs]) =>
  Object.entries(defs)
    .filter(([, def]) => typeof def === 'object' && def !== null && 'path' in def && 'method' in def)
    .map(([name, def]) => ({ name: `${g}.${name}`, def: def as AnyCall })));

const JUNK_BODIES = ['{', 'null', '[]', '"x"', '12', '{"a":1}', JSON.stringify({ amount: -1, nodeId: '\u0000', id: 'x'.repeat(5000) }), JSON.stringify({ __proto__: { polluted: true }, constructor: { prototype: {} } })];
const JUNK_QUERIES = ['?pageNo=-1&pageSize=99999', '?a[b]=1', '?from=notadate&to=2026-13-45', '?pageNo=1&pageNo=2', `?gameName=${'%25'.repeat(300)}`];

/** Every contract call, as a guest and with a member token, gets junk: only 2xx or a 4xx envelope (503 allowed). */
function junkBurst(target: () => { url: string; token: string }, list = calls, atLeast = 60) {
  it(`covers ${list.length} contract calls`, () => {
    expect(list.length).toBeGreaterThan(atLeast);
  });

  for (const { name, def } of list) {
    it(name, async () => {
      const { url, token } = target();
      const path = def.path.replace(/:([A-Za-z]+)/g, (_m, p: string) => (p === 'vendor' ? 'HOUSE' : p === 'provider' ? 'sim' : 'abc'));
      const statuses: number[] = [];
      for (const auth of [undefined, token]) {
        if (def.method === 'GET' || def.method === 'DELETE') {
          for (const q of JUNK_QUERIES) {
            const r = await api(url, path + q, { method: def.method, ...(auth ? { token: auth } : {}) });
            statuses.push(r.status);
            if (r.status >= 400) expect(r.json, `${name} ${q}`).toMatchObject({ success: false });
          }
        } else {
          for (const b of JUNK_BODIES) {
            const r = await api(url, path, { method: def.method, body: b, ...(auth ? { token: auth } : {}) });
            statuses.push(r.status);
            if (r.status >= 400) expect(r.json, `${name} ${b.slice(0, 30)}`).toMatchObject({ success: false });
          }
        }
      }
      expect(statuses.filter((s) => s >= 500 && s !== 503), `${name}: ${statuses.join(',')}`).toEqual([]);
    });
  }
}

describe('no endpoint answers 500 to client input', () => {
  junkBurst(() => ({ url: t.url, token }));
});

/**
 * The back office with a signed-in administrator (password and authenticator code), so the junk gets
 * past the session gate to each route's parsing: operators, site settings, audit search and export.
 * Sign-out is left out (it would end the session the burst uses).
 */
describe('no back-office endpoint answers 500 to an administrator\'s junk', () => {
  let admin = '';
  beforeAll(async () => {
    await t.portal.cashier.operators.createOperator('DEMO', 'junkadmin', 'Junk12345678', ['administrator'], { totpSecret: OPS_TOTP_SECRET });
    admin = (await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username: 'junkadmin', password: 'Junk12345678', totp: await opsTotp('junkadmin', t.url) } })).json!.value!.token;
  });
  const opsGroups: Record<string, Record<string, unknown>> = { opsCalls, opsAgentCalls, opsAgentDisputeCalls, opsPlayerCalls, opsContentCalls, opsProviderCalls };
  const opsList = Object.entries(opsGroups).flatMap(([g, defs]) =>
    Object.entries(defs)
      .filter(([name, def]) => typeof def === 'object' && def !== null && 'path' in def && 'method' in def && name !== 'logout')
      .map(([name, def]) => ({ name: `admin ${g}.${name}`, def: def as AnyCall })));
  junkBurst(() => ({ url: t.url, token: admin }), opsList, 30);
  it('the audit CSV export refuses junk filters with 400', async () => {
    for (const q of ['?from=notadate', '?to=2026-13-45T00:00:00Z', '?actor=' + 'x'.repeat(40), '?a[b]=1', '?bogus=1']) {
      const r = await api(t.url, '/ops/api/audit/export' + q, { token: admin });
      expect(r.status, q).toBe(400);
    }
  });
});

/**
 * The same burst against a production-mode portal (no dev routes, no dev SMS/e-mail sink, no demo
 * seed): the member logs in over HTTP, as in production.
 */
describe('no endpoint answers 500 to client input in production mode', () => {
  let prod: ProductionTestPortal;
  let prodToken = '';
  beforeAll(async () => {
    prod = await startProductionTestPortal();
    const p = prod.fixture.players[0];
    const login = await api<{ token: string }>(prod.url, '/wps/session/login', { body: { username: p.account, password: p.password, type: 'username' } });
    expect(login.status, login.text).toBe(200);
    prodToken = login.json!.value!.token;
  });
  afterAll(async () => {
    await prod.stop();
  });
  junkBurst(() => ({ url: prod.url, token: prodToken }));
});

/**
 * PostgreSQL text and jsonb refuse U+0000: each of these reached a query with one and answered 500.
 * Now a NUL anywhere in the URL, query or JSON body is a VALIDATION 400 naming where it was.
 */
describe('a NUL character in client input is a 400, never a 500', () => {
  const NUL_REPROS: Array<{ method: string; path: string; body?: unknown; where: string }> = [
    { method: 'POST', path: '/wps/session/login', body: { username: 'ab\u0000cd', password: 'x' }, where: 'username' },
    { method: 'POST', path: '/wps/session/login/verify/send', body: { challengeId: '\u0000', method: 'sms' }, where: 'challengeId' },
    { method: 'POST', path: '/wps/member/password/email', body: { username: 'a\u0000', email: 'a@b.co' }, where: 'username' },
    { method: 'GET', path: '/wps/agent/affiliate?code=ab%00cd', where: 'query.code' },
    { method: 'GET', path: '/wps/system/helpCenter?lang=%00', where: 'query.lang' },
    { method: 'GET', path: '/wps/relay/MCSFE_getListAnnouncements?language=%00', where: 'query.language' },
    { method: 'GET', path: '/wps/relay/GCSGAME_gameList?gameName=a%00', where: 'query.gameName' },
    { method: 'POST', path: '/wps/relay/MCSFE_addFavoriteGameV2', body: { nodeId: 'a\u0000' }, where: 'nodeId' },
    { method: 'POST', path: '/wps/game/launchGame', body: { nodeId: 'HOUSE-SLOT1\u0000' }, where: 'nodeId' },
    { method: 'GET', path: '/wps/session/oidc/callback?state=%00&code=x', where: 'query.state' },
    { method: 'POST', path: '/ops/api/session/login', body: { username: 'ops01\u0000', password: 'x' }, where: 'username' },
    { method: 'POST', path: '/vendor/v1/%00/balance', body: { playerId: '1' }, where: 'url' },
    { method: 'GET', path: '/pay/sim/%00', where: 'url' },
  ];
  for (const r of NUL_REPROS) {
    it(`${r.method} ${r.path}`, async () => {
      const res = await api(t.url, r.path, { method: r.method, token, ...(r.body === undefined ? {} : { body: r.body }) });
      expect(res.status, res.text).toBe(400);
      expect(res.json).toMatchObject({ success: false, code: 'VALIDATION', details: [{ path: r.where }] });
    });
  }

  it('refuses a NUL in back-office and vendor bodies too (audit rows are jsonb)', async () => {
    const login = await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username: 'ops01', password: '{secret}' } });
    const ops = login.json!.value!.token;
    const audit = await api(t.url, '/ops/api/audit?targetId=%00', { token: ops });
    expect(audit.status).toBe(400);
    const bet = await api(t.url, '/vendor/v1/HOUSE/bet', { body: { transactionId: 't1', playerId: '1', roundId: 'r\u0000', gameCode: 'SLOT1', amount: 1, token: 'x' } });
    expect(bet.status).toBe(400);
    expect(bet.json).toMatchObject({ code: 'VALIDATION', details: [{ path: 'roundId' }] });
  });
});

describe('input that parses but means nothing is refused, not reinterpreted', () => {
  it('refuses a day that does not exist in a record range instead of rolling it into the next month', async () => {
    // its own session: the junk calls above may have logged the shared one out
    const token = (await api<{ token: string }>(t.url, '/wps/dev/sessions', { body: { account: 'junkuser2' } })).json!.value!.token;
    for (const path of ['/wps/v2/bets?from=2026-02-29&to=2026-03-05', '/wps/v2/bets?from=2026-02-01&to=2026-02-30', '/wps/v2/wallets/records?from=2026-04-31&to=2026-05-02']) {
      const res = await api(t.url, path, { token });
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.json).toMatchObject({ success: false, code: 'VALIDATION' });
    }
    expect((await api(t.url, '/wps/v2/bets?from=2028-02-29&to=2028-03-01', { token })).status).toBe(200);
  });

  it('takes a received amount on a withdrawal confirmation only as decimal digits', async () => {
    const { ZConfirmWithdrawalFields } = await import('@portal/contracts/api/cashier');
    expect(ZConfirmWithdrawalFields.parse({ result: 'partially_received', receivedAmount: '1500' })).toEqual({ result: 'partially_received', receivedAmount: 1500 });
    for (const bad of ['0x10', ' 5 ', '1e3', '-1', '1.5', '', '9'.repeat(16)]) {
      expect(ZConfirmWithdrawalFields.safeParse({ result: 'partially_received', receivedAmount: bad }).success, bad).toBe(false);
    }
  });
});
