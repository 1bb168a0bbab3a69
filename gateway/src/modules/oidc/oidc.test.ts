import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { defaultClaims, signInWithProvider, startOidcTestProvider, type OidcTestProvider } from '../../testing/oidc-test-provider.ts';
import { accountBaseFrom, createOidc, safeReturnTo } from './oidc-service.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';
import { OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';

/**
 * Social sign-in against a real OpenID provider (oidc-provider) running in this process: the whole
 * browser round trip is driven with fetch, redirects followed by hand, the provider's own login and
 * consent forms filled in.
 */
let op: OidcTestProvider;
let t: TestPortal;

function claims(sub: string) {
  if (sub.startsWith('dup')) return { ...defaultClaims(sub), preferred_username: 'alice' };
  if (sub === 'oddname') return { sub, preferred_username: 'Dr. Who!', name: 'Doctor' };
  if (sub === 'unverified') return { ...defaultClaims(sub), email_verified: false };
  return defaultClaims(sub);
}

beforeAll(async () => {
  op = await startOidcTestProvider({ claims });
  // TRUST_PROXY lets the rate-limit test speak from its own address.
  t = await startTestPortal({ ...op.env, TRUST_PROXY: '1' });
  op.register([`${t.url}/wps/session/oidc/callback`]);
});
afterAll(async () => {
  await t?.stop();
  await op?.stop();
});

type Login = { token: string; firstTimeLogin: boolean; defaultPassword: boolean; isAgent: boolean };
type Info = { id: number; account: string; nickname: string | null; email: string | null; type: number };

async function signIn(login: string, returnTo?: string) {
  const start = `${t.url}/wps/session/oidc/start${returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`}`;
  return signInWithProvider(start, login);
}
const exchange = (code: string) => api<Login>(t.url, '/wps/session/oidc/exchange', { body: { code } });
const info = (token: string) => api<Info>(t.url, '/wps/member/info', { token });
const get = (path: string, headers: Record<string, string> = {}) => fetch(t.url + path, { redirect: 'manual', headers });

/** The demo merchant's market: the Philippines (identity step) or one that screens nobody. */
async function setMarket(market: 'PH' | 'VN') {
  await t.portal.db.query(`UPDATE merchants SET market = $1 WHERE code = 'DEMO'`, [market]);
  t.portal.merchants.invalidate();
}

describe('social sign-in (OpenID Connect)', () => {
  // The flow itself, in a market that asks no identity at registration (the Philippines' step is below).
  beforeAll(() => setMarket('VN'));

  it('says a provider is configured', async () => {
    const r = await api<{ enabled: boolean; providerName: string }>(t.url, '/wps/session/oidc/config');
    expect(r.json).toEqual({ success: true, value: { enabled: true, providerName: 'TestID' } });
  });

  it('starts a code flow with PKCE S256, state and nonce', async () => {
    const r = await get('/wps/session/oidc/start');
    expect(r.status).toBe(302);
    const to = new URL(r.headers.get('location')!);
    expect(to.origin).toBe(op.issuer);
    const q = to.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(op.clientId);
    expect(q.get('redirect_uri')).toBe(`${t.url}/wps/session/oidc/callback`);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toBeTruthy();
    expect(q.get('nonce')).toBeTruthy();
    expect(q.get('scope')).toBe('openid email profile');
    const row = await t.portal.db.query<{ return_to: string; ttl: number }>(
      `SELECT return_to, extract(epoch FROM expires_at - now())::int AS ttl FROM oidc_states WHERE state = $1`, [q.get('state')]);
    expect(row.rows[0]?.return_to).toBe('/');
    expect(row.rows[0]!.ttl).toBeGreaterThan(590);
    expect(row.rows[0]!.ttl).toBeLessThanOrEqual(600);
  });

  it('signs a new player in through the provider, and the same subject again as the same member', async () => {
    const first = await signIn('alice', '/promotions?tab=2');
    expect(first.landed.pathname).toBe('/promotions');
    expect(first.landed.searchParams.get('tab')).toBe('2');
    const code = first.landed.searchParams.get('oidc')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash of the handoff code is kept.
    const stored = await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM oidc_handoffs WHERE code_hash = $1', [Buffer.from(code)]);
    expect(stored.rows[0]!.n).toBe(0);

    const login = await exchange(code);
    expect(login.status).toBe(200);
    expect(login.json?.value).toMatchObject({ firstTimeLogin: true, defaultPassword: false, isAgent: false });
    const me = await info(login.json!.value!.token);
    expect(me.json?.value).toMatchObject({ account: 'alice', nickname: 'Alice Test', email: 'a***@example.test', type: 0 });

    const row = await t.portal.db.query<{ password_hash: string | null; issuer: string; subject: string }>(
      `SELECT m.password_hash, oi.issuer, oi.subject FROM members m JOIN oidc_identities oi ON oi.member_id = m.id WHERE m.id = $1`, [me.json!.value!.id]);
    expect(row.rows[0]).toEqual({ password_hash: null, issuer: op.issuer, subject: 'alice' });

    // The handoff code is single use.
    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ success: false, code: 'OIDC_FAILED' });

    const second = await signIn('alice');
    expect(second.landed.pathname).toBe('/');
    const login2 = await exchange(second.landed.searchParams.get('oidc')!);
    expect(login2.json?.value?.firstTimeLogin).toBe(false);
    expect((await info(login2.json!.value!.token)).json?.value?.id).toBe(me.json!.value!.id);
  });

  it('has no password to log in with', async () => {
    const r = await api(t.url, '/wps/session/login', { body: { username: 'alice', password: '' } });
    expect(r.status).toBe(400);
    const row = await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM members WHERE account_lower = 'alice' AND password_hash IS NOT NULL`);
    expect(row.rows[0]!.n).toBe(0);
  });

  it('derives unique, clean account names and keeps only verified e-mail', async () => {
    const accountOf = async (login: string) => {
      const s = await signIn(login);
      const l = await exchange(s.landed.searchParams.get('oidc')!);
      return (await info(l.json!.value!.token)).json!.value!;
    };
    const dup = await accountOf('dup1');
    expect(dup.account).toMatch(/^alice_[0-9a-f]{4}$/);
    expect((await accountOf('dup2')).account).not.toBe(dup.account);
    expect(await accountOf('oddname')).toMatchObject({ account: 'dr_who', nickname: 'Doctor', email: null });
    expect(await accountOf('unverified')).toMatchObject({ account: 'unverified', email: null });
  });

  it('refuses a forged state and a replayed callback', async () => {
    const forged = await get('/wps/session/oidc/callback?state=forged-state&code=abc');
    expect(forged.status).toBe(302);
    expect(forged.headers.get('location')).toBe('/?oidcError=OIDC_FAILED');

    const s = await signIn('bob');
    expect(s.callback).not.toBeNull();
    expect((await exchange(s.landed.searchParams.get('oidc')!)).status).toBe(200);
    const replay = await get(s.callback!.pathname + s.callback!.search);
    expect(replay.status).toBe(302);
    expect(replay.headers.get('location')).toBe('/?oidcError=OIDC_FAILED');
  });

  it('answers a refusal at the provider with an error code, and consumes the state', async () => {
    const start = await get('/wps/session/oidc/start');
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const denied = await get(`/wps/session/oidc/callback?state=${state}&error=access_denied`);
    expect(denied.headers.get('location')).toBe('/?oidcError=OIDC_FAILED');
    const left = await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM oidc_states WHERE state = $1', [state]);
    expect(left.rows[0]!.n).toBe(0);
  });

  it('answers bad input with 4xx envelopes, never 500', async () => {
    for (const path of [
      '/wps/session/oidc/callback',
      '/wps/session/oidc/callback?code=abc',
      '/wps/session/oidc/callback?state=x',
      '/wps/session/oidc/callback?state=a&state=b&code=c',
      `/wps/session/oidc/callback?state=${'x'.repeat(600)}&code=c`,
      '/wps/session/oidc/start?returnTo=a&returnTo=b',
    ]) {
      const r = await api(t.url, path);
      expect(r.status, path).toBe(400);
      expect(r.json, path).toMatchObject({ success: false, code: 'VALIDATION' });
    }
    for (const body of [{}, { code: 'short' }, { code: 'x'.repeat(43), extra: 1 }, { code: 42 }]) {
      const r = await api(t.url, '/wps/session/oidc/exchange', { body });
      expect(r.status).toBe(400);
      expect(r.json?.code).toBe('VALIDATION');
    }
    const unknown = await exchange('A'.repeat(43));
    expect(unknown.status).toBe(400);
    expect(unknown.json?.code).toBe('OIDC_FAILED');
  });

  it('limits how many sign-ins one address may start', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await get('/wps/session/oidc/start', { 'x-forwarded-for': '10.9.9.9' })).status);
    expect(statuses.slice(0, 30).every((s) => s === 302)).toBe(true);
    const last = await api(t.url, '/wps/session/oidc/start', { headers: { 'x-forwarded-for': '10.9.9.9' } });
    expect(last.status).toBe(429);
    expect(last.json?.code).toBe('TOO_MANY_REQUESTS');
  });

  it('never sends the browser off-site after sign-in', async () => {
    for (const evil of ['https://evil.example', '//evil.example/x', '/\\evil.example', '/.//evil.example', 'javascript:alert(1)']) {
      const s = await signIn('carol', evil);
      expect(s.landed.origin, evil).toBe(t.url);
      expect(s.landed.pathname, evil).toBe('/');
    }
    expect(safeReturnTo('/games?type=1&oidc=old')).toBe('/games?type=1');
    expect(safeReturnTo('/a/../b')).toBe('/b');
    expect(safeReturnTo('/a/..//evil.example/x')).toBe('/');
    expect(safeReturnTo('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
    expect(safeReturnTo('/\t/evil.example')).toBe('/');
    expect(safeReturnTo(undefined)).toBe('/');
  });

  it('refuses an expired handoff code and a disabled member', async () => {
    const s = await signIn('dave');
    const code = s.landed.searchParams.get('oidc')!;
    await t.portal.db.query(`UPDATE oidc_handoffs SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
    expect((await exchange(code)).json?.code).toBe('OIDC_FAILED');

    const ok = await exchange((await signIn('dave')).landed.searchParams.get('oidc')!);
    const id = (await info(ok.json!.value!.token)).json!.value!.id;
    await t.portal.accounts.disable(id);
    const blocked = await signIn('dave');
    expect(blocked.landed.pathname + blocked.landed.search).toBe('/?oidcError=ACCOUNT_DISABLED');
  });

  it('builds account names from the claims', () => {
    expect(accountBaseFrom({ preferred_username: 'Juan.Dela-Cruz' })).toBe('juan_dela_cr')
    expect(accountBaseFrom({ preferred_username: 'abcdefghijk.l' })).toBe('abcdefghijk');
    expect(accountBaseFrom({ email: 'maria.santos@example.ph' })).toBe('maria_santos');
    expect(accountBaseFrom({ email: 'é@example.ph' })).toBe('player_e');
    expect(accountBaseFrom({})).toBe('player');
  });
});

describe('social sign-in in the Philippines: full name and birth date first, screened like a registration', () => {
  type Identity = { payeeName: string; birthday: string; ageConfirmed: boolean };
  const identity = (code: string, b: Partial<Identity> = {}) =>
    api<Login>(t.url, '/wps/session/oidc/identity', { body: { code, payeeName: 'Ana Lim', birthday: '1990-01-01', ageConfirmed: true, ...b } });
  const codeOf = async (login: string) => (await signIn(login)).landed.searchParams.get('oidc')!;
  const linked = async (sub: string) => (await t.portal.db.query<{ id: number; payee_name: string | null; birth_date: string | null; rg_name_key: string | null }>(
    `SELECT m.id, m.payee_name, to_char(m.birth_date, 'YYYY-MM-DD') AS birth_date, m.rg_name_key FROM oidc_identities oi JOIN members m ON m.id = oi.member_id
      WHERE oi.subject = $1`, [sub])).rows[0] ?? null;
  let risk = '';

  beforeAll(async () => {
    await setMarket('PH');
    await t.portal.cashier.operators.createOperator('DEMO', 'oidc_risk', 'Oidc12345678', ['risk'], { totpSecret: OPS_TOTP_SECRET });
    risk = (await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username: 'oidc_risk', password: 'Oidc12345678', totp: await opsTotp('oidc_risk', t.url) } })).json!.value!.token;
    const imp = await api(t.url, '/ops/api/rg/restricted/import', { token: risk, body: { csv: 'full_name,birth_date,category\n"Magsaysay, Rosa",1975-04-04,government_official\n' } });
    expect(imp.status, imp.text).toBe(200);
  });

  it('a first sign-in creates no account and gives no session until the identity step passed', async () => {
    const code = await codeOf('ph_erin');
    const ex = await exchange(code);
    expect(ex.status).toBe(409);
    expect(ex.json).toMatchObject({ success: false, code: 'IDENTITY_REQUIRED' });
    expect(await linked('ph_erin')).toBeNull();
    // bad input: 400 and the code stays usable
    for (const bad of [{ payeeName: '' }, { payeeName: '1234' }, { birthday: '1990-02-30' }, { birthday: 'yesterday' }]) {
      const r = await identity(code, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.json?.code).toBe('VALIDATION');
    }
    for (const body of [{ code }, { code, payeeName: 'A B', birthday: '1990-01-01', ageConfirmed: true, extra: 1 }, { code: 'short', payeeName: 'A B', birthday: '1990-01-01', ageConfirmed: true }]) {
      expect((await api(t.url, '/wps/session/oidc/identity', { body })).status).toBe(400);
    }
    expect((await identity(code, { ageConfirmed: false })).json?.code).toBe('UNDERAGE');
    const ok = await identity(code, { payeeName: '  Erin Dela Paz ' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json?.value).toMatchObject({ firstTimeLogin: true, defaultPassword: false });
    expect(await linked('ph_erin')).toMatchObject({ payee_name: 'Erin Dela Paz', birth_date: '1990-01-01', rg_name_key: 'dela erin paz' });
    // the code is used; the next sign-in needs no identity step
    expect((await identity(code)).json?.code).toBe('OIDC_FAILED');
    const again = await exchange(await codeOf('ph_erin'));
    expect(again.status, again.text).toBe(200);
    expect((await info(again.json!.value!.token)).json?.value?.id).toBe((await linked('ph_erin'))!.id);
  });

  it('refuses an underage person (UNDERAGE) and a listed one (403 RESTRICTED_PERSON, nothing about the list); no account; audited; the code is used up', async () => {
    const young = new Date(Date.now() - 20 * 365.25 * 86_400_000).toISOString().slice(0, 10);
    const c1 = await codeOf('ph_young');
    const under = await identity(c1, { birthday: young });
    expect(under.status).toBe(400);
    expect(under.json?.code).toBe('UNDERAGE');
    expect((await identity(c1)).json?.code).toBe('OIDC_FAILED');
    expect(await linked('ph_young')).toBeNull();

    const before = (await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'rg.restricted.refused'`)).rows[0]!.n;
    const c2 = await codeOf('ph_listed');
    const refused = await identity(c2, { payeeName: 'rosa MAGSAYSAY', birthday: '1975-04-04' });
    expect(refused.status).toBe(403);
    expect(refused.json?.code).toBe('RESTRICTED_PERSON');
    expect(JSON.stringify(refused.json)).not.toMatch(/government|categor|list/i);
    expect(await linked('ph_listed')).toBeNull();
    expect((await identity(c2, { payeeName: 'Someone Else' })).json?.code).toBe('OIDC_FAILED');
    const after = (await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'rg.restricted.refused'`)).rows[0]!.n;
    expect(after).toBe(before + 1);
  });

  it('an older social account without a name and birth date gets no session until they are given, then is the same member', async () => {
    // alice signed up while the market asked nothing
    const old = await linked('alice');
    expect(old).toMatchObject({ payee_name: null, birth_date: null });
    const code = await codeOf('alice');
    expect((await exchange(code)).json?.code).toBe('IDENTITY_REQUIRED');
    const ok = await identity(code, { payeeName: 'Alice Reyes', birthday: '1985-06-07' });
    expect(ok.status, ok.text).toBe(200);
    expect((await info(ok.json!.value!.token)).json?.value?.id).toBe(old!.id);
    expect(await linked('alice')).toMatchObject({ id: old!.id, payee_name: 'Alice Reyes', birth_date: '1985-06-07' });
    expect((await exchange(await codeOf('alice'))).status).toBe(200);
  });
});

describe('social sign-in without a reachable provider', () => {
  let down: TestPortal;
  beforeAll(async () => {
    down = await startTestPortal({ OIDC_ISSUER: 'http://127.0.0.1:9/', OIDC_CLIENT_ID: 'portal', OIDC_CLIENT_SECRET: 'not-a-real-secret' });
  });
  afterAll(async () => {
    await down?.stop();
  });

  it('answers 503 OIDC_UNAVAILABLE, or sends a browser back with the code', async () => {
    const r = await api(down.url, '/wps/session/oidc/start');
    expect(r.status).toBe(503);
    expect(r.json).toMatchObject({ success: false, code: 'OIDC_UNAVAILABLE' });
    const browser = await fetch(`${down.url}/wps/session/oidc/start`, { redirect: 'manual', headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/?oidcError=OIDC_UNAVAILABLE');
  });

  it('is off without configuration', async () => {
    const off = createOidc({ db: down.portal.db, accounts: down.portal.accounts, limiter: createRateLimiter(down.portal.db), settings: null, log: down.portal.log });
    expect(off.config()).toEqual({ enabled: false, providerName: '' });
    await expect(off.start(await down.portal.merchants.resolve({ host: '127.0.0.1' }).then((m) => m!), '/', () => down.url, '10.0.0.1')).rejects.toMatchObject({ code: 'NOT_AVAILABLE' });
  });
});
