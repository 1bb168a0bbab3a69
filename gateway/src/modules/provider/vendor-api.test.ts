import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { checkLedger } from '../wallet/ledger.ts';
import { signVendorRequest } from './vendor-routes.ts';

/**
 * Conformance suite of the seamless-wallet API, spoken over HTTP to a running gateway exactly as a
 * vendor would: signed requests, idempotency, rollback before bet, reused ids, wins after expiry.
 */
let t: TestPortal;
const VENDOR = 'TESTV';
const secret = randomBytes(32).toString('hex');
let seq = 0;
const id = (p: string) => `${p}-${Date.now()}-${++seq}`;

beforeAll(async () => {
  t = await startTestPortal();
  await t.portal.db.query(`INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url) VALUES ('DEMO', $1, $2, 'https://vendor.example/play')`, [VENDOR, secret]);
  await t.portal.db.query(`INSERT INTO vendors (merchant_code, vassalage, game_type, game_category, display_name) VALUES ('DEMO', $1, 'RNG', 'SLOT', 'Test Vendor')`, [VENDOR]);
  await t.portal.db.query(`INSERT INTO games (merchant_code, node_id, vassalage, game_code, game_type, game_name) VALUES ('DEMO', 'TESTV-G1', $1, 'G1', 'RNG', 'Test Slot')`, [VENDOR]);
  await t.portal.db.query(`INSERT INTO games (merchant_code, node_id, vassalage, game_code, game_type, game_name) VALUES ('DEMO', 'TESTV-G2', $1, 'G2', 'RNG', 'Test Fish')`, [VENDOR]);
});
afterAll(async () => {
  expect(await checkLedger(t.portal.db)).toEqual([]);
  await t.stop();
});

async function vendorCall<T = Record<string, unknown>>(path: string, body: unknown, opts: { secret?: string; ts?: number; raw?: string; requestId?: string } = {}) {
  const raw = opts.raw ?? JSON.stringify(body);
  const ts = opts.ts ?? Math.floor(Date.now() / 1000);
  const res = await fetch(`${t.url}/vendor/v1/${VENDOR}/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json', 'x-timestamp': String(ts), 'x-signature': signVendorRequest(opts.secret ?? secret, ts, raw),
      ...(opts.requestId ? { 'x-request-id': opts.requestId } : {}),
    },
    body: raw,
  });
  return { status: res.status, json: (await res.json()) as { success: boolean; code?: string; value?: T } };
}

/** A player with money and a launched game, its launch code traded as a vendor would: the game session token. */
async function player(deposit = 100_000) {
  const s = (await api<{ memberId: number; token: string }>(t.url, '/wps/dev/sessions', { body: { account: `vp${Date.now() % 1e7}${++seq}` } })).json!.value!;
  if (deposit) {
    await t.portal.db.tx((tx) => import('../wallet/ledger.ts').then(({ transfer }) => transfer(tx, {
      merchant: 'DEMO', currency: 'PHP', key: id('seed'), kind: 'deposit', amount: deposit, debit: { system: 'deposit' }, credit: { member: s.memberId },
    })));
  }
  const launch = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: 'TESTV-G1' }, token: s.token });
  expect(launch.status).toBe(200);
  const code = new URL(launch.json!.value!.url).searchParams.get('token')!;
  const auth = await vendorCall<{ token: string; gameCode: string }>('authenticate', { token: code });
  expect(auth.json.value?.gameCode).toBe('G1');
  return { memberId: s.memberId, playerId: String(s.memberId), token: auth.json.value!.token, code, sessionToken: s.token };
}

describe('vendor seamless wallet API (conformance)', () => {
  it('publishes an OpenAPI description', async () => {
    const r = await fetch(`${t.url}/vendor/v1/openapi.json`);
    const doc = (await r.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/vendor/v1/{vendor}/bet', '/vendor/v1/{vendor}/win', '/vendor/v1/{vendor}/rollback']));
    // each call lists the codes it may refuse with: a win without its bet, money calls of trial and disabled accounts
    type Op = { post: { responses: { '4XX': { content: { 'application/json': { schema: { properties: { code: { enum: string[] } } } } } } } } };
    const codes = (p: string) => (doc.paths[`/vendor/v1/{vendor}/${p}`] as Op).post.responses['4XX'].content['application/json'].schema.properties.code.enum;
    expect(codes('win')).toEqual(expect.arrayContaining(['BET_NOT_FOUND', 'ACCOUNT_DISABLED', 'TRIAL_FORBIDDEN', 'GAME_TOKEN_INVALID']));
    expect(codes('bet')).toEqual(expect.arrayContaining(['ACCOUNT_DISABLED', 'TRIAL_FORBIDDEN', 'GAME_TOKEN_INVALID']));
    expect(codes('authenticate')).toContain('GAME_TOKEN_INVALID');
  });

  it('checks the player token and reports the balance', async () => {
    const p = await player(50_000);
    const a = await vendorCall<{ playerId: string; balance: number; currency: string }>('authenticate', { token: p.token });
    expect(a.json.value).toMatchObject({ playerId: p.playerId, balance: 50_000, currency: 'PHP', token: p.token, gameCode: 'G1' });
    expect((await vendorCall('authenticate', { token: 'x'.repeat(43) })).json.code).toBe('GAME_TOKEN_INVALID');
  });

  it('refuses bad signatures, stale timestamps, unknown vendors and malformed bodies', async () => {
    const p = await player();
    const body = { transactionId: id('b'), playerId: p.playerId, roundId: 'r1', gameCode: 'G1', amount: 100, token: p.token };
    expect((await vendorCall('bet', body, { secret: 'wrong' })).status).toBe(401);
    expect((await vendorCall('bet', body, { secret: 'wrong' })).json.code).toBe('SIGNATURE_INVALID');
    expect((await vendorCall('bet', body, { ts: Math.floor(Date.now() / 1000) - 3600 })).json.code).toBe('SIGNATURE_STALE');
    // Unsigned (no signature or no timestamp) is an invalid signature, not a stale one.
    const ts = String(Math.floor(Date.now() / 1000));
    for (const headers of [{}, { 'x-timestamp': ts }, { 'x-signature': signVendorRequest(secret, Number(ts), JSON.stringify(body)) }] as Array<Record<string, string>>) {
      const r = await fetch(`${t.url}/vendor/v1/${VENDOR}/bet`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      expect([Object.keys(headers).join(','), r.status, ((await r.json()) as { code: string }).code]).toEqual([Object.keys(headers).join(','), 401, 'SIGNATURE_INVALID']);
    }
    const unknown = await fetch(`${t.url}/vendor/v1/NOPE/bet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unknown.status).toBe(401);
    expect((await vendorCall('bet', null, { raw: '{"amount": ' })).status).toBe(400);
    expect((await vendorCall('bet', { ...body, amount: 1.5 })).status).toBe(400);
    expect((await vendorCall('bet', { ...body, amount: -5 })).status).toBe(400);
    // nothing of the refused calls moved money
    expect((await vendorCall<{ balance: number }>('balance', { playerId: p.playerId })).json.value?.balance).toBe(100_000);
  });

  it('answers what HTTP sends it with the envelope: size, media type, top-level JSON, methods and paths', async () => {
    const p = await player(10_000);
    const signed = (raw: string, headers: Record<string, string> = {}, path = `${VENDOR}/balance`, method = 'POST') => {
      const ts = Math.floor(Date.now() / 1000);
      return fetch(`${t.url}/vendor/v1/${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-timestamp': String(ts), 'x-signature': signVendorRequest(secret, ts, raw), ...headers },
        ...(method === 'GET' ? {} : { body: raw }),
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as { success: boolean; code?: string; value?: { balance?: number } } }));
    };
    const ok = JSON.stringify({ playerId: p.playerId });
    expect((await signed(ok)).json.value?.balance).toBe(10_000);
    // a trailing slash and the call's case do not matter (as routed before)
    expect((await signed(ok, {}, `${VENDOR}/Balance/`)).status).toBe(200);
    expect(await signed(JSON.stringify({ playerId: p.playerId, pad: 'x'.repeat(17_000) }))).toMatchObject({ status: 413, json: { success: false, code: 'PAYLOAD_TOO_LARGE' } });
    expect(await signed(ok, { 'content-type': 'application/json; charset=latin1' })).toMatchObject({ status: 415, json: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    expect(await signed(ok, { 'content-encoding': 'gzip' })).toMatchObject({ status: 415, json: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    expect(await signed('"just a string"')).toMatchObject({ status: 400, json: { code: 'MALFORMED_JSON' } });
    // not JSON: no body is read, so the signature (over the text sent) does not match the empty body
    expect(await signed(ok, { 'content-type': 'text/plain' })).toMatchObject({ status: 401, json: { code: 'SIGNATURE_INVALID' } });
    // signed, but no such call or method
    expect(await signed(ok, {}, `${VENDOR}/transfer`)).toMatchObject({ status: 404, json: { code: 'NOT_FOUND' } });
    expect(await signed('', {}, `${VENDOR}/balance`, 'GET')).toMatchObject({ status: 404, json: { code: 'NOT_FOUND' } });
    expect(await signed(ok, {}, '')).toMatchObject({ status: 404, json: { code: 'NOT_FOUND' } });
    expect(await signed(ok, {}, '%E0%A4%A/balance')).toMatchObject({ status: 400, json: { code: 'BAD_REQUEST' } });
    expect(await signed(ok, {}, `${VENDOR}/balance?x=%00`)).toMatchObject({ status: 400, json: { code: 'VALIDATION' } });
    // nothing moved
    expect((await signed(ok)).json.value?.balance).toBe(10_000);
  });

  it('is idempotent on the transaction id: a replay returns the original answer, even concurrently', async () => {
    const p = await player(10_000);
    const body = { transactionId: id('b'), playerId: p.playerId, roundId: 'r1', gameCode: 'G1', amount: 1_000, token: p.token };
    const all = await Promise.all(Array.from({ length: 6 }, () => vendorCall<{ balance: number; replayed: boolean }>('bet', body)));
    expect(all.every((r) => r.status === 200)).toBe(true);
    expect(all.map((r) => r.json.value?.balance)).toEqual(Array(6).fill(9_000));
    expect(all.filter((r) => r.json.value?.replayed === false)).toHaveLength(1);
    const win = { transactionId: id('w'), playerId: p.playerId, roundId: 'r1', gameCode: 'G1', amount: 2_500 };
    const w1 = await vendorCall<{ balance: number }>('win', win);
    const w2 = await vendorCall<{ balance: number; replayed: boolean }>('win', win);
    expect(w1.json.value?.balance).toBe(11_500);
    expect(w2.json.value).toMatchObject({ balance: 11_500, replayed: true });
  });

  it('a bet, a win and a rollback each carry the vendor request\'s id into the balance.changed they cause', async () => {
    const p = await player(10_000);
    const rid = (k: string) => `vendor-${k}-${randomBytes(4).toString('hex')}`;
    const lastBalanceEvent = async () => (await t.portal.db.query<{ request_id: string | null; payload: { balance: number } }>(
      `SELECT request_id, payload FROM outbox WHERE audience = $1 AND type = 'balance.changed' ORDER BY pos DESC LIMIT 1`, [`user:${p.memberId}`])).rows[0]!;
    const round = id('r');
    const betId = rid('bet');
    expect((await vendorCall('bet', { transactionId: id('b'), playerId: p.playerId, roundId: round, gameCode: 'G1', amount: 1_000, token: p.token }, { requestId: betId })).status).toBe(200);
    expect(await lastBalanceEvent()).toMatchObject({ request_id: betId, payload: { balance: 9_000 } });
    const winId = rid('win');
    expect((await vendorCall('win', { transactionId: id('w'), playerId: p.playerId, roundId: round, gameCode: 'G1', amount: 300 }, { requestId: winId })).status).toBe(200);
    expect(await lastBalanceEvent()).toMatchObject({ request_id: winId, payload: { balance: 9_300 } });
    const second = id('b');
    const secondRound = id('r');
    expect((await vendorCall('bet', { transactionId: second, playerId: p.playerId, roundId: secondRound, gameCode: 'G1', amount: 500, token: p.token })).status).toBe(200);
    const rbId = rid('rollback');
    expect((await vendorCall('rollback', { transactionId: id('rb'), playerId: p.playerId, roundId: secondRound, refTransactionId: second }, { requestId: rbId })).status).toBe(200);
    expect(await lastBalanceEvent()).toMatchObject({ request_id: rbId, payload: { balance: 9_300 } });
    // The setting is the call's own: a later bet without an id of its own gets the one the route made, not the last one.
    expect((await vendorCall('bet', { transactionId: id('b'), playerId: p.playerId, roundId: id('r'), gameCode: 'G1', amount: 100, token: p.token })).status).toBe(200);
    const made = await lastBalanceEvent();
    expect(made.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses an unknown player with a 404 and records nothing', async () => {
    const p = await player(0);
    const r = await vendorCall('bet', { transactionId: id('b'), playerId: '99999999', roundId: 'r1', gameCode: 'G1', amount: 100, token: p.token });
    expect(r.status).toBe(404);
    expect(r.json.code).toBe('USER_NOT_FOUND');
  });

  it('refuses the same id with another player, round or amount', async () => {
    const p = await player();
    const q = await player();
    const txId = id('b');
    const body = { transactionId: txId, playerId: p.playerId, roundId: 'r1', gameCode: 'G1', amount: 500, token: p.token };
    expect((await vendorCall('bet', body)).status).toBe(200);
    expect((await vendorCall('bet', { ...body, roundId: 'r2' })).json.code).toBe('TRANSACTION_CONFLICT');
    expect((await vendorCall('bet', { ...body, amount: 501 })).json.code).toBe('TRANSACTION_CONFLICT');
    expect((await vendorCall('bet', { ...body, playerId: q.playerId, token: q.token })).json.code).toBe('TRANSACTION_CONFLICT');
    expect((await vendorCall('win', { ...body, amount: 500 })).json.code).toBe('TRANSACTION_CONFLICT');
  });

  it('never takes a balance below zero, and a refused bet replays as refused', async () => {
    const p = await player(300);
    const body = { transactionId: id('b'), playerId: p.playerId, roundId: 'r1', gameCode: 'G1', amount: 301, token: p.token };
    const r1 = await vendorCall('bet', body);
    expect(r1.status).toBe(409);
    expect(r1.json.code).toBe('INSUFFICIENT_FUNDS');
    // a deposit later does not turn the same transaction id into a success
    await t.portal.db.tx((tx) => import('../wallet/ledger.ts').then(({ transfer }) => transfer(tx, {
      merchant: 'DEMO', currency: 'PHP', key: id('top'), kind: 'deposit', amount: 1_000, debit: { system: 'deposit' }, credit: { member: p.memberId },
    })));
    expect((await vendorCall('bet', body)).json.code).toBe('INSUFFICIENT_FUNDS');
    expect((await vendorCall<{ balance: number }>('balance', { playerId: p.playerId })).json.value?.balance).toBe(1_300);
  });

  it('rolls back a bet with its original amount, once', async () => {
    const p = await player(5_000);
    const bet = { transactionId: id('b'), playerId: p.playerId, roundId: 'r9', gameCode: 'G1', amount: 1_200, token: p.token };
    expect((await vendorCall<{ balance: number }>('bet', bet)).json.value?.balance).toBe(3_800);
    const rb = { transactionId: id('rb'), playerId: p.playerId, roundId: 'r9', refTransactionId: bet.transactionId };
    expect((await vendorCall<{ balance: number }>('rollback', rb)).json.value?.balance).toBe(5_000);
    expect((await vendorCall<{ balance: number; replayed: boolean }>('rollback', rb)).json.value).toMatchObject({ balance: 5_000, replayed: true });
    // another rollback id for the same bet returns nothing more
    expect((await vendorCall<{ balance: number }>('rollback', { ...rb, transactionId: id('rb') })).json.value?.balance).toBe(5_000);
  });

  it('a rollback names the bet\'s own round, and a bet a win has settled since is not rolled back (the player kept both)', async () => {
    const p = await player(100_000);
    const round = id('R');
    const bet = { transactionId: id('b'), playerId: p.playerId, roundId: round, gameCode: 'G1', amount: 1_000, token: p.token };
    expect((await vendorCall<{ balance: number }>('bet', bet)).json.value?.balance).toBe(99_000);
    // another round's reference: refused, nothing refunded
    const elsewhere = await vendorCall('rollback', { transactionId: id('rb'), playerId: p.playerId, roundId: 'RX', refTransactionId: bet.transactionId });
    expect([elsewhere.status, elsewhere.json.code]).toEqual([409, 'TRANSACTION_CONFLICT']);
    expect((await vendorCall<{ balance: number }>('win', { transactionId: id('w'), playerId: p.playerId, roundId: round, gameCode: 'G1', amount: 2_000 })).json.value?.balance).toBe(101_000);
    const settled = { transactionId: id('rb'), playerId: p.playerId, roundId: round, refTransactionId: bet.transactionId };
    const refused = await vendorCall('rollback', settled);
    expect([refused.status, refused.json.code]).toEqual([409, 'BET_SETTLED']);
    expect((await vendorCall('rollback', settled)).json.code).toBe('BET_SETTLED');
    expect((await vendorCall<{ balance: number }>('balance', { playerId: p.playerId })).json.value?.balance).toBe(101_000);
    // a lost round (closed by a win of 0) may be voided: the stake comes back, nothing was paid
    const lost = { transactionId: id('b'), playerId: p.playerId, roundId: id('L'), gameCode: 'G1', amount: 500, token: p.token };
    expect((await vendorCall<{ balance: number }>('bet', lost)).json.value?.balance).toBe(100_500);
    expect((await vendorCall('win', { transactionId: id('w'), playerId: p.playerId, roundId: lost.roundId, gameCode: 'G1', amount: 0 })).status).toBe(200);
    expect((await vendorCall<{ balance: number }>('rollback', { transactionId: id('rb'), playerId: p.playerId, roundId: lost.roundId, refTransactionId: lost.transactionId })).json.value?.balance).toBe(101_000);
    // a round of many bets (fishing): a win before a bet does not stop that bet's rollback
    const fish = id('F');
    expect((await vendorCall('bet', { transactionId: id('b'), playerId: p.playerId, roundId: fish, gameCode: 'G1', amount: 100, token: p.token })).status).toBe(200);
    expect((await vendorCall('win', { transactionId: id('w'), playerId: p.playerId, roundId: fish, gameCode: 'G1', amount: 300 })).status).toBe(200);
    const shot = { transactionId: id('b'), playerId: p.playerId, roundId: fish, gameCode: 'G1', amount: 100, token: p.token };
    expect((await vendorCall<{ balance: number }>('bet', shot)).json.value?.balance).toBe(101_100);
    expect((await vendorCall<{ balance: number }>('rollback', { transactionId: id('rb'), playerId: p.playerId, roundId: fish, refTransactionId: shot.transactionId })).json.value?.balance).toBe(101_200);
  });

  it('reads playerId as digits only, and a bet under another player\'s token does not learn that player\'s exclusion', async () => {
    const p = await player(5_000);
    for (const odd of [` ${p.playerId} `, `${p.playerId}.0`, `0x${Number(p.playerId).toString(16)}`, `${p.playerId}e0`, `+${p.playerId}`]) {
      const r = await vendorCall('balance', { playerId: odd });
      expect([r.status, r.json.code], odd).toEqual([404, 'USER_NOT_FOUND']);
    }
    // a round id or game code with control or format characters (a right-to-left override turned the records around)
    for (const roundId of ['r\u202eevil', 'r\u0001', 'r\u200b']) {
      const r = await vendorCall('bet', { transactionId: id('b'), playerId: p.playerId, roundId, gameCode: 'G1', amount: 100, token: p.token });
      expect([r.status, r.json.code], JSON.stringify(roundId)).toEqual([400, 'VALIDATION']);
    }
    expect((await vendorCall('bet', { transactionId: id('b'), playerId: p.playerId, roundId: 'Ronda ñ 😀', gameCode: 'G1', amount: 100, token: p.token })).status).toBe(200);
    const excluded = await player(5_000);
    await t.portal.db.query(`INSERT INTO rg_exclusions (merchant_code, member_id, kind, starts_at, ends_at, initiated_by, reason) VALUES ('DEMO', $1, 'operator', now(), NULL, 'operator', 'test')`, [excluded.memberId]);
    const probe = await vendorCall('bet', { transactionId: id('b'), playerId: excluded.playerId, roundId: id('r'), gameCode: 'G1', amount: 100, token: p.token });
    expect([probe.status, probe.json.code]).toEqual([401, 'GAME_TOKEN_INVALID']);
    expect(JSON.stringify(probe.json)).not.toContain('until');
  });

  it('remembers a rollback that arrives before its bet and refuses the late bet', async () => {
    const p = await player(5_000);
    const betId = id('b');
    const rb = { transactionId: id('rb'), playerId: p.playerId, roundId: 'r5', refTransactionId: betId };
    expect((await vendorCall<{ balance: number }>('rollback', rb)).json.value?.balance).toBe(5_000);
    const late = await vendorCall('bet', { transactionId: betId, playerId: p.playerId, roundId: 'r5', gameCode: 'G1', amount: 700, token: p.token });
    expect(late.status).toBe(409);
    expect(late.json.code).toBe('BET_ROLLED_BACK');
    expect((await vendorCall<{ balance: number }>('balance', { playerId: p.playerId })).json.value?.balance).toBe(5_000);
  });

  it('a bet and its rollback racing end consistent: either both count or neither moves money', async () => {
    for (let i = 0; i < 5; i++) {
      const p = await player(2_000);
      const betId = id('race');
      await Promise.all([
        vendorCall('bet', { transactionId: betId, playerId: p.playerId, roundId: `rr${i}`, gameCode: 'G1', amount: 600, token: p.token }),
        vendorCall('rollback', { transactionId: id('rb'), playerId: p.playerId, roundId: `rr${i}`, refTransactionId: betId }),
      ]);
      expect((await vendorCall<{ balance: number }>('balance', { playerId: p.playerId })).json.value?.balance).toBe(2_000);
    }
  });

  it('accepts a win and a rollback after the game token expired, but not a bet', async () => {
    const p = await player(5_000);
    const bet = { transactionId: id('b'), playerId: p.playerId, roundId: 'rx', gameCode: 'G1', amount: 1_000, token: p.token };
    await vendorCall('bet', bet);
    await t.portal.db.query(`UPDATE game_sessions SET expires_at = now() - interval '1 minute' WHERE member_id = $1`, [p.memberId]);
    const late = await vendorCall('bet', { ...bet, transactionId: id('b') });
    expect(late.json.code).toBe('GAME_TOKEN_INVALID');
    const win = await vendorCall<{ balance: number }>('win', { transactionId: id('w'), playerId: p.playerId, roundId: 'rx', gameCode: 'G1', amount: 3_000, token: p.token });
    expect(win.json.value?.balance).toBe(7_000);
  });

  it('refuses a disabled player, a win under another player\'s token and a rollback of another player\'s bet; each refusal replays', async () => {
    const p = await player(5_000);
    const q = await player(5_000);
    const qBet = { transactionId: id('b'), playerId: q.playerId, roundId: 'rq', gameCode: 'G1', amount: 400, token: q.token };
    expect((await vendorCall('bet', qBet)).status).toBe(200);

    const win = { transactionId: id('w'), playerId: p.playerId, roundId: 'rq', gameCode: 'G1', amount: 900, token: q.token };
    expect((await vendorCall('win', win)).json.code).toBe('GAME_TOKEN_INVALID');
    const rb = { transactionId: id('rb'), playerId: p.playerId, roundId: 'rq', refTransactionId: qBet.transactionId };
    expect((await vendorCall('rollback', rb)).json.code).toBe('TRANSACTION_CONFLICT');

    await t.portal.db.query(`UPDATE members SET status = 'disabled' WHERE id = $1`, [p.memberId]);
    const bet = { transactionId: id('b'), playerId: p.playerId, roundId: 'rp', gameCode: 'G1', amount: 100, token: p.token };
    const refused = await vendorCall('bet', bet);
    expect([refused.status, refused.json.code]).toEqual([403, 'ACCOUNT_DISABLED']);
    await t.portal.db.query(`UPDATE members SET status = 'active' WHERE id = $1`, [p.memberId]);
    // the stored answers stand, whatever changed since
    expect((await vendorCall('bet', bet)).json.code).toBe('ACCOUNT_DISABLED');
    expect((await vendorCall('win', win)).json.code).toBe('GAME_TOKEN_INVALID');
    expect((await vendorCall('rollback', rb)).json.code).toBe('TRANSACTION_CONFLICT');
    expect((await vendorCall<{ balance: number }>('balance', { playerId: p.playerId })).json.value?.balance).toBe(5_000);
    expect((await vendorCall<{ balance: number }>('balance', { playerId: q.playerId })).json.value?.balance).toBe(4_600);
    // q's bet was announced to q alone, with the balance it left
    const events = await t.portal.db.query<{ payload: { delta: number; balance: number; reason: string } }>(
      `SELECT payload FROM outbox WHERE audience = $1 AND type = 'balance.changed' AND payload->>'reason' = 'bet'`, [`user:${q.memberId}`]);
    expect(events.rows.map((r) => r.payload)).toEqual([expect.objectContaining({ delta: -400, balance: 4_600, reason: 'bet' })]);
  });

  it('a launch code is traded once, within its minute, for the game it was launched for', async () => {
    const p = await player(5_000);
    // the code in the URL was traded by player(): a second use (a copied or replayed URL) is refused
    const again = await vendorCall('authenticate', { token: p.code });
    expect([again.status, again.json.code]).toEqual([401, 'GAME_TOKEN_INVALID']);
    // the code itself is no game token
    expect((await vendorCall('bet', { transactionId: id('b'), playerId: p.playerId, roundId: 'lc1', gameCode: 'G1', amount: 100, token: p.code })).json.code).toBe('GAME_TOKEN_INVALID');
    // the game session token is good for its own game only
    const other = { transactionId: id('b'), playerId: p.playerId, roundId: 'lc2', gameCode: 'G2', amount: 100, token: p.token };
    expect((await vendorCall('bet', other)).json.code).toBe('GAME_TOKEN_INVALID');
    expect((await vendorCall('bet', other)).json.code).toBe('GAME_TOKEN_INVALID');
    expect((await vendorCall<{ balance: number }>('bet', { ...other, transactionId: id('b'), gameCode: 'G1' })).json.value?.balance).toBe(4_900);
    // two vendors racing to trade one code: one game session
    const launch = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: 'TESTV-G2' }, token: p.sessionToken });
    const code = new URL(launch.json!.value!.url).searchParams.get('token')!;
    const raced = await Promise.all(Array.from({ length: 4 }, () => vendorCall<{ gameCode: string }>('authenticate', { token: code })));
    expect(raced.filter((r) => r.status === 200).map((r) => r.json.value?.gameCode)).toEqual(['G2']);
    // a code not traded within its minute is dead
    const late = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: 'TESTV-G1' }, token: p.sessionToken });
    await t.portal.db.query(`UPDATE game_launches SET expires_at = now() - interval '1 second' WHERE member_id = $1`, [p.memberId]);
    expect((await vendorCall('authenticate', { token: new URL(late.json!.value!.url).searchParams.get('token')! })).json.code).toBe('GAME_TOKEN_INVALID');
    // a game session ends no later than the portal session that launched it
    await t.portal.db.query(`UPDATE sessions SET expires_at = now() + interval '10 minutes' WHERE member_id = $1`, [p.memberId]);
    const capped = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: 'TESTV-G1' }, token: p.sessionToken });
    expect((await vendorCall('authenticate', { token: new URL(capped.json!.value!.url).searchParams.get('token')! })).status).toBe(200);
    const ends = await t.portal.db.query<{ capped: boolean }>(
      `SELECT g.expires_at = s.expires_at AS capped FROM game_sessions g JOIN sessions s ON s.token_hash = g.session_hash
       WHERE g.member_id = $1 ORDER BY g.created_at DESC LIMIT 1`, [p.memberId]);
    expect(ends.rows[0]?.capped).toBe(true);
  });

  it('a game session ends with the portal session (logout, password change, disable); bets placed before still settle', async () => {
    // logout: the game launched from this session, and a code not yet traded
    const p = await player(10_000);
    const pending = new URL((await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: 'TESTV-G1' }, token: p.sessionToken })).json!.value!.url).searchParams.get('token')!;
    const b1 = { transactionId: id('b'), playerId: p.playerId, roundId: id('r'), gameCode: 'G1', amount: 1_000, token: p.token };
    const b2 = { ...b1, transactionId: id('b'), roundId: id('r') };
    expect((await vendorCall<{ balance: number }>('bet', b1)).json.value?.balance).toBe(9_000);
    expect((await vendorCall<{ balance: number }>('bet', b2)).json.value?.balance).toBe(8_000);
    expect((await api(t.url, '/wps/session/logout', { method: 'DELETE', token: p.sessionToken })).status).toBe(200);
    expect((await vendorCall('authenticate', { token: p.token })).json.code).toBe('GAME_TOKEN_INVALID');
    expect((await vendorCall('authenticate', { token: pending })).json.code).toBe('GAME_TOKEN_INVALID');
    expect((await vendorCall('balance', { playerId: p.playerId, token: p.token })).json.code).toBe('GAME_TOKEN_INVALID');
    const after = { ...b1, transactionId: id('b'), roundId: id('r') };
    expect(await vendorCall('bet', after)).toMatchObject({ status: 401, json: { code: 'GAME_TOKEN_INVALID' } });
    expect((await vendorCall('bet', after)).json.code).toBe('GAME_TOKEN_INVALID');
    // the round of b1 is paid, b2 is rolled back: no money is stranded with the house
    expect((await vendorCall<{ balance: number }>('win', { transactionId: id('w'), playerId: p.playerId, roundId: b1.roundId, gameCode: 'G1', amount: 2_500, token: p.token })).json.value?.balance).toBe(10_500);
    expect((await vendorCall<{ balance: number }>('rollback', { transactionId: id('rb'), playerId: p.playerId, roundId: b2.roundId, refTransactionId: b2.transactionId })).json.value?.balance).toBe(11_500);

    // a password change ends every game of the member
    const q = await player(1_000);
    await t.portal.db.query('UPDATE members SET must_change_password = true WHERE id = $1', [q.memberId]);
    const changed = await api(t.url, '/wps/member/password', { token: q.sessionToken, body: { newPassword: 'Newpass123', confirmNewPassword: 'Newpass123' } });
    expect(changed.status).toBe(200);
    expect((await vendorCall('bet', { transactionId: id('b'), playerId: q.playerId, roundId: id('r'), gameCode: 'G1', amount: 100, token: q.token })).json.code).toBe('GAME_TOKEN_INVALID');
    expect((await vendorCall('authenticate', { token: q.token })).json.code).toBe('GAME_TOKEN_INVALID');

    // an operator disabling the account (the ops call's service)
    const d = await player(1_000);
    await t.portal.accounts.disable(d.memberId);
    expect((await vendorCall('bet', { transactionId: id('b'), playerId: d.playerId, roundId: id('r'), gameCode: 'G1', amount: 100, token: d.token })).json.code).toBe('GAME_TOKEN_INVALID');
    expect((await vendorCall('balance', { playerId: d.playerId, token: d.token })).json.code).toBe('GAME_TOKEN_INVALID');
    await t.portal.accounts.enable(d.memberId);
    // enabling again does not bring the old game back: a new launch does
    expect((await vendorCall('authenticate', { token: d.token })).json.code).toBe('GAME_TOKEN_INVALID');
  });

  it('a win needs an accepted bet of the same player in the same round; the refusal replays', async () => {
    const p = await player(5_000);
    const q = await player(5_000);
    const win = { transactionId: id('w'), playerId: p.playerId, roundId: id('r'), gameCode: 'G1', amount: 90_000, token: p.token };
    expect(await vendorCall('win', win)).toMatchObject({ status: 409, json: { success: false, code: 'BET_NOT_FOUND' } });
    expect((await vendorCall('win', { ...win, transactionId: id('w'), amount: 0 })).json.code).toBe('BET_NOT_FOUND');
    // another player's bet in the round is not this player's
    const qRound = id('r');
    expect((await vendorCall('bet', { transactionId: id('b'), playerId: q.playerId, roundId: qRound, gameCode: 'G1', amount: 100, token: q.token })).status).toBe(200);
    expect((await vendorCall('win', { ...win, transactionId: id('w'), roundId: qRound, token: undefined })).json.code).toBe('BET_NOT_FOUND');
    // a rolled-back bet settles nothing more
    const bet = { transactionId: id('b'), playerId: p.playerId, roundId: id('r'), gameCode: 'G1', amount: 500, token: p.token };
    expect((await vendorCall('bet', bet)).status).toBe(200);
    expect((await vendorCall('rollback', { transactionId: id('rb'), playerId: p.playerId, roundId: bet.roundId, refTransactionId: bet.transactionId })).status).toBe(200);
    expect((await vendorCall('win', { ...win, transactionId: id('w'), roundId: bet.roundId })).json.code).toBe('BET_NOT_FOUND');
    // a bet placed later does not turn the stored refusal into a credit
    const late = { ...bet, transactionId: id('b') };
    expect((await vendorCall('bet', { ...late, roundId: win.roundId })).status).toBe(200);
    expect(await vendorCall('win', win)).toMatchObject({ status: 409, json: { code: 'BET_NOT_FOUND' } });
    expect((await vendorCall<{ balance: number }>('balance', { playerId: p.playerId })).json.value?.balance).toBe(4_500);
    expect((await vendorCall<{ balance: number }>('win', { ...win, transactionId: id('w'), amount: 1_000 })).json.value?.balance).toBe(5_500);
  });

  it('refuses money calls for trial and disabled accounts, but settles a bet placed before the account was disabled; each refusal replays', async () => {
    // trial: type 4, and a type in the merchant's trial list
    const trial = await player(5_000);
    await t.portal.db.query('UPDATE members SET type = 4 WHERE id = $1', [trial.memberId]);
    const tBet = { transactionId: id('b'), playerId: trial.playerId, roundId: id('r'), gameCode: 'G1', amount: 100, token: trial.token };
    const tWin = { transactionId: id('w'), playerId: trial.playerId, roundId: id('r'), gameCode: 'G1', amount: 50_000 };
    for (let i = 0; i < 2; i++) {
      expect(await vendorCall('bet', tBet)).toMatchObject({ status: 403, json: { code: 'TRIAL_FORBIDDEN' } });
      expect(await vendorCall('win', tWin)).toMatchObject({ status: 403, json: { code: 'TRIAL_FORBIDDEN' } });
    }
    expect((await vendorCall('authenticate', { token: trial.token })).json.code).toBe('TRIAL_FORBIDDEN');
    expect((await vendorCall<{ balance: number }>('balance', { playerId: trial.playerId })).json.value?.balance).toBe(5_000);
    const listed = await player(5_000);
    await t.portal.db.query(`UPDATE merchants SET trial_types = array_append(trial_types, 77) WHERE code = 'DEMO'`);
    t.portal.merchants.invalidate();
    try {
      await t.portal.db.query('UPDATE members SET type = 77 WHERE id = $1', [listed.memberId]);
      expect((await vendorCall('win', { ...tWin, transactionId: id('w'), playerId: listed.playerId })).json.code).toBe('TRIAL_FORBIDDEN');
      expect((await vendorCall('bet', { ...tBet, transactionId: id('b'), playerId: listed.playerId, token: listed.token })).json.code).toBe('TRIAL_FORBIDDEN');
    } finally {
      await t.portal.db.query(`UPDATE merchants SET trial_types = array_remove(trial_types, 77) WHERE code = 'DEMO'`);
      t.portal.merchants.invalidate();
    }
    expect((await vendorCall<{ balance: number }>('balance', { playerId: listed.playerId })).json.value?.balance).toBe(5_000);

    // disabled: a win with no bet is refused; the bets placed before the disable are paid and rolled back
    const p = await player(5_000);
    const won = { transactionId: id('b'), playerId: p.playerId, roundId: id('r'), gameCode: 'G1', amount: 1_000, token: p.token };
    const back = { ...won, transactionId: id('b'), roundId: id('r') };
    expect((await vendorCall('bet', won)).status).toBe(200);
    expect((await vendorCall('bet', back)).status).toBe(200);
    await t.portal.db.query(`UPDATE members SET status = 'disabled' WHERE id = $1`, [p.memberId]);
    const free = { transactionId: id('w'), playerId: p.playerId, roundId: id('r'), gameCode: 'G1', amount: 70_000 };
    expect(await vendorCall('win', free)).toMatchObject({ status: 403, json: { code: 'ACCOUNT_DISABLED' } });
    expect((await vendorCall('bet', { ...won, transactionId: id('b') })).json.code).toBe('ACCOUNT_DISABLED');
    expect((await vendorCall<{ balance: number }>('win', { transactionId: id('w'), playerId: p.playerId, roundId: won.roundId, gameCode: 'G1', amount: 1_800 })).json.value?.balance).toBe(4_800);
    expect((await vendorCall<{ balance: number }>('rollback', { transactionId: id('rb'), playerId: p.playerId, roundId: back.roundId, refTransactionId: back.transactionId })).json.value?.balance).toBe(5_800);
    await t.portal.db.query(`UPDATE members SET status = 'active' WHERE id = $1`, [p.memberId]);
    // the stored refusal stands after the account is active again
    expect((await vendorCall('win', free)).json.code).toBe('ACCOUNT_DISABLED');
    expect((await vendorCall<{ balance: number }>('balance', { playerId: p.playerId })).json.value?.balance).toBe(5_800);
  });

  it('launch: guests get 401, trial users are refused, unknown games 404', async () => {
    expect((await api(t.url, '/wps/game/launchGame', { body: { nodeId: 'TESTV-G1' } })).status).toBe(401);
    const trial = await api<{ token: string }>(t.url, '/wps/session/login/freeplay', { body: {} });
    expect((await api(t.url, '/wps/game/launchGame', { body: { nodeId: 'TESTV-G1' }, token: trial.json!.value!.token })).json?.code).toBe('TRIAL_FORBIDDEN');
    const p = await player(0);
    expect((await api(t.url, '/wps/game/launchGame', { body: { nodeId: 'NOPE' }, token: p.sessionToken })).status).toBe(404);
    await t.portal.db.query(`UPDATE games SET maintenance = true WHERE node_id = 'TESTV-G1'`);
    expect((await api(t.url, '/wps/game/launchGame', { body: { nodeId: 'TESTV-G1' }, token: p.sessionToken })).json?.code).toBe('GAME_MAINTENANCE');
    await t.portal.db.query(`UPDATE games SET maintenance = false WHERE node_id = 'TESTV-G1'`);
  });
});
