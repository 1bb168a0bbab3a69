import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallDef } from '@portal/contracts/api/envelope';
import { FEEDBACK_PATHS } from '@portal/contracts/api/feedback';
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
type NamedCall = { name: string; def: AnyCall };

/**
 * Every call defined in contracts/src/api, found by walking its modules (a call object in an exported
 * group: method, path and value schema), so a call is covered as soon as it is defined; plus what is
 * mounted by hand (multipart upload, image bytes).
 */
const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../contracts/src/api');
async function contractCalls(): Promise<NamedCall[]> {
  const out = new Map<string, NamedCall>();
  for (const f of readdirSync(API_DIR).sort()) {
    if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
    const mod = (await import(path.join(API_DIR, f))) as Record<string, unknown>;
    for (const [group, defs] of Object.entries(mod)) {
      if (!defs || typeof defs !== 'object') continue;
      for (const [name, def] of Object.entries(defs as Record<string, unknown>)) {
        const d = def as Partial<AnyCall> | null;
        if (d && typeof d === 'object' && typeof d.method === 'string' && typeof d.path === 'string' && 'value' in d) {
          const key = `${d.method} ${d.path}`;
          if (!out.has(key)) out.set(key, { name: `${group}.${name}`, def: d as AnyCall });
        }
      }
    }
  }
  const hand = [{ method: 'PUT', path: FEEDBACK_PATHS.send }, { method: 'GET', path: FEEDBACK_PATHS.image }];
  for (const [i, d] of hand.entries()) out.set(`${d.method} ${d.path}`, { name: `feedbackHand.${i}`, def: d as AnyCall });
  return [...out.values()];
}
const calls = await contractCalls();

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
  // Every back-office call but sign-out, and the site settings (a junk body is refused; were one to parse, maintenance would answer 503 to everything after it).
  const opsList = calls
    .filter(({ def }) => def.path.startsWith('/ops/api') && !(def.method === 'DELETE' && def.path === '/ops/api/session'))
    .map(({ name, def }) => ({ name: `admin ${name}`, def }));
  junkBurst(() => ({ url: t.url, token: admin }), opsList, 80);
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

  it('refuses an unpaired surrogate ("\\ud800") the same way: jsonb cannot hold it (an operator title answered 500)', async () => {
    const login = await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username: 'ops01', password: '{secret}' } });
    const ops = login.json!.value!.token;
    for (const title of ['\ud800', 'a \udc00 b', 'x\ud800']) {
      const res = await api(t.url, '/ops/api/missions', { token: ops, body: { title: { EN: title, TY: 'x' } } });
      expect(res.status, res.text).toBe(400);
      expect(res.json).toMatchObject({ success: false, code: 'VALIDATION', details: [{ path: 'title.EN' }] });
    }
    // A pair is a character like any other (an emoji), not refused as unstorable.
    const { nulPath } = await import('./http.ts');
    expect(nulPath({ title: 'ok \ud83c\udfb0' })).toBeNull();
    expect(nulPath({ remark: ['fine', 'bad \ud83c'] })).toBe('remark.1');
  });
});

describe('input that parses but means nothing is refused, not reinterpreted', () => {
  it('refuses a day that does not exist in a record range instead of rolling it into the next month', async () => {
    // its own session: the junk calls above may have logged the shared one out
    const token = (await api<{ token: string }>(t.url, '/wps/dev/sessions', { body: { account: 'junkuser2' } })).json!.value!.token;
    for (const path of ['/wps/v2/bets?from=2026-02-29&to=2026-03-05', '/wps/v2/bets?from=2026-02-01&to=2026-02-30', '/wps/v2/wallets/records?from=2026-04-31&to=2026-05-02', '/wps/v2/bets?from=0001-01-01&to=0001-01-01', '/wps/v2/bets?to=0001-01-01T00:00:00%2B08:00', '/wps/v2/profit?period=custom&from=0000-01-01&to=0000-01-01', '/wps/v2/wallets/records?from=0026-12-01&to=0026-12-02']) {
      const res = await api(t.url, path, { token });
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.json).toMatchObject({ success: false, code: 'VALIDATION' });
    }
    expect((await api(t.url, '/wps/v2/bets?from=2028-02-29&to=2028-03-01', { token })).status).toBe(200);
  });

  it('takes a row id only as a positive integer or its digits: true, [2] or 1e3 are no ids (a mission was claimed with "missionId": true)', async () => {
    const { ZIdInput } = await import('@portal/contracts/api/ids');
    expect([ZIdInput.parse(7), ZIdInput.parse('12')]).toEqual([7, 12]);
    for (const bad of [true, false, [2], '1e3', ' 5', '0', 0, -1, 1.5, '', null, {}, '9'.repeat(17)]) expect(ZIdInput.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    const token = (await api<{ token: string }>(t.url, '/wps/dev/sessions', { body: { account: 'junkuser3' } })).json!.value!.token;
    for (const [path, body] of [['/wps/v2/missions/claim', { missionId: true, periodKey: '2026-12-07' }], ['/wps/relay/MCSFE_signUpPromotionJoin', { promotionId: [2] }], ['/wps/relay/MCSFE_signUpPromotionJoin', { promotionId: true }]] as const) {
      const res = await api(t.url, path, { token, body });
      expect([res.status, res.json?.code], `${path} ${JSON.stringify(body)}`).toEqual([400, 'VALIDATION']);
    }
  });

  it('takes a received amount on a withdrawal confirmation only as decimal digits', async () => {
    const { ZConfirmWithdrawalFields } = await import('@portal/contracts/api/cashier');
    expect(ZConfirmWithdrawalFields.parse({ result: 'partially_received', receivedAmount: '1500' })).toEqual({ result: 'partially_received', receivedAmount: 1500 });
    for (const bad of ['0x10', ' 5 ', '1e3', '-1', '1.5', '', '9'.repeat(16)]) {
      expect(ZConfirmWithdrawalFields.safeParse({ result: 'partially_received', receivedAmount: bad }).success, bad).toBe(false);
    }
  });
});

/**
 * Typed junk where each call reads it: every call again, signed in as the role it is for (a player; an
 * agent for /wps/agent; an administrator for /ops/api), with junk in its path parameters, in each of its
 * query schema's keys in turn (and as arrays), and in each of its body schema's keys in turn (wrong
 * types, huge strings, operator objects), so the junk reaches the handlers' own parsing and not only the
 * sign-in check or a whole-body refusal. Calls that would end the burst's own sessions (sign-out,
 * password changes, keep) and the site settings (maintenance answers 503 to everything by design) are
 * left out here; the bursts above send them junk.
 */
describe('typed junk in each path parameter, query key and body key, as the role each call is for', () => {
  const PARAMS = ['abc', '99999999999999999999999', '-1', '%E0%A4%A', '1e400'];
  // 0001-01-01: a day before year 1 once the merchant's offset is taken off (PostgreSQL refused it: a 500 on the agent reports).
  const QUERY_VALUES = ['', '-1', 'x'.repeat(3000), '99999999999999999999', '2026-02-30', '0001-01-01', '1.5'];
  const BODY_VALUES: unknown[] = [null, 'x'.repeat(10_000), -1, 1e308, [], {}, true, '2026-13-45', '0001-01-01', [1, 'a'], { $gt: 1 }, '\u0000', 2 ** 53];
  const SKIP = /logout|session\/keep|\/session$|password|\/dev\/|^\/ops\/api\/site$/;
  const tokens = { player: '', agent: '', ops: '' };
  beforeAll(async () => {
    tokens.player = (await api<{ token: string }>(t.url, '/wps/dev/sessions', { body: { account: 'junktyped1' } })).json!.value!.token;
    tokens.agent = (await api<{ token: string }>(t.url, '/wps/dev/sessions', { body: { account: 'junktypedag1', type: 2 } })).json!.value!.token;
    await t.portal.cashier.operators.createOperator('DEMO', 'junkadmin2', 'Junk12345678', ['administrator'], { totpSecret: OPS_TOTP_SECRET });
    tokens.ops = (await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username: 'junkadmin2', password: 'Junk12345678', totp: await opsTotp('junkadmin2', t.url) } })).json!.value!.token;
  });

  /** The keys of an object schema, through optional, default and pipe wrappers (zod 4 keeps them on `def`). */
  function keysOf(schema: unknown): string[] {
    let z = schema as { shape?: Record<string, unknown>; def?: Record<string, unknown> } | undefined;
    for (let i = 0; i < 6 && z; i++) {
      if (z.shape && typeof z.shape === 'object') return Object.keys(z.shape);
      z = (z.def?.innerType ?? z.def?.schema ?? z.def?.in ?? z.def?.left) as typeof z;
    }
    return [];
  }

  type Req = { method: string; url: string; token: string; body?: string };
  function requestsFor(def: AnyCall & { query?: unknown; body?: unknown }, token: string): Req[] {
    const out: Req[] = [];
    const paths = /:[a-zA-Z]+/.test(def.path) ? PARAMS.map((v) => def.path.replace(/:[a-zA-Z]+/g, v)) : [def.path];
    const queryKeys = keysOf(def.query);
    const bodyKeys = keysOf(def.body);
    for (const [pi, p] of paths.entries()) {
      if (def.method === 'GET') {
        out.push({ method: 'GET', url: p, token });
        if (pi > 0) continue;
        for (const [ki, k] of queryKeys.entries()) {
          for (const v of [QUERY_VALUES[ki % QUERY_VALUES.length]!, QUERY_VALUES[(ki + 2) % QUERY_VALUES.length]!]) {
            out.push({ method: 'GET', url: `${p}?${encodeURIComponent(k)}=${encodeURIComponent(v)}`, token });
          }
        }
        out.push({ method: 'GET', url: `${p}?${queryKeys.map((k) => `${k}[]=1&${k}[]=2`).join('&') || 'a[$gt]=1'}`, token });
      } else {
        out.push({ method: def.method, url: p, token, body: '{}' });
        if (pi > 0) continue;
        for (const [ki, k] of bodyKeys.entries()) {
          for (let j = 0; j < 3; j++) out.push({ method: def.method, url: p, token, body: JSON.stringify({ [k]: BODY_VALUES[(ki + j * 4) % BODY_VALUES.length] }) });
        }
        for (const v of BODY_VALUES.slice(0, 6)) out.push({ method: def.method, url: p, token, body: JSON.stringify(Object.fromEntries(bodyKeys.map((k) => [k, v]))) });
      }
    }
    return out;
  }

  it('never a 5xx; every refusal the envelope', async () => {
    const reqs = calls
      .filter(({ def }) => !SKIP.test(def.path))
      .flatMap(({ def }) => requestsFor(def, tokens[def.path.startsWith('/ops/api') ? 'ops' : def.path.startsWith('/wps/agent') ? 'agent' : 'player']));
    const statuses = new Map<number, number>();
    const bad: string[] = [];
    let next = 0;
    await Promise.all(Array.from({ length: 6 }, async () => {
      while (next < reqs.length) {
        const r = reqs[next++]!;
        const res = await fetch(t.url + r.url, {
          method: r.method,
          headers: { ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}), authorization: `Bearer ${r.token}` },
          ...(r.body !== undefined ? { body: r.body } : {}),
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const text = await res.text();
        const what = `${r.method} ${r.url.slice(0, 120)} ${r.body?.slice(0, 80) ?? ''} -> ${res.status} ${text.slice(0, 200)}`;
        if (res.status >= 500) bad.push(what);
        else if (res.status >= 400) {
          let env: { success?: unknown; code?: unknown; message?: unknown } = {};
          try {
            env = JSON.parse(text) as typeof env;
          } catch {
            /* not JSON: reported below */
          }
          if (env.success !== false || typeof env.code !== 'string' || typeof env.message !== 'string') bad.push(`not the envelope: ${what}`);
        }
      }
    }));
    console.log(`[no-500 typed] ${reqs.length} requests: ${[...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s} x${n}`).join(', ')}`);
    expect(bad).toEqual([]);
    // The junk reached the handlers' parsing, not only the sign-in check.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(reqs.length / 2);
    expect(reqs.length).toBeGreaterThan(2500);
  }, 300_000);
});
