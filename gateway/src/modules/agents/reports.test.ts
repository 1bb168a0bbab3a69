import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { apiOn, testMembers, type TestMember } from '../../testing/test-members.ts';
import { transfer } from '../wallet/ledger.ts';

/**
 * Agent reports and register centre over the API (issue 11): authorization of every call (own team
 * only; player, trial, another team's member refused), bad input, invitations with quota (row-locked,
 * concurrent registrations consume once) and the figures on a small tree with bets.
 */
let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal({ TRUST_PROXY: '1' });
}, 60_000);
afterAll(async () => {
  await t.stop();
});

type Json = Record<string, unknown>;
const call = apiOn(() => t.url);

/** Every account of this file starts with RUN, so a prefix search that leaked outside the subtree would find a sibling's. */
const RUN = `r${randomBytes(3).toString('hex')}`;
let seq = 0;
const member = testMembers(() => t.url, { account: () => `${RUN}${String(++seq).padStart(3, '0')}` });

/**
 * A (top agent) -> B (agent) -> C (player); A -> P (player). S (another top agent) -> S1 (player).
 * A trial session TR.
 */
async function world() {
  const a = await member(1);
  const b = await member(1, a);
  const c = await member(0, b);
  const p = await member(0, a);
  const s = await member(1);
  const s1 = await member(0, s);
  const tr = await member(4);
  return { a, b, c, p, s, s1, tr };
}

async function merchant() {
  const code = (await t.portal.db.query<{ merchant_code: string }>('SELECT merchant_code FROM members LIMIT 1')).rows[0]!.merchant_code;
  return (await t.portal.merchants.byCode(code))!;
}

/** Fund a member (a ledger deposit) and place bets (and wins) through the vendor wallet, as a game would. */
async function play(m: TestMember, bets: Array<{ stake: number; win?: number; game?: string }>) {
  const mer = await merchant();
  await t.portal.db.tx((tx) => transfer(tx, { merchant: mer.code, currency: mer.currency, key: `fund:${m.memberId}:${seq++}`, kind: 'deposit', amount: 1_000_000, debit: { system: 'deposit' }, credit: { member: m.memberId } }));
  const tokens = new Map<string, string>();
  for (const game of new Set(bets.map((b) => b.game ?? 'G'))) {
    const token = `gt-${m.memberId}-${randomBytes(4).toString('hex')}`;
    await t.portal.db.query(
      `INSERT INTO game_sessions (token_hash, merchant_code, member_id, vendor, game_code, expires_at) VALUES ($1, $2, $3, 'V', $4, now() + interval '1 hour')`,
      [createHash('sha256').update(token).digest(), mer.code, m.memberId, game],
    );
    tokens.set(game, token);
  }
  for (const [i, b] of bets.entries()) {
    const round = `${m.memberId}-${randomBytes(4).toString('hex')}-${i}`;
    await t.portal.vendorWallet.bet(mer, 'V', { transactionId: `b-${round}`, playerId: String(m.memberId), roundId: round, gameCode: b.game ?? 'G', amount: b.stake, token: tokens.get(b.game ?? 'G')! });
    if (b.win !== undefined) await t.portal.vendorWallet.win(mer, 'V', { transactionId: `w-${round}`, playerId: String(m.memberId), roundId: round, gameCode: b.game ?? 'G', amount: b.win });
  }
}

async function register(username: string, affiliateCode: string, ip: string) {
  const c = (await call<{ captchaKey: string }>('/wps/captcha')).json!.value!;
  const a = (await call<{ answer: string }>(`/wps/dev/captcha/${c.captchaKey}`)).json!.value!;
  return call<{ memberId: number }>('/wps/member/register', {
    method: 'PUT', headers: { 'x-forwarded-for': ip },
    body: { username, password: 'abc12345', confirmPassword: 'abc12345', termsAccepted: true, ageConfirmed: true, payeeName: 'Juan Dela Cruz', birthday: '1990-01-01', captchaKey: c.captchaKey, captcha: a.answer, affiliateCode, login: false },
  });
}

const expectErr = (r: { status: number; json: { success: boolean; code?: string } | null }, status: number, code: string) =>
  expect([r.status, r.json?.success, r.json?.code]).toEqual([status, false, code]);

describe('agent reports: authorization', () => {
  it('every agent call refuses a player (NON_AGENT), a trial (TRIAL_FORBIDDEN) and no session (401)', async () => {
    const { a, p, tr } = await world();
    const gets = ['/wps/agent/team/overview', '/wps/agent/downlines', `/wps/agent/downlines/${a.memberId}/contracts`, '/wps/agent/invitations',
      '/wps/agent/team/bets', '/wps/agent/team/pnl', '/wps/relay/ODSFE2_MemTransDet'];
    const posts: Array<[string, Json]> = [
      ['/wps/agent/downlines', { account: `${RUN}zz1`, password: 'abc12345', accountType: 'player' }],
      [`/wps/agent/downlines/${a.memberId}/set-agent`, {}],
      ['/wps/agent/invitations', { accountType: 'player', quota: 1 }],
      ['/wps/agent/invitations/1/disable', {}],
    ];
    for (const path of gets) {
      expectErr(await call(path, { token: p.token }), 403, 'NON_AGENT');
      expectErr(await call(path, { token: tr.token }), 403, 'TRIAL_FORBIDDEN');
      expect((await call(path)).status).toBe(401);
    }
    for (const [path, body] of posts) {
      expectErr(await call(path, { token: p.token, body }), 403, 'NON_AGENT');
      expectErr(await call(path, { token: tr.token, body }), 403, 'TRIAL_FORBIDDEN');
      expect((await call(path, { body })).status).toBe(401);
    }
    // the player made nothing
    expect((await t.portal.db.query('SELECT 1 FROM members WHERE account = $1', [`${RUN}zz1`])).rows).toEqual([]);
    // consolidated: any member but a trial
    const cons = await call<Json>('/wps/member/info/funds/consolidated', { token: p.token });
    expect(cons.status).toBe(200);
    expect(cons.json!.value).toEqual({
      dividend: { active: false, rateBps: null, pendingOffer: false, hasPayouts: false }, dailySalary: { active: false, rateBps: null, pendingOffer: false, hasPayouts: false },
      hourSalary: { active: false, rateBps: null, pendingOffer: false, hasPayouts: false }, realtimeSalary: { active: false, rateBps: null, pendingOffer: false, hasPayouts: false },
      pendingOffers: 0, isAgent: false,
    });
    expectErr(await call('/wps/member/info/funds/consolidated', { token: tr.token }), 403, 'TRIAL_FORBIDDEN');
  });

  it("another team's member, the upline and a sibling team answer NOT_IN_TREE everywhere", async () => {
    const { a, b, c, s, s1 } = await world();
    const notInTree: Array<[TestMember, string, Json | undefined]> = [
      [a, `/wps/agent/team/overview?memberId=${s1.memberId}`, undefined],
      [b, `/wps/agent/team/overview?memberId=${a.memberId}`, undefined],
      [a, `/wps/agent/downlines?parentId=${s.memberId}`, undefined],
      [b, `/wps/agent/downlines?parentId=${a.memberId}`, undefined],
      [a, `/wps/agent/downlines/${s1.memberId}/contracts`, undefined],
      [b, `/wps/agent/downlines/${a.memberId}/contracts`, undefined],
      [a, `/wps/agent/downlines/${s1.memberId}/set-agent`, {}],
      [b, `/wps/agent/downlines/${a.memberId}/set-agent`, {}],
      [a, `/wps/agent/team/bets?account=${s1.account}`, undefined],
      [b, `/wps/agent/team/bets?account=${a.account}`, undefined],
      [a, `/wps/agent/team/pnl?parentId=${s.memberId}`, undefined],
      [b, `/wps/agent/team/pnl?parentId=${a.memberId}`, undefined],
      [a, `/wps/relay/ODSFE2_MemTransDet?account=${s1.account}`, undefined],
      [b, `/wps/relay/ODSFE2_MemTransDet?account=${a.account}`, undefined],
      [a, '/wps/agent/downlines/999999999/set-agent', {}],
    ];
    for (const [who, path, body] of notInTree) {
      const r = await call(path, { token: who.token, ...(body ? { body } : {}) });
      expect([path, r.status, r.json?.code]).toEqual([path, 403, 'NOT_IN_TREE']);
    }
    // in the team but not a direct downline
    expectErr(await call(`/wps/agent/downlines/${c.memberId}/set-agent`, { token: a.token, body: {} }), 403, 'NOT_DIRECT_DOWNLINE');
    expectErr(await call(`/wps/agent/downlines/${c.memberId}/contracts`, { token: a.token }), 403, 'NOT_DIRECT_DOWNLINE');
    // S's invitation cannot be disabled by A
    const inv = await call<{ id: number }>('/wps/agent/invitations', { token: s.token, body: { accountType: 'player', quota: 3 } });
    expect(inv.status).toBe(200);
    expectErr(await call(`/wps/agent/invitations/${inv.json!.value!.id}/disable`, { token: a.token, body: {} }), 404, 'NOT_FOUND');
    expect((await call<{ list: unknown[] }>('/wps/agent/invitations', { token: a.token })).json!.value!.list).toEqual([]);
    expect((await t.portal.db.query<{ type: number }>('SELECT type FROM members WHERE id = $1', [s1.memberId])).rows[0]!.type).toBe(0);
  });

  it('bad input is a clear 4xx', async () => {
    const { a } = await world();
    const bad: Array<[string, Json | undefined]> = [
      ['/wps/agent/team/overview?from=2026-02-30', undefined],
      // a day of year 1 (0 with the offset off) was a 500 from PostgreSQL; 0026 (typed for 2026) a search of the year 26
      ['/wps/agent/team/overview?from=0001-01-01&to=0001-01-01', undefined],
      ['/wps/agent/team/bets?to=0000-01-05', undefined],
      ['/wps/agent/team/pnl?from=0026-12-01&to=0026-12-01', undefined],
      ['/wps/agent/team/overview?from=2026-05-02&to=2026-05-01', undefined],
      ['/wps/agent/team/overview?from=2020-01-01&to=2026-01-01', undefined],
      ['/wps/agent/team/overview?memberId=abc', undefined],
      ['/wps/agent/downlines?pageSize=1000', undefined],
      ['/wps/agent/downlines?pageNo=0', undefined],
      ['/wps/agent/downlines?nope=1', undefined],
      ['/wps/agent/downlines/abc/set-agent', {}],
      ['/wps/agent/downlines', { account: `${RUN}ok1`, password: 'abc12345', accountType: 'boss' }],
      ['/wps/agent/downlines', { account: `${RUN}ok2`, password: '1', accountType: 'player' }],
      ['/wps/agent/downlines', { account: 'x', password: 'abc12345', accountType: 'player' }],
      ['/wps/agent/invitations', { accountType: 'player', quota: 0 }],
      ['/wps/agent/invitations', { accountType: 'player', quota: 10_001 }],
      ['/wps/agent/invitations', { accountType: 'player', quota: 1, extra: true }],
      ['/wps/agent/team/bets?gameType=a%20b', undefined],
      ['/wps/relay/ODSFE2_MemTransDet?type=DROP%20TABLE', undefined],
    ];
    for (const [path, body] of bad) {
      const r = await call(path, { token: a.token, ...(body ? { body } : {}) });
      expect([path, r.status, r.json?.success]).toEqual([path, 400, false]);
    }
  });

  it('junk from an agent is never a 500', async () => {
    const { a } = await world();
    const { agentReportCalls } = await import('@portal/contracts/api/agent-reports');
    const queries = ['?pageNo=-1&pageSize=99999', '?a[b]=1', '?from=notadate&to=2026-13-45', '?pageNo=1&pageNo=2', `?search=${'%25'.repeat(300)}`,
      '?parentId=99999999999999999999', '?memberId=-1', '?account=%00', '?from=2026-01-01&to=2026-01-01&account=__%25', '?search=%5C%25_'];
    const bodies: unknown[] = [null, [], 'x', 12, { a: 1 }, { account: '\u0000', password: 'x'.repeat(5000), accountType: 'agent' }, { accountType: 'player', quota: 1.5 },
      { accountType: 'player', quota: 1, expiresInDays: 0 }, { account: `${RUN}j'; --`, password: 'abc12345', accountType: 'player' }];
    for (const [name, def] of Object.entries(agentReportCalls)) {
      const path = def.path.replace(':id', name.length % 2 ? 'abc' : '99999999999999999999');
      if (def.method === 'GET') {
        for (const q of queries) {
          const r = await call(path + q, { token: a.token });
          expect([name, q, r.status < 500, r.json?.success === false || r.status === 200]).toEqual([name, q, true, true]);
        }
      } else {
        for (const b of bodies) {
          const r = await call(path, { token: a.token, body: b });
          expect([name, JSON.stringify(b), r.status < 500]).toEqual([name, JSON.stringify(b), true]);
        }
      }
    }
  });
});

describe('downlines and register centre', () => {
  it('lists direct downlines, drills with a breadcrumb, searches only the own subtree, pages', async () => {
    const { a, b, c, p, s1 } = await world();
    const top = await call<{ list: Json[]; total: number; path: Json[] }>('/wps/agent/downlines', { token: a.token });
    expect(top.status).toBe(200);
    expect(top.json!.value!.list.map((x) => [x.account, x.depth, x.isAgent, x.teamSize, x.directCount])).toEqual([[b.account, 1, true, 1, 1], [p.account, 1, false, 0, 0]]);
    expect(top.json!.value!.path).toEqual([{ id: a.memberId, account: a.account }]);
    const drill = await call<{ list: Json[]; path: Json[] }>(`/wps/agent/downlines?parentId=${b.memberId}`, { token: a.token });
    expect(drill.json!.value!.list.map((x) => [x.account, x.depth])).toEqual([[c.account, 2]]);
    expect(drill.json!.value!.path).toEqual([{ id: a.memberId, account: a.account }, { id: b.memberId, account: b.account }]);
    // every account of the file shares RUN: the search must still find only A's team
    const found = await call<{ list: Json[]; total: number }>(`/wps/agent/downlines?search=${RUN}`, { token: a.token });
    const accounts = found.json!.value!.list.map((x) => x.account);
    expect(accounts).toEqual(expect.arrayContaining([b.account, c.account, p.account]));
    expect(accounts).not.toContain(s1.account);
    expect(accounts).not.toContain(a.account);
    expect(found.json!.value!.total).toBe(3);
    const bSearch = await call<{ list: Json[] }>(`/wps/agent/downlines?search=${RUN}`, { token: b.token });
    expect(bSearch.json!.value!.list.map((x) => x.account)).toEqual([c.account]);
    const page2 = await call<{ list: Json[]; total: number; pageNo: number }>('/wps/agent/downlines?pageSize=1&pageNo=2', { token: a.token });
    expect([page2.json!.value!.total, page2.json!.value!.list.map((x) => x.account)]).toEqual([2, [p.account]]);
  });

  it('creates a player or an agent under the caller, with the registration rules; set-agent on a direct downline', async () => {
    const { a, p } = await world();
    const pl = await call<Json>('/wps/agent/downlines', { token: a.token, body: { account: `${RUN}np1`, password: 'abc12345', nickname: 'Nina', accountType: 'player' } });
    expect(pl.status).toBe(200);
    expect(pl.json!.value).toMatchObject({ account: `${RUN}np1`, nickname: 'Nina', type: 0, isAgent: false, depth: 1, balance: 0 });
    const ag = await call<Json>('/wps/agent/downlines', { token: a.token, body: { account: `${RUN}na1`, password: 'abc12345', accountType: 'agent' } });
    expect(ag.json!.value).toMatchObject({ type: 2, isAgent: true });
    const rows = await t.portal.db.query<{ account: string; parent_id: number }>('SELECT account, parent_id FROM members WHERE account IN ($1, $2) ORDER BY account', [`${RUN}na1`, `${RUN}np1`]);
    expect(rows.rows.map((r) => r.parent_id)).toEqual([a.memberId, a.memberId]);
    expectErr(await call('/wps/agent/downlines', { token: a.token, body: { account: `${RUN}NP1`, password: 'abc12345', accountType: 'player' } }), 409, 'ACCOUNT_EXISTS');
    // the new player's password is the one given
    const hash = (await t.portal.db.query<{ password_hash: string }>('SELECT password_hash FROM members WHERE account = $1', [`${RUN}np1`])).rows[0]!.password_hash;
    expect(await t.portal.hasher.verify(hash, 'abc12345')).toBe(true);
    // ...and the player must replace it at first sign-in: the agent chose it (and kept a way into the account).
    // (a sign-in of a member marked so opens a session that may only change it: auth.test, forced change)
    const marked = await t.portal.db.query<{ must_change_password: boolean }>('SELECT must_change_password FROM members WHERE account IN ($1, $2)', [`${RUN}np1`, `${RUN}na1`]);
    expect(marked.rows.map((r) => r.must_change_password)).toEqual([true, true]);

    const set = await call<Json>(`/wps/agent/downlines/${p.memberId}/set-agent`, { token: a.token, body: {} });
    expect(set.status).toBe(200);
    expect(set.json!.value).toMatchObject({ id: p.memberId, type: 2, isAgent: true });
    // again: stays an agent
    expect((await call<Json>(`/wps/agent/downlines/${p.memberId}/set-agent`, { token: a.token, body: {} })).json!.value).toMatchObject({ type: 2 });
    // P's session from before is an agent's now
    expect((await call('/wps/agent/downlines', { token: p.token })).status).toBe(200);
    const contracts = await call<{ live: unknown[]; offers: unknown[] }>(`/wps/agent/downlines/${p.memberId}/contracts`, { token: a.token });
    expect(contracts.json!.value).toEqual({ live: [], offers: [] });
  });
});

describe('invitations with quota', () => {
  it('a quota of 1 admits one registration of the given type under the inviter; then INVITATION_EXHAUSTED', async () => {
    const { a } = await world();
    const inv = await call<{ id: number; code: string; link: string; quota: number; used: number; status: string; accountType: string }>(
      '/wps/agent/invitations', { token: a.token, body: { accountType: 'agent', quota: 1, expiresInDays: 7 } });
    expect(inv.status).toBe(200);
    const v = inv.json!.value!;
    expect(v).toMatchObject({ quota: 1, used: 0, status: 'active', accountType: 'agent' });
    expect(v.link).toMatch(new RegExp(`/register\\?affiliateCode=${v.code}$`));
    const r1 = await register(`${RUN}iv1`, v.code, '10.88.0.1');
    expect(r1.status).toBe(200);
    const row = (await t.portal.db.query<{ type: number; parent_id: number; invitation_id: number }>('SELECT type, parent_id, invitation_id FROM members WHERE id = $1', [r1.json!.value!.memberId])).rows[0]!;
    expect(row).toEqual({ type: 2, parent_id: a.memberId, invitation_id: v.id });
    expectErr(await register(`${RUN}iv2`, v.code, '10.88.0.2'), 409, 'INVITATION_EXHAUSTED');
    expect((await t.portal.db.query('SELECT 1 FROM members WHERE account = $1', [`${RUN}iv2`])).rows).toEqual([]);
    const list = await call<{ list: Json[] }>('/wps/agent/invitations', { token: a.token });
    expect(list.json!.value!.list).toEqual([expect.objectContaining({ id: v.id, used: 1, status: 'exhausted' })]);
    // the lookup (code check) tells it too
    expectErr(await call(`/wps/agent/affiliate?code=${v.code}`, { headers: { 'x-forwarded-for': '10.88.0.3' } }), 409, 'INVITATION_EXHAUSTED');
  });

  it('concurrent registrations consume a quota once each, never beyond it', async () => {
    const { a } = await world();
    const v = (await call<{ id: number; code: string }>('/wps/agent/invitations', { token: a.token, body: { accountType: 'player', quota: 2 } })).json!.value!;
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => register(`${RUN}cc${i}`, v.code, `10.89.0.${i + 1}`)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBe(2);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.json?.code).toBe('INVITATION_EXHAUSTED');
    const used = (await t.portal.db.query<{ used: number }>('SELECT used FROM agent_invitations WHERE id = $1', [v.id])).rows[0]!.used;
    expect(used).toBe(2);
    const members = await t.portal.db.query<{ type: number; parent_id: number }>('SELECT type, parent_id FROM members WHERE invitation_id = $1', [v.id]);
    expect(members.rows).toEqual([{ type: 0, parent_id: a.memberId }, { type: 0, parent_id: a.memberId }]);
  });

  it('a disabled invitation reads as an unknown code; member invitation codes keep working', async () => {
    const { a } = await world();
    const v = (await call<{ id: number; code: string }>('/wps/agent/invitations', { token: a.token, body: { accountType: 'player', quota: 5 } })).json!.value!;
    const off = await call<Json>(`/wps/agent/invitations/${v.id}/disable`, { token: a.token, body: {} });
    expect(off.json!.value).toMatchObject({ status: 'disabled', used: 0 });
    expectErr(await register(`${RUN}dz1`, v.code, '10.90.0.1'), 400, 'INVALID_INVITATION_CODE');
    // a member's own code (dev seed LUCKY8) still registers under that member, as a player
    const r = await register(`${RUN}dz2`, 'LUCKY8', '10.90.0.2');
    expect(r.status).toBe(200);
    expect((await t.portal.db.query<{ type: number; invitation_id: number | null }>('SELECT type, invitation_id FROM members WHERE id = $1', [r.json!.value!.memberId])).rows[0])
      .toEqual({ type: 0, invitation_id: null });
  });
});

describe('contracts seen by the register centre', () => {
  it("a direct downline's contracts and offers; the consolidated flags of the caller", async () => {
    const { a, b } = await world();
    const wages = (rate: number) => ({ kind: 'dailyWages', rate, activeMembers: 0, betAmount: 0, validBetPeriod: 'daily' });
    expect((await call('/wps/dev/agent-contracts/house', { body: { memberId: a.memberId, terms: wages(300) } })).status).toBe(200);
    const offer = await call<{ id: number }>('/wps/agent/contracts', { token: a.token, body: { downlineId: b.memberId, terms: wages(200) } });
    expect(offer.status).toBe(200);
    const seen = await call<{ live: Json[]; offers: Json[] }>(`/wps/agent/downlines/${b.memberId}/contracts`, { token: a.token });
    expect(seen.json!.value!.live).toEqual([]);
    expect(seen.json!.value!.offers.map((c) => [c.id, c.status, c.kind])).toEqual([[offer.json!.value!.id, 'offered', 'dailyWages']]);
    const consA = await call<Json>('/wps/member/info/funds/consolidated', { token: a.token });
    expect(consA.json!.value).toMatchObject({ isAgent: true, pendingOffers: 0, dailySalary: { active: true, rateBps: 300, pendingOffer: false }, dividend: { active: false } });
    const consB = await call<Json>('/wps/member/info/funds/consolidated', { token: b.token });
    expect(consB.json!.value).toMatchObject({ isAgent: true, pendingOffers: 1, dailySalary: { active: false, rateBps: null, pendingOffer: true } });
    expect((await call(`/wps/agent/contracts/${offer.json!.value!.id}/accept`, { token: b.token, body: {} })).status).toBe(200);
    const after = await call<{ live: Json[]; offers: Json[] }>(`/wps/agent/downlines/${b.memberId}/contracts`, { token: a.token });
    expect([after.json!.value!.live.map((c) => c.status), after.json!.value!.offers]).toEqual([['active'], []]);
  });
});

describe('figures on a small tree with bets', () => {
  it('overview, P&L per downline, team bets and account details cover the own team only', async () => {
    const { a, b, c, p, s1 } = await world();
    await play(c, [{ stake: 1000, win: 2500 }, { stake: 500 }]);
    const mer = await merchant();
    await t.portal.db.query(
      `INSERT INTO games (merchant_code, node_id, vassalage, game_code, game_type, game_name) VALUES ($1, 'rt-V-G', 'V', 'G', 'RTSLOT', 'Slot G'), ($1, 'rt-V-G2', 'V', 'G2', 'RTLIVE', 'Live G2')
       ON CONFLICT DO NOTHING`, [mer.code]);
    await play(p, [{ stake: 300, win: 0, game: 'G2' }]);
    await play(b, [{ stake: 700, win: 100 }]);
    await play(s1, [{ stake: 99_999 }]);

    const ov = await call<Json>('/wps/agent/team/overview', { token: a.token });
    expect(ov.status).toBe(200);
    expect(ov.json!.value).toMatchObject({
      teamSize: 3, directCount: 2, agentCount: 1, validBets: 2500, betCount: 4, payout: 2600, profitLoss: 100, activeMembers: 3,
    });
    const ovB = await call<Json>(`/wps/agent/team/overview?memberId=${b.memberId}`, { token: a.token });
    expect(ovB.json!.value).toMatchObject({ teamSize: 1, validBets: 1500, payout: 2500, profitLoss: 1000 });

    const pnl = await call<{ list: Json[]; self: Json; totals: Json; total: number; path: Json[] }>('/wps/agent/team/pnl', { token: a.token });
    expect(pnl.status).toBe(200);
    const v = pnl.json!.value!;
    expect(v.list.map((x) => [x.account, x.validBets, x.betCount, x.payout, x.profitLoss, x.teamSize])).toEqual([
      [b.account, 2200, 3, 2600, 400, 1],
      [p.account, 300, 1, 0, -300, 0],
    ]);
    expect(v.self).toMatchObject({ validBets: 0, betCount: 0, payout: 0, profitLoss: 0 });
    expect(v.totals).toMatchObject({ validBets: 2500, betCount: 4, payout: 2600, profitLoss: 100 });
    const pnlB = await call<{ list: Json[]; self: Json; path: Json[] }>(`/wps/agent/team/pnl?parentId=${b.memberId}`, { token: a.token });
    expect(pnlB.json!.value!.self).toMatchObject({ validBets: 700, payout: 100, profitLoss: -600 });
    expect(pnlB.json!.value!.list.map((x) => [x.account, x.validBets])).toEqual([[c.account, 1500]]);
    expect(pnlB.json!.value!.path.map((x) => x.id)).toEqual([a.memberId, b.memberId]);

    const bets = await call<{ list: Json[]; total: number; totalStake: number; totalWin: number }>('/wps/agent/team/bets', { token: a.token });
    expect(bets.status).toBe(200);
    expect(bets.json!.value!.total).toBe(4);
    expect([bets.json!.value!.totalStake, bets.json!.value!.totalWin]).toEqual([2500, 2600]);
    expect(new Set(bets.json!.value!.list.map((x) => x.account))).toEqual(new Set([b.account, c.account, p.account]));
    const onlyC = await call<{ list: Json[]; total: number }>(`/wps/agent/team/bets?account=${c.account.toUpperCase()}`, { token: a.token });
    expect(onlyC.json!.value!.list.map((x) => [x.account, x.stake, x.status])).toEqual(expect.arrayContaining([[c.account, 1000, 'settled'], [c.account, 500, 'open']]));
    expect(onlyC.json!.value!.total).toBe(2);
    const live = await call<{ list: Json[]; total: number }>('/wps/agent/team/bets?gameType=RTLIVE', { token: a.token });
    expect(live.json!.value!.list.map((x) => [x.account, x.gameName, x.gameType, x.stake])).toEqual([[p.account, 'Live G2', 'RTLIVE', 300]]);
    const bBets = await call<{ list: Json[] }>('/wps/agent/team/bets', { token: b.token });
    expect(bBets.json!.value!.list.map((x) => x.account)).toEqual([c.account, c.account]);

    const det = await call<{ list: Json[]; total: number }>('/wps/relay/ODSFE2_MemTransDet?pageSize=100', { token: a.token });
    expect(det.status).toBe(200);
    const seen = new Set(det.json!.value!.list.map((x) => x.account));
    expect(seen.has(s1.account)).toBe(false);
    // A bet's reference is its round, as the member's own account record shows it, not the ledger's key
    // (a house game's transfer keeps both: it showed 'house-S-...-bet').
    await t.portal.db.tx((tx) => transfer(tx, { merchant: mer.code, currency: mer.currency, key: `house-bet:${p.memberId}:${seq++}`, kind: 'bet', amount: 1_00,
      debit: { member: p.memberId }, credit: { system: 'house' }, memo: { ref: 'house-S-qa1-bet', round: 'S-qa1' } }));
    const withHouse = await call<{ list: Json[] }>(`/wps/relay/ODSFE2_MemTransDet?account=${p.account}&type=bet&pageSize=100`, { token: a.token });
    expect(withHouse.json!.value!.list.map((x) => x.reference)).toContain('S-qa1');
    expect(withHouse.json!.value!.list.map((x) => x.reference)).not.toContain('house-S-qa1-bet');
    expect([...seen].sort()).toEqual([b.account, c.account, p.account].sort());
    const deposits = await call<{ list: Json[] }>(`/wps/relay/ODSFE2_MemTransDet?account=${p.account}&type=deposit`, { token: a.token });
    expect(deposits.json!.value!.list).toEqual([expect.objectContaining({ account: p.account, type: 'deposit', amount: 1_000_000, balanceAfter: 1_000_000 })]);
    // A contract payout is listed under its record kind ('dividend', as the account record names it; the
    // ledger's 'agent.dividend' showed as "Other") and the filter takes that kind.
    await t.portal.db.tx((tx) => transfer(tx, { merchant: mer.code, currency: mer.currency, key: `qa-dividend:${p.memberId}:${seq++}`, kind: 'agent.dividend', amount: 2_50,
      debit: { system: 'house' }, credit: { member: p.memberId }, memo: { contractId: '7', periodKey: 'D2026-12-07' } }));
    const dividends = await call<{ list: Json[] }>(`/wps/relay/ODSFE2_MemTransDet?account=${p.account}&type=dividend`, { token: a.token });
    expect(dividends.json!.value!.list).toEqual([expect.objectContaining({ account: p.account, type: 'dividend', amount: 2_50, reference: 'C7 D2026-12-07' })]);
    const all = await call<{ list: Json[] }>(`/wps/relay/ODSFE2_MemTransDet?account=${p.account}&pageSize=100`, { token: a.token });
    expect(all.json!.value!.list.map((x) => x.type)).toContain('dividend');
    expect(all.json!.value!.list.map((x) => x.type)).not.toContain('agent.dividend');
    // B sees its own entries and C's, never its upline's
    const detB = await call<{ list: Json[] }>('/wps/relay/ODSFE2_MemTransDet?pageSize=100', { token: b.token });
    expect(new Set(detB.json!.value!.list.map((x) => x.account))).toEqual(new Set([b.account, c.account]));
  });
});
