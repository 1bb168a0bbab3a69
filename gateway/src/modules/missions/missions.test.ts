import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missionPeriodEnd, missionPeriodKey, missionPeriodStart } from '@portal/contracts/domain/missions';
import { startTestPortal, waitFor, type TestPortal, type TestSocket } from '../../testing/test-portal.ts';
import { vendorSuite } from '../../testing/vendor-suite.ts';
import { betContribution, createMissions, seedDemoMissions } from './missions-service.ts';

/**
 * Missions and leaderboard over HTTP with real vendor calls through the bet stream: progress from bets
 * (by kind and game type), deposits and sign-ins, pushed live; a rollback gives back; a reward claimed
 * once; periods of the merchant's calendar; leaderboard ties by time; authorization and refusals.
 */
let t: TestPortal;
const VENDOR = 'MSV';
const { call, newMember, ops, id, setup, end, player, balance, transferIn, vendorCall, vendorToken, bet, deposit, roundOf } = vendorSuite(() => t, { vendor: VENDOR, memberPrefix: 'ms', operatorPrefix: 'm', label: 'Mission' });
type Mission = { id: string; period: string; kind: string; progress: number; target: number; status: string; periodKey: string; rewardAmount: number };
type Summary = { list: Mission[]; claimable: number; eligible: boolean };
type Board = { list: Array<{ rank: number; name: string; total: number; isMe: boolean }>; me: { rank: number; total: number } | null; periodKey: string };
const texts = (en: string) => ({ EN: en, TY: `Misyon: ${en}` });

beforeAll(async () => {
  t = await startTestPortal();
  const db = t.portal.db;
  // The demo seed (not run under NODE_ENV=test): six missions for DEMO, once; then off, these tests use their own.
  await seedDemoMissions(db);
  await seedDemoMissions(db);
  const seeded = await db.query<{ kind: string; title: { EN: string; TY: string } }>(`SELECT kind, title FROM missions WHERE merchant_code = 'DEMO' ORDER BY sort`);
  expect(seeded.rows.map((r) => r.kind)).toEqual(['login_days', 'bet_count', 'valid_bet', 'game_bet', 'deposit', 'login_days']);
  expect(seeded.rows.every((r) => r.title.EN !== r.title.TY)).toBe(true);
  await db.query('UPDATE missions SET enabled = false');
  await setup();
}, 300_000);
afterAll(async () => {
  await end();
}, 120_000);

async function createMission(body: Record<string, unknown>, token = ops.madmin!) {
  const r = await call<{ id: string }>('/ops/api/missions', { token, body });
  expect(r.status, r.text).toBe(200);
  return r.json!.value!;
}
async function summary(token: string) {
  const r = await call<Summary>('/wps/relay/MCSFE_getMissionSummaryDetails?language=TY', { token });
  expect(r.status, r.text).toBe(200);
  return r.json!.value!;
}
const mine = async (token: string, missionId: string) => (await summary(token)).list.find((m) => m.id === missionId)!;
const progressEvent = (s: TestSocket, missionId: string, progress: number) =>
  waitFor(() => s.received.find((e) => e.type === 'mission.progress' && (e.payload as { missionId: string; progress: number }).missionId === missionId && (e.payload as { progress: number }).progress === progress), `mission ${missionId} at ${progress}`);

describe('mission periods (merchant calendar)', () => {
  it('days start at local midnight and weeks on local Monday, for the merchant offset', () => {
    // UTC+8: 2026-11-23 16:00Z is Tuesday 2026-11-24 00:00 local.
    expect(missionPeriodKey(new Date('2026-11-23T15:59:59Z'), 'daily', 480)).toBe('2026-11-23');
    expect(missionPeriodKey(new Date('2026-11-23T16:00:00Z'), 'daily', 480)).toBe('2026-11-24');
    // Monday 2026-11-23 00:00 local is 2026-11-22 16:00Z.
    expect(missionPeriodKey(new Date('2026-11-22T15:59:59Z'), 'weekly', 480)).toBe('W2026-11-16');
    expect(missionPeriodKey(new Date('2026-11-22T16:00:00Z'), 'weekly', 480)).toBe('W2026-11-23');
    // West of UTC (UTC-5): 2026-11-24 04:59Z is still the 23rd.
    expect(missionPeriodKey(new Date('2026-11-24T04:59:00Z'), 'daily', -300)).toBe('2026-11-23');
    expect(missionPeriodStart(new Date('2026-11-24T10:00:00Z'), 'daily', 480).toISOString()).toBe('2026-11-23T16:00:00.000Z');
    expect(missionPeriodEnd(new Date('2026-11-24T10:00:00Z'), 'weekly', 480).toISOString()).toBe('2026-11-29T16:00:00.000Z');
  });
  it('what a bet gives each kind', () => {
    const b = { amount: 150, gameType: 'FISH' };
    expect([betContribution('valid_bet', null, b), betContribution('bet_count', null, b), betContribution('game_bet', 'FISH', b), betContribution('game_bet', 'LIVE', b), betContribution('deposit', null, b)])
      .toEqual([150, 1, 150, 0, 0]);
  });
});

describe('missions', { timeout: 180_000 }, () => {
  it('operators author missions by role, audited; bad input is a 4xx with nothing written', async () => {
    const body = { period: 'daily', kind: 'bet_count', title: texts('Role check'), target: 3, rewardAmount: 1_00 };
    expect((await call('/ops/api/missions', { token: ops.mfinance!, body })).status).toBe(403);
    expect((await call('/ops/api/missions', { token: ops.mrisk! })).status).toBe(403);
    expect((await call('/ops/api/missions', { token: ops.mfinance! })).status).toBe(200);
    // It takes no query: an unknown key is refused, as on every other call (it answered 200).
    expect((await call('/ops/api/missions?zz=1', { token: ops.mfinance! })).status).toBe(400);
    expect((await call('/ops/api/missions', { body })).status).toBe(401);
    const before = (await call<{ list: unknown[] }>('/ops/api/missions', { token: ops.madmin! })).json!.value!.list.length;
    for (const bad of [{ ...body, kind: 'game_bet' }, { ...body, gameType: 'FISH' }, { ...body, target: 0 }, { ...body, rewardAmount: -1 }, { ...body, period: 'monthly' }, { ...body, title: { EN: 'x' } },
      // more sign-in days than the period has: a target no player could meet
      { ...body, kind: 'login_days', target: 2 }, { ...body, kind: 'login_days', period: 'weekly', target: 8 },
      // a game type the catalogue does not have: no bet would ever count
      { ...body, kind: 'game_bet', gameType: 'ZZZ' }, { ...body, kind: 'game_bet', gameType: 'fish' }]) {
      expect((await call('/ops/api/missions', { token: ops.madmin!, body: bad })).status).toBe(400);
    }
    expect((await call<{ list: unknown[] }>('/ops/api/missions', { token: ops.madmin! })).json!.value!.list.length).toBe(before);
    const m = await createMission(body, ops.mcontent!);
    const edited = await call<{ target: number; enabled: boolean }>(`/ops/api/missions/${m.id}`, { method: 'PUT', token: ops.mcontent!, body: { ...body, target: 5, enabled: false } });
    expect(edited.json!.value!).toMatchObject({ target: 5, enabled: false });
    expect((await call(`/ops/api/missions/${m.id}`, { method: 'PUT', token: ops.mcontent!, body: { ...body, kind: 'valid_bet' } })).status).toBe(409);
    expect((await call('/ops/api/missions/999999', { method: 'PUT', token: ops.mcontent!, body })).status).toBe(404);
    const audit = await t.portal.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_type = 'mission' AND target_id = $1 ORDER BY id`, [m.id]);
    expect(audit.rows.map((r) => r.action)).toEqual(['mission.create', 'mission.update']);
    // A disabled mission is not shown to players.
    const p = await player();
    expect((await summary(p.token)).list.find((x) => x.id === m.id)).toBeUndefined();
  });

  it('bets move bet missions live through the bet stream (by kind and game type); a rollback gives back; claimed once', async () => {
    const count = await createMission({ period: 'daily', kind: 'bet_count', title: texts('Three bets'), target: 3, rewardAmount: 2_00 });
    const valid = await createMission({ period: 'weekly', kind: 'valid_bet', title: texts('Bet 300'), target: 300_00, rewardAmount: 5_00 });
    const fishOnly = await createMission({ period: 'daily', kind: 'game_bet', gameType: 'FISH', title: texts('Fish 100'), target: 100_00, rewardAmount: 1_00 });
    const p = await player();
    await transferIn(p.memberId, 1000_00);
    const fish = await vendorToken(p.token, 'MSV-F');
    const live = await vendorToken(p.token, 'MSV-L');
    await bet(p, fish, 'F1', 60_00);
    await bet(p, live, 'L1', 100_00);
    await t.portal.betStream.drainNow();
    await progressEvent(p.socket, valid.id, 160_00);
    await progressEvent(p.socket, fishOnly.id, 60_00);
    expect(await mine(p.token, count.id)).toMatchObject({ progress: 2, target: 3, status: 'processing' });
    const rolled = await bet(p, fish, 'F1', 50_00);
    await t.portal.betStream.drainNow();
    await progressEvent(p.socket, fishOnly.id, 110_00);
    expect(await mine(p.token, fishOnly.id)).toMatchObject({ status: 'claim' });
    // The rollback takes back what the bet gave, everywhere: fish falls below its target again.
    await vendorCall('rollback', { transactionId: id('rb'), playerId: String(p.memberId), roundId: roundOf(rolled), refTransactionId: rolled });
    await t.portal.betStream.drainNow();
    await progressEvent(p.socket, fishOnly.id, 60_00);
    expect(await mine(p.token, fishOnly.id)).toMatchObject({ progress: 60_00, status: 'processing' });
    expect(await mine(p.token, count.id)).toMatchObject({ progress: 2, status: 'processing' });
    expect(await mine(p.token, valid.id)).toMatchObject({ progress: 160_00 });
    // Not completed yet: nothing to claim.
    const k = (await mine(p.token, count.id)).periodKey;
    expect((await call('/wps/v2/missions/claim', { token: p.token, body: { missionId: Number(count.id), periodKey: k } })).status).toBe(409);
    const seen = p.socket.received.length;
    await bet(p, live, 'L1', 10_00);
    await t.portal.betStream.drainNow();
    // (The third bet completed it once already, before the rollback: look at events after this bet only.)
    const done = await waitFor(() => p.socket.received.slice(seen).find((e) => e.type === 'mission.progress' && (e.payload as { missionId: string; status: string }).missionId === count.id && (e.payload as { status: string }).status === 'claim'), 'count completed');
    expect((done.payload as { claimable: number }).claimable).toBe(1);
    expect((await summary(p.token)).claimable).toBe(1);
    const before = await balance(p.token);
    const c = await call<{ mission: Mission; claimable: number }>('/wps/v2/missions/claim', { token: p.token, body: { missionId: Number(count.id), periodKey: k } });
    expect(c.status, c.text).toBe(200);
    expect(c.json!.value!).toMatchObject({ mission: { status: 'claimed' }, claimable: 0 });
    await waitFor(() => p.socket.received.find((e) => e.type === 'balance.changed' && (e.payload as { reason: string }).reason === 'mission.reward'), 'balance.changed');
    expect(await balance(p.token)).toBe(before + 2_00);
    // Claim once: the second is 409 and changes nothing.
    const twice = await call('/wps/v2/missions/claim', { token: p.token, body: { missionId: Number(count.id), periodKey: k } });
    expect([twice.status, twice.json?.code]).toEqual([409, 'CONFLICT']);
    expect(await balance(p.token)).toBe(before + 2_00);
    // A rollback after the claim does not take the paid reward's progress back (documented in the service).
    const late = await bet(p, live, 'L1', 5_00);
    await t.portal.betStream.drainNow();
    await vendorCall('rollback', { transactionId: id('rb'), playerId: String(p.memberId), roundId: roundOf(late), refTransactionId: late });
    await t.portal.betStream.drainNow();
    expect(await mine(p.token, count.id)).toMatchObject({ progress: 4, status: 'claimed' });
    // Another player cannot claim it for them (claims are the caller's own progress).
    const other = await player();
    expect((await call('/wps/v2/missions/claim', { token: other.token, body: { missionId: Number(count.id), periodKey: k } })).status).toBe(409);
  });

  it('an operator editing the target recomputes the current period: a lower target completes, a higher one un-completes the unclaimed, claimed stays claimed; audited, pushed live', async () => {
    const body = { period: 'daily', kind: 'bet_count', title: texts('Target edit'), target: 3, rewardAmount: 1_00 };
    const m = await createMission(body);
    const [a, b, c] = [await player(), await player(), await player()];
    for (const p of [a, b, c]) await transferIn(p.memberId, 100_00);
    const bets = async (p: { memberId: number; token: string }, count: number) => {
      const v = await vendorToken(p.token, 'MSV-L');
      for (let i = 0; i < count; i++) await bet(p, v, 'L1', 1_00);
    };
    await bets(a, 2);
    await bets(b, 3);
    await bets(c, 4);
    await t.portal.betStream.drainNow();
    expect(await mine(a.token, m.id)).toMatchObject({ progress: 2, status: 'processing' });
    expect(await mine(c.token, m.id)).toMatchObject({ progress: 4, status: 'claim' });
    const k = (await mine(b.token, m.id)).periodKey;
    expect((await call('/wps/v2/missions/claim', { token: b.token, body: { missionId: Number(m.id), periodKey: k } })).status).toBe(200);
    const put = (target: number) => call(`/ops/api/missions/${m.id}`, { method: 'PUT', token: ops.mcontent!, body: { ...body, target } });

    // Lowered to 2: A completes (live, with the badge), B stays claimed, C stays completed.
    const seenA = a.socket.received.length;
    expect((await put(2)).status).toBe(200);
    expect(await mine(a.token, m.id)).toMatchObject({ progress: 2, target: 2, status: 'claim' });
    expect(await mine(b.token, m.id)).toMatchObject({ status: 'claimed' });
    expect(await mine(c.token, m.id)).toMatchObject({ status: 'claim' });
    const ev = await waitFor(() => a.socket.received.slice(seenA).find((e) => e.type === 'mission.progress' && (e.payload as { missionId: string }).missionId === m.id), 'mission.progress after the edit');
    expect(ev.payload).toMatchObject({ status: 'claim', target: 2, progress: 2, claimable: 1 });
    expect((await summary(a.token)).claimable).toBe(1);

    // Raised to 5: A and C (unclaimed) are no longer completed; B's claimed reward stays claimed.
    expect((await put(5)).status).toBe(200);
    expect(await mine(a.token, m.id)).toMatchObject({ status: 'processing', target: 5 });
    expect(await mine(c.token, m.id)).toMatchObject({ progress: 4, status: 'processing' });
    expect(await mine(b.token, m.id)).toMatchObject({ progress: 3, status: 'claimed' });
    expect((await call('/wps/v2/missions/claim', { token: c.token, body: { missionId: Number(m.id), periodKey: k } })).status).toBe(409);
    // A title-only edit recomputes nothing; each target edit is audited with what it changed.
    expect((await call(`/ops/api/missions/${m.id}`, { method: 'PUT', token: ops.mcontent!, body: { ...body, target: 5, title: texts('Renamed') } })).status).toBe(200);
    const audit = await t.portal.db.query<{ after: { recomputed?: { periodKey: string; completed: number; uncompleted: number } } }>(
      `SELECT after FROM audit_log WHERE target_type = 'mission' AND target_id = $1 AND action = 'mission.update' ORDER BY id`, [m.id]);
    expect(audit.rows.map((r) => r.after.recomputed ?? null)).toEqual([
      { periodKey: k, completed: 1, uncompleted: 0 },
      { periodKey: k, completed: 0, uncompleted: 2 },
      null,
    ]);
  });

  it('deposits and sign-ins move their missions in their own transactions', async () => {
    const dep = await createMission({ period: 'weekly', kind: 'deposit', title: texts('Deposit 500'), target: 500_00, rewardAmount: 3_00 });
    const login = await createMission({ period: 'daily', kind: 'login_days', title: texts('Sign in'), target: 1, rewardAmount: 50 });
    const p = await player();
    // The dev session of player() was created after the mission: one day signed in.
    expect(await mine(p.token, login.id)).toMatchObject({ progress: 1, status: 'claim' });
    // A second session the same day does not count again.
    const again = await call<{ token: string }>('/wps/dev/sessions', { body: { account: p.account } });
    expect(again.status).toBe(200);
    expect(await mine(p.token, login.id)).toMatchObject({ progress: 1 });
    await deposit(p.token, 300_00);
    await progressEvent(p.socket, dep.id, 300_00);
    await deposit(p.token, 250_00);
    await progressEvent(p.socket, dep.id, 550_00);
    expect(await mine(p.token, dep.id)).toMatchObject({ status: 'claim' });
    expect((await summary(p.token)).claimable).toBe(2);
    // Later tests' new players would complete the sign-in mission: off again.
    await call(`/ops/api/missions/${login.id}`, { method: 'PUT', token: ops.madmin!, body: { period: 'daily', kind: 'login_days', title: texts('Sign in'), target: 1, rewardAmount: 50, enabled: false } });
  });

  it('a period that is over cannot be claimed (merchant calendar)', async () => {
    const m = await createMission({ period: 'daily', kind: 'bet_count', title: texts('Yesterday'), target: 1, rewardAmount: 1_00 });
    const p = await player();
    const gmt = (await t.portal.db.query<{ g: number | null }>(`SELECT (brand->>'gmtOffsetMinutes')::int AS g FROM merchants WHERE code = 'DEMO'`)).rows[0]!.g ?? 0;
    const yesterday = missionPeriodKey(new Date(Date.now() - 24 * 3600_000), 'daily', gmt);
    await t.portal.db.query(`INSERT INTO mission_progress (mission_id, member_id, merchant_code, period_key, progress, completed_at) VALUES ($1, $2, 'DEMO', $3, 1, now() - interval '1 day')`, [m.id, p.memberId, yesterday]);
    const before = await balance(p.token);
    const r = await call('/wps/v2/missions/claim', { token: p.token, body: { missionId: Number(m.id), periodKey: yesterday } });
    expect([r.status, r.json?.code, (r.json?.value as { reason?: string } | undefined)?.reason]).toEqual([403, 'FORBIDDEN', 'period_over']);
    // A period still to come is not said to be over.
    const nextDay = missionPeriodKey(new Date(Date.now() + 24 * 3600_000), 'daily', gmt);
    const early = await call('/wps/v2/missions/claim', { token: p.token, body: { missionId: Number(m.id), periodKey: nextDay } });
    expect([early.status, early.json?.message, (early.json?.value as { reason?: string } | undefined)?.reason]).toEqual([403, 'This period has not started yet', 'period_not_started']);
    expect(await balance(p.token)).toBe(before);
    // Not today's progress, and not in the badge.
    expect(await mine(p.token, m.id)).toMatchObject({ progress: 0, status: 'processing' });
    expect((await summary(p.token)).claimable).toBe(0);
    // The same service at the first second of the next local day sees a new period.
    const end = missionPeriodEnd(new Date(), 'daily', gmt);
    const tomorrow = createMissions({ db: t.portal.db, now: () => end });
    const s = await tomorrow.summary('DEMO', p.memberId, 'EN');
    expect(s.list.find((x) => x.id === m.id)!.periodKey).toBe(missionPeriodKey(end, 'daily', gmt));
    expect(s.list.find((x) => x.id === m.id)!.periodKey).not.toBe(missionPeriodKey(new Date(), 'daily', gmt));
  });

  it('leaderboard: valid bets per period, ties to who reached the score first, masked names, own rank', async () => {
    const [a, b, c] = [await player(), await player(), await player()];
    for (const p of [a, b, c]) await transferIn(p.memberId, 10_000_00);
    // Far above the other tests' players so these three are the top three.
    await bet(a, await vendorToken(a.token, 'MSV-L'), 'L1', 5_000_00);
    await t.portal.betStream.drainNow();
    const bt = await vendorToken(b.token, 'MSV-L');
    await bet(b, bt, 'L1', 5_000_00);
    await t.portal.betStream.drainNow();
    const board = async (token: string | undefined, period = 'daily') => (await call<Board>(`/wps/relay/getMissionLeaderboard?period=${period}&limit=3`, token ? { token } : {})).json!.value!;
    let d = await board(b.token);
    expect(d.list.slice(0, 2).map((x) => [x.rank, x.total, x.isMe])).toEqual([[1, 5_000_00, false], [2, 5_000_00, true]]);
    expect(d.list[0]!.name).not.toBe(a.account);
    expect(d.list[0]!.name).toMatch(/^m\*+.$/);
    expect(d.me).toEqual({ rank: 2, total: 5_000_00, beyondCap: false });
    // A rolled-back bet leaves the board; a new bet puts b ahead.
    const cb = await bet(c, await vendorToken(c.token, 'MSV-L'), 'L1', 9_000_00);
    await vendorCall('rollback', { transactionId: id('rb'), playerId: String(c.memberId), roundId: roundOf(cb), refTransactionId: cb });
    await bet(b, bt, 'L1', 1_00);
    await t.portal.betStream.drainNow();
    d = await board(a.token);
    expect(d.list.slice(0, 2).map((x) => [x.total, x.isMe])).toEqual([[5_001_00, false], [5_000_00, true]]);
    expect(d.me).toEqual({ rank: 2, total: 5_000_00, beyondCap: false });
    expect((await board(c.token)).me).toBeNull();
    const w = await board(undefined, 'weekly');
    expect(w.me).toBeNull();
    expect(w.periodKey.startsWith('W')).toBe(true);
    expect(w.list[0]!.total).toBeGreaterThanOrEqual(5_001_00);
    expect((await call('/wps/relay/getMissionLeaderboard?period=monthly')).status).toBe(400);
    expect((await call('/wps/relay/getMissionLeaderboard?limit=1000')).status).toBe(400);
  });

  it('leaderboard: a player excluded after earning a total leaves the board and the ranks (read-time filter), back when it ends', async () => {
    const [e1, e2, e3] = [await player(), await player(), await player()];
    // Above every other test's players, so these three are the top three.
    for (const [p, amount] of [[e1, 8_000_00], [e2, 7_900_00], [e3, 7_800_00]] as const) {
      await transferIn(p.memberId, 10_000_00);
      await bet(p, await vendorToken(p.token, 'MSV-L'), 'L1', amount);
    }
    await t.portal.betStream.drainNow();
    const board = async (token: string) => (await call<Board>('/wps/relay/getMissionLeaderboard?period=daily&limit=3', { token })).json!.value!;
    let d = await board(e2.token);
    expect(d.list.map((x) => [x.rank, x.total, x.isMe])).toEqual([[1, 8_000_00, false], [2, 7_900_00, true], [3, 7_800_00, false]]);
    expect(d.me).toEqual({ rank: 2, total: 7_900_00, beyondCap: false });
    await t.portal.rg.exclude('DEMO', e1.memberId, { kind: 'member', account: e1.account }, 'cooling', '24h');
    d = await board(e2.token);
    expect(d.list.slice(0, 2).map((x) => [x.rank, x.total, x.isMe])).toEqual([[1, 7_900_00, true], [2, 7_800_00, false]]);
    expect(d.list.some((x) => x.total === 8_000_00)).toBe(false);
    expect(d.me).toEqual({ rank: 1, total: 7_900_00, beyondCap: false });
    expect((await board(e3.token)).me).toEqual({ rank: 2, total: 7_800_00, beyondCap: false });
    expect((await t.portal.missions.leaderboard('DEMO', e1.memberId, 'daily', 3)).me).toBeNull();
    // The total is kept (filtered at read time, not deleted): when the exclusion ends the player is back.
    const kept = await t.portal.db.query<{ total: string }>(`SELECT total::text FROM leaderboard_totals WHERE member_id = $1 AND period = 'daily'`, [e1.memberId]);
    expect(kept.rows.map((r) => Number(r.total))).toEqual([8_000_00]);
    await t.portal.db.query('UPDATE rg_exclusions SET ended_at = now() WHERE member_id = $1 AND ended_at IS NULL', [e1.memberId]);
    expect((await board(e2.token)).me).toEqual({ rank: 2, total: 7_900_00, beyondCap: false });
  });

  it('excluded and trial players make no progress and cannot claim; guests get nothing', async () => {
    const m = await createMission({ period: 'daily', kind: 'valid_bet', title: texts('Excluded'), target: 10_00, rewardAmount: 1_00 });
    const dep = await createMission({ period: 'daily', kind: 'deposit', title: texts('Excluded deposit'), target: 10_00, rewardAmount: 1_00 });
    const x = await player();
    await t.portal.rg.exclude('DEMO', x.memberId, { kind: 'member', account: x.account }, 'cooling', '24h');
    const rowsOf = async () => (await t.portal.db.query<{ n: number }>(
      `SELECT (SELECT count(*)::int FROM mission_progress WHERE member_id = $1 AND mission_id = ANY($2::bigint[])) + (SELECT count(*)::int FROM leaderboard_totals WHERE member_id = $1) AS n`,
      [x.memberId, [m.id, dep.id]])).rows[0]!.n;
    const before = await rowsOf();
    // An excluded player cannot bet at all; a fact of theirs already in the stream (placed before the
    // exclusion) moves nothing: the consumer itself leaves them out, as the deposit and sign-in hooks do.
    const now = new Date();
    await t.portal.db.tx((tx) => t.portal.missions.consumer.handle(tx, [{
      streamId: 0, fact: 'bet', merchantCode: 'DEMO', memberId: x.memberId, vendor: VENDOR, transactionId: id('xb'), roundId: 'r', gameCode: 'F1', gameType: 'FISH', amount: 50_00, placedAt: now, capturedAt: now,
    }]));
    await t.portal.db.tx((tx) => t.portal.missions.onDepositPaid(tx, { merchant_code: 'DEMO', member_id: x.memberId, amount: 50_00 }));
    await t.portal.db.tx((tx) => t.portal.missions.onSessionCreated(tx, { merchantCode: 'DEMO', memberId: x.memberId }));
    expect(await rowsOf()).toBe(before);
    expect((await t.portal.missions.summary('DEMO', x.memberId, 'EN')).eligible).toBe(false);
    const refused = await t.portal.missions.claim('DEMO', x.memberId, Number(m.id), missionPeriodKey(now, 'daily', 0), 'EN').catch((e: { code: string }) => e.code);
    expect(refused).toBe('RG_EXCLUDED');
    // Trial accounts: the member calls are closed.
    const trial = await newMember(4);
    const ts = await call('/wps/relay/MCSFE_getMissionSummaryDetails', { token: trial.token });
    expect(ts.status).toBe(403);
    expect((await call('/wps/v2/missions/claim', { token: trial.token, body: { missionId: Number(m.id), periodKey: '2026-01-01' } })).status).toBe(403);
    expect((await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM mission_progress WHERE member_id = $1', [trial.memberId])).rows[0]!.n).toBe(0);
    // Guests: no summary, no claim.
    expect((await call('/wps/relay/MCSFE_getMissionSummaryDetails')).status).toBe(401);
    expect((await call('/wps/v2/missions/claim', { body: { missionId: 1, periodKey: '2026-01-01' } })).status).toBe(401);
    // Bad claims: 4xx.
    const p = await player();
    expect((await call('/wps/v2/missions/claim', { token: p.token, body: { missionId: 'x', periodKey: '2026-01-01' } })).status).toBe(400);
    expect((await call('/wps/v2/missions/claim', { token: p.token, body: { missionId: 1, periodKey: 'today' } })).status).toBe(400);
    for (const impossible of ['2026-13-45', '2026-02-30', 'W2026-00-01', 'W2026-12-09' /* a Wednesday: weeks start on Monday */]) {
      expect((await call('/wps/v2/missions/claim', { token: p.token, body: { missionId: 1, periodKey: impossible } })).status, impossible).toBe(400);
    }
    expect((await call('/wps/v2/missions/claim', { token: p.token, body: { missionId: 99999999, periodKey: '2026-01-01' } })).status).toBe(404);
  });
});
