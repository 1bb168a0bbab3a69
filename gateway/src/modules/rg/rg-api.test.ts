import { enrolOperatorTotp } from '../../testing/ops-totp.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { api, connectSocket, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { TEST_MEMBER_PASSWORD, testMembers } from '../../testing/test-members.ts';
import { checkLedger, transfer } from '../wallet/ledger.ts';
import { signVendorRequest } from '../provider/vendor-routes.ts';
import { createRg } from './rg-service.ts';
import { teamBetTotals } from '../agents/team-stats.ts';

let t: TestPortal;
const VENDOR = 'RGV';
const secret = randomBytes(32).toString('hex');
let seq = 0;
const id = (p: string) => `${p}-${Date.now()}-${++seq}`;
const member = testMembers(() => t.url, { prefix: 'rg' });
let opsToken = '';

beforeAll(async () => {
  t = await startTestPortal();
  await t.portal.db.query(`INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url) VALUES ('DEMO', $1, $2, 'https://vendor.example/play')`, [VENDOR, secret]);
  await t.portal.db.query(`INSERT INTO vendors (merchant_code, vassalage, game_type, game_category, display_name) VALUES ('DEMO', $1, 'RNG', 'SLOT', 'RG Vendor')`, [VENDOR]);
  await t.portal.db.query(`INSERT INTO games (merchant_code, node_id, vassalage, game_code, game_type, game_name) VALUES ('DEMO', 'RGV-G1', $1, 'G1', 'RNG', 'RG Slot')`, [VENDOR]);
  // Logins in these tests are password logins without the bot check.
  await api(t.url, '/wps/dev/merchant', { body: { security: { botCheck: false, captchaAfterFailures: 100 } } });
  opsToken = (await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username: 'ops01', password: '{secret}' } })).json!.value!.token;
  await api(t.url, '/ops/api/session/password', { token: opsToken, body: { oldPassword: '{secret}', newPassword: 'Ops01-new-pass-9', confirmNewPassword: 'Ops01-new-pass-9' } });
  await enrolOperatorTotp(t.url, opsToken);
});
afterAll(async () => {
  expect(await checkLedger(t.portal.db)).toEqual([]);
  await t.stop();
});

async function vendorCall<T = Record<string, unknown>>(path: string, body: unknown) {
  const raw = JSON.stringify(body);
  const ts = Math.floor(Date.now() / 1000);
  const res = await fetch(`${t.url}/vendor/v1/${VENDOR}/${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-timestamp': String(ts), 'x-signature': signVendorRequest(secret, ts, raw) }, body: raw,
  });
  return { status: res.status, json: (await res.json()) as { success: boolean; code?: string; value?: T } };
}

/** A player with money and a launched game (its game session token). */
async function player(money = 100_000) {
  const m = await member(0);
  await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: id('seed'), kind: 'deposit', amount: money, debit: { system: 'deposit' }, credit: { member: m.memberId } }));
  const launch = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: 'RGV-G1' }, token: m.token });
  expect(launch.status).toBe(200);
  const code = new URL(launch.json!.value!.url).searchParams.get('token')!;
  const auth = await vendorCall<{ token: string }>('authenticate', { token: code });
  return { ...m, playerId: String(m.memberId), game: auth.json.value!.token };
}
const bet = (p: { playerId: string; game: string }, amount: number, round = id('r')) =>
  vendorCall('bet', { transactionId: id('b'), playerId: p.playerId, roundId: round, gameCode: 'G1', amount, token: p.game });

describe('responsible gaming limits', () => {
  it('refuses bad limit values with 4xx, applies a decrease at once and holds an increase 24 hours', async () => {
    const p = await player();
    for (const amount of [-1, 0, 1.5, 'x', 1e15]) {
      const r = await api(t.url, '/wps/v2/rg/limits', { token: p.token, body: { kind: 'loss', period: 'day', amount } });
      expect(r.status).toBe(400);
      expect(r.json?.code).toBe('VALIDATION');
    }
    expect((await api(t.url, '/wps/v2/rg/limits', { token: p.token, body: { kind: 'nope', period: 'day', amount: 5 } })).status).toBe(400);
    const set = await api<{ applied: boolean; limit: { amount: number } }>(t.url, '/wps/v2/rg/limits', { token: p.token, body: { kind: 'wager', period: 'week', amount: 50_000 } });
    expect(set.json?.value).toMatchObject({ applied: true, limit: { amount: 50_000 } });
    const lower = await api<{ applied: boolean }>(t.url, '/wps/v2/rg/limits', { token: p.token, body: { kind: 'wager', period: 'week', amount: 40_000 } });
    expect(lower.json?.value?.applied).toBe(true);
    const raise = await api<{ applied: boolean; limit: { amount: number; pendingAmount: number; pendingFrom: string } }>(t.url, '/wps/v2/rg/limits', { token: p.token, body: { kind: 'wager', period: 'week', amount: 90_000 } });
    expect(raise.json?.value).toMatchObject({ applied: false, limit: { amount: 40_000, pendingAmount: 90_000 } });
    const early = await api<{ appliesFrom: string }>(t.url, '/wps/v2/rg/limits/confirm', { token: p.token, body: { kind: 'wager', period: 'week' } });
    expect(early.status).toBe(409);
    expect(early.json?.code).toBe('RG_INCREASE_PENDING');
    expect(early.json?.value?.appliesFrom).toBe(raise.json?.value?.limit.pendingFrom);
    // 24 hours later (the request moved back in time), the player's confirmation applies it
    await t.portal.db.query(`UPDATE rg_limits SET pending_from = now() - interval '1 minute' WHERE member_id = $1`, [p.memberId]);
    const ok = await api<{ applied: boolean; limit: { amount: number } }>(t.url, '/wps/v2/rg/limits/confirm', { token: p.token, body: { kind: 'wager', period: 'week' } });
    expect(ok.json?.value).toMatchObject({ applied: true, limit: { amount: 90_000 } });
    const events = await api<{ list: Array<{ action: string }> }>(t.url, '/wps/v2/rg/events', { token: p.token });
    expect(events.json?.value?.list.map((e) => e.action)).toEqual(['rg.limit.confirmed', 'rg.limit.change_requested', 'rg.limit.set', 'rg.limit.set']);
  });

  it('a loss limit stops bets; simultaneous bets cannot both pass a limit only one fits', async () => {
    const p = await player();
    await api(t.url, '/wps/v2/rg/limits', { token: p.token, body: { kind: 'loss', period: 'day', amount: 1_000 } });
    expect((await bet(p, 600)).status).toBe(200);
    const refused = await bet(p, 600);
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('RG_LIMIT_REACHED');
    const doc = (await (await fetch(`${t.url}/vendor/v1/openapi.json`)).json()) as { paths: Record<string, { post: { responses: { '4XX': { content: { 'application/json': { schema: { properties: { code: { enum: string[] } } } } } } } } }> };
    expect(doc.paths['/vendor/v1/{vendor}/bet']!.post.responses['4XX'].content['application/json'].schema.properties.code.enum).toEqual(expect.arrayContaining(['RG_EXCLUDED', 'RG_LIMIT_REACHED']));
    // a win brings the net loss down: 600 bet, 300 won -> 300 lost; 700 more fits, 701 does not
    const round = id('r');
    expect((await bet(p, 100, round)).status).toBe(200);
    expect((await vendorCall('win', { transactionId: id('w'), playerId: p.playerId, roundId: round, gameCode: 'G1', amount: 400, token: p.game })).status).toBe(200);
    const [a, b] = await Promise.all([bet(p, 600), bet(p, 600)]);
    expect([a.status, b.status].sort()).toEqual([200, 403]);
    const state = await api<{ limits: Array<{ kind: string; used: number }> }>(t.url, '/wps/v2/rg/state', { token: p.token });
    expect(state.json?.value?.limits.find((l) => l.kind === 'loss')?.used).toBe(900);
  });

  it('a deposit limit refuses a deposit beyond it', async () => {
    const p = await player();
    await api(t.url, '/wps/v2/rg/limits', { token: p.token, body: { kind: 'deposit', period: 'month', amount: 100 } });
    const channels = await api<{ list: Array<{ code: string; minAmount: number }> }>(t.url, '/wps/v2/deposit/channels', { token: p.token });
    const ch = channels.json!.value!.list[0]!;
    const r = await api(t.url, '/wps/v2/deposit/orders', { token: p.token, body: { channelCode: ch.code, amount: Math.max(ch.minAmount, 101), requestId: id('d') } });
    expect(r.json?.code).toBe('RG_LIMIT_REACHED');
  });
});

describe('exclusions', () => {
  it('self-exclusion logs out everywhere at once; a new login is a restricted session; launches and bets are refused with the end date; audited', async () => {
    const p = await player();
    const second = (await api<{ token: string }>(t.url, '/wps/session/login', { body: { username: p.account, password: TEST_MEMBER_PASSWORD } })).json?.value?.token;
    expect(second).toBeTruthy();
    const sock = await connectSocket(t.url, { token: second });
    const closed = new Promise((resolve) => sock.once('disconnect', resolve));
    expect((await api(t.url, '/wps/v2/rg/exclusion', { token: p.token, body: { kind: 'self', duration: '2y' } })).status).toBe(400);
    const x = await api<{ endsAt: string; revocableFrom: string }>(t.url, '/wps/v2/rg/exclusion', { token: p.token, body: { kind: 'self', duration: '6m' } });
    expect(x.status).toBe(200);
    await closed;
    expect((await api(t.url, '/wps/v2/rg/state', { token: p.token })).status).toBe(401);
    expect((await api(t.url, '/wps/v2/rg/state', { token: second })).status).toBe(401);
    // logging in again gives a restricted session (withdraw and the RG page only), with the end date
    const login = await api<{ token: string; rgExclusion: { kind: string; until: string } }>(t.url, '/wps/session/login', { body: { username: p.account, password: TEST_MEMBER_PASSWORD } });
    expect(login.json?.value?.rgExclusion).toEqual({ kind: 'self', until: x.json?.value?.endsAt });
    const launch = await api<{ until: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: 'RGV-G1' }, token: login.json!.value!.token });
    expect(launch.status).toBe(403);
    expect(launch.json?.code).toBe('RG_EXCLUDED');
    expect(launch.json?.value?.until).toBe(x.json?.value?.endsAt);
    const b = await bet(p, 10);
    expect(b.status).toBe(403);
    expect(['RG_EXCLUDED', 'GAME_TOKEN_INVALID']).toContain(b.json.code);
    // even with a live game token the bet check refuses the excluded player (the check runs before the token's)
    await t.portal.db.query('UPDATE game_sessions SET revoked_at = NULL WHERE member_id = $1', [p.memberId]);
    expect((await bet(p, 10)).json.code).toBe('RG_EXCLUDED');
    // limits: tightened during the exclusion, not loosened (a raise asked now would be in force when it ends)
    const restricted = login.json!.value!.token;
    const limit = (amount: number | null) => api<{ applied: boolean }>(t.url, '/wps/v2/rg/limits', { token: restricted, body: { kind: 'deposit', period: 'day', amount } });
    expect((await limit(5_000)).json?.value?.applied).toBe(true);
    expect((await limit(4_000)).json?.value?.applied).toBe(true);
    for (const looser of [9_000, null]) {
      const r = await limit(looser);
      expect([r.status, r.json?.code], String(looser)).toEqual([403, 'RG_EXCLUDED']);
    }
    // ... and the session settings too: a shorter reality check or session limit, yes; a longer one or none, no
    const session = (realityCheckMinutes: number | null, sessionLimitMinutes: number | null) =>
      api(t.url, '/wps/v2/rg/session', { token: restricted, body: { realityCheckMinutes, sessionLimitMinutes } });
    expect((await session(30, 120)).status).toBe(200);
    expect((await session(15, 60)).status).toBe(200);
    for (const [r, l] of [[null, 60], [15, null], [60, 60], [15, 240]] as const) {
      const refused = await session(r, l);
      expect([refused.status, refused.json?.code], `${r}/${l}`).toEqual([403, 'RG_EXCLUDED']);
    }
    const audit = await api<{ list: Array<{ action: string; operator: string }> }>(t.url, `/ops/api/audit?targetType=member&targetId=${p.memberId}&action=rg.exclusion.start`, { token: opsToken });
    expect(audit.json?.value?.list[0]).toMatchObject({ action: 'rg.exclusion.start', operator: `member:${p.account}` });
  });

  it('cooling-off and self-exclusion timelines with a test clock: in force until the end, then lifted by the job, audited as system', async () => {
    const p = await player();
    let clock = new Date(Date.now() - 25 * 3600_000);
    const rg = createRg({ db: t.portal.db, jobs: null, disconnectMember: async () => undefined, now: () => clock });
    await rg.exclude('DEMO', p.memberId, { kind: 'member', account: p.account }, 'cooling', '24h');
    // the 24 h cooling-off that started 25 h ago is over: no longer in force even before the job runs
    expect((await api(t.url, '/wps/session/login', { body: { username: p.account, password: TEST_MEMBER_PASSWORD } })).status).toBe(200);
    clock = new Date();
    expect(await rg.liftDue()).toBe(1);
    expect(await rg.liftDue()).toBe(0);
    const self = await rg.exclude('DEMO', p.memberId, { kind: 'member', account: p.account }, 'self', '1y');
    expect(Date.parse(self.revocableFrom!) - Date.parse(self.startsAt)).toBeGreaterThanOrEqual(181 * 86_400_000);
    expect((await api<{ rgExclusion: { kind: string } }>(t.url, '/wps/session/login', { body: { username: p.account, password: TEST_MEMBER_PASSWORD } })).json?.value?.rgExclusion?.kind).toBe('self');
    // (liftDue ends every due exclusion of the merchant: other tests' ones too, so this one is looked at by id)
    const endedAt = async () => (await t.portal.db.query<{ ended_at: Date | null }>('SELECT ended_at FROM rg_exclusions WHERE id = $1', [self.id])).rows[0]!.ended_at;
    clock = new Date(Date.parse(self.endsAt!) - 1000);
    await rg.liftDue();
    expect(await endedAt()).toBeNull();
    clock = new Date(Date.parse(self.endsAt!));
    await rg.liftDue();
    expect(new Date((await endedAt())!).toISOString()).toBe(self.endsAt);
    const audit = await api<{ list: Array<{ action: string; operator: string }> }>(t.url, `/ops/api/audit?targetType=member&targetId=${p.memberId}`, { token: opsToken });
    expect(audit.json?.value?.list.filter((a) => a.action.startsWith('rg.exclusion')).slice(0, 4).map((a) => `${a.action}/${a.operator}`)).toEqual([
      'rg.exclusion.end/system', 'rg.exclusion.start/member:' + p.account, 'rg.exclusion.end/system', 'rg.exclusion.start/member:' + p.account]);
  });

  it('an operator excludes and lifts; a member token or a non-admin is refused; bad input is 4xx', async () => {
    const p = await player();
    expect((await api(t.url, '/ops/api/rg/exclusions', { token: p.token, body: { memberId: p.memberId, duration: null, reason: 'kyc' } })).status).toBe(401);
    expect((await api(t.url, '/ops/api/rg/exclusions', { token: opsToken, body: { memberId: -3, duration: null, reason: 'kyc' } })).status).toBe(400);
    expect((await api(t.url, '/ops/api/rg/exclusions', { token: opsToken, body: { memberId: 99_999_999, duration: null, reason: 'kyc' } })).status).toBe(404);
    const x = await api<{ id: string; endsAt: null }>(t.url, '/ops/api/rg/exclusions', { token: opsToken, body: { memberId: p.memberId, duration: null, reason: 'problem gambling report' } });
    expect(x.json?.value?.endsAt).toBeNull();
    expect((await api<{ rgExclusion: { kind: string; until: null } }>(t.url, '/wps/session/login', { body: { username: p.account, password: TEST_MEMBER_PASSWORD } })).json?.value?.rgExclusion).toEqual({ kind: 'operator', until: null });
    expect((await api(t.url, `/ops/api/rg/exclusions/${x.json!.value!.id}/lift`, { token: opsToken, body: { reason: 'reviewed' } })).status).toBe(200);
    // Lifted once: a second lift is told it has ended (409), an unknown id is 404.
    expect((await api(t.url, `/ops/api/rg/exclusions/${x.json!.value!.id}/lift`, { token: opsToken, body: { reason: 'reviewed' } })).json).toMatchObject({ success: false, code: 'INVALID_STATE', message: 'This exclusion has already ended' });
    expect((await api(t.url, `/ops/api/rg/exclusions/99999999/lift`, { token: opsToken, body: { reason: 'reviewed' } })).status).toBe(404);
    // A player's own cooling-off is there but cannot be lifted: 409 saying so (it answered 404), still in force.
    const own = await player();
    const cooling = await api<{ id: string }>(t.url, '/wps/v2/rg/exclusion', { token: own.token, body: { kind: 'cooling', duration: '24h' } });
    const ownId = cooling.json?.value?.id ?? (await t.portal.db.query<{ id: string }>('SELECT id::text FROM rg_exclusions WHERE member_id = $1', [own.memberId])).rows[0]!.id;
    const refusedLift = await api(t.url, `/ops/api/rg/exclusions/${ownId}/lift`, { token: opsToken, body: { reason: 'asked by phone' } });
    expect([refusedLift.status, refusedLift.json?.code]).toEqual([409, 'INVALID_STATE']);
    expect(refusedLift.json?.message).toMatch(/runs to its end/);
    expect((await t.portal.db.query('SELECT 1 FROM rg_exclusions WHERE id = $1 AND ended_at IS NULL', [ownId])).rows.length).toBe(1);
    const after = await api<{ rgExclusion: null }>(t.url, '/wps/session/login', { body: { username: p.account, password: TEST_MEMBER_PASSWORD } });
    expect(after.status).toBe(200);
    expect(after.json?.value?.rgExclusion).toBeNull();
    // The trail keeps both reasons: the exclusion's (it kept only the lifting's) and the lifting's.
    const trail = await api<{ list: Array<{ action: string; after: Record<string, unknown> | null }> }>(t.url, `/ops/api/audit?targetType=member&targetId=${p.memberId}`, { token: opsToken });
    expect(trail.json!.value!.list.find((a) => a.action === 'rg.exclusion.start')?.after).toMatchObject({ kind: 'operator', reason: 'problem gambling report' });
  });

  it('a session time limit ends the session at the limit', async () => {
    const p = await player();
    expect((await api(t.url, '/wps/v2/rg/session', { token: p.token, body: { realityCheckMinutes: 1, sessionLimitMinutes: 30 } })).status).toBe(400);
    const s = await api<{ realityCheckMinutes: number; sessionStartedAt: string }>(t.url, '/wps/v2/rg/session', { token: p.token, body: { realityCheckMinutes: 30, sessionLimitMinutes: 30 } });
    expect(s.json?.value).toMatchObject({ realityCheckMinutes: 30 });
    expect(s.json?.value?.sessionStartedAt).toBeTruthy();
    await t.portal.db.query(`UPDATE sessions SET created_at = now() - interval '31 minutes' WHERE member_id = $1`, [p.memberId]);
    expect((await api(t.url, '/wps/v2/rg/state', { token: p.token })).status).toBe(401);
  });

  it('a session time limit ends the games launched from the session too: no bet after it (a game left open took bets past it)', async () => {
    // A limit set on a session that has already run past it: the session ends, and its game with it.
    const p = await player();
    expect((await bet(p, 100)).status).toBe(200);
    await t.portal.db.query(`UPDATE sessions SET created_at = now() - interval '31 minutes' WHERE member_id = $1`, [p.memberId]);
    expect((await api(t.url, '/wps/v2/rg/session', { token: p.token, body: { realityCheckMinutes: null, sessionLimitMinutes: 30 } })).status).toBe(200);
    expect((await api(t.url, '/wps/v2/rg/state', { token: p.token })).status).toBe(401);
    const refused = await bet(p, 100);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.json.success).toBe(false);
    const applied = await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM vendor_transactions WHERE member_id = $1 AND kind = 'bet' AND status = 'applied'`, [p.memberId]);
    expect(applied.rows[0]!.n).toBe(1);

    // A game launched under a limit ends with the session that launched it, not 4 hours later.
    const q = await member(0);
    expect((await api(t.url, '/wps/v2/rg/session', { token: q.token, body: { realityCheckMinutes: null, sessionLimitMinutes: 20 } })).status).toBe(200);
    const launch = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: 'RGV-G1' }, token: q.token });
    expect((await vendorCall('authenticate', { token: new URL(launch.json!.value!.url).searchParams.get('token')! })).status).toBe(200);
    const ends = await t.portal.db.query<{ at_limit: boolean }>(
      `SELECT g.expires_at = s.created_at + interval '20 minutes' AS at_limit FROM game_sessions g JOIN sessions s ON s.token_hash = g.session_hash WHERE g.member_id = $1`, [q.memberId]);
    expect(ends.rows.map((r) => r.at_limit)).toEqual([true]);
  });

  it("an excluded player disappears from the agent's team list and search and from the agent's bases", async () => {
    const agent = await member(1);
    const kid = await member(0, agent);
    await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: id('seed'), kind: 'deposit', amount: 10_000, debit: { system: 'deposit' }, credit: { member: kid.memberId } }));
    const launch = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: 'RGV-G1' }, token: kid.token });
    const game = (await vendorCall<{ token: string }>('authenticate', { token: new URL(launch.json!.value!.url).searchParams.get('token')! })).json.value!.token;
    expect((await bet({ playerId: String(kid.memberId), game }, 700)).status).toBe(200);
    const period = { from: new Date(Date.now() - 3600_000), to: new Date(Date.now() + 3600_000) };
    expect((await teamBetTotals(t.portal.db, agent.memberId, period)).validBets).toBe(700);
    const list = async (q: string) => (await api<{ list: Array<{ account: string }> }>(t.url, `/wps/agent/downlines${q}`, { token: agent.token })).json!.value!.list.map((d) => d.account);
    expect(await list('')).toContain(kid.account);
    expect(await list(`?search=${kid.account}`)).toContain(kid.account);
    expect((await api(t.url, '/wps/v2/rg/exclusion', { token: kid.token, body: { kind: 'cooling', duration: '7d' } })).status).toBe(200);
    expect(await list('')).not.toContain(kid.account);
    expect(await list(`?search=${kid.account}`)).not.toContain(kid.account);
    expect((await teamBetTotals(t.portal.db, agent.memberId, period)).validBets).toBe(0);
  });
});
