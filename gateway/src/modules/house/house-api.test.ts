import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { THouseSession, TRotateSeedValue, TShootResult, TSpinResult } from '@portal/contracts/api/house';
import { api, connectSocket, startTestPortal, waitFor, type TestPortal } from '../../testing/test-portal.ts';
import { balanceOf as ledgerBalance, checkLedger } from '../wallet/ledger.ts';
import { fairStream, hashSeed } from './fair.ts';
import { evaluate, slotWin, stopsFrom } from './slot.ts';
import { shootFish } from './fish.ts';
import { createWalletClient } from './wallet-client.ts';
import { houseTesting } from './house-testing.ts';

/**
 * The house slot end to end over HTTP: launch, trade the launch token for a house session, spin;
 * the money moves only through the vendor API (vendor_transactions) and the ledger stays whole.
 */
let t: TestPortal;

beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(async () => {
  expect(await checkLedger(t.portal.db)).toEqual([]);
  await t.stop();
});

const { house, member, launch: launchGame, seat, balanceOf } = houseTesting(() => t, 'hs');
const launch = (sessionToken: string, nodeId = 'HOUSE-SLOT1') => launchGame(sessionToken, nodeId);
const open = (deposit = 100_000) => seat(deposit, 'HOUSE-SLOT1');

describe('house slot (Lucky Peso Reels)', () => {
  it('is in the catalogue and launches to the house game page', async () => {
    const g = await t.portal.db.query<{ game_type: string; game_name: string }>(`SELECT game_type, game_name FROM games WHERE merchant_code = 'DEMO' AND node_id = 'HOUSE-SLOT1'`);
    expect(g.rows[0]).toEqual({ game_type: 'RNG', game_name: 'Lucky Peso Reels' });
    const { s } = await open();
    expect(s).toMatchObject({ game: 'SLOT1', freePlay: false, balance: 100_000, currency: 'PHP', stakes: [100, 500, 1_000, 5_000, 10_000] });
    expect(s.fair.serverSeedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(s.fair.nonce).toBe(0);
  });

  it('refuses a bad launch token, a missing house session and a stake not offered', async () => {
    expect((await house('/session', { token: 'x'.repeat(43), game: 'SLOT1' })).json?.code).toBe('GAME_TOKEN_INVALID');
    expect((await house('/slot/spin', { stake: 100 })).status).toBe(401);
    const { s } = await open();
    const bad = await house('/slot/spin', { stake: 123 }, s.session);
    expect(bad.status).toBe(400);
    expect(bad.json?.code).toBe('VALIDATION');
    expect((await house('/slot/spin', { stake: '100' }, s.session)).status).toBe(400);
  });

  it('the launch code in the URL opens its own game once; another game or a second use is refused', async () => {
    const m = await member(10_000);
    const codeOf = async (nodeId = 'HOUSE-SLOT1') => new URL((await launch(m.token, nodeId)).url, t.url).searchParams.get('token');
    // a SLOT1 launch cannot open FISH1 (the code is spent by the attempt)
    const forFish = await house('/session', { token: await codeOf(), game: 'FISH1' });
    expect([forFish.status, forFish.json?.code]).toEqual([401, 'GAME_TOKEN_INVALID']);
    const code = await codeOf();
    const first = await house<THouseSession>('/session', { token: code, game: 'SLOT1' });
    expect(first.json?.value).toMatchObject({ game: 'SLOT1', balance: 10_000 });
    const second = await house('/session', { token: code, game: 'SLOT1' });
    expect([second.status, second.json?.code]).toEqual([401, 'GAME_TOKEN_INVALID']);
    // the wallet token the house holds is bound to SLOT1 as well
    const vendorToken = (await t.portal.db.query<{ vendor_token: string }>('SELECT vendor_token FROM house_sessions WHERE player_id = $1 AND vendor_token IS NOT NULL', [String(m.memberId)])).rows[0]!.vendor_token;
    const fishBet = await t.portal.house.wallet.bet('DEMO', { transactionId: `house-x${m.memberId}-bet`, playerId: String(m.memberId), roundId: `x${m.memberId}`, gameCode: 'FISH1', amount: 100, token: vendorToken })
      .catch((e: { code?: string }) => e.code);
    expect(fishBet).toBe('GAME_TOKEN_INVALID');
    expect(await balanceOf(m.token)).toBe(10_000);
  });

  it('after logout the game page is logged out: state and spins are refused, no money moves', async () => {
    const m = await member(10_000);
    const u = new URL((await launch(m.token)).url, t.url);
    const opened = await fetch(`${t.url}/house/api/session`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: u.searchParams.get('token'), game: 'SLOT1' }),
    });
    const s = ((await opened.json()) as { value: THouseSession }).value;
    const spun = await house<TSpinResult>('/slot/spin', { stake: 100 }, s.session);
    expect(spun.status).toBe(200);
    const balance = spun.json!.value!.balance;
    expect((await api(t.url, '/wps/session/logout', { method: 'DELETE', token: m.token })).status).toBe(200);
    const spin = await house('/slot/spin', { stake: 100 }, s.session);
    expect([spin.status, spin.json?.code]).toEqual([401, 'GAME_TOKEN_INVALID']);
    expect((await house('/state', {}, s.session)).json?.code).toBe('GAME_TOKEN_INVALID');
    // a reload (the kept cookie) finds the session ended too
    const reload = await fetch(`${t.url}/house/api/state`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: `portal_house=${s.session}` }, body: '{}' });
    expect(reload.status).toBe(401);
    expect((await ledgerBalance(t.portal.db, m.memberId, 'PHP')).available).toBe(balance);
  });

  it('keeps the game session for a reload in an HttpOnly cookie that only the state call receives', async () => {
    const m = await member(10_000);
    const u = new URL((await launch(m.token)).url, t.url);
    const opened = await fetch(`${t.url}/house/api/session`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: u.searchParams.get('token'), game: 'SLOT1' }),
    });
    const session = ((await opened.json()) as { value: THouseSession }).value.session;
    const set = opened.headers.get('set-cookie') ?? '';
    expect(set).toContain(`portal_house=${session}`);
    expect(set).toMatch(/Path=\/house\/api\/state; HttpOnly; SameSite=Strict/);
    const cookie = `portal_house=${session}`;
    const post = (path: string, body: unknown) => fetch(`${t.url}/house/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
    // the state call answers the kept session; a money call never takes the cookie in place of the header
    const state = await post('/state', {});
    expect(state.status).toBe(200);
    expect(((await state.json()) as { value: THouseSession }).value).toMatchObject({ session, balance: 10_000 });
    expect((await post('/slot/spin', { stake: 100 })).status).toBe(401);
    expect(await balanceOf(m.token)).toBe(10_000);
  });

  it('the page of a game restores only a session of that game (another game opened by URL after a launch)', async () => {
    const m = await member(10_000);
    const openGame = async (nodeId: string, game: string) => {
      const u = new URL((await launch(m.token, nodeId)).url, t.url);
      const r = await fetch(`${t.url}/house/api/session`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: u.searchParams.get('token'), game }),
      });
      const cookie = (r.headers.get('set-cookie') ?? '').split(/,(?=\s*portal_house)/).map((c) => c.split(';')[0]!.trim());
      return { session: ((await r.json()) as { value: THouseSession }).value.session, cookie };
    };
    const slot = await openGame('HOUSE-SLOT1', 'SLOT1');
    expect(slot.cookie).toContain(`portal_house_SLOT1=${slot.session}`);
    const fish = await openGame('HOUSE-FISH1', 'FISH1');
    // the browser holds both games' cookies; the generic one is the last game's (FISH1)
    const cookie = [`portal_house=${fish.session}`, `portal_house_SLOT1=${slot.session}`, `portal_house_FISH1=${fish.session}`].join('; ');
    const state = async (body: unknown) => {
      const r = await fetch(`${t.url}/house/api/state`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
      return { status: r.status, json: (await r.json()) as { value?: THouseSession; code?: string } };
    };
    expect((await state({ game: 'SLOT1' })).json.value).toMatchObject({ game: 'SLOT1', session: slot.session, gameName: 'Lucky Peso Reels' });
    expect((await state({ game: 'FISH1' })).json.value).toMatchObject({ game: 'FISH1', session: fish.session });
    // no session of baccarat: none (the page starts one), never the last game's session
    const bacc = await state({ game: 'BACC1' });
    expect([bacc.status, bacc.json.value]).toEqual([200, null]);
    // a session sent for another game is not answered either
    const r = await house<THouseSession | null>('/state', { game: 'SLOT1' }, fish.session);
    expect([r.status, r.json?.value]).toEqual([200, null]);
    // without the game, the old call: no session is a 401
    expect((await fetch(`${t.url}/house/api/state`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
  });

  it('a spin moves the ledger exactly by bet and win through the vendor API, and the round verifies after the seed is revealed', async () => {
    const { m, s } = await open(100_000);
    const results: TSpinResult[] = [];
    let expected = 100_000;
    for (let i = 0; i < 15; i++) {
      const r = await house<TSpinResult>('/slot/spin', { stake: 500 }, s.session);
      expect(r.status).toBe(200);
      const v = r.json!.value!;
      results.push(v);
      expected += v.win - 500;
      expect(v.balance).toBe(expected);
      expect(v.nonce).toBe(i + 1);
      expect(v.serverSeedHash).toBe(s.fair.serverSeedHash);
    }
    expect(await balanceOf(m.token)).toBe(expected);
    const tx = await t.portal.db.query<{ kind: string; amount: number; status: string; round_id: string; transaction_id: string }>(
      `SELECT kind, amount, status, round_id, transaction_id FROM vendor_transactions WHERE vendor = 'HOUSE' AND member_id = $1 ORDER BY created_at`, [m.memberId]);
    expect(tx.rows.filter((r) => r.kind === 'bet')).toHaveLength(15);
    expect(tx.rows.filter((r) => r.kind === 'win')).toHaveLength(15);
    for (const v of results) {
      const rows = tx.rows.filter((r) => r.round_id === v.roundId);
      expect(rows.map((r) => [r.kind, Number(r.amount), r.transaction_id])).toEqual([
        ['bet', 500, `house-${v.roundId}-bet`], ['win', v.win, `house-${v.roundId}-win`],
      ]);
    }
    // Rotate: the old seed is revealed; every round recomputes from it.
    const rot = await house<TRotateSeedValue>('/seed', { clientSeed: 'my-lucky-seed' }, s.session);
    const seed = rot.json!.value!;
    expect(hashSeed(seed.revealedServerSeed)).toBe(s.fair.serverSeedHash);
    expect(seed.rounds).toBe(15);
    expect(seed.fair).toMatchObject({ clientSeed: 'my-lucky-seed', nonce: 0 });
    expect(seed.fair.serverSeedHash).not.toBe(s.fair.serverSeedHash);
    for (const v of results) {
      const again = evaluate(stopsFrom(fairStream(seed.revealedServerSeed, v.clientSeed, v.nonce)));
      expect(again.stops).toEqual(v.stops);
      expect(slotWin(500, again.multiplier)).toBe(v.win);
    }
  });

  it('a refused bet (not enough money) moves nothing and says why', async () => {
    const { m, s } = await open(300);
    const r = await house('/slot/spin', { stake: 500 }, s.session);
    expect(r.status).toBe(409);
    expect(r.json?.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balanceOf(m.token)).toBe(300);
  });

  it('retries a lost answer with the same transaction id: the wallet replays, money moves once', async () => {
    const { m, s } = await open(10_000);
    let lost = 0;
    const flaky: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      // The first answer is lost after the wallet applied the call.
      if (lost++ === 0) throw new TypeError('socket hang up');
      return res;
    };
    const client = createWalletClient(t.portal.db, { fetch: flaky, backoffMs: 5 });
    client.setBaseUrl(t.url);
    const launchToken = (await t.portal.db.query<{ vendor_token: string }>(`SELECT vendor_token FROM house_sessions WHERE player_id = $1`, [String(m.memberId)])).rows[0]!.vendor_token;
    const bet = { transactionId: `house-retry-${m.memberId}-bet`, playerId: String(m.memberId), roundId: `retry-${m.memberId}`, gameCode: 'SLOT1', amount: 1_000, token: launchToken };
    const v = await client.bet('DEMO', bet);
    expect(v).toMatchObject({ balance: 9_000, replayed: true });
    expect(lost).toBe(2);
    expect(await balanceOf(m.token)).toBe(9_000);
    expect(s.balance).toBe(10_000);
  });

  it('a round whose bet never reached the wallet is rolled back; a late bet with its id is refused', async () => {
    const { m, s } = await open(10_000);
    const down = createWalletClient(t.portal.db, { fetch: async () => { throw new TypeError('ECONNREFUSED'); }, retries: 1, backoffMs: 1 });
    down.setBaseUrl(t.url);
    await expect(down.bet('DEMO', { transactionId: 'house-x-bet', playerId: String(m.memberId), roundId: 'x', gameCode: 'SLOT1', amount: 100, token: 'y'.repeat(43) }))
      .rejects.toThrow(/failed after 2 attempts/);
    // The sweep: an open round without an accepted bet is rolled back through the wallet.
    const roundId = `S-sweep-${m.memberId}`;
    await t.portal.db.query(
      `INSERT INTO house_rounds (round_id, merchant_code, session_hash, player_id, game_code, free_play, stake, server_seed_hash, client_seed, nonce, outcome, status, created_at)
       VALUES ($1, 'DEMO', '\\x00', $2, 'SLOT1', false, 100, 'h', 'c', 1, '{"win":0}', 'open', now() - interval '1 hour')`, [roundId, String(m.memberId)]);
    expect(await t.portal.house.house.sweep()).toBeGreaterThanOrEqual(1);
    const st = await t.portal.db.query<{ status: string }>('SELECT status FROM house_rounds WHERE round_id = $1', [roundId]);
    expect(st.rows[0]!.status).toBe('rolled_back');
    const launchToken = (await t.portal.db.query<{ vendor_token: string }>(`SELECT vendor_token FROM house_sessions WHERE player_id = $1`, [String(m.memberId)])).rows[0]!.vendor_token;
    const late = await t.portal.house.wallet.bet('DEMO', { transactionId: `house-${roundId}-bet`, playerId: String(m.memberId), roundId, gameCode: 'SLOT1', amount: 100, token: launchToken })
      .catch((e: { code?: string }) => e.code);
    expect(late).toBe('BET_ROLLED_BACK');
    expect(await balanceOf(m.token)).toBe(10_000);
    expect(s.freePlay).toBe(false);
  });

  it('a big win goes to the winner board and reaches the home page socket live', async () => {
    const { m, s } = await open(100_000);
    await t.portal.db.query(`UPDATE members SET nickname = 'Juanito' WHERE id = $1`, [m.memberId]);
    // A seed pair whose first round pays 285 line bets (28.5 x stake).
    await t.portal.db.query(`UPDATE house_sessions SET server_seed = $1, client_seed = 'big387', nonce = 0, nickname = 'Juanito' WHERE player_id = $2`, ['f'.repeat(64), String(m.memberId)]);
    const guest = await connectSocket(t.url, { merchant: 'DEMO' });
    const r = await house<TSpinResult>('/slot/spin', { stake: 100 }, s.session);
    expect(r.json!.value).toMatchObject({ win: 2_850, bigWin: true });
    const ev = await waitFor(() => guest.received.find((e) => e.type === 'winner.posted' && (e.payload as { winAmount: number }).winAmount === 2_850), 'winner.posted');
    expect(ev.payload).toMatchObject({ customerName: 'J****o', gameName: 'Lucky Peso Reels', winAmount: 2_850 });
    const board = await t.portal.db.query<{ customer_name: string }>(`SELECT customer_name FROM winners WHERE merchant_code = 'DEMO' ORDER BY id DESC LIMIT 1`);
    expect(board.rows[0]!.customer_name).toBe('J****o');
    guest.disconnect();
  });

  it('a big win the recovery sweep settles (its win was not delivered live) also goes to the winner board, once', async () => {
    const { m, s } = await open(100_000);
    await t.portal.db.query(`UPDATE house_sessions SET nickname = 'Marites' WHERE player_id = $1`, [String(m.memberId)]);
    const session = (await t.portal.db.query<{ token_hash: Buffer; vendor_token: string }>('SELECT token_hash, vendor_token FROM house_sessions WHERE player_id = $1', [String(m.memberId)])).rows[0]!;
    // A round whose bet the wallet accepted but whose win never arrived (the node died in between).
    const roundId = `S-late-${m.memberId}`;
    await t.portal.house.wallet.bet('DEMO', { transactionId: `house-${roundId}-bet`, playerId: String(m.memberId), roundId, gameCode: 'SLOT1', amount: 100, token: session.vendor_token });
    await t.portal.db.query(
      `INSERT INTO house_rounds (round_id, merchant_code, session_hash, player_id, game_code, free_play, stake, server_seed_hash, client_seed, nonce, outcome, bet_ok, status, created_at)
       VALUES ($1, 'DEMO', $2, $3, 'SLOT1', false, 100, 'h', 'c', 1, '{"win":7300}', true, 'open', now() - interval '1 hour')`, [roundId, session.token_hash, String(m.memberId)]);
    const guest = await connectSocket(t.url, { merchant: 'DEMO' });
    expect(await t.portal.house.house.sweep()).toBeGreaterThanOrEqual(1);
    const ev = await waitFor(() => guest.received.find((e) => e.type === 'winner.posted' && (e.payload as { winAmount: number }).winAmount === 7_300), 'winner.posted');
    expect(ev.payload).toMatchObject({ customerName: 'M****s', winAmount: 7_300 });
    expect(await balanceOf(m.token)).toBe(100_000 - 100 + 7_300);
    // a second sweep (or a late live settle) posts nothing more
    await t.portal.house.house.sweep(0);
    const posted = await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM winners WHERE merchant_code = 'DEMO' AND win_amount = 7300 AND customer_name = 'M****s'`);
    expect(posted.rows[0]!.n).toBe(1);
    expect(s.freePlay).toBe(false);
    guest.disconnect();
  });

  it('the betting record lists each round with game, stake, win and time; filters by range and vendor; TRANSBETREPMEM3 gates it', async () => {
    const { m, s } = await open(50_000);
    const spins: TSpinResult[] = [];
    for (let i = 0; i < 3; i++) spins.push((await house<TSpinResult>('/slot/spin', { stake: 1_000 }, s.session)).json!.value!);
    type Bets = { list: Array<{ roundId: string; gameName: string; gameType: string; stake: number; win: number; status: string; time: string }>; total: number; totalStake: number; totalWin: number };
    const r = await api<Bets>(t.url, '/wps/v2/bets?pageSize=2', { token: m.token });
    expect(r.status).toBe(200);
    const v = r.json!.value!;
    expect(v.total).toBe(3);
    expect(v.list).toHaveLength(2);
    expect(v.totalStake).toBe(3_000);
    expect(v.totalWin).toBe(spins.reduce((a, x) => a + x.win, 0));
    expect(v.list[0]).toMatchObject({ roundId: spins[2]!.roundId, gameName: 'Lucky Peso Reels', gameType: 'RNG', stake: 1_000, win: spins[2]!.win, status: 'settled' });
    const page2 = (await api<Bets>(t.url, '/wps/v2/bets?pageSize=2&pageNo=2&vendor=HOUSE', { token: m.token })).json!.value!;
    expect(page2.list.map((b) => b.roundId)).toEqual([spins[0]!.roundId]);
    expect((await api<Bets>(t.url, '/wps/v2/bets?vendor=OTHER', { token: m.token })).json!.value!.total).toBe(0);
    expect((await api<Bets>(t.url, '/wps/v2/bets?from=2020-01-01&to=2020-01-07', { token: m.token })).json!.value!.total).toBe(0);
    expect((await api(t.url, '/wps/v2/bets')).status).toBe(401);
    expect((await api(t.url, '/wps/v2/bets?from=yesterday', { token: m.token })).status).toBe(400);
    await api(t.url, '/wps/dev/merchant', { body: { modules: { TRANSBETREPMEM3: false } } });
    const off = await api(t.url, '/wps/v2/bets', { token: m.token });
    expect(off.status).toBe(403);
    expect(off.json?.code).toBe('MODULE_DISABLED');
    await api(t.url, '/wps/dev/merchant', { body: { modules: { TRANSBETREPMEM3: true } } });
  });

  it('free play (FREEPLAY3): trial users and guests play with play money; the ledger is never touched', async () => {
    const trial = (await api<{ token: string }>(t.url, '/wps/session/login/freeplay', { body: {} })).json!.value!;
    const l = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: 'HOUSE-SLOT1', freePlay: true }, token: trial.token });
    expect(l.json!.value!.url).toBe('/house/play?game=SLOT1&mode=free');
    expect((await api(t.url, '/wps/game/launchGame', { body: { nodeId: 'HOUSE-SLOT1' }, token: trial.token })).json?.code).toBe('TRIAL_FORBIDDEN');
    const movesBefore = (await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_transfers')).rows[0]!.n;
    const vtBefore = (await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM vendor_transactions')).rows[0]!.n;
    const s = (await house<THouseSession>('/freeplay', { game: 'SLOT1' })).json!.value!;
    expect(s).toMatchObject({ freePlay: true, balance: 200_000, nickname: 'Guest' });
    let balance = 200_000;
    for (let i = 0; i < 10; i++) {
      const r = (await house<TSpinResult>('/slot/spin', { stake: 10_000 }, s.session)).json!.value!;
      balance += r.win - 10_000;
      expect(r.balance).toBe(balance);
      expect(r.bigWin).toBe(false);
    }
    expect((await house<THouseSession>('/state', {}, s.session)).json!.value!.balance).toBe(balance);
    expect((await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_transfers')).rows[0]!.n).toBe(movesBefore);
    expect((await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM vendor_transactions')).rows[0]!.n).toBe(vtBefore);
    await api(t.url, '/wps/dev/merchant', { body: { modules: { FREEPLAY3: false } } });
    expect((await house('/freeplay', { game: 'SLOT1' })).json?.code).toBe('MODULE_DISABLED');
    // A trial session is no session while free play is off (trial-access.test): its launch is a 401.
    expect((await api(t.url, '/wps/game/launchGame', { body: { nodeId: 'HOUSE-SLOT1', freePlay: true }, token: trial.token })).json?.code).toBe('UNAUTHORIZED');
    await api(t.url, '/wps/dev/merchant', { body: { modules: { FREEPLAY3: true } } });
  });

  it('a house game in maintenance, its own or its provider\'s, opens for no one and plays no round, play money included', async () => {
    const free = (await house<THouseSession>('/freeplay', { game: 'SLOT1' })).json!.value!;
    const setGame = (on: boolean) => t.portal.db.query(`UPDATE games SET maintenance = $1 WHERE merchant_code = 'DEMO' AND node_id = 'HOUSE-SLOT1'`, [on]);
    const setProvider = async (on: boolean) => {
      const r = await t.portal.db.query(
        `UPDATE vendors SET maintenance = $1 WHERE merchant_code = 'DEMO' AND vassalage = 'HOUSE'
           AND game_type = (SELECT game_type FROM games WHERE merchant_code = 'DEMO' AND node_id = 'HOUSE-SLOT1')`, [on]);
      expect(r.rowCount).toBe(1);
    };
    for (const [what, set] of [['game', setGame], ['provider', setProvider]] as const) {
      await set(true);
      try {
        expect((await house('/freeplay', { game: 'SLOT1' })).json?.code, what).toBe('GAME_MAINTENANCE');
        expect((await house('/slot/spin', { stake: 10_000 }, free.session)).json?.code, what).toBe('GAME_MAINTENANCE');
      } finally {
        await set(false);
      }
    }
    expect((await house('/slot/spin', { stake: 10_000 }, free.session)).status).toBe(200);
  });

  it('Lucky Fishing: each shot is a round through the wallet; a catch pays its multiple; the shot verifies from the revealed seed', async () => {
    const m = await member(20_000);
    const l = await launch(m.token, 'HOUSE-FISH1');
    const u = new URL(l.url, t.url);
    const s = (await house<THouseSession>('/session', { token: u.searchParams.get('token'), game: 'FISH1' })).json!.value!;
    expect(s).toMatchObject({ game: 'FISH1', gameName: 'Lucky Fishing', rtp: 0.96, stakes: [100, 500, 1_000, 5_000] });
    let expected = 20_000;
    const shots: TShootResult[] = [];
    for (let i = 0; i < 12; i++) {
      const r = (await house<TShootResult>('/fish/shoot', { fish: 'clown', stake: 100 }, s.session)).json!.value!;
      expected += r.win - 100;
      expect(r.win).toBe(r.caught ? 200 : 0);
      expect(r.balance).toBe(expected);
      shots.push(r);
    }
    expect(await balanceOf(m.token)).toBe(expected);
    expect((await house('/slot/spin', { stake: 100 }, s.session)).json?.code).toBe('INVALID_STATE');
    const seed = (await house<TRotateSeedValue>('/seed', {}, s.session)).json!.value!;
    for (const r of shots) expect(shootFish('clown', fairStream(seed.revealedServerSeed, r.clientSeed, r.nonce)).caught).toBe(r.caught);
  });
});
