import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { drawWinners } from '@portal/contracts/domain/promotions';
import { startTestPortal, waitFor, type TestPortal } from '../../testing/test-portal.ts';
import { vendorSuite } from '../../testing/vendor-suite.ts';
import { REBATE_JOB, REBATE_TICK_JOB, DRAW_JOB, dayKey, dueRebateDays, merchantDay, rebateKey } from './promotions-service.ts';

/**
 * Promotions over HTTP with real vendor calls: every activity status reached by its rule, the first
 * deposit bonus and its wagering moved by bets (weighted, rolled back, converted once), reward requests
 * decided by operators, rebates and raffles on the job queue, and the refusals (4xx, nothing changed).
 */
let t: TestPortal;
const VENDOR = 'PRV';
const { call, newMember, ops, id, setup, end, player, balance, transferIn, vendorCall, vendorToken, bet, deposit, roundOf } = vendorSuite(() => t, { vendor: VENDOR, memberPrefix: 'pr', operatorPrefix: 'p', label: 'Promo' });
type Json = Record<string, unknown>;
type Promo = { id: string; status: string; rewardId: string | null; kind: string; closedBecause?: string };
type Reward = { id: string; promotionId: string; state: string; status: string; amount: number; wagerRequired: number; wagerProgress: number };

beforeAll(async () => {
  t = await startTestPortal();
  await setup();
}, 300_000);
afterAll(async () => {
  await end();
}, 120_000);

const hour = 3600_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();
const texts = (en: string) => ({ title: { EN: en, TY: `${en} (TY)` }, rules: { EN: `${en} rules`, TY: `Mga tuntunin ng ${en}` } });
async function createPromo(body: Json, token = ops.padmin!) {
  const r = await call<{ id: string; seedHash: string | null }>('/ops/api/promotions', { token, body: { startsAt: at(-hour), ...body } });
  expect(r.status, r.text).toBe(200);
  return r.json!.value!;
}
async function list(token?: string) {
  return (await call<{ list: Promo[] }>('/wps/v2/promotions?language=TY', token ? { token } : {})).json!.value!.list;
}
const statusOf = async (token: string | undefined, pid: string) => (await list(token)).find((p) => p.id === pid)?.status;
async function rewards(token: string) {
  return (await call<{ list: Reward[]; claimable: number; processing: number; bonusBalance: number }>('/wps/v2/promotions/rewards', { token })).json!.value!;
}
describe('promotions', { timeout: 180_000 }, () => {
  it('operators author promotions by role; players see coming soon, closed and join', async () => {
    const base = { category: 'limited', kind: 'signup', ...texts('Role check') };
    expect((await call('/ops/api/promotions', { token: ops.pfinance!, body: { ...base, startsAt: at(0) } })).status).toBe(403);
    expect((await call('/ops/api/promotions', { token: ops.prisk! })).status).toBe(403);
    expect((await call('/ops/api/promotions', { token: ops.pfinance! })).status).toBe(200);
    // Lists that take no query refuse an unknown key, as every other call does (they answered 200).
    for (const path of ['/ops/api/promotions?zz=1', '/ops/api/promotions/drops?a=%25']) {
      const r = await call(path, { token: ops.padmin! });
      expect([path, r.status, r.json?.code]).toEqual([path, 400, 'VALIDATION']);
    }
    const soon = await createPromo({ ...base, startsAt: at(24 * hour) }, ops.pcontent!);
    const over = await createPromo({ ...base, startsAt: at(-48 * hour), endsAt: at(-24 * hour) }, ops.pcontent!);
    const open = await createPromo({ ...base, category: 'newbie' }, ops.pcontent!);
    // Bad input: 4xx, nothing written.
    const before = (await call<{ list: unknown[] }>('/ops/api/promotions', { token: ops.padmin! })).json!.value!.list.length;
    expect((await call('/ops/api/promotions', { token: ops.padmin!, body: { ...base, category: 'bogus', startsAt: at(0) } })).status).toBe(400);
    expect((await call('/ops/api/promotions', { token: ops.padmin!, body: { ...base, kind: 'raffle', startsAt: at(0) } })).status).toBe(400);
    expect((await call('/ops/api/promotions', { token: ops.padmin!, body: { ...base, startsAt: at(0), endsAt: at(-hour) } })).status).toBe(400);
    // A year before 2000 (0026 typed for 2026) is refused, not a 500 or another date.
    expect((await call('/ops/api/promotions', { token: ops.padmin!, body: { ...base, startsAt: '0026-12-10T10:00:00Z' } })).status).toBe(400);
    // Times are compared as instants whatever their offsets (they were compared as text: an end an hour
    // before the start was taken, a 3-hour window refused).
    const offsetEnd = await call('/ops/api/promotions', { token: ops.padmin!, body: { ...base, startsAt: '2027-01-10T01:00:00Z', endsAt: '2027-01-10T08:00:00+08:00' } });
    expect([offsetEnd.status, offsetEnd.json?.code]).toEqual([400, 'VALIDATION']);
    // A raffle drawn before it starts is refused.
    expect((await call('/ops/api/promotions', { token: ops.padmin!, body: { ...base, kind: 'raffle', winners: 1, startsAt: '2027-01-10T00:00:00Z', drawAt: '2027-01-01T00:00:00Z' } })).status).toBe(400);
    expect((await call<{ list: unknown[] }>('/ops/api/promotions', { token: ops.padmin! })).json!.value!.list.length).toBe(before);
    // ... and a 3-hour window written with two offsets is taken
    expect((await call('/ops/api/promotions', { token: ops.padmin!, body: { ...base, startsAt: '2027-01-10T10:00:00+08:00', endsAt: '2027-01-10T05:00:00Z' } })).status).toBe(200);
    const guest = await list();
    expect(guest.find((p) => p.id === soon.id)?.status).toBe('coming_soon');
    expect(guest.find((p) => p.id === over.id)?.status).toBe('closed');
    expect(guest.find((p) => p.id === open.id)?.status).toBe('join');
    const titled = (await call<{ list: Array<{ id: string; title: string; category: string }> }>('/wps/v2/promotions?language=TY&category=newbie')).json!.value!.list;
    expect(titled.find((p) => p.id === open.id)).toMatchObject({ title: 'Role check (TY)', category: 'newbie' });
    expect(titled.every((p) => p.category === 'newbie')).toBe(true);
    // The spec's words for the categories ("high rebate", "VIP") are taken as the API's.
    for (const [asked, category] of [['high%20rebate', 'high_rebate'], ['VIP', 'vip'], ['High_Rebate', 'high_rebate']] as const) {
      const r = await call<{ list: Array<{ category: string }> }>(`/wps/v2/promotions?category=${asked}`);
      expect(r.status, asked).toBe(200);
      expect(r.json!.value!.list.every((x) => x.category === category), asked).toBe(true);
    }
    expect((await call('/wps/v2/promotions?category=gold')).status).toBe(400);
    const p = await player();
    expect((await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: p.token, body: { promotionId: Number(soon.id) } })).status).toBe(403);
    const audit = await call<{ list: Array<{ action: string }> }>('/ops/api/audit?targetType=promotion', { token: ops.padmin! });
    expect(audit.json!.value!.list.filter((a) => a.action === 'promotion.create').length).toBeGreaterThanOrEqual(3);
  });

  it("a joined first-deposit promotion whose first deposit was below its minimum closes, saying why (it said Joined for good)", async () => {
    const promo = await createPromo({ category: 'newbie', kind: 'first_deposit', ...texts('Welcome min'), rewardAmount: 50_00, minDeposit: 200_00 });
    try {
      const p = await player();
      expect((await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: p.token, body: { promotionId: Number(promo.id) } })).status).toBe(200);
      expect((await list(p.token)).find((x) => x.id === promo.id)).toMatchObject({ status: 'signed', minDeposit: 200_00 });
      await deposit(p.token, 150_00);
      expect((await list(p.token)).find((x) => x.id === promo.id)).toMatchObject({ status: 'closed', closedBecause: 'below_minimum' });
      // A second, larger deposit is no first deposit: still closed, and no reward of it.
      await deposit(p.token, 300_00);
      expect((await list(p.token)).find((x) => x.id === promo.id)).toMatchObject({ status: 'closed', closedBecause: 'below_minimum' });
      expect((await rewards(p.token)).list.filter((x) => x.promotionId === promo.id)).toEqual([]);
      // One who met the minimum keeps its status (processing while its bonus is wagered).
      const q = await player();
      await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: q.token, body: { promotionId: Number(promo.id) } });
      await deposit(q.token, 200_00);
      const mine = (await list(q.token)).find((x) => x.id === promo.id);
      expect(['processing', 'issued']).toContain(mine?.status);
      expect(mine).not.toHaveProperty('closedBecause');
    } finally {
      await t.portal.db.query('UPDATE promotions SET enabled = false WHERE id = $1', [promo.id]);
    }
  });

  it('first deposit bonus: join (signed), deposit (processing), weighted wagering moves live, a rollback gives back, conversion once (issued)', async () => {
    const promo = await createPromo({ category: 'newbie', kind: 'first_deposit', ...texts('Welcome'), rewardBps: 10_000, rewardCap: 500_00, wageringBonusX: 2, weights: { FISH: 50 } });
    const p = await player();
    expect(await statusOf(p.token, promo.id)).toBe('join');
    const join = await call<{ promotion: Promo }>('/wps/relay/MCSFE_signUpPromotionJoin', { token: p.token, body: { promotionId: Number(promo.id) } });
    expect(join.json!.value!.promotion.status).toBe('signed');
    const again = await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: p.token, body: { promotionId: Number(promo.id) } });
    expect([again.status, again.json?.code]).toEqual([409, 'CONFLICT']);
    // One first-deposit bonus per player: another first-deposit promotion is closed to them, and its
    // join refused (three joined promotions once paid 650.00 of bonus on a 300.00 deposit).
    const other = await createPromo({ category: 'newbie', kind: 'first_deposit', ...texts('Welcome too'), rewardBps: 5_000 });
    expect(await statusOf(p.token, other.id)).toBe('closed');
    // ... and says why (the card said "you have deposited" to one who had not).
    expect((await list(p.token)).find((x) => x.id === other.id)).toMatchObject({ status: 'closed', closedBecause: 'joined_other' });
    expect((await list(p.token)).find((x) => x.id === promo.id)).not.toHaveProperty('closedBecause');
    const second = await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: p.token, body: { promotionId: Number(other.id) } });
    expect([second.status, second.json?.code, second.json?.message]).toEqual([409, 'CONFLICT', 'Already signed up for another first-deposit bonus']);
    // Two joins of the two at once: one is taken.
    const racer = await player();
    const raced = await Promise.all([promo.id, other.id].map((pid) => call('/wps/relay/MCSFE_signUpPromotionJoin', { token: racer.token, body: { promotionId: Number(pid) } })));
    expect(raced.map((x) => x.status).sort()).toEqual([200, 409]);
    await deposit(p.token, 300_00);
    // A join again after the deposit is still "already joined", not "you have deposited".
    const afterDeposit = await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: p.token, body: { promotionId: Number(promo.id) } });
    expect([afterDeposit.status, afterDeposit.json?.code]).toEqual([409, 'CONFLICT']);
    // 100% of 300.00 (under the 500.00 cap) as bonus, kept apart: the wallet holds the deposit only.
    let r = await rewards(p.token);
    expect(r.list.length).toBe(1);
    expect(r.list[0]).toMatchObject({ state: 'processing', status: 'processing', amount: 300_00, wagerRequired: 600_00, wagerProgress: 0 });
    expect([r.bonusBalance, r.processing, await balance(p.token)]).toEqual([300_00, 1, 300_00]);
    expect(await statusOf(p.token, promo.id)).toBe('processing');
    const live = await vendorToken(p.token, 'PRV-L');
    const fish = await vendorToken(p.token, 'PRV-F');
    await transferIn(p.memberId, 1000_00);
    await bet(p, live, 'L1', 100_00); // LIVE counts 100%
    await bet(p, fish, 'F1', 100_00); // FISH 50%
    const gone = await bet(p, live, 'L1', 50_00);
    await t.portal.betStream.drainNow();
    await waitFor(() => p.socket.received.find((e) => e.type === 'bonus.progress' && (e.payload as { wagerProgress: number }).wagerProgress === 200_00), 'progress 200.00');
    await vendorCall('rollback', { transactionId: id('rb'), playerId: String(p.memberId), roundId: roundOf(gone), refTransactionId: gone });
    await t.portal.betStream.drainNow();
    await waitFor(() => p.socket.received.find((e) => e.type === 'bonus.progress' && (e.payload as { wagerProgress: number }).wagerProgress === 150_00), 'rollback gives back');
    expect((await rewards(p.token)).list[0]!.wagerProgress).toBe(150_00);
    const wallet = await balance(p.token);
    await bet(p, live, 'L1', 450_00); // reaches 600.00: converts
    await t.portal.betStream.drainNow();
    await waitFor(() => p.socket.received.find((e) => e.type === 'bonus.progress' && (e.payload as { state: string }).state === 'completed'), 'converted');
    await waitFor(() => p.socket.received.find((e) => e.type === 'balance.changed' && (e.payload as { reason: string }).reason === 'promo.bonus.convert'), 'balance.changed');
    r = await rewards(p.token);
    expect(r.list[0]).toMatchObject({ state: 'completed', status: 'issued' });
    expect([r.bonusBalance, await balance(p.token)]).toEqual([0, wallet - 450_00 + 300_00]);
    await bet(p, live, 'L1', 10_00); // after conversion: nothing more moves
    await t.portal.betStream.drainNow();
    const converts = await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_transfers WHERE idempotency_key = $1`, [`promo:reward:${r.list[0]!.id}:convert`]);
    expect(converts.rows[0]!.n).toBe(1);
    expect(await statusOf(p.token, promo.id)).toBe('issued');
    // A second deposit is not a first deposit; a player who already deposited is not eligible to join.
    await deposit(p.token, 100_00);
    expect((await rewards(p.token)).list.length).toBe(1);
    const q = await player();
    await deposit(q.token, 100_00);
    // Its card offers no Join (closed to this player), and a join anyway is refused with the reason.
    expect(await statusOf(q.token, promo.id)).toBe('closed');
    expect((await list(q.token)).find((x) => x.id === promo.id)).toMatchObject({ closedBecause: 'deposited' });
    const late = await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: q.token, body: { promotionId: Number(promo.id) } });
    expect([late.status, late.json?.code]).toEqual([403, 'PROMOTION_NOT_ELIGIBLE']);
    expect((await rewards(q.token)).list).toEqual([]);
    // One bonus per first deposit, also beside one that needs no join: the joined promotion's (the racer
    // joined one of the two above); an automatic one pays a player who joined none.
    const auto = await createPromo({ category: 'newbie', kind: 'first_deposit', ...texts('Welcome auto'), requiresJoin: false, rewardAmount: 7_00 });
    try {
      await deposit(racer.token, 100_00);
      const got = (await rewards(racer.token)).list;
      expect(got.map((x) => x.promotionId)).toHaveLength(1);
      expect([promo.id, other.id]).toContain(got[0]!.promotionId);
      const plain = await player();
      await deposit(plain.token, 100_00);
      expect((await rewards(plain.token)).list.map((x) => [x.promotionId, x.amount])).toEqual([[auto.id, 7_00]]);
    } finally {
      await t.portal.db.query('UPDATE promotions SET enabled = false WHERE id = $1', [auto.id]);
    }
  });

  it('a bet voided after its bonus converted undoes the conversion over the vendor API: back under wagering, the bonus back from the wallet once, live; wagering again converts again', async () => {
    const promo = await createPromo({ category: 'special', kind: 'request', ...texts('Void after'), requiresJoin: false, rewardAmount: 100_00, wageringBonusX: 2 });
    const p = await player();
    const req = await call<{ reward: Reward }>('/wps/relay/MCSFE_signUpRequestReward', { token: p.token, body: { promotionId: Number(promo.id), remark: '' } });
    const rewardId = req.json!.value!.reward.id;
    expect((await call(`/ops/api/promotions/requests/${rewardId}/decide`, { token: ops.pfinance!, body: { approve: true, reason: '' } })).status).toBe(200);
    await transferIn(p.memberId, 1000_00);
    const live = await vendorToken(p.token, 'PRV-L');
    const voided = await bet(p, live, 'L1', 150_00);
    await bet(p, live, 'L1', 60_00); // 210.00 >= 200.00: converts
    await t.portal.betStream.drainNow();
    await waitFor(() => p.socket.received.find((e) => e.type === 'bonus.progress' && (e.payload as { state: string }).state === 'completed'), 'converted');
    expect(await balance(p.token)).toBe(1000_00 - 210_00 + 100_00);
    const seen = p.socket.received.length;
    await vendorCall('rollback', { transactionId: id('rb'), playerId: String(p.memberId), roundId: roundOf(voided), refTransactionId: voided });
    await t.portal.betStream.drainNow();
    const back = await waitFor(() => p.socket.received.slice(seen).find((e) => e.type === 'bonus.progress' && (e.payload as { rewardId: string }).rewardId === rewardId), 'bonus back under wagering');
    expect(back.payload).toMatchObject({ state: 'processing', wagerRequired: 200_00, wagerProgress: 60_00 });
    await waitFor(() => p.socket.received.slice(seen).find((e) => e.type === 'balance.changed' && (e.payload as { reason: string }).reason === 'promo.bonus.revert'), 'balance.changed (revert)');
    // The stake came back (rollback) and the bonus went back to the bonus account.
    expect(await balance(p.token)).toBe(1000_00 - 60_00);
    let r = await rewards(p.token);
    expect(r.list.find((x) => x.id === rewardId)).toMatchObject({ state: 'processing', status: 'processing', wagerProgress: 60_00, wagerRequired: 200_00 });
    expect(r.bonusBalance).toBe(100_00);
    expect(await statusOf(p.token, promo.id)).toBe('processing');
    // The same rollback again is a replay at the vendor API and in the stream: nothing more is taken.
    await vendorCall('rollback', { transactionId: id('rb'), playerId: String(p.memberId), roundId: roundOf(voided), refTransactionId: voided });
    await t.portal.betStream.drainNow();
    expect(await balance(p.token)).toBe(1000_00 - 60_00);
    const reverts = await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_transfers WHERE idempotency_key LIKE $1`, [`promo:reward:${rewardId}:revert:%`]);
    expect(reverts.rows[0]!.n).toBe(1);
    // Wagering met again: converts again, under the second conversion's key.
    await bet(p, live, 'L1', 140_00);
    await t.portal.betStream.drainNow();
    await waitFor(() => p.socket.received.slice(seen).find((e) => e.type === 'bonus.progress' && (e.payload as { state: string }).state === 'completed'), 'converted again');
    r = await rewards(p.token);
    expect(r.list.find((x) => x.id === rewardId)).toMatchObject({ state: 'completed', status: 'issued' });
    expect([r.bonusBalance, await balance(p.token)]).toEqual([0, 1000_00 - 60_00 - 140_00 + 100_00]);
    const second = await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_transfers WHERE idempotency_key = $1`, [`promo:reward:${rewardId}:convert:2`]);
    expect(second.rows[0]!.n).toBe(1);
  });

  it('reward requests: join, apply with a remark (applying), an operator approves (issued) or rejects (rejected), once', async () => {
    const promo = await createPromo({ category: 'special', kind: 'request', ...texts('Tell us'), rewardAmount: 50_00 });
    const p = await player();
    const req = (body: Json, token = p.token) => call<{ reward: Reward }>('/wps/relay/MCSFE_signUpRequestReward', { token, body });
    expect((await req({ promotionId: Number(promo.id), remark: 'hi' })).status).toBe(403); // not joined: not eligible
    await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: p.token, body: { promotionId: Number(promo.id) } });
    expect(await statusOf(p.token, promo.id)).toBe('signed');
    const long = await req({ promotionId: Number(promo.id), remark: 'x'.repeat(141) });
    expect([long.status, long.json?.code]).toEqual([400, 'VALIDATION']);
    expect((await rewards(p.token)).list).toEqual([]);
    const ok = await req({ promotionId: Number(promo.id), remark: 'x'.repeat(140) });
    expect(ok.json!.value!.reward).toMatchObject({ state: 'applying', status: 'applying' });
    expect((await req({ promotionId: Number(promo.id), remark: 'again' })).status).toBe(409);
    expect(await statusOf(p.token, promo.id)).toBe('applying');
    // Requests of another kind of promotion are refused.
    const signup = await createPromo({ category: 'special', kind: 'signup', ...texts('No requests') });
    expect((await req({ promotionId: Number(signup.id), remark: '' })).status).toBe(403);
    const queue = await call<{ list: Array<{ id: string; account: string }> }>('/ops/api/promotions/requests', { token: ops.pfinance! });
    const mine = queue.json!.value!.list.find((x) => x.account === p.account)!;
    expect((await call(`/ops/api/promotions/requests/${mine.id}/decide`, { token: ops.pcontent!, body: { approve: true } })).status).toBe(403);
    const wallet = await balance(p.token);
    const yes = await call<{ state: string }>(`/ops/api/promotions/requests/${mine.id}/decide`, { token: ops.pfinance!, body: { approve: true, reason: 'welcome' } });
    expect(yes.json!.value!.state).toBe('completed');
    expect(await balance(p.token)).toBe(wallet + 50_00);
    expect(await statusOf(p.token, promo.id)).toBe('issued');
    expect((await call(`/ops/api/promotions/requests/${mine.id}/decide`, { token: ops.pfinance!, body: { approve: false, reason: 'too late' } })).status).toBe(409);
    // Another player's request is rejected.
    const q = await player();
    await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: q.token, body: { promotionId: Number(promo.id) } });
    const qr = await req({ promotionId: Number(promo.id), remark: 'please' }, q.token);
    // A rejection says why: without a reason it is a 400 and the request still waits.
    for (const body of [{ approve: false }, { approve: false, reason: ' ' }]) {
      const bare = await call(`/ops/api/promotions/requests/${qr.json!.value!.reward.id}/decide`, { token: ops.padmin!, body });
      expect([bare.status, bare.json?.code]).toEqual([400, 'VALIDATION']);
    }
    const no = await call<{ state: string }>(`/ops/api/promotions/requests/${qr.json!.value!.reward.id}/decide`, { token: ops.padmin!, body: { approve: false, reason: 'not eligible' } });
    expect(no.json!.value!.state).toBe('rejected');
    expect(await statusOf(q.token, promo.id)).toBe('rejected');
    await waitFor(() => q.socket.received.find((e) => e.type === 'promotion.reward' && (e.payload as { state: string }).state === 'rejected'), 'rejected event');
    // Each player hears of the decision in the message centre (live), as of a points redeem's.
    const approved = await waitFor(() => p.socket.received.find((e) => e.type === 'message.received' && (e.payload as { kind: string }).kind === 'promotion_reward_approved'), 'approval message');
    expect(approved.payload).toMatchObject({ title: 'message_promotion_reward_approved' });
    await waitFor(() => q.socket.received.find((e) => e.type === 'message.received' && (e.payload as { kind: string }).kind === 'promotion_reward_rejected'), 'rejection message');
    // The refusal's message carries the operator's reason (the reward centre showed it, the message did not).
    const refused = (await call<{ list: Array<{ kind: string; params: Record<string, string> }> }>('/wps/v2/messages?category=transaction', { token: q.token })).json!.value!.list;
    expect(refused.find((x) => x.kind === 'promotion_reward_rejected')?.params).toMatchObject({ reason: 'not eligible' });
    const inbox = await call<{ list: Array<{ kind: string; params: Record<string, string> }> }>('/wps/v2/messages?category=transaction', { token: p.token });
    expect(inbox.json!.value!.list.find((x) => x.kind === 'promotion_reward_approved')?.params).toEqual({ reference: `P${mine.id}`, amount: '₱50.00', title_EN: 'Tell us', title_TY: 'Tell us (TY)' });
    // The console keeps the decisions: gone from the waiting list, in the decided one with outcome, amount, who and why.
    expect((await call<{ list: Array<{ id: string }> }>('/ops/api/promotions/requests', { token: ops.pfinance! })).json!.value!.list.map((x) => x.id)).not.toContain(mine.id);
    const decided = (await call<{ list: Array<{ id: string; state: string; amount: number; decidedBy: string; reason: string | null }> }>('/ops/api/promotions/requests?state=decided', { token: ops.pfinance! })).json!.value!.list;
    expect(decided.find((x) => x.id === mine.id)).toMatchObject({ state: 'completed', amount: 50_00, reason: 'welcome' });
    expect(decided.find((x) => x.id === qr.json!.value!.reward.id)).toMatchObject({ state: 'rejected', reason: 'not eligible' });
    expect(decided.findIndex((x) => x.id === qr.json!.value!.reward.id)).toBeLessThan(decided.findIndex((x) => x.id === mine.id));
    expect((await call('/ops/api/promotions/requests?state=nope', { token: ops.pfinance! })).status).toBe(400);
  });

  it('sign-up with a reward pays it on joining, once: credited (issued), or as a bonus under wagering (processing)', async () => {
    const plain = await createPromo({ category: 'newbie', kind: 'signup', ...texts('Welcome'), rewardAmount: 20_00 });
    const wagered = await createPromo({ category: 'newbie', kind: 'signup', ...texts('Welcome bonus'), rewardAmount: 50_00, wageringBonusX: 5 });
    const none = await createPromo({ category: 'newbie', kind: 'signup', ...texts('Just join') });
    const p = await player();
    const wallet = await balance(p.token);
    const join = (id: string) => call<{ promotion: Promo }>('/wps/relay/MCSFE_signUpPromotionJoin', { token: p.token, body: { promotionId: Number(id) } });
    expect((await join(plain.id)).json!.value!.promotion.status).toBe('issued');
    expect(await balance(p.token)).toBe(wallet + 20_00);
    expect((await join(plain.id)).status).toBe(409);
    expect(await balance(p.token)).toBe(wallet + 20_00);
    // the bonus is kept apart from the wallet until its wagering (5 x 50.00) is met
    expect((await join(wagered.id)).json!.value!.promotion.status).toBe('processing');
    expect(await balance(p.token)).toBe(wallet + 20_00);
    const mine = (await rewards(p.token)).list;
    expect(mine.filter((r) => r.promotionId === wagered.id).map((r) => [r.amount, r.wagerRequired])).toEqual([[50_00, 250_00]]);
    // a sign-up without a reward is a plain join
    expect((await join(none.id)).json!.value!.promotion.status).toBe('signed');
    expect((await rewards(p.token)).list.filter((r) => r.promotionId === none.id)).toEqual([]);
  });

  it('daily sign-in: once a day (signed), the reward paid; rebates settled once per day, claimed once (claim, claimed)', async () => {
    const daily = await createPromo({ category: 'daily', kind: 'daily_signin', ...texts('Daily'), rewardAmount: 5_00, requiresJoin: false });
    const p = await player();
    const wallet = await balance(p.token);
    expect((await call<{ promotion: Promo }>('/wps/relay/MCSFE_signUpPromotionJoin', { token: p.token, body: { promotionId: Number(daily.id) } })).json!.value!.promotion.status).toBe('signed');
    expect((await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: p.token, body: { promotionId: Number(daily.id) } })).status).toBe(409);
    expect(await balance(p.token)).toBe(wallet + 5_00);

    const rebate = await createPromo({ category: 'high_rebate', kind: 'rebate', ...texts('Rebate'), requiresJoin: false, startsAt: at(-72 * hour) });
    const fish = await vendorToken(p.token, 'PRV-F');
    const live = await vendorToken(p.token, 'PRV-L');
    await transferIn(p.memberId, 1000_00);
    await bet(p, fish, 'F1', 200_00); // FISH 1% -> 2.00
    await bet(p, live, 'L1', 500_00); // LIVE 0.8% -> 4.00
    const rolled = await bet(p, live, 'L1', 100_00); // rolled back: not a valid bet
    await vendorCall('rollback', { transactionId: id('rb'), playerId: String(p.memberId), roundId: roundOf(rolled), refTransactionId: rolled });
    // An excluded player's bets earn no rebate.
    const x = await player();
    await transferIn(x.memberId, 100_00);
    await bet(x, await vendorToken(x.token, 'PRV-F'), 'F1', 100_00);
    await t.portal.rg.exclude('DEMO', x.memberId, { kind: 'member', account: x.account }, 'cooling', '24h');
    // The job of the merchant's local day (its key: merchant and day) covers today.
    const gmt = (await t.portal.db.query<{ g: number | null }>(`SELECT (brand->>'gmtOffsetMinutes')::int AS g FROM merchants WHERE code = 'DEMO'`)).rows[0]!.g ?? 0;
    const key = rebateKey('DEMO', dayKey(new Date(), gmt));
    expect((await t.portal.jobs.runNow(REBATE_JOB, key)).state).toBe('done');
    expect((await t.portal.jobs.runNow(REBATE_JOB, key)).state).toBe('done');
    // (Players of the other tests bet today too and get their rebates; these two are the ones checked.)
    const rows = await t.portal.db.query<{ member_id: number; amount: number }>('SELECT member_id, amount FROM promotion_rewards WHERE promotion_id = $1 AND member_id = ANY($2::bigint[])', [Number(rebate.id), [p.memberId, x.memberId]]);
    expect(rows.rows.map((r) => [Number(r.member_id), Number(r.amount)])).toEqual([[p.memberId, 6_00]]);
    expect(await statusOf(p.token, rebate.id)).toBe('claim');
    const r = await rewards(p.token);
    expect(r.claimable).toBe(1);
    const rid = r.list.find((x) => x.state === 'claimable')!.id;
    const before = await balance(p.token);
    const c = await call<{ reward: Reward }>('/wps/v2/promotions/rewards/claim', { token: p.token, body: { rewardId: Number(rid) } });
    expect(c.json!.value!.reward).toMatchObject({ state: 'completed', status: 'claimed', amount: 6_00 });
    expect(await balance(p.token)).toBe(before + 6_00);
    const twice = await call('/wps/v2/promotions/rewards/claim', { token: p.token, body: { rewardId: Number(rid) } });
    expect([twice.status, twice.json?.code]).toEqual([409, 'CONFLICT']);
    expect(await balance(p.token)).toBe(before + 6_00);
    expect(await statusOf(p.token, rebate.id)).toBe('claimed');
    // Excluded players are not marketed to (the rg exclusion check): the service refuses them.
    await expect(t.portal.promos.join('DEMO', { memberId: x.memberId, account: x.account }, Number(daily.id), 'EN', 480)).rejects.toMatchObject({ code: 'RG_EXCLUDED' });
  });

  it('rebates cut days at the merchant\'s local midnight (+08:00): bets just before and after it fall on two days, each settled once', async () => {
    // Which local days a tick makes due: the last one over for 5 minutes, and two before it (catch-up).
    expect(dueRebateDays(new Date('2026-11-20T16:10:00Z'), 480)).toEqual(['2026-11-20', '2026-11-19', '2026-11-18']);
    expect(dueRebateDays(new Date('2026-11-20T16:02:00Z'), 480)).toEqual(['2026-11-19', '2026-11-18', '2026-11-17']);
    expect(dueRebateDays(new Date('2026-11-20T16:10:00Z'), 0)).toEqual(['2026-11-19', '2026-11-18', '2026-11-17']);
    expect(merchantDay('2026-11-20', 480)).toEqual({ start: new Date('2026-11-19T16:00:00Z'), end: new Date('2026-11-20T16:00:00Z') });
    const db = t.portal.db;
    const saved = (await db.query<{ brand: unknown }>(`SELECT brand FROM merchants WHERE code = 'DEMO'`)).rows[0]!.brand;
    await db.query(`UPDATE merchants SET brand = jsonb_set(brand, '{gmtOffsetMinutes}', '480') WHERE code = 'DEMO'`);
    try {
      const rebate = await createPromo({ category: 'high_rebate', kind: 'rebate', ...texts('Local rebate'), requiresJoin: false, startsAt: at(-10 * 24 * hour) });
      const p = await player();
      const fish = await vendorToken(p.token, 'PRV-F');
      await transferIn(p.memberId, 1000_00);
      const justBefore = await bet(p, fish, 'F1', 100_00); // FISH 1%
      const justAfter = await bet(p, fish, 'F1', 300_00);
      const earlyMorning = await bet(p, fish, 'F1', 50_00);
      // A local day 6 days back (before the ticks' look-back, so no tick settles it first).
      const day = dayKey(new Date(Date.now() - 6 * 24 * hour), 480);
      const next = new Date(Date.parse(`${day}T00:00:00Z`) + 24 * hour).toISOString().slice(0, 10);
      const { start, end } = merchantDay(day, 480);
      const setTime = (tx: string, ms: number) => db.query('UPDATE vendor_transactions SET created_at = $2 WHERE transaction_id = $1', [tx, new Date(ms)]);
      await setTime(justBefore, end.getTime() - 60_000); // 23:59 local on `day` (15:59 UTC)
      await setTime(justAfter, end.getTime() + 60_000); // 00:01 local on `next` (16:01 UTC, the same UTC day)
      await setTime(earlyMorning, start.getTime() + 30 * 60_000); // 00:30 local on `day` (16:30 UTC the day before)
      for (const d of [day, next, day]) expect((await t.portal.jobs.runNow(REBATE_JOB, rebateKey('DEMO', d))).state).toBe('done');
      const rows = await db.query<{ period_key: string; amount: string }>(
        'SELECT period_key, amount::text FROM promotion_rewards WHERE promotion_id = $1 AND member_id = $2 ORDER BY period_key', [Number(rebate.id), p.memberId]);
      // UTC days would have given 0.50 the day before and 4.00 on `day`.
      expect(rows.rows.map((r) => [r.period_key, Number(r.amount)])).toEqual([[day, 1_50], [next, 3_00]]);
      // The tick enqueues one job per merchant-local day (unique key); days already done are not run again.
      expect((await t.portal.jobs.runNow(REBATE_TICK_JOB, 'test-tick')).state).toBe('done');
      const due = dueRebateDays(new Date(), 480).map((d) => rebateKey('DEMO', d));
      const queued = await db.query<{ key: string }>('SELECT key FROM jobs WHERE name = $1 AND key = ANY($2::text[]) ORDER BY key DESC', [REBATE_JOB, due]);
      expect(queued.rows.map((r) => r.key)).toEqual(due);
      for (const k of due) expect((await t.portal.jobs.runNow(REBATE_JOB, k)).state).toBe('done');
      expect((await db.query('SELECT 1 FROM promotion_rewards WHERE promotion_id = $1 AND member_id = $2', [Number(rebate.id), p.memberId])).rows.length).toBe(2);
    } finally {
      await db.query(`UPDATE merchants SET brand = $1::jsonb WHERE code = 'DEMO'`, [JSON.stringify(saved)]);
    }
  });

  it('raffle: the seed hash is public before the draw; winners follow from seed and entries; the winner claims once', async () => {
    const promo = await createPromo({ category: 'limited', kind: 'raffle', ...texts('Raffle'), rewardAmount: 20_00, winners: 2, drawAt: at(hour) });
    const players = [await player(), await player(), await player(), await player()];
    for (const p of players) await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: p.token, body: { promotionId: Number(promo.id) } });
    const before = (await call<{ seedHash: string; seed: string | null; entries: string[] }>(`/wps/v2/promotions/raffle?promotionId=${promo.id}`)).json!.value!;
    expect([before.seedHash, before.seed, before.entries.length]).toEqual([promo.seedHash, null, 4]);
    expect((await call('/wps/relay/MCS2_claimRafflePromotion', { token: players[0]!.token, body: { promotionId: Number(promo.id) } })).status).toBe(403);
    await t.portal.db.query(`UPDATE promotions SET draw_at = now() WHERE id = $1`, [Number(promo.id)]);
    expect((await t.portal.jobs.runNow(DRAW_JOB, promo.id, { payload: { promotionId: Number(promo.id) } })).state).toBe('done');
    const after = (await call<{ seedHash: string; seed: string; entries: string[]; winningEntries: string[]; myEntry: string | null }>(`/wps/v2/promotions/raffle?promotionId=${promo.id}`, { token: players[0]!.token })).json!.value!;
    expect(createHash('sha256').update(after.seed).digest('hex')).toBe(after.seedHash);
    const recomputed = await drawWinners(after.seed, after.entries, 2, async (s) => createHash('sha256').update(s).digest('hex'));
    expect(after.winningEntries).toEqual(recomputed);
    const entryOf = async (p: { token: string }) => (await call<{ myEntry: string }>(`/wps/v2/promotions/raffle?promotionId=${promo.id}`, { token: p.token })).json!.value!.myEntry;
    const winners: typeof players = [];
    const losers: typeof players = [];
    for (const p of players) (after.winningEntries.includes(await entryOf(p)) ? winners : losers).push(p);
    expect(winners.length).toBe(2);
    expect(await statusOf(winners[0]!.token, promo.id)).toBe('claim');
    expect(await statusOf(losers[0]!.token, promo.id)).toBe('closed');
    const claimed = await call<{ reward: Reward }>('/wps/relay/MCS2_claimRafflePromotion', { token: winners[0]!.token, body: { promotionId: Number(promo.id) } });
    expect(claimed.json!.value!.reward).toMatchObject({ status: 'claimed', amount: 20_00 });
    expect((await call('/wps/relay/MCS2_claimRafflePromotion', { token: winners[0]!.token, body: { promotionId: Number(promo.id) } })).status).toBe(409);
    expect((await call('/wps/relay/MCS2_claimRafflePromotion', { token: losers[0]!.token, body: { promotionId: Number(promo.id) } })).status).toBe(403);
    // A late entry after the draw is refused.
    const late = await player();
    expect((await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: late.token, body: { promotionId: Number(promo.id) } })).status).toBe(403);
  });

  it('a bonus claimed under wagering expires: forfeited (closed), its money back; trial accounts get nothing', async () => {
    const promo = await createPromo({ category: 'vip', kind: 'request', ...texts('VIP'), rewardAmount: 80_00, wageringBonusX: 5, requiresJoin: false });
    const p = await player();
    const r = await call<{ reward: Reward }>('/wps/relay/MCSFE_signUpRequestReward', { token: p.token, body: { promotionId: Number(promo.id), remark: '' } });
    await call(`/ops/api/promotions/requests/${r.json!.value!.reward.id}/decide`, { token: ops.padmin!, body: { approve: true } });
    expect(await statusOf(p.token, promo.id)).toBe('processing');
    expect((await rewards(p.token)).bonusBalance).toBe(80_00);
    await t.portal.db.query(`UPDATE promotion_rewards SET expires_at = now() - interval '1 second' WHERE id = $1`, [Number(r.json!.value!.reward.id)]);
    expect(await t.portal.promos.expireBonuses()).toBe(1);
    expect(await statusOf(p.token, promo.id)).toBe('closed');
    expect((await rewards(p.token)).bonusBalance).toBe(0);
    const trial = await newMember(4);
    const tj = await call('/wps/relay/MCSFE_signUpPromotionJoin', { token: trial.token, body: { promotionId: Number(promo.id) } });
    expect([tj.status, tj.json?.code]).toEqual([403, 'TRIAL_FORBIDDEN']);
    expect((await call('/wps/v2/promotions/rewards', { token: trial.token })).status).toBe(403);
  });
});
