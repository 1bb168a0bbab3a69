import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { canMoveRedeem, REDEEM_STATUSES } from '@portal/contracts/domain/points';
import { startTestPortal, waitFor, type TestPortal } from '../../testing/test-portal.ts';
import { TEST_MEMBER_PASSWORD } from '../../testing/test-members.ts';
import { vendorSuite } from '../../testing/vendor-suite.ts';
import type { BetFact } from '../engagement/bet-stream.ts';
import { createPoints } from './points-service.ts';

/**
 * The points mall over HTTP with real vendor calls through the bet stream: earning at the merchant's
 * ratio, rollback clawback (with the shortfall owed and netted), redeem under the transaction password
 * (balance, stock, password, replay), operator decisions (every transition, once), conversion, and who
 * may do what.
 */
let t: TestPortal;
const VENDOR = 'PTV';
const { call, ops, id, setup, end, connect, newMember, balance: wallet, transferIn, vendorCall, vendorToken, bet: vendorBet, roundOf } = vendorSuite(() => t, { vendor: VENDOR, memberPrefix: 'pt', operatorPrefix: 'pt', label: 'Points' });
const rid = () => `req_${randomBytes(6).toString('hex')}`;
const PW = 'paypts123';
type Redeem = { id: string; status: string; points: number; amount: number; quantity: number; title?: string };

beforeAll(async () => {
  t = await startTestPortal();
  await setup(['FISH']);
  // 1 point per 1.00 of valid bet; 1 point converts to 0.10; at least 50 points per conversion.
  const cfg = await call('/ops/api/points/config', { method: 'PUT', token: ops.ptcontent!, body: { betPerPoint: 100, minorPerPoint: 10, minConvert: 50, enabled: true } });
  expect(cfg.status, cfg.text).toBe(200);
}, 300_000);
afterAll(async () => {
  await end();
}, 120_000);

/** A funded player with a transaction password, a vendor session and a live socket. */
async function player() {
  const m = await newMember(0);
  await transferIn(m.memberId, 1_000_000_00);
  const pw = await call('/wps/member/withdraw-password', { token: m.token, body: { loginPassword: TEST_MEMBER_PASSWORD, newWithdrawPassword: PW, confirmNewWithdrawPassword: PW } });
  expect(pw.status, pw.text).toBe(200);
  const vtoken = await vendorToken(m.token, `${VENDOR}-F`);
  return { ...m, vtoken, socket: await connect(m.token) };
}
type Player = Awaited<ReturnType<typeof player>>;
const bet = (p: Player, amount: number) => vendorBet(p, p.vtoken, 'F1', amount);
async function rollback(p: Player, betTx: string) {
  await vendorCall('rollback', { transactionId: id('rb'), playerId: String(p.memberId), roundId: roundOf(betTx), refTransactionId: betTx });
}
const points = async (token: string) => (await call<{ balance: number; owed: number; earned: number }>('/wps/relay/MCS2_getPointBalance', { token })).json!.value!;
/** The player's account record (GET /wps/v2/wallets/records), newest first: kind and signed amount. */
const records = async (token: string) =>
  (await call<{ list: Array<{ kind: string; amount: number }> }>('/wps/v2/wallets/records', { method: 'GET', token })).json!.value!.list.map((r) => ({ kind: r.kind, amount: r.amount }));
async function reward(body: Record<string, unknown> = {}) {
  const r = await call<{ id: string; quantity: number }>('/ops/api/points/rewards', {
    token: ops.ptcontent!, body: { title: { EN: 'Cash 5', TY: 'Cash na 5' }, remark: { EN: 'To your wallet', TY: 'Sa iyong wallet' }, pointsRequired: 100, amount: 5_00, quantity: 3, status: 'active', ...body },
  });
  expect(r.status, r.text).toBe(200);
  return r.json!.value!;
}
const stockOf = async (rewardId: string) => (await call<{ list: Array<{ id: string; quantity: number }> }>('/wps/relay/getPointReward?language=TY')).json!.value!.list.find((x) => x.id === rewardId)?.quantity;
const redeem = (token: string, body: Record<string, unknown>) => call<{ redeem: Redeem; balance: number }>('/wps/relay/passwordCheck/MCS2_redeemPointReward', { token, body: { quantity: 1, withdrawPassword: PW, requestId: rid(), ...body } });
const decide = (redeemId: string, approve: boolean, token = ops.ptfinance!) => call<Redeem>(`/ops/api/points/redeems/${redeemId}/decide`, { token, body: { approve, reason: approve ? '' : 'Out of season' } });
const drain = () => t.portal.betStream.drainNow();

describe('points', { timeout: 180_000 }, () => {
  it('valid bets earn at the merchant ratio through the bet stream; a rollback takes back what its bet gave', async () => {
    const p = await player();
    await bet(p, 250_00); // 250 points
    const b2 = await bet(p, 99); // under the ratio: none
    const b3 = await bet(p, 40_00); // 40 points
    await drain();
    expect(await points(p.token)).toEqual({ balance: 290, owed: 0, earned: 290 });
    await rollback(p, b3);
    await rollback(p, b2);
    await drain();
    expect(await points(p.token)).toEqual({ balance: 250, owed: 0, earned: 250 });
    // The details list every change, newest first.
    const h = (await call<{ list: Array<{ kind: string; delta: number; balanceAfter: number }>; total: number }>('/wps/v2/points/history?pageNo=1&pageSize=2', { token: p.token })).json!.value!;
    expect(h.total).toBe(3);
    expect(h.list.map((x) => [x.kind, x.delta, x.balanceAfter])).toEqual([['clawback', -40, 250], ['earn', 40, 290]]);
    const last = waitFor(() => p.socket.received.find((e) => e.type === 'points.changed' && (e.payload as { reason: string }).reason === 'clawback'), 'points.changed');
    expect((await last).payload).toMatchObject({ balance: 250, reason: 'clawback' });
  });

  it('the details are newest first by entry number, also across a power of ten (not sorted as text)', async () => {
    const p = await player();
    // The next entries get numbers 10^k - 1, 10^k and 10^k + 1: as text '99' sorts above '101'.
    const max = Number((await t.portal.db.query<{ m: string }>('SELECT coalesce(max(id), 0)::text AS m FROM points_ledger')).rows[0]!.m);
    const next = 10 ** String(max + 2).length;
    await t.portal.db.query(`SELECT setval(pg_get_serial_sequence('points_ledger', 'id'), $1)`, [next - 2]);
    for (const amount of [1_00, 2_00, 3_00]) {
      await bet(p, amount);
      await drain();
    }
    const h = (await call<{ list: Array<{ id: string; delta: number }> }>('/wps/v2/points/history?pageNo=1&pageSize=10', { token: p.token })).json!.value!;
    expect(h.list.map((x) => [x.id, x.delta])).toEqual([[String(next + 1), 3], [String(next), 2], [String(next - 1), 1]]);
  });

  it('a rollback of spent points records the shortfall, netted against the next earnings', async () => {
    const p = await player();
    const r = await reward({ pointsRequired: 150, amount: 0, quantity: 5 });
    const big = await bet(p, 200_00);
    await drain();
    expect((await redeem(p.token, { rewardId: Number(r.id) })).status).toBe(200);
    expect(await points(p.token)).toMatchObject({ balance: 50, owed: 0 });
    await rollback(p, big);
    await drain();
    expect(await points(p.token)).toEqual({ balance: 0, owed: 150, earned: 0 });
    await bet(p, 100_00);
    await drain();
    expect(await points(p.token)).toEqual({ balance: 0, owed: 50, earned: 100 });
    await bet(p, 80_00);
    await drain();
    expect(await points(p.token)).toEqual({ balance: 30, owed: 0, earned: 180 });
  });

  it('excluded and trial players earn nothing (the consumer itself, with real rows)', async () => {
    const excluded = await newMember(0);
    await t.portal.db.query(`INSERT INTO rg_exclusions (merchant_code, member_id, kind, initiated_by) VALUES ('DEMO', $1, 'self', 'test')`, [excluded.memberId]);
    const trial = await newMember(4);
    const fact = (memberId: number): BetFact => ({
      streamId: 0, fact: 'bet', merchantCode: 'DEMO', memberId, vendor: VENDOR, transactionId: id('x'), roundId: 'r', gameCode: 'F1', gameType: 'FISH', amount: 500_00, placedAt: new Date(), capturedAt: new Date(),
    });
    // The consumer holds no state: a second instance is the one the portal registered.
    const { consumer } = createPoints({ db: t.portal.db, verifyWithdrawPassword: async () => undefined });
    await t.portal.db.tx((tx) => consumer.handle(tx, [fact(excluded.memberId), fact(trial.memberId)]));
    const rows = await t.portal.db.query('SELECT 1 FROM points_ledger WHERE member_id = ANY($1::bigint[])', [[excluded.memberId, trial.memberId]]);
    expect(rows.rows).toEqual([]);
  });

  it('redeem: wrong password, over balance and over stock change nothing; a redeem takes points and stock at once, once per request id', async () => {
    const p = await player();
    const r = await reward({ quantity: 2 });
    await bet(p, 350_00);
    await drain();
    const walletBefore = await wallet(p.token);
    const wrong = await redeem(p.token, { rewardId: Number(r.id), withdrawPassword: 'nope' });
    expect([wrong.status, wrong.json?.code]).toEqual([400, 'WITHDRAW_PASSWORD_WRONG']);
    const over = await redeem(p.token, { rewardId: Number(r.id), quantity: 3 });
    expect([over.status, over.json?.code]).toEqual([409, 'POINTS_OUT_OF_STOCK']);
    const none = await redeem(p.token, { rewardId: 999_999 });
    expect(none.status).toBe(404);
    const bad = await redeem(p.token, { rewardId: Number(r.id), quantity: 0 });
    expect(bad.status).toBe(400);
    expect(await points(p.token)).toMatchObject({ balance: 350 });
    expect(await stockOf(r.id)).toBe(2);
    const requestId = rid();
    const ok = await redeem(p.token, { rewardId: Number(r.id), quantity: 2, requestId });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json!.value).toMatchObject({ balance: 150, redeem: { status: 'processing', points: 200, amount: 10_00, quantity: 2, title: 'Cash 5' } });
    const again = await redeem(p.token, { rewardId: Number(r.id), quantity: 2, requestId });
    expect(again.json!.value!.redeem.id).toBe(ok.json!.value!.redeem.id);
    expect(await points(p.token)).toMatchObject({ balance: 150 });
    expect(await stockOf(r.id)).toBe(0);
    const r2 = await reward({ pointsRequired: 200 });
    const poor = await redeem(p.token, { rewardId: Number(r2.id) });
    expect([poor.status, poor.json?.code]).toEqual([409, 'POINTS_INSUFFICIENT']);
    expect(await stockOf(r2.id)).toBe(3);
    expect(await points(p.token)).toMatchObject({ balance: 150 });
    expect(await wallet(p.token)).toBe(walletBefore);
    await waitFor(() => p.socket.received.find((e) => e.type === 'points.redeem' && (e.payload as { status: string }).status === 'processing'), 'points.redeem processing');
  });

  it('operators approve (cash credited once) or reject (points and stock back); processing -> approved | rejected only', async () => {
    expect(REDEEM_STATUSES.flatMap((from) => REDEEM_STATUSES.filter((to) => canMoveRedeem(from, to)).map((to) => `${from}>${to}`))).toEqual(['processing>approved', 'processing>rejected']);
    const p = await player();
    const r = await reward({ quantity: 5 });
    await bet(p, 300_00);
    await drain();
    const a = (await redeem(p.token, { rewardId: Number(r.id) })).json!.value!.redeem;
    const b = (await redeem(p.token, { rewardId: Number(r.id) })).json!.value!.redeem;
    expect(await points(p.token)).toMatchObject({ balance: 100 });
    expect(await stockOf(r.id)).toBe(3);
    const before = await wallet(p.token);
    // Content may author but not decide; a member token is no operator.
    expect((await decide(a.id, true, ops.ptcontent!)).status).toBe(403);
    expect((await decide(a.id, true, p.token)).status).toBe(401);
    const approved = await decide(a.id, true);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json!.value).toMatchObject({ status: 'approved', account: p.account, decidedBy: 'ptfinance' });
    expect(await wallet(p.token)).toBe(before + 5_00);
    // The account record names it as a points reward (its own record kind, labelled in EN and TY).
    expect((await records(p.token))[0]).toEqual({ kind: 'points_redeem', amount: 5_00 });
    const twice = await decide(a.id, true);
    expect([twice.status, twice.json?.code]).toEqual([409, 'CONFLICT']);
    expect((await decide(a.id, false)).status).toBe(409);
    expect(await wallet(p.token)).toBe(before + 5_00);
    const rejected = await decide(b.id, false);
    expect(rejected.json!.value).toMatchObject({ status: 'rejected', reason: 'Out of season' });
    expect(await points(p.token)).toMatchObject({ balance: 200 });
    expect(await stockOf(r.id)).toBe(4);
    expect((await decide(b.id, true)).status).toBe(409);
    expect(await points(p.token)).toMatchObject({ balance: 200 });
    // The player's redeem history shows each status; messages and events went out.
    const list = (await call<{ list: Redeem[] }>('/wps/relay/getRedeemPointList?language=TY', { token: p.token })).json!.value!.list;
    expect(Object.fromEntries(list.map((x) => [x.id, x.status]))).toEqual({ [a.id]: 'approved', [b.id]: 'rejected' });
    // The history's status filter: one status, or all of them without one; an unknown status is a 400, not a 500.
    const only = async (status: string) => (await call<{ list: Redeem[]; total: number }>(`/wps/relay/getRedeemPointList?status=${status}`, { token: p.token })).json!.value!;
    expect(await only('approved')).toMatchObject({ list: [{ id: a.id, status: 'approved' }], total: 1 });
    expect(await only('rejected')).toMatchObject({ list: [{ id: b.id, status: 'rejected' }], total: 1 });
    expect(await only('processing')).toMatchObject({ list: [], total: 0 });
    expect((await call<{ total: number }>('/wps/relay/getRedeemPointList', { token: p.token })).json!.value!.total).toBe(2);
    const bad = await call('/wps/relay/getRedeemPointList?status=paid', { token: p.token });
    expect([bad.status, bad.json?.code]).toEqual([400, 'VALIDATION']);
    await waitFor(() => p.socket.received.find((e) => e.type === 'points.redeem' && (e.payload as { status: string }).status === 'approved'), 'approved event');
    await waitFor(() => p.socket.received.find((e) => e.type === 'message.received' && (e.payload as { kind: string }).kind === 'points_redeem_rejected'), 'rejected message');
    // The messages name the reward in both languages (the client shows its language's), not only a reference.
    const inbox = (await call<{ list: Array<{ kind: string; params: Record<string, string | number> }> }>('/wps/v2/messages', { token: p.token })).json!.value!.list;
    expect(inbox.find((x) => x.kind === 'points_redeem_approved')?.params).toEqual({ reference: `R${a.id}`, points: 100, title_EN: 'Cash 5', title_TY: 'Cash na 5' });
    // ... and a refusal its reason, as the operator wrote it
    expect(inbox.find((x) => x.kind === 'points_redeem_rejected')?.params).toEqual({ reference: `R${b.id}`, points: 100, title_EN: 'Cash 5', title_TY: 'Cash na 5', reason: 'Out of season' });
    const audit = await t.portal.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_type = 'point_redemption' AND target_id = ANY($1) ORDER BY id`, [[a.id, b.id]]);
    expect(audit.rows.map((x) => x.action)).toEqual(['points.redeem.approve', 'points.redeem.reject']);
    const queue = (await call<{ list: Redeem[] }>('/ops/api/points/redeems?status=approved', { token: ops.ptcontent! })).json!.value!.list;
    expect(queue.some((x) => x.id === a.id) && queue.every((x) => x.status === 'approved')).toBe(true);
    // The console reads the reward's title in its own language.
    expect(queue.find((x) => x.id === a.id)?.title).toBe('Cash 5');
    const tyQueue = (await call<{ list: Redeem[] }>('/ops/api/points/redeems?status=approved&language=TY', { token: ops.ptcontent! })).json!.value!.list;
    expect(tyQueue.find((x) => x.id === a.id)?.title).toBe('Cash na 5');
    expect((await call('/ops/api/points/redeems', { token: ops.ptrisk! })).status).toBe(403);
    // A redeem keeps the title its reward had (as its points and amount): renaming the reward later
    // rewrote the player's history and the console's list.
    const renamed = await call(`/ops/api/points/rewards/${r.id}`, { method: 'PUT', token: ops.ptcontent!, body: { title: { EN: 'Cash 5 v2', TY: 'Cash na 5 v2' }, remark: { EN: 'r', TY: 'r' }, pointsRequired: 150, amount: 5_00, quantity: 4, status: 'active' } });
    expect(renamed.status, renamed.text).toBe(200);
    const kept = (await call<{ list: Redeem[] }>('/wps/relay/getRedeemPointList?language=TY', { token: p.token })).json!.value!.list;
    expect(kept.map((x) => [x.title, x.points])).toEqual([['Cash na 5', 100], ['Cash na 5', 100]]);
    expect((await call<{ list: Redeem[] }>('/ops/api/points/redeems?status=approved', { token: ops.ptcontent! })).json!.value!.list.find((x) => x.id === a.id)?.title).toBe('Cash 5');
    const c = (await redeem(p.token, { rewardId: Number(r.id) })).json!.value!.redeem;
    expect([c.title, c.points]).toEqual(['Cash 5 v2', 150]);
  });

  it("a member sees only their own redeems and cannot decide; guests see the catalogue and rules only", async () => {
    const p = await player();
    const other = await player();
    const r = await reward();
    await bet(p, 100_00);
    await drain();
    const mine = (await redeem(p.token, { rewardId: Number(r.id) })).json!.value!.redeem;
    const theirs = (await call<{ list: Redeem[]; total: number }>('/wps/relay/getRedeemPointList', { token: other.token })).json!.value!;
    expect(theirs).toMatchObject({ list: [], total: 0 });
    expect((await call(`/ops/api/points/redeems/${mine.id}/decide`, { token: other.token, body: { approve: true } })).status).toBe(401);
    expect((await call('/wps/relay/MCS2_getPointBalance')).status).toBe(401);
    expect((await call('/wps/relay/getRedeemPointList')).status).toBe(401);
    expect((await call('/wps/relay/passwordCheck/MCS2_redeemPointReward', { body: { rewardId: Number(r.id), withdrawPassword: PW, requestId: rid() } })).status).toBe(401);
    expect((await call<{ list: unknown[] }>('/wps/relay/getPointReward')).json!.value!.list.length).toBeGreaterThan(0);
    expect((await call('/wps/relay/getPointConfig')).json!.value).toEqual({ betPerPoint: 100, minorPerPoint: 10, minConvert: 50, enabled: true });
    // An inactive reward leaves the catalogue and cannot be redeemed.
    const off = await reward({ status: 'inactive' });
    expect(await stockOf(off.id)).toBeUndefined();
    const offered = await redeem(p.token, { rewardId: Number(off.id) });
    expect([offered.status, offered.json?.code, offered.json?.message]).toEqual([404, 'NOT_FOUND', 'This reward is no longer offered']);
  });

  it('concurrent redeems: the balance and the stock are taken under a lock, never below zero', async () => {
    const p = await player();
    const q = await player();
    await bet(p, 100_00);
    await bet(q, 100_00);
    await drain();
    const r = await reward({ pointsRequired: 100, quantity: 5 });
    const same = await Promise.all([1, 2, 3].map(() => redeem(p.token, { rewardId: Number(r.id) })));
    expect(same.map((x) => x.status).sort()).toEqual([200, 409, 409]);
    expect(same.filter((x) => x.status === 409).every((x) => x.json?.code === 'POINTS_INSUFFICIENT')).toBe(true);
    expect(await points(p.token)).toMatchObject({ balance: 0 });
    const last = await reward({ pointsRequired: 10, quantity: 1 });
    await bet(p, 10_00);
    await drain();
    const race = await Promise.all([p, q].map((x) => redeem(x.token, { rewardId: Number(last.id) })));
    expect(race.map((x) => x.status).sort()).toEqual([200, 409]);
    expect(race.find((x) => x.status === 409)!.json?.code).toBe('POINTS_OUT_OF_STOCK');
    expect(await stockOf(last.id)).toBe(0);
    const taken = await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM point_redemptions WHERE reward_id = $1', [last.id]);
    expect(taken.rows[0]!.n).toBe(1);
  });

  it('convert: points to cash at the conversion rate in one keyed transfer; bad amounts are refused with nothing changed', async () => {
    const p = await player();
    await bet(p, 120_00);
    await drain();
    const before = await wallet(p.token);
    const convert = (body: Record<string, unknown>) => call<{ amount: number; balance: number; replayed: boolean }>('/wps/relay/passwordCheck/MCS2_convertPoint', { token: p.token, body: { withdrawPassword: PW, requestId: rid(), ...body } });
    expect((await convert({ points: 49 })).json?.code).toBe('AMOUNT_OUT_OF_RANGE');
    expect((await convert({ points: -5 })).status).toBe(400);
    expect((await convert({ points: 1.5 })).status).toBe(400);
    expect((await convert({ points: 500 })).json?.code).toBe('POINTS_INSUFFICIENT');
    expect((await convert({ points: 60, withdrawPassword: 'bad' })).json?.code).toBe('WITHDRAW_PASSWORD_WRONG');
    expect(await points(p.token)).toMatchObject({ balance: 120 });
    expect(await wallet(p.token)).toBe(before);
    const requestId = rid();
    const ok = await convert({ points: 100, requestId });
    expect(ok.json!.value).toMatchObject({ amount: 10_00, balance: 20, replayed: false });
    const again = await convert({ points: 100, requestId });
    expect(again.json!.value).toMatchObject({ amount: 10_00, replayed: true });
    expect(await points(p.token)).toMatchObject({ balance: 20 });
    expect(await wallet(p.token)).toBe(before + 10_00);
    expect((await records(p.token))[0]).toEqual({ kind: 'points_convert', amount: 10_00 });
    const tr = await t.portal.db.query('SELECT 1 FROM ledger_transfers WHERE idempotency_key = $1', [`points:convert:${p.memberId}:${requestId}`]);
    expect(tr.rows.length).toBe(1);
  });

  it('operators manage the catalogue by role; bad input is a 4xx with nothing written', async () => {
    const r = await reward();
    expect((await call('/ops/api/points/rewards', { token: ops.ptfinance!, body: { title: { EN: 'x', TY: 'y' }, remark: { EN: '', TY: '' }, pointsRequired: 1, amount: 0, quantity: 1, status: 'active' } })).status).toBe(403);
    const count = async () => (await call<{ list: unknown[] }>('/ops/api/points/rewards', { token: ops.ptfinance! })).json!.value!.list.length;
    const n0 = await count();
    expect((await call('/ops/api/points/rewards', { token: ops.ptadmin!, body: { title: { EN: 'x', TY: 'y' }, remark: { EN: '', TY: '' }, pointsRequired: 0, amount: 0, quantity: 1, status: 'active' } })).status).toBe(400);
    expect(await count()).toBe(n0);
    const up = await call<{ quantity: number; pointsRequired: number }>(`/ops/api/points/rewards/${r.id}`, { method: 'PUT', token: ops.ptcontent!, body: { title: { EN: 'Cash 6', TY: 'Cash na 6' }, remark: { EN: 'r', TY: 'r' }, pointsRequired: 120, amount: 6_00, quantity: 9, status: 'active' } });
    expect(up.json!.value).toMatchObject({ quantity: 9, pointsRequired: 120 });
    expect((await call(`/ops/api/points/rewards/999999`, { method: 'PUT', token: ops.ptcontent!, body: { title: { EN: 'a', TY: 'b' }, remark: { EN: '', TY: '' }, pointsRequired: 1, amount: 0, quantity: 1, status: 'active' } })).status).toBe(404);
    expect((await call('/ops/api/points/config', { method: 'PUT', token: ops.ptcontent!, body: { betPerPoint: 0, minorPerPoint: 10, minConvert: 50, enabled: true } })).status).toBe(400);
    // Beyond what the table holds: a 400 on the field, not the database's 500.
    for (const body of [{ betPerPoint: 100_000_001, minorPerPoint: 10, minConvert: 50 }, { betPerPoint: 100, minorPerPoint: 1_000_000_000_000_000, minConvert: 50 }, { betPerPoint: 100, minorPerPoint: 10, minConvert: 2_147_483_647 }]) {
      const r = await call('/ops/api/points/config', { method: 'PUT', token: ops.ptcontent!, body: { ...body, enabled: true } });
      expect([r.status, r.json?.code]).toEqual([400, 'VALIDATION']);
    }
  });
});
