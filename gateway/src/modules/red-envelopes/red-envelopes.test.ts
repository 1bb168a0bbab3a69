import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { GRABS_IN_FLIGHT_PER_SOCKET, type TGrabValue, type TOpenEnvelope, type TOpsEnvelope } from '@portal/contracts/api/red-envelopes';
import { api, connectSocket, startTestPortal, waitFor, type TestPortal, type TestSocket } from '../../testing/test-portal.ts';
import { testMembers, type TestMember } from '../../testing/test-members.ts';
import { enrolOperatorTotp } from '../../testing/ops-totp.ts';
import { checkLedger, transfer } from '../wallet/ledger.ts';
import { createRedEnvelopes, ENVELOPE_EXPIRE_JOB, ENVELOPE_LEFT_JOB, ENVELOPE_LEFT_MAX_WAIT_MS, ENVELOPE_LEFT_WINDOW_MS } from './red-envelopes-service.ts';
import type { Db } from '../../db/db.ts';
import { socketCallDuration } from '../../obs/metrics.ts';

let t: TestPortal;
let ops = '';
const member = testMembers(() => t.url, { prefix: 'env' });
const rid = () => `env-${randomBytes(6).toString('hex')}`;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await startTestPortal();
  ops = (await api<{ token: string }>(t.url, '/ops/api/session/login', { body: { username: 'ops01', password: '{secret}' } })).json!.value!.token;
  await api(t.url, '/ops/api/session/password', { token: ops, body: { oldPassword: '{secret}', newPassword: 'Ops01-new-pass-9', confirmNewPassword: 'Ops01-new-pass-9' } });
  await enrolOperatorTotp(t.url, ops);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  expect(await checkLedger(t.portal.db)).toEqual([]);
  await t.stop();
});

type Drop = { totalAmount: number; count: number; minShare: number; expiresInMinutes?: number; audience?: unknown; message?: unknown; requestId?: string };
const drop = (b: Drop) =>
  api<{ envelope: TOpsEnvelope; replayed: boolean }>(t.url, '/ops/api/envelopes', {
    token: ops, body: { expiresInMinutes: 30, audience: { kind: 'all' }, requestId: rid(), ...b },
  });
const grab = (m: TestMember, id: string) => api<TGrabValue>(t.url, `/wps/envelopes/${id}/grab`, { token: m.token, body: {} });
const balance = async (m: TestMember) => (await api<{ balance: number }>(t.url, '/wps/v2/wallets/balance', { token: m.token })).json?.value?.balance;
/** Makes the envelope due (as if its minutes had passed) and runs its expiry job. */
async function expireNow(id: string) {
  await t.portal.db.query(`UPDATE red_envelopes SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
  return t.portal.jobs.runNow(ENVELOPE_EXPIRE_JOB, `envelope-expire-${id}`);
}
/** The promotion cost account (system 'bonus'): an operator's drop never touches it (a promotion's drop is paid from it, promotion-drops.test.ts). */
const cost = async () => Number((await t.portal.db.query<{ s: number }>(
  `SELECT COALESCE(sum(balance), 0)::bigint AS s FROM ledger_accounts WHERE merchant_code = 'DEMO' AND kind = 'bonus' AND bonus_member_id IS NULL`)).rows[0]!.s);
const house = async () => Number((await t.portal.db.query<{ s: number }>(
  `SELECT COALESCE(sum(balance), 0)::bigint AS s FROM ledger_accounts WHERE merchant_code = 'DEMO' AND kind = 'house'`)).rows[0]!.s);
const escrow = async () => Number((await t.portal.db.query<{ s: number }>(
  `SELECT COALESCE(sum(balance), 0)::bigint AS s FROM ledger_accounts WHERE merchant_code = 'DEMO' AND kind = 'envelope'`)).rows[0]!.s);

/**
 * The envelope.left job keys of an envelope, once at least one is there: a grab answers before its job
 * is enqueued (scheduleLeft is not awaited), so a test right after the grabs waits for the row.
 */
async function leftJobKeys(envelopeId: string): Promise<string[]> {
  const read = async () => (await t.portal.db.query<{ key: string }>(`SELECT key FROM jobs WHERE name = $1 AND payload->>'id' = $2 ORDER BY key`, [ENVELOPE_LEFT_JOB, envelopeId])).rows.map((x) => x.key);
  let keys = await read();
  for (let i = 0; !keys.length && i < 200; i++) {
    await new Promise((r) => setTimeout(r, 10));
    keys = await read();
  }
  return keys;
}

describe('red envelopes', () => {
  it('drops live to every connected player, each grabs once, and the shares sum to the total', async () => {
    const players = await Promise.all([1, 2, 3].map(() => member(0)));
    const socks = await Promise.all(players.map((p) => connectSocket(t.url, { token: p.token })));
    sockets.push(...socks);
    const houseBefore = await house();
    const r = await drop({ totalAmount: 3_000, count: 3, minShare: 100, message: { en: 'Happy new year', ty: 'Manigong bagong taon' } });
    expect(r.status, r.text).toBe(200);
    const e = r.json!.value!.envelope;
    expect(e).toMatchObject({ status: 'open', totalAmount: 3_000, count: 3, grabbedCount: 0, audience: { kind: 'all' } });
    expect(await house()).toBe(houseBefore - 3_000);
    for (const s of socks) {
      const ev = await waitFor(() => s.received.find((x) => x.type === 'envelope.dropped' && (x.payload as TOpenEnvelope).envelopeId === e.envelopeId), 'the drop event');
      expect(ev.payload).toMatchObject({ totalAmount: 3_000, count: 3, message: { en: 'Happy new year', ty: 'Manigong bagong taon' } });
    }
    // A page loaded after the drop finds it in the open list.
    const open = await api<{ list: TOpenEnvelope[] }>(t.url, '/wps/envelopes/open', { token: players[0]!.token });
    expect(open.json!.value!.list.map((x) => x.envelopeId)).toContain(e.envelopeId);

    const grabs = await Promise.all(players.map((p) => grab(p, e.envelopeId)));
    for (const g of grabs) expect(g.status, g.text).toBe(200);
    const amounts = grabs.map((g) => g.json!.value!.amount);
    expect(amounts.reduce((a, b) => a + b, 0)).toBe(3_000);
    expect(Math.min(...amounts)).toBeGreaterThanOrEqual(100);
    for (const [i, p] of players.entries()) {
      expect(await balance(p)).toBe(amounts[i]);
      const s = socks[i]!;
      await waitFor(() => s.received.find((x) => x.type === 'envelope.grabbed'), 'the grab event');
      await waitFor(() => s.received.find((x) => x.type === 'balance.changed' && (x.payload as { delta: number }).delta === amounts[i]), 'balance.changed');
    }
    // grabbed: no longer in the open list; in the history
    expect((await api<{ list: TOpenEnvelope[] }>(t.url, '/wps/envelopes/open', { token: players[0]!.token })).json!.value!.list.map((x) => x.envelopeId)).not.toContain(e.envelopeId);
    const h = await api<{ list: Array<{ envelopeId: string; amount: number }>; total: number }>(t.url, '/wps/envelopes/history', { token: players[0]!.token });
    expect(h.json!.value!.list[0]).toMatchObject({ envelopeId: e.envelopeId, amount: amounts[0] });

    // A fourth player finds it empty; the first cannot grab twice.
    const late = await member(0);
    expect((await grab(late, e.envelopeId)).json).toMatchObject({ success: false, code: 'ENVELOPE_EMPTY' });
    expect((await grab(late, e.envelopeId)).status).toBe(409);
    const again = await grab(players[0]!, e.envelopeId);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ success: false, code: 'ENVELOPE_ALREADY_GRABBED' });
    expect(await balance(players[0]!)).toBe(amounts[0]);

    const list = await api<{ list: TOpsEnvelope[] }>(t.url, '/ops/api/envelopes', { token: ops });
    expect(list.json!.value!.list.find((x) => x.envelopeId === e.envelopeId)).toMatchObject({ grabbedCount: 3, grabbedAmount: 3_000 });
  });

  it('tells every player how many shares are left, live, once the grabs have calmed', async () => {
    const [a, b, watcher] = await Promise.all([1, 2, 3].map(() => member(0)));
    const sock = await connectSocket(t.url, { token: watcher!.token });
    sockets.push(sock);
    const e = (await drop({ totalAmount: 5_000, count: 5, minShare: 100 })).json!.value!.envelope;
    const dropped = await waitFor(() => sock.received.find((x) => x.type === 'envelope.dropped' && (x.payload as TOpenEnvelope).envelopeId === e.envelopeId), 'the drop event');
    expect(dropped.payload).toMatchObject({ count: 5, left: 5 });
    const openLeft = async () => (await api<{ list: TOpenEnvelope[] }>(t.url, '/wps/envelopes/open', { token: watcher!.token })).json!.value!.list.find((x) => x.envelopeId === e.envelopeId)?.left;
    expect(await openLeft()).toBe(5);

    for (const p of [a!, b!]) expect((await grab(p, e.envelopeId)).status).toBe(200);
    expect(await openLeft()).toBe(3);
    const sent = async () => (await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE type = 'envelope.left' AND payload->>'envelopeId' = $1`, [e.envelopeId])).rows[0]!.n;
    // Each grab enqueued (at most) the job of its window. Run at once, a job finds a grab in the last
    // ENVELOPE_LEFT_QUIET_MS: it sends nothing and leaves the count to the next window's job.
    const keys = await leftJobKeys(e.envelopeId);
    // (How many per window: the burst test below.)
    expect(keys.length).toBeGreaterThanOrEqual(1);
    expect(await t.portal.envelopes.leftJob(Number(e.envelopeId))).toBe('deferred');
    expect(await sent()).toBe(0);
    const later = (await t.portal.db.query<{ key: string }>(`SELECT key FROM jobs WHERE name = $1 AND payload->>'id' = $2 AND done_at IS NULL AND failed_at IS NULL ORDER BY key`, [ENVELOPE_LEFT_JOB, e.envelopeId])).rows.map((x) => x.key);
    expect(later.length).toBeGreaterThanOrEqual(1);
    // Once the grabs have calmed, the queue's next job sends it (nobody runs it by hand here).
    const lefts = () => sock.received.filter((x) => x.type === 'envelope.left' && (x.payload as { envelopeId: string }).envelopeId === e.envelopeId);
    await waitFor(() => lefts().find((x) => (x.payload as { left: number }).left === 3), 'envelope.left with 3 shares left');
    // Once: the other jobs left find the same count and send nothing.
    for (const key of later) await t.portal.jobs.runNow(ENVELOPE_LEFT_JOB, key);
    expect(await t.portal.envelopes.leftJob(Number(e.envelopeId))).toBe('unchanged');
    expect(await sent()).toBe(1);
    // A closed envelope sends no count.
    await expireNow(e.envelopeId);
    expect(await t.portal.envelopes.leftJob(Number(e.envelopeId))).toBeNull();
    expect(await sent()).toBe(1);
  });

  it('a long storm gets a count at least every ENVELOPE_LEFT_MAX_WAIT_MS; an empty envelope gets its 0 at once', async () => {
    const ps = await Promise.all(Array.from({ length: 3 }, () => member(0)));
    const e = (await drop({ totalAmount: 3_000, count: 3, minShare: 100 })).json!.value!.envelope;
    const id = Number(e.envelopeId);
    expect((await grab(ps[0]!, e.envelopeId)).status).toBe(200);
    expect(await t.portal.envelopes.leftJob(id)).toBe('deferred');
    // The drop (which carried the count) was longer ago than the longest wait: sent though grabs go on.
    await t.portal.db.query(`UPDATE red_envelopes SET created_at = now() - make_interval(secs => $2) WHERE id = $1`, [id, ENVELOPE_LEFT_MAX_WAIT_MS / 1000 + 1]);
    expect(await t.portal.envelopes.leftJob(id)).toBe(2);
    expect((await grab(ps[1]!, e.envelopeId)).status).toBe(200);
    // Sent just now: the next one waits for the calm again.
    expect(await t.portal.envelopes.leftJob(id)).toBe('deferred');
    expect((await grab(ps[2]!, e.envelopeId)).status).toBe(200);
    // Empty: 0 at once, then never again.
    expect(await t.portal.envelopes.leftJob(id)).toBe(0);
    expect(await t.portal.envelopes.leftJob(id)).toBe('unchanged');
  });

  it('a burst of grabs makes at most one envelope.left job per window (ENVELOPE_LEFT_WINDOW_MS), not one per grab, and the last count, 0, is sent once', async () => {
    const players = await Promise.all(Array.from({ length: 12 }, () => member(0)));
    const sock = await connectSocket(t.url, { token: (await member(0)).token });
    sockets.push(sock);
    const e = (await drop({ totalAmount: 1_200, count: 12, minShare: 10 })).json!.value!.envelope;
    const first = Math.floor(Date.now() / ENVELOPE_LEFT_WINDOW_MS);
    const grabs = await Promise.all(players.map((p) => grab(p, e.envelopeId)));
    const last = Math.floor(Date.now() / ENVELOPE_LEFT_WINDOW_MS);
    for (const g of grabs) expect(g.status, g.text).toBe(200);
    const keys = await leftJobKeys(e.envelopeId);
    // At most one job per window the burst spanned (12 grabs, far fewer broadcasts), plus those a job
    // the queue ran while the grabs went on left the count to (a later window, up to the next from now).
    expect(keys.length).toBeGreaterThanOrEqual(1);
    expect(keys.filter((k) => Number(k.split('-').at(-1)) <= last).length).toBeLessThanOrEqual(last - first + 1);
    expect(keys.length).toBeLessThanOrEqual(Math.floor(Date.now() / ENVELOPE_LEFT_WINDOW_MS) + 1 - first + 1);
    for (const key of keys) expect((await t.portal.jobs.runNow(ENVELOPE_LEFT_JOB, key)).state).toBe('done');
    // The envelope is empty: its 0 goes at once (no calm to wait for), and once, however many jobs run.
    // (A count before it is possible when the burst's grabs were more than ENVELOPE_LEFT_QUIET_MS apart
    // somewhere, as on a loaded machine, and the queue ran a job then; never the same count twice in a row.)
    const sent = (await t.portal.db.query<{ left: number }>(
      `SELECT (payload->>'left')::int AS left FROM outbox WHERE type = 'envelope.left' AND payload->>'envelopeId' = $1 ORDER BY seq`, [e.envelopeId])).rows.map((x) => x.left);
    expect(sent.filter((x) => x === 0)).toEqual([0]);
    expect(sent.at(-1)).toBe(0);
    for (let i = 1; i < sent.length; i++) expect(sent[i]).not.toBe(sent[i - 1]);
    const lastLeft = await waitFor(() => sock.received.filter((x) => x.type === 'envelope.left' && (x.payload as { envelopeId: string }).envelopeId === e.envelopeId)
      .find((x) => (x.payload as { left: number }).left === 0), 'the last count, 0');
    expect(lastLeft.payload).toEqual({ envelopeId: e.envelopeId, left: 0 });
  });

  it('a double grab sent at once by the same player takes one share', async () => {
    const p = await member(0);
    const e = (await drop({ totalAmount: 1_000, count: 5, minShare: 10 })).json!.value!.envelope;
    const both = await Promise.all([grab(p, e.envelopeId), grab(p, e.envelopeId), grab(p, e.envelopeId)]);
    expect(both.filter((g) => g.status === 200)).toHaveLength(1);
    for (const g of both.filter((x) => x.status !== 200)) expect(g.json).toMatchObject({ success: false, code: 'ENVELOPE_ALREADY_GRABBED' });
    expect(await balance(p)).toBe(both.find((g) => g.status === 200)!.json!.value!.amount);
  });

  it('returns what nobody grabbed to the house when it expires, exactly once', async () => {
    const p = await member(0);
    const houseBefore = await house();
    const costBefore = await cost();
    const escrowBefore = await escrow();
    const e = (await drop({ totalAmount: 5_000, count: 4, minShare: 500 })).json!.value!.envelope;
    const g = await grab(p, e.envelopeId);
    expect(g.status).toBe(200);
    const share = g.json!.value!.amount;
    const sock = await connectSocket(t.url, { token: (await member(0)).token });
    sockets.push(sock);
    const state = await expireNow(e.envelopeId);
    expect(state.state).toBe('done');
    expect(await house()).toBe(houseBefore - share);
    expect(await escrow()).toBe(escrowBefore);
    await waitFor(() => sock.received.find((x) => x.type === 'envelope.closed' && (x.payload as { envelopeId: string }).envelopeId === e.envelopeId), 'the close event');
    // The job again, and the service call again: nothing moves twice.
    expect((await t.portal.jobs.runNow(ENVELOPE_EXPIRE_JOB, `envelope-expire-${e.envelopeId}`)).state).toBe('done');
    expect(await t.portal.envelopes.expire(Number(e.envelopeId))).toBeNull();
    expect(await house()).toBe(houseBefore - share);
    const refunds = await t.portal.db.query(`SELECT amount FROM ledger_transfers WHERE idempotency_key = $1`, [`envelope:${e.envelopeId}:refund`]);
    expect(refunds.rows).toEqual([{ amount: 5_000 - share }]);
    // An operator's drop is the house's: the promotion cost account never moved.
    expect(await cost()).toBe(costBefore);
    const row = (await api<{ list: TOpsEnvelope[] }>(t.url, '/ops/api/envelopes', { token: ops })).json!.value!.list.find((x) => x.envelopeId === e.envelopeId);
    expect(row).toMatchObject({ status: 'expired', refundedAmount: 5_000 - share, grabbedAmount: share });
    const late = await grab(await member(0), e.envelopeId);
    expect(late.status).toBe(410);
    expect(late.json).toMatchObject({ success: false, code: 'ENVELOPE_EXPIRED' });
  });

  it('a grab after the expiry time is refused even before the job ran', async () => {
    const e = (await drop({ totalAmount: 100, count: 1, minShare: 100 })).json!.value!.envelope;
    await t.portal.db.query(`UPDATE red_envelopes SET expires_at = now() - interval '1 second' WHERE id = $1`, [e.envelopeId]);
    expect((await grab(await member(0), e.envelopeId)).json).toMatchObject({ code: 'ENVELOPE_EXPIRED' });
  });

  it('a segment: only the listed players see and grab it; excluded, trial and unknown players are refused', async () => {
    const [a, b, outsider] = await Promise.all([member(0), member(0), member(0)]);
    const excluded = await member(0);
    const sa = await connectSocket(t.url, { token: a.token });
    const so = await connectSocket(t.url, { token: outsider.token });
    sockets.push(sa, so);
    const unknown = await drop({ totalAmount: 200, count: 2, minShare: 1, audience: { kind: 'accounts', accounts: [a.account, 'nobody_here_x'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({
      success: false, code: 'VALIDATION', message: 'Unknown accounts: nobody_here_x',
      value: { unknownAccounts: ['nobody_here_x'], unknownCount: 1 },
      details: [{ path: 'audience.accounts', message: 'unknown account: nobody_here_x' }],
    });

    const r = await drop({ totalAmount: 900, count: 3, minShare: 100, audience: { kind: 'accounts', accounts: [a.account, b.account, excluded.account] } });
    expect(r.status, r.text).toBe(200);
    const e = r.json!.value!.envelope;
    expect(e.audience).toMatchObject({ kind: 'accounts', targets: 3 });
    await waitFor(() => sa.received.find((x) => x.type === 'envelope.dropped'), 'the segment drop event');
    await new Promise((res) => setTimeout(res, 100));
    expect(so.received.find((x) => x.type === 'envelope.dropped' && (x.payload as { envelopeId: string }).envelopeId === e.envelopeId)).toBeUndefined();
    expect((await api<{ list: TOpenEnvelope[] }>(t.url, '/wps/envelopes/open', { token: outsider.token })).json!.value!.list.map((x) => x.envelopeId)).not.toContain(e.envelopeId);
    const refused = await grab(outsider, e.envelopeId);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ success: false, code: 'ENVELOPE_NOT_ELIGIBLE' });

    // Excluded after the drop (responsible gaming): no share. The exclusion also ends their session,
    // so the check is made on the service itself, where the money moves.
    await t.portal.rg.exclude('DEMO', excluded.memberId, { kind: 'system' }, 'cooling', '24h');
    await expect(t.portal.envelopes.grab({ code: 'DEMO', currency: 'PHP' }, excluded.memberId, Number(e.envelopeId))).rejects.toMatchObject({ code: 'RG_EXCLUDED' });
    expect((await grab(excluded, e.envelopeId)).status).toBe(401);
    // An excluded player is left out of a new segment when it drops.
    const later = await drop({ totalAmount: 200, count: 2, minShare: 1, audience: { kind: 'accounts', accounts: [a.account, excluded.account] } });
    expect(later.json!.value!.envelope.audience.targets).toBe(1);

    const trial = await member(4);
    const tr = await grab(trial, e.envelopeId);
    expect(tr.status).toBe(403);
    expect(tr.json).toMatchObject({ success: false, code: 'TRIAL_FORBIDDEN' });

    expect((await grab(a, e.envelopeId)).status).toBe(200);
    expect((await grab(b, e.envelopeId)).status).toBe(200);
  });

  it('depositors of the last N days: the segment is the players with a paid deposit in that window', async () => {
    const [payer, other] = await Promise.all([member(0), member(0)]);
    const tr = await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: rid(), kind: 'deposit', debit: { system: 'deposit' }, credit: { member: payer.memberId }, amount: 1_000 }));
    await t.portal.db.query(
      `INSERT INTO deposits (merchant_code, member_id, channel_code, provider, provider_order_id, reference, request_id, amount, currency, status, transfer_id)
       VALUES ('DEMO', $1, 'gcash', 'sim', $2, $2, $2, 1000, 'PHP', 'paid', $3)`, [payer.memberId, rid(), tr.transferId]);
    const r = await drop({ totalAmount: 100_000_000, count: 10_000, minShare: 1, audience: { kind: 'depositors', days: 7 } });
    expect(r.status, r.text).toBe(200);
    const e = r.json!.value!.envelope;
    expect(e.audience.kind).toBe('depositors');
    expect((await grab(other, e.envelopeId)).json).toMatchObject({ code: 'ENVELOPE_NOT_ELIGIBLE' });
    expect((await grab(payer, e.envelopeId)).status).toBe(200);
  });

  /** A segment drop seen by its member and by an outsider: live event, open list, grab; the outsider's grab changes nothing. */
  async function memberVsOutsider(audience: unknown, insider: TestMember, outsider: TestMember, targets: number) {
    const si = await connectSocket(t.url, { token: insider.token });
    const so = await connectSocket(t.url, { token: outsider.token });
    sockets.push(si, so);
    const r = await drop({ totalAmount: 1_000, count: 2, minShare: 100, audience });
    expect(r.status, r.text).toBe(200);
    const e = r.json!.value!.envelope;
    expect(e.audience.targets).toBe(targets);
    const mine = (x: { type: string; payload: unknown }) => x.type === 'envelope.dropped' && (x.payload as TOpenEnvelope).envelopeId === e.envelopeId;
    await waitFor(() => si.received.find(mine), 'the segment drop event for its member');
    // The member's event came through the same relay pass; the outsider's socket got nothing, nor did the merchant room.
    await new Promise((res) => setTimeout(res, 200));
    expect(so.received.filter(mine)).toEqual([]);
    expect((await t.portal.db.query(`SELECT 1 FROM outbox WHERE type = 'envelope.dropped' AND audience LIKE 'merchant:%' AND payload->>'envelopeId' = $1`, [e.envelopeId])).rows).toEqual([]);
    const openOf = async (m: TestMember) => (await api<{ list: TOpenEnvelope[] }>(t.url, '/wps/envelopes/open', { token: m.token })).json!.value!.list.map((x) => x.envelopeId);
    expect(await openOf(insider)).toContain(e.envelopeId);
    expect(await openOf(outsider)).not.toContain(e.envelopeId);
    const before = await balance(outsider);
    const refused = await grab(outsider, e.envelopeId);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ success: false, code: 'ENVELOPE_NOT_ELIGIBLE' });
    expect(await balance(outsider)).toBe(before);
    const claimed = async () => (await t.portal.db.query<{ n: number }>('SELECT count(member_id)::int AS n FROM red_envelope_shares WHERE envelope_id = $1', [e.envelopeId])).rows[0]!.n;
    expect(await claimed()).toBe(0);
    const won = await grab(insider, e.envelopeId);
    expect(won.status, won.text).toBe(200);
    expect(await claimed()).toBe(1);
    return e;
  }

  it('promotion participants: joined or rewarded players of that promotion only; an unknown or other merchant\'s promotion is refused', async () => {
    const [joined, rewarded, outsider, otherJoin] = await Promise.all([member(0), member(0), member(0), member(0)]);
    const promo = async (merchant: string) => String((await t.portal.db.query<{ id: number }>(
      `INSERT INTO promotions (merchant_code, category, kind, title, rules, starts_at) VALUES ($1, 'limited', 'signup', '{"EN":"p","TY":"p"}', '{"EN":"r","TY":"r"}', now()) RETURNING id`,
      [merchant])).rows[0]!.id);
    const [p, other] = [await promo('DEMO'), await promo('DEMO')];
    await t.portal.db.query('INSERT INTO promotion_joins (promotion_id, member_id) VALUES ($1, $2), ($3, $4)', [p, joined.memberId, other, otherJoin.memberId]);
    await t.portal.db.query(`INSERT INTO promotion_rewards (merchant_code, promotion_id, member_id, status) VALUES ('DEMO', $1, $2, 'applying')`, [p, rewarded.memberId]);
    const e = await memberVsOutsider({ kind: 'promotion', promotionId: p }, joined, outsider, 2);
    expect(e.audience).toMatchObject({ kind: 'promotion', promotionId: p, targets: 2 });
    expect((await grab(rewarded, e.envelopeId)).status).toBe(200);
    expect((await grab(otherJoin, e.envelopeId)).json).toMatchObject({ code: 'ENVELOPE_NOT_ELIGIBLE' });
    const listed = (await api<{ list: TOpsEnvelope[] }>(t.url, '/ops/api/envelopes', { token: ops })).json!.value!.list.find((x) => x.envelopeId === e.envelopeId);
    expect(listed?.audience).toEqual({ kind: 'promotion', days: null, promotionId: p, from: null, to: null, targets: 2 });

    const houseBefore = await house();
    const foreign = await promo('DEMOVN');
    for (const promotionId of ['99999999', foreign, '0', 'abc']) {
      const r = await drop({ totalAmount: 100, count: 1, minShare: 1, audience: { kind: 'promotion', promotionId } });
      expect(r.status, promotionId).toBe(400);
      expect(r.json).toMatchObject({ success: false, code: 'VALIDATION' });
    }
    expect(await house()).toBe(houseBefore);
  });

  it('registered between two days (the merchant\'s calendar, both days included): only those players', async () => {
    const [inside, early, late] = await Promise.all([member(0), member(0), member(0)]);
    const offset = (await t.portal.merchants.resolve({ code: 'DEMO' }))!.brand.gmtOffsetMinutes;
    // 2020-03-11 on the merchant's calendar is [03-11 00:00, 03-12 00:00) local time.
    const local = (iso: string, minutes: number) => new Date(Date.parse(iso) - offset * 60_000 + minutes * 60_000);
    const set = (m: TestMember, at: Date) => t.portal.db.query('UPDATE members SET created_at = $2 WHERE id = $1', [m.memberId, at]);
    await set(inside, local('2020-03-11T00:00:00Z', 1));
    await set(early, local('2020-03-11T00:00:00Z', -1));
    await set(late, local('2020-03-12T00:00:00Z', 0));
    const e = await memberVsOutsider({ kind: 'registered', from: '2020-03-11', to: '2020-03-11' }, inside, early, 1);
    expect(e.audience).toMatchObject({ kind: 'registered', from: '2020-03-11', to: '2020-03-11', targets: 1 });
    expect((await grab(late, e.envelopeId)).json).toMatchObject({ code: 'ENVELOPE_NOT_ELIGIBLE' });
    // The same request id with another range is another drop's terms.
    const requestId = rid();
    expect((await drop({ totalAmount: 100, count: 1, minShare: 1, requestId, audience: { kind: 'registered', from: '2020-03-10', to: '2020-03-11' } })).status).toBe(200);
    expect((await drop({ totalAmount: 100, count: 1, minShare: 1, requestId, audience: { kind: 'registered', from: '2020-03-11', to: '2020-03-11' } })).status).toBe(409);
    for (const audience of [
      { kind: 'registered', from: '2020-03-12', to: '2020-03-11' },
      { kind: 'registered', from: '2020-02-30', to: '2020-03-11' },
      { kind: 'registered', from: '2020-3-1', to: '2020-03-11' },
      { kind: 'registered', from: '1990-01-01', to: '1990-01-02' },
      { kind: 'accounts', accounts: Array.from({ length: 1001 }, (_, i) => `acc${i}`) },
    ]) {
      const r = await drop({ totalAmount: 100, count: 1, minShare: 1, audience });
      expect(r.status, JSON.stringify(audience).slice(0, 80)).toBe(400);
      expect(r.json).toMatchObject({ success: false, code: 'VALIDATION' });
    }
  });

  it('bad drops and grabs are 4xx with the envelope, nothing changed', async () => {
    const houseBefore = await house();
    for (const body of [
      { totalAmount: 99, count: 10, minShare: 10 },
      { totalAmount: 0, count: 1, minShare: 1 },
      { totalAmount: 100, count: 0, minShare: 1 },
      { totalAmount: 100, count: 1, minShare: 1, expiresInMinutes: 0 },
      { totalAmount: 100, count: 1, minShare: 1, audience: { kind: 'vip' } },
      { totalAmount: 100, count: 1, minShare: 1, audience: { kind: 'accounts', accounts: [] } },
      { totalAmount: 100, count: 1, minShare: 1, message: { en: 'x'.repeat(81) } },
      // a message in one of the site's two languages only: the other language's players would read it
      { totalAmount: 100, count: 1, minShare: 1, message: { en: 'Only English' } },
      { totalAmount: 100, count: 1, minShare: 1, message: { ty: 'Tagalog lang' } },
      { totalAmount: 1.5, count: 1, minShare: 1 },
      { totalAmount: 100, count: 1, minShare: 1, requestId: 'no' },
    ]) {
      const r = await drop(body as Drop);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json).toMatchObject({ success: false, code: 'VALIDATION' });
    }
    expect(await house()).toBe(houseBefore);
    const p = await member(0);
    for (const id of ['0', '-1', 'abc', '99999999', '1e3', '9'.repeat(30)]) {
      const r = await grab(p, id);
      expect(r.status, id).toBe(404);
    }
    expect((await api(t.url, '/wps/envelopes/1/grab', { body: {} })).status).toBe(401);
    expect((await api(t.url, '/wps/envelopes/1/grab', { token: p.token, body: { amount: 5 } })).status).toBe(400);
  });

  it('red_envelope_grab (migration 060), one statement: pays once with both events, refuses the rest writing nothing', async () => {
    const [p, q, outsider, excluded] = await Promise.all([member(0), member(0), member(0), member(0)]);
    const grabSql = (id: string, memberId: number, requestId: string | null = null) => t.portal.db.query<{ o_outcome: string; o_amount: number | null; o_transfer: number | null; o_balance: number | null; o_events: number; o_rg_kind: string | null }>(
      'SELECT * FROM red_envelope_grab($1, $2, $3, $4, $5)', ['DEMO', id, memberId, 256, requestId]);
    const outboxOf = async (memberId: number) => (await t.portal.db.query<{ type: string; request_id: string | null }>(
      `SELECT type, request_id FROM outbox WHERE audience = $1 ORDER BY seq`, [`user:${memberId}`])).rows;
    const e = (await drop({ totalAmount: 1_000, count: 3, minShare: 100 })).json!.value!.envelope;
    const first = (await grabSql(e.envelopeId, p.memberId, 'grab-fn-test-1')).rows[0]!;
    expect(first).toMatchObject({ o_outcome: 'ok', o_events: 2 });
    expect(first.o_balance).toBe(first.o_amount);
    expect(await balance(p)).toBe(first.o_amount);
    const events = (await outboxOf(p.memberId)).filter((x) => x.type === 'balance.changed' || x.type === 'envelope.grabbed');
    expect(events).toEqual([{ type: 'balance.changed', request_id: 'grab-fn-test-1' }, { type: 'envelope.grabbed', request_id: 'grab-fn-test-1' }]);
    const transfers = await t.portal.db.query<{ amount: number }>('SELECT amount FROM ledger_transfers WHERE idempotency_key = $1', [`envelope:${e.envelopeId}:${p.memberId}`]);
    expect(transfers.rows).toEqual([{ amount: first.o_amount }]);

    // Refusals change nothing: no share, no transfer, no event.
    const paid = async () => (await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE type IN ('balance.changed', 'envelope.grabbed')`)).rows[0]!.n;
    const before = await paid();
    expect((await grabSql(e.envelopeId, p.memberId)).rows[0]!.o_outcome).toBe('already_grabbed');
    expect((await grabSql('99999999', q.memberId)).rows[0]!.o_outcome).toBe('not_found');
    const seg = (await drop({ totalAmount: 200, count: 2, minShare: 100, audience: { kind: 'accounts', accounts: [q.account, excluded.account] } })).json!.value!.envelope;
    expect((await grabSql(seg.envelopeId, outsider.memberId)).rows[0]!.o_outcome).toBe('not_eligible');
    await t.portal.rg.exclude('DEMO', excluded.memberId, { kind: 'system' }, 'cooling', '24h');
    expect((await grabSql(seg.envelopeId, excluded.memberId)).rows[0]).toMatchObject({ o_outcome: 'rg_excluded', o_rg_kind: 'cooling' });
    await t.portal.db.query(`UPDATE red_envelopes SET expires_at = now() - interval '1 second' WHERE id = $1`, [e.envelopeId]);
    expect((await grabSql(e.envelopeId, q.memberId)).rows[0]!.o_outcome).toBe('expired');
    expect(await balance(q)).toBe(0);
    expect(await paid()).toBe(before);
    const one = (await drop({ totalAmount: 100, count: 1, minShare: 100 })).json!.value!.envelope;
    expect((await grabSql(one.envelopeId, q.memberId)).rows[0]!.o_outcome).toBe('ok');
    expect((await grabSql(one.envelopeId, outsider.memberId)).rows[0]!.o_outcome).toBe('empty');
    const claimed = (await t.portal.db.query<{ n: number }>('SELECT count(member_id)::int AS n FROM red_envelope_shares WHERE envelope_id = $1', [e.envelopeId])).rows[0]!.n;
    expect(claimed).toBe(1);
  });

  it('the same request id drops one envelope, funded once', async () => {
    const requestId = rid();
    const houseBefore = await house();
    const one = await drop({ totalAmount: 700, count: 7, minShare: 100, requestId });
    const two = await drop({ totalAmount: 700, count: 7, minShare: 100, requestId });
    expect(one.json!.value!.replayed).toBe(false);
    expect(two.json!.value!).toMatchObject({ replayed: true, envelope: { envelopeId: one.json!.value!.envelope.envelopeId } });
    expect(await house()).toBe(houseBefore - 700);
    const other = await drop({ totalAmount: 800, count: 8, minShare: 100, requestId });
    expect(other.status).toBe(409);
  });
});

describe('red envelope grabs in one statement (red_envelope_grab_many, migrations 068 and 070)', () => {
  type ManyRow = { o_member: number | string; o_outcome: string; o_amount: number | null; o_transfer: number | null; o_balance: number | null; o_available: number | null; o_events: number; o_rg_kind: string | null };
  const grabMany = (id: string, members: number[], requestIds: (string | null)[], shards = 256) => t.portal.db.query<ManyRow>(
    'SELECT * FROM red_envelope_grab_many($1, $2, $3::bigint[], $4, $5::text[])', ['DEMO', id, members, shards, requestIds]);
  const byMember = (rows: ManyRow[]) => new Map(rows.map((r) => [Number(r.o_member), r]));
  /** The service on the test portal's database, every grab but the first of a burst in one batch (one statement in flight). */
  const batched = (db: Db = t.portal.db) => createRedEnvelopes({ db, jobs: null, grabBatching: { inFlight: 1 } });
  const M = { code: 'DEMO', currency: 'PHP' };
  const codeOf = (err: unknown) => (err as { code?: string }).code ?? String(err);

  it('mixed outcomes in one statement: each member its own answer, its own transfer and events with its own request id', async () => {
    // One after another: a batch gives its shares out in member id order (migration 068), so the two
    // "too late" members must have the highest ids (made all at once, their ids came in any order).
    const made: TestMember[] = [];
    for (let i = 0; i < 6; i++) made.push(await member(0));
    const [a, b, c, excluded, late1, late2] = made as [TestMember, TestMember, TestMember, TestMember, TestMember, TestMember];
    await t.portal.rg.exclude('DEMO', excluded.memberId, { kind: 'system' }, 'cooling', '24h');
    const e = (await drop({ totalAmount: 900, count: 3, minShare: 100 })).json!.value!.envelope;
    expect((await grab(a, e.envelopeId)).status).toBe(200);
    // Two shares left; c twice (a double click), a again, the excluded player, then two too late.
    const rows = (await grabMany(e.envelopeId, [c.memberId, a.memberId, b.memberId, c.memberId, excluded.memberId, late1.memberId, late2.memberId],
      ['many-c-1', 'many-a', 'many-b', 'many-c-2', 'many-x', 'many-l1', 'many-l2'])).rows;
    expect(rows).toHaveLength(6);
    const r = byMember(rows);
    expect(r.get(a.memberId)!.o_outcome).toBe('already_grabbed');
    expect(r.get(b.memberId)).toMatchObject({ o_outcome: 'ok', o_events: 2 });
    expect(r.get(c.memberId)).toMatchObject({ o_outcome: 'ok', o_events: 2 });
    expect(r.get(excluded.memberId)).toMatchObject({ o_outcome: 'rg_excluded', o_rg_kind: 'cooling' });
    expect(r.get(late1.memberId)!.o_outcome).toBe('empty');
    expect(r.get(late2.memberId)!.o_outcome).toBe('empty');
    for (const p of [b, c]) {
      const row = r.get(p.memberId)!;
      expect(row.o_balance).toBe(row.o_amount);
      expect(await balance(p)).toBe(row.o_amount);
      const transfers = await t.portal.db.query<{ id: number | string; amount: number }>('SELECT id, amount FROM ledger_transfers WHERE idempotency_key = $1', [`envelope:${e.envelopeId}:${p.memberId}`]);
      expect(transfers.rows.map((x) => [String(x.id), Number(x.amount)])).toEqual([[String(row.o_transfer), row.o_amount]]);
    }
    const events = async (p: TestMember) => (await t.portal.db.query<{ type: string; request_id: string | null }>(
      `SELECT type, request_id FROM outbox WHERE audience = $1 AND type IN ('balance.changed', 'envelope.grabbed') ORDER BY seq`, [`user:${p.memberId}`])).rows;
    expect(await events(b)).toEqual([{ type: 'balance.changed', request_id: 'many-b' }, { type: 'envelope.grabbed', request_id: 'many-b' }]);
    // The first request of a member given twice is the one that ran.
    expect(await events(c)).toEqual([{ type: 'balance.changed', request_id: 'many-c-1' }, { type: 'envelope.grabbed', request_id: 'many-c-1' }]);
    for (const p of [excluded, late1, late2]) expect(await events(p)).toEqual([]);
    const shares = (await t.portal.db.query<{ n: number; sum: number }>(
      'SELECT count(member_id)::int AS n, sum(amount) FILTER (WHERE member_id IS NOT NULL)::bigint AS sum FROM red_envelope_shares WHERE envelope_id = $1', [e.envelopeId])).rows[0]!;
    expect({ n: shares.n, sum: Number(shares.sum) }).toEqual({ n: 3, sum: 900 });

    // Envelope-wide refusals: another merchant's or no such envelope, not in the audience, past its end.
    expect((await grabMany('99999999', [b.memberId, c.memberId], [null, null])).rows.map((x) => x.o_outcome)).toEqual(['not_found', 'not_found']);
    const seg = (await drop({ totalAmount: 200, count: 2, minShare: 100, audience: { kind: 'accounts', accounts: [b.account] } })).json!.value!.envelope;
    const segRows = byMember((await grabMany(seg.envelopeId, [c.memberId, b.memberId], [null, null])).rows);
    expect(segRows.get(c.memberId)!.o_outcome).toBe('not_eligible');
    expect(segRows.get(b.memberId)!.o_outcome).toBe('ok');
    const old = (await drop({ totalAmount: 200, count: 2, minShare: 100 })).json!.value!.envelope;
    await t.portal.db.query(`UPDATE red_envelopes SET expires_at = now() - interval '1 second' WHERE id = $1`, [old.envelopeId]);
    expect((await grabMany(old.envelopeId, [late1.memberId, late2.memberId], [null, null])).rows.map((x) => x.o_outcome)).toEqual(['expired', 'expired']);
    expect(await balance(late1)).toBe(0);
  });

  it('a batch pays its winners with the rows ledger_transfer writes (migration 070): transfers, entries and their running balances, events', async () => {
    // Twelve winners of one batch, most without a ledger account yet, two with money already; one
    // player grabs alone first, through ledger_transfer, to compare with.
    const ps = await Promise.all(Array.from({ length: 13 }, () => member(0)));
    const [alone, ...rest] = ps as [TestMember, ...TestMember[]];
    const funded = rest.slice(0, 2);
    for (const p of funded) await t.portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: `env-pre-${p.memberId}`, kind: 'deposit', debit: { system: 'house' }, credit: { member: p.memberId }, amount: 5_000 }));
    const e = (await drop({ totalAmount: 13 * 1_000 + 77, count: 13, minShare: 100 })).json!.value!.envelope;
    expect((await grab(alone, e.envelopeId)).status).toBe(200);
    const winners = [...rest].sort((a, b) => a.memberId - b.memberId);
    // Over 3 escrow shard rows, so that several winners of the batch debit the same row.
    const rows = byMember((await grabMany(e.envelopeId, winners.map((p) => p.memberId), winners.map((p) => `set-${p.memberId}`), 3)).rows);
    expect([...rows.values()].map((r) => r.o_outcome)).toEqual(winners.map(() => 'ok'));
    const db = t.portal.db;
    const keys = ps.map((p) => `envelope:${e.envelopeId}:${p.memberId}`);
    type TransferRow = { id: string; kind: string; status: string; amount: string; memo: unknown; request_hash: string; debit_kind: string; debit_shard: number; credit_member: string };
    const transfers = new Map((await db.query<TransferRow & { idempotency_key: string }>(
      `SELECT t.id::text, t.idempotency_key, t.kind, t.status, t.amount::text, t.memo, t.request_hash, d.kind AS debit_kind, d.shard AS debit_shard, c.member_id::text AS credit_member
         FROM ledger_transfers t JOIN ledger_accounts d ON d.id = t.debit_account_id JOIN ledger_accounts c ON c.id = t.credit_account_id
        WHERE t.idempotency_key = ANY($1::text[])`, [keys])).rows.map((r) => [r.idempotency_key, r]));
    expect(transfers.size).toBe(13);
    const ref = transfers.get(keys[0]!)!;
    for (const [i, p] of winners.entries()) {
      const row = rows.get(p.memberId)!;
      const tr = transfers.get(`envelope:${e.envelopeId}:${p.memberId}`)!;
      // The same shape as the grab made alone by ledger_transfer (the escrow shard its key falls on).
      const shape = (x: TransferRow) => ({ ...x, idempotency_key: '', id: '', amount: '', memo: null, request_hash: '', debit_shard: 0, credit_member: '' });
      expect(shape(tr)).toEqual(shape(ref));
      expect(tr).toMatchObject({ id: String(row.o_transfer), amount: String(row.o_amount), credit_member: String(p.memberId), memo: { envelopeId: e.envelopeId, share: expect.any(Number) } });
      // ledger_transfer with the same terms reads it as a replay (same request hash and shard), never as a mismatch.
      const again = await db.tx(async (tx) => (await tx.query<{ o_outcome: string; o_transfer: string }>(
        `SELECT o_outcome, o_transfer::text FROM ledger_transfer('DEMO', 'PHP', $1, 'envelope.grab', NULL, 'envelope', $2, NULL, 3, $3, false, '{}'::jsonb)`,
        [`envelope:${e.envelopeId}:${p.memberId}`, p.memberId, row.o_amount])).rows[0]!);
      expect(again, `winner ${i}`).toEqual({ o_outcome: 'replay', o_transfer: tr.id });
      expect(await balance(p)).toBe((funded.includes(p) ? 5_000 : 0) + row.o_amount!);
      // Its two events, consecutive seqs, written in that order, with its request id and the payloads ledger_announce and 068 wrote.
      const ev = (await db.query<{ type: string; seq: number; pos: string; payload: Record<string, unknown>; request_id: string }>(
        `SELECT type, seq::int, pos::text, payload, request_id FROM outbox WHERE audience = $1 ORDER BY seq`, [`user:${p.memberId}`])).rows
        .filter((x) => x.type === 'balance.changed' ? x.payload.reason === 'envelope.grab' : x.type === 'envelope.grabbed');
      expect(ev.map((x) => [x.type, x.request_id])).toEqual([['balance.changed', `set-${p.memberId}`], ['envelope.grabbed', `set-${p.memberId}`]]);
      expect(ev[1]!.seq).toBe(ev[0]!.seq + 1);
      expect(BigInt(ev[1]!.pos)).toBeGreaterThan(BigInt(ev[0]!.pos));
      expect(ev[0]!.payload).toEqual({ memberId: p.memberId, currency: 'PHP', balance: row.o_balance, available: row.o_available, delta: row.o_amount, reason: 'envelope.grab', transferId: tr.id });
      expect(ev[1]!.payload).toEqual({ envelopeId: e.envelopeId, amount: row.o_amount, transferId: tr.id });
    }
    // Entries: two per transfer, the member's leg first; on every account the batch touched (the
    // winners' and the escrow shard rows), each entry's balance after is the running sum of the
    // account's entries in the order written (this file's tests run one at a time).
    const entries = (await db.query<{ transfer_id: string; account_id: string; amount: string; member_id: string | null }>(
      `SELECT e.transfer_id::text, e.account_id::text, e.amount::text, a.member_id::text FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
        WHERE e.transfer_id = ANY($1::bigint[]) ORDER BY e.id`, [winners.map((p) => transfers.get(`envelope:${e.envelopeId}:${p.memberId}`)!.id)])).rows;
    expect(entries).toHaveLength(24);
    for (let i = 0; i < 24; i += 2) {
      expect(entries[i]!.transfer_id).toBe(entries[i + 1]!.transfer_id);
      expect([entries[i]!.member_id !== null, Number(entries[i]!.amount) > 0, entries[i + 1]!.member_id, Number(entries[i]!.amount) + Number(entries[i + 1]!.amount)]).toEqual([true, true, null, 0]);
    }
    const running = await db.query<{ account_id: string; id: string; balance_after: string; running: string }>(
      `SELECT account_id::text, id::text, balance_after::text, (sum(amount) OVER (PARTITION BY account_id ORDER BY id))::text AS running
         FROM ledger_entries WHERE account_id IN (SELECT DISTINCT account_id FROM ledger_entries WHERE transfer_id = ANY($1::bigint[]))`,
      [winners.map((p) => transfers.get(`envelope:${e.envelopeId}:${p.memberId}`)!.id)]);
    expect(running.rows.length).toBeGreaterThan(24);
    expect(new Set(entries.filter((x) => x.member_id === null).map((x) => x.account_id)).size).toBeLessThanOrEqual(3);
    expect(running.rows.filter((r) => r.balance_after !== r.running)).toEqual([]);
    expect(await checkLedger(db)).toEqual([]);
  });

  it('the service batches a burst: a player twice in one batch gets one share, the other answer ENVELOPE_ALREADY_GRABBED; refusals as alone', async () => {
    const svc = batched();
    // One after another: a statement gives its shares in member id order, so p1 must be the lowest id of
    // the batch to be sure of one of its 3 shares (made at once, p1 could come 4th or 5th and be refused).
    const ps: Awaited<ReturnType<typeof member>>[] = [];
    for (let i = 0; i < 6; i++) ps.push(await member(0));
    const e = (await drop({ totalAmount: 400, count: 4, minShare: 100 })).json!.value!.envelope;
    const id = Number(e.envelopeId);
    // First alone (nothing in flight), the rest in one batch: p1 twice, p2..p5 (one too many for the
    // shares). p1's second click joins its first (waiting for the same statement) instead of going in.
    const order = [ps[0]!, ps[1]!, ps[1]!, ps[2]!, ps[3]!, ps[4]!, ps[5]!];
    const got = await Promise.all(order.map((p) => svc.grab(M, p.memberId, id).then((v) => ({ ok: true as const, v }), (err) => ({ ok: false as const, code: codeOf(err) }))));
    expect(svc.stats.grabBatches).toBe(1);
    expect(svc.stats.grabsBatched).toBe(5);
    expect(svc.stats.grabsJoined).toBe(1);
    expect(got[0]!.ok).toBe(true);
    const p1 = [got[1]!, got[2]!];
    // p1: one share, one refusal, whichever order.
    expect(p1.filter((x) => x.ok)).toHaveLength(1);
    expect(p1.filter((x) => !x.ok).map((x) => (x.ok ? '' : x.code))).toEqual(['ENVELOPE_ALREADY_GRABBED']);
    expect(got.filter((x) => x.ok)).toHaveLength(4);
    expect(got.filter((x) => !x.ok).map((x) => (x.ok ? '' : x.code)).sort()).toEqual(['ENVELOPE_ALREADY_GRABBED', 'ENVELOPE_EMPTY', 'ENVELOPE_EMPTY']);
    const total = got.reduce((a, x) => a + (x.ok ? x.v.amount : 0), 0);
    expect(total).toBe(400);
    for (const [i, p] of ps.entries()) {
      const mine = got.filter((_, j) => order[j] === p && got[j]!.ok);
      expect(await balance(p), `player ${i}`).toBe(mine.reduce((a, x) => a + (x.ok ? x.v.amount : 0), 0));
    }
    // The answers of a batch are the answers alone: 404, 403 RG_EXCLUDED (with its end), 410.
    const [x, y] = await Promise.all([member(0), member(0)]);
    await t.portal.rg.exclude('DEMO', y.memberId, { kind: 'system' }, 'cooling', '24h');
    const e2 = Number((await drop({ totalAmount: 400, count: 4, minShare: 100 })).json!.value!.envelope.envelopeId);
    const burst = await Promise.all([x, x, y].map((p) => svc.grab(M, p.memberId, e2).then(() => 'ok', (err: { code?: string; details?: unknown }) => err)));
    expect(burst[0]).toBe('ok');
    expect(codeOf(burst[1])).toBe('ENVELOPE_ALREADY_GRABBED');
    expect(codeOf(burst[2])).toBe('RG_EXCLUDED');
    const missing = await Promise.all([x, y, x].map((p) => svc.grab(M, p.memberId, 99999999).then(() => 'ok', codeOf)));
    expect(missing).toEqual(['NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND']);
  });

  it('a second click while the first is in another statement gets the first\'s answer, and no batch is aborted for it', async () => {
    // Statements of two at most: p's second click, sent while its first waits or runs, never goes into a
    // statement of its own (one beside the first would wait on the unique (envelope, member) index for
    // p's share and, on PostgreSQL, abort when the first commits: every grab of it run again alone).
    const svc = createRedEnvelopes({ db: t.portal.db, jobs: null, grabBatching: { inFlight: 2, max: 2 } });
    const [a, b, p, c, d] = await Promise.all(Array.from({ length: 5 }, () => member(0)));
    const id = Number((await drop({ totalAmount: 1_000, count: 10, minShare: 10 })).json!.value!.envelope.envelopeId);
    const order = [a!, b!, p!, c!, p!, d!];
    const got = await Promise.all(order.map((x) => svc.grab(M, x.memberId, id).then((v) => v.amount, codeOf)));
    expect(got.map((x, i) => (i === 4 ? x : typeof x))).toEqual(['number', 'number', 'number', 'number', 'ENVELOPE_ALREADY_GRABBED', 'number']);
    expect(svc.stats.grabsJoined).toBe(1);
    expect(svc.stats.grabsAfterBatchError).toBe(0);
    expect(await balance(p!)).toBe(got[2]);
    // A second click whose first was refused gets the same refusal.
    const e2 = Number((await drop({ totalAmount: 100, count: 1, minShare: 100 })).json!.value!.envelope.envelopeId);
    const late = await Promise.all([a!, b!, c!, c!].map((x) => svc.grab(M, x.memberId, e2).then(() => 'ok', codeOf)));
    expect(late.filter((x) => x === 'ok')).toHaveLength(1);
    expect(late.slice(2)).toEqual(late[2] === 'ok' ? ['ok', 'ENVELOPE_ALREADY_GRABBED'] : [late[2], late[2]]);
  });

  it('two lanes per envelope: each statement\'s grabs debit escrow rows of one lane only, and both lanes run', async () => {
    // Every statement of grab_many recorded with its members; the lane of a member is its ledger key's
    // escrow shard (as ledger_transfer picks it) mod 2, computed here by the database.
    const statements: number[][] = [];
    const db = t.portal.db;
    const spy = new Proxy(db, {
      get(target, prop, recv) {
        if (prop !== 'query') return Reflect.get(target, prop, recv);
        return (sql: string, params?: unknown[]) => {
          if (sql.includes('red_envelope_grab_many')) statements.push((params![2] as number[]).map(Number));
          return target.query(sql, params as never);
        };
      },
    }) as Db;
    const svc = createRedEnvelopes({ db: spy, jobs: null, grabBatching: { inFlight: 2, max: 50 } });
    const ps = await Promise.all(Array.from({ length: 60 }, () => member(0)));
    const id = Number((await drop({ totalAmount: 60_000, count: 60, minShare: 10 })).json!.value!.envelope.envelopeId);
    const got = await Promise.all(ps.map((p) => svc.grab(M, p.memberId, id).then(() => 'ok', codeOf)));
    expect(got.filter((x) => x !== 'ok')).toEqual([]);
    const laneOf = new Map((await db.query<{ m: string; lane: number }>(
      `SELECT m::text, ((get_byte(d, 0) * 256 + get_byte(d, 1)) % 256) % 2 AS lane
         FROM unnest($2::bigint[]) m, LATERAL (SELECT sha256(convert_to('envelope:' || $1 || ':' || m, 'UTF8')) AS d) x`, [id, ps.map((p) => p.memberId)])).rows
      .map((r) => [Number(r.m), Number(r.lane)]));
    expect(statements.length).toBeGreaterThanOrEqual(2);
    for (const st of statements) expect(new Set(st.map((m) => laneOf.get(m))).size, `statement ${st.join(',')}`).toBe(1);
    expect(new Set(statements.map((st) => laneOf.get(st[0]!)))).toEqual(new Set([0, 1]));
    // And the ledger agrees: each transfer's escrow row is of its member's lane.
    const rows = (await db.query<{ m: string; shard: number }>(
      `SELECT c.member_id::text AS m, d.shard FROM ledger_transfers t JOIN ledger_accounts d ON d.id = t.debit_account_id JOIN ledger_accounts c ON c.id = t.credit_account_id
        WHERE t.kind = 'envelope.grab' AND t.idempotency_key LIKE $1`, [`envelope:${id}:%`])).rows;
    expect(rows).toHaveLength(60);
    for (const r of rows) expect(r.shard % 2).toBe(laneOf.get(Number(r.m)));
  });

  it('a statement failure fails every grab of its batch (nothing paid); a second share elsewhere reruns them alone', async () => {
    const ps = await Promise.all(Array.from({ length: 4 }, () => member(0)));
    const e = Number((await drop({ totalAmount: 400, count: 4, minShare: 100 })).json!.value!.envelope.envelopeId);
    let fail: Error | null = null;
    const db = t.portal.db;
    const faulty = new Proxy(db, {
      get(target, prop, recv) {
        if (prop !== 'query') return Reflect.get(target, prop, recv);
        return (sql: string, params?: unknown[]) => {
          if (fail && sql.includes('red_envelope_grab_many')) return Promise.reject(fail);
          return target.query(sql, params as never);
        };
      },
    }) as Db;
    const svc = batched(faulty);
    fail = Object.assign(new Error('connection terminated'), { code: '57P01' });
    const got = await Promise.all(ps.map((p) => svc.grab(M, p.memberId, e).then(() => 'ok', (err) => (err as Error).message)));
    // The first ran alone and committed; the three of the batch fail with the statement's error.
    expect(got).toEqual(['ok', 'connection terminated', 'connection terminated', 'connection terminated']);
    for (const p of ps.slice(1)) expect(await balance(p)).toBe(0);
    expect((await t.portal.db.query<{ n: number }>('SELECT count(member_id)::int AS n FROM red_envelope_shares WHERE envelope_id = $1', [e])).rows[0]!.n).toBe(1);

    // A unique violation of the one-share index aborts the batch for everyone: each grab runs again alone.
    fail = Object.assign(new Error('duplicate key value violates unique constraint "red_envelope_shares_member"'), { code: '23505', constraint: 'red_envelope_shares_member' });
    const again = await Promise.all([ps[0]!, ...ps.slice(1)].map((p) => svc.grab(M, p.memberId, e).then(() => 'ok', codeOf)));
    expect(again).toEqual(['ENVELOPE_ALREADY_GRABBED', 'ok', 'ok', 'ok']);
    expect(svc.stats.grabsAfterBatchError).toBe(3);
    // Another unique violation is not ENVELOPE_ALREADY_GRABBED: the batch fails with it.
    const more = await Promise.all(Array.from({ length: 3 }, () => member(0)));
    const e3 = Number((await drop({ totalAmount: 300, count: 3, minShare: 100 })).json!.value!.envelope.envelopeId);
    fail = Object.assign(new Error('duplicate key value violates unique constraint "outbox_pkey"'), { code: '23505', constraint: 'outbox_pkey' });
    const other = await Promise.all(more.map((p) => svc.grab(M, p.memberId, e3).then(() => 'ok', codeOf)));
    expect(other).toEqual(['ok', '23505', '23505']);
  });
});

describe('red envelope grabs over the socket (envelope:grab)', () => {
  type Reply = { success: boolean; code?: string; value?: TGrabValue & Record<string, unknown> };
  const grabOver = (s: TestSocket, envelopeId: unknown) => s.timeout(10_000).emitWithAck('envelope:grab', { envelopeId } as { envelopeId: string }) as Promise<Reply>;

  it('grabs with the same answers as HTTP, each request id carried into its events; a second grab by either path is refused', async () => {
    const [a, b] = await Promise.all([member(0), member(0)]);
    const [sa, sb] = await Promise.all([a, b].map((p) => connectSocket(t.url, { token: p.token })));
    sockets.push(sa!, sb!);
    const e = (await drop({ totalAmount: 500, count: 2, minShare: 100 })).json!.value!.envelope;
    const counted = async (outcome: string) => (await socketCallDuration.get()).values
      .find((v) => v.metricName === 'portal_socket_call_duration_seconds_count' && v.labels.call === 'envelope:grab' && v.labels.outcome === outcome)?.value ?? 0;
    const [okBefore, againBefore] = [await counted('ok'), await counted('ENVELOPE_ALREADY_GRABBED')];
    const got = await grabOver(sa!, e.envelopeId);
    expect(got.success, JSON.stringify(got)).toBe(true);
    expect(got.value).toMatchObject({ envelopeId: e.envelopeId, balance: got.value!.amount, available: got.value!.amount });
    expect(await balance(a)).toBe(got.value!.amount);
    const changed = await waitFor(() => sa!.received.find((x) => x.type === 'balance.changed' && (x.payload as { delta: number }).delta === got.value!.amount), 'balance.changed');
    expect(changed.requestId).toMatch(/^sg-[0-9a-f-]{36}$/);
    // a second grab of the same player: over the socket and over HTTP alike
    expect(await grabOver(sa!, e.envelopeId)).toMatchObject({ success: false, code: 'ENVELOPE_ALREADY_GRABBED' });
    // portal_socket_call_duration_seconds counts each by its outcome
    expect([await counted('ok') - okBefore, await counted('ENVELOPE_ALREADY_GRABBED') - againBefore]).toEqual([1, 1]);
    expect((await grab(a, e.envelopeId)).json).toMatchObject({ success: false, code: 'ENVELOPE_ALREADY_GRABBED' });
    // HTTP first, then the socket
    expect((await grab(b, e.envelopeId)).status).toBe(200);
    expect(await grabOver(sb!, e.envelopeId)).toMatchObject({ success: false, code: 'ENVELOPE_ALREADY_GRABBED' });
    expect(await balance(a) as number + (await balance(b) as number)).toBe(500);
  });

  it('refuses bad requests, guests, trial players, ended sessions and maintenance with the HTTP codes, moving nothing', async () => {
    const [p, trial, ended] = await Promise.all([member(0), member(4), member(0)]);
    const e = (await drop({ totalAmount: 300, count: 3, minShare: 100 })).json!.value!.envelope;
    const escrowBefore = await escrow();
    const sp = await connectSocket(t.url, { token: p.token });
    sockets.push(sp);
    for (const bad of ['x', '', '0', '-1', '1'.repeat(16), 12, null, { id: 1 }]) {
      expect(await grabOver(sp, bad), JSON.stringify(bad)).toMatchObject({ success: false, code: 'VALIDATION' });
    }
    expect(await sp.timeout(10_000).emitWithAck('envelope:grab', { envelopeId: e.envelopeId, more: 1 } as never)).toMatchObject({ success: false, code: 'VALIDATION' });
    expect(await grabOver(sp, '999999999999')).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const guest = await connectSocket(t.url);
    sockets.push(guest);
    expect(await grabOver(guest, e.envelopeId)).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    const st = await connectSocket(t.url, { token: trial.token });
    sockets.push(st);
    expect(await grabOver(st, e.envelopeId)).toMatchObject({ success: false, code: 'TRIAL_FORBIDDEN' });
    // A session that ended after the socket opened (expired here, so no logout disconnects it): refused.
    const se = await connectSocket(t.url, { token: ended.token });
    sockets.push(se);
    await t.portal.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE member_id = $1`, [ended.memberId]);
    expect(await grabOver(se, e.envelopeId)).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    // A session whose password must change first (default or expired password) writes nothing but the
    // change, over the socket as over HTTP (its socket grab was paid while the HTTP grab was refused).
    const mustChange = await member(0);
    await t.portal.db.query(`UPDATE sessions SET password_change_required = true WHERE member_id = $1`, [mustChange.memberId]);
    const viaHttp = await api(t.url, `/wps/envelopes/${e.envelopeId}/grab`, { token: mustChange.token, body: {} });
    expect([viaHttp.status, viaHttp.json?.code]).toEqual([403, 'PASSWORD_CHANGE_REQUIRED']);
    const sm = await connectSocket(t.url, { token: mustChange.token });
    sockets.push(sm);
    expect(await grabOver(sm, e.envelopeId)).toMatchObject({ success: false, code: 'PASSWORD_CHANGE_REQUIRED' });
    expect(await balance(mustChange)).toBe(0);
    // Maintenance closes the grab as it closes the HTTP call.
    await api(t.url, '/wps/dev/merchant', { body: { maintenance: true, maintenanceMessage: 'Back soon' } });
    try {
      expect(await grabOver(sp, e.envelopeId)).toMatchObject({ success: false, code: 'MAINTENANCE' });
    } finally {
      await api(t.url, '/wps/dev/merchant', { body: { maintenance: false } });
    }
    expect(await escrow()).toBe(escrowBefore);
    expect(await balance(p)).toBe(0);
    expect(sp.connected).toBe(true);
    // now it goes through
    expect(await grabOver(sp, e.envelopeId)).toMatchObject({ success: true });
  });

  it('a grab sent without an ack costs the socket its connection; more than the in-flight limit on one socket is TOO_MANY_REQUESTS', async () => {
    const p = await member(0);
    const s1 = await connectSocket(t.url, { token: p.token });
    sockets.push(s1);
    const gone = new Promise((r) => s1.once('disconnect', r));
    // no ack function: the typed emit needs one, so through the untyped emit
    (s1.emit as (ev: string, ...args: unknown[]) => unknown)('envelope:grab', { envelopeId: '1' });
    await gone;
    const s2 = await connectSocket(t.url, { token: p.token });
    sockets.push(s2);
    const ids = await Promise.all(Array.from({ length: GRABS_IN_FLIGHT_PER_SOCKET + 3 }, async () => (await drop({ totalAmount: 100, count: 1, minShare: 100 })).json!.value!.envelope.envelopeId));
    // Hold the database (PGlite runs one transaction at a time) so the first grabs stay unanswered.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let holding!: () => void;
    const isHolding = new Promise<void>((r) => (holding = r));
    const tx = t.portal.db.tx(async () => {
      holding();
      await held;
    });
    await isHolding;
    const replies = ids.map((id) => grabOver(s2, id));
    // past the limit: answered at once, while the first ones wait for the database
    for (const r of replies.slice(GRABS_IN_FLIGHT_PER_SOCKET)) expect(await r).toMatchObject({ success: false, code: 'TOO_MANY_REQUESTS' });
    release();
    await tx;
    for (const r of replies.slice(0, GRABS_IN_FLIGHT_PER_SOCKET)) expect(await r).toMatchObject({ success: true });
    expect(await balance(p)).toBe(100 * GRABS_IN_FLIGHT_PER_SOCKET);
    // answered grabs free their places
    expect(await grabOver(s2, ids.at(-1)!)).toMatchObject({ success: true });
  });
});
