import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { api, startTestPortal, type TestPortal } from '../testing/test-portal.ts';
import { checkLedger, transfer } from '../modules/wallet/ledger.ts';
import { ensureSimulatedVendors } from '../modules/provider/sim-vendors.ts';
import { createSimServer, SIM_SESSION_HEADER, simSessionCookie } from './server.ts';
import { simVendorSecret } from './secrets.ts';
import { SimWalletRefused } from './sim-wallet.ts';
import { stakesOf } from './sim-games.ts';

/**
 * The vendor simulator against a running portal, over HTTP both ways: the portal's launch URL opens
 * the simulator's page, the simulator trades the launch code and moves money only through the signed
 * vendor API, and the portal accepts or refuses its calls by the vendor API's rules.
 */
let t: TestPortal;
let sim: ReturnType<typeof createSimServer>;
let simUrl: string;
const master = randomBytes(32).toString('hex');
let seq = 0;

beforeAll(async () => {
  t = await startTestPortal();
  sim = createSimServer({ walletUrl: t.url, masterSecret: master, portalUrl: t.url, log: { warn: () => undefined } });
  simUrl = `http://127.0.0.1:${await sim.listen(0)}`;
  expect(await ensureSimulatedVendors(t.portal.db, t.portal.merchants, { url: simUrl, secret: master })).toBeGreaterThan(0);
});
afterAll(async () => {
  expect(await checkLedger(t.portal.db)).toEqual([]);
  await sim?.close();
  await t?.stop();
});

async function member(deposit: number) {
  const s = (await api<{ memberId: number; token: string }>(t.url, '/wps/dev/sessions', { body: { account: `vs${Date.now() % 1e7}${++seq}` } })).json!.value!;
  if (deposit) {
    await t.portal.db.tx((tx) => transfer(tx, {
      merchant: 'DEMO', currency: 'PHP', key: `seed-${randomBytes(6).toString('hex')}`, kind: 'deposit', amount: deposit, debit: { system: 'deposit' }, credit: { member: s.memberId },
    }));
  }
  return s;
}
async function gameOf(type: string) {
  return (await t.portal.db.query<{ node_id: string; vassalage: string; game_code: string }>(
    `SELECT node_id, vassalage, game_code FROM games WHERE merchant_code = 'DEMO' AND game_type = $1 AND vassalage <> 'HOUSE' AND is_game = 'GAME' ORDER BY id LIMIT 1`, [type])).rows[0]!;
}
const simApi = async <T>(path: string, body: unknown, session?: string) => {
  const r = await fetch(`${simUrl}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(session ? { [SIM_SESSION_HEADER]: session } : {}) }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as { success: boolean; code?: string; value?: T } };
};
type View = { session: string; balance: number; free: boolean; stakes: number[] };
type Played = { balance: number; round: { roundId: string; stake: number; win: number; bigWin: boolean } };
const balanceOf = async (token: string) => (await api<{ available: number }>(t.url, '/wps/v2/wallets/balance', { token })).json!.value!.available;

async function launchAndOpen(token: string, type: string) {
  const g = await gameOf(type);
  const l = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: g.node_id }, token });
  expect(l.status).toBe(200);
  const u = new URL(l.json!.value!.url);
  expect(u.origin).toBe(simUrl);
  expect(u.pathname).toBe('/play');
  expect(u.searchParams.get('type')).toBe(type);
  const p = Object.fromEntries(u.searchParams);
  const open = await simApi<View>('/open', { token: p.token, game: p.game, vendor: p.vendor, operator: p.operator, type: p.type, name: p.name });
  return { g, p, open };
}

describe('vendor simulator against the portal', () => {
  it('a slot round is a signed bet and win on the ledger, in the betting records', async () => {
    const m = await member(100_000);
    const { g, open } = await launchAndOpen(m.token, 'RNG');
    expect(open.status).toBe(200);
    expect(open.json.value!.balance).toBe(100_000);
    const r = await simApi<Played>('/play', { stake: 1_000 }, open.json.value!.session);
    expect(r.status).toBe(200);
    const { round, balance } = r.json.value!;
    expect(balance).toBe(100_000 - 1_000 + round.win);
    expect(await balanceOf(m.token)).toBe(balance);
    // The account record names the round (as the betting record does), not the vendor's transaction ids.
    const recs = (await api<{ list: Array<{ kind: string; reference: string }> }>(t.url, '/wps/v2/wallets/records', { token: m.token })).json!.value!.list;
    expect(recs.filter((x) => x.kind === 'bet').map((x) => x.reference)).toEqual([round.roundId]);
    const rows = (await t.portal.db.query<{ kind: string; amount: string }>(
      `SELECT kind, amount FROM vendor_transactions WHERE vendor = $1 AND round_id = $2 ORDER BY kind`, [g.vassalage, round.roundId])).rows;
    expect(rows.map((x) => [x.kind, Number(x.amount)])).toEqual([['bet', 1_000], ['win', round.win]]);
    const bets = await api<{ list: { roundId: string; vendor: string }[] }>(t.url, `/wps/v2/bets?vendor=${g.vassalage}`, { token: m.token });
    expect(JSON.stringify(bets.json)).toContain(round.roundId);
  });

  it('every game type of the catalogue opens at the simulator (lottery, sports, e-sports and cockfight too)', async () => {
    const m = await member(10_000);
    for (const type of ['RNG', 'FISH', 'LIVE', 'PVP', 'LOTT', 'ELOTT', 'SPORTS', 'ESPORTS', 'COCKFIGHT']) {
      const { open } = await launchAndOpen(m.token, type);
      expect(open.status, type).toBe(200);
      expect(open.json.value, type).toMatchObject({ balance: 10_000, free: false });
    }
  });

  it('a lottery ticket is a signed bet and its draw a win on the ledger; a ticket that is not one of the game is refused with nothing moved', async () => {
    const m = await member(100_000);
    const { g, open } = await launchAndOpen(m.token, 'LOTT');
    type Lottery = { kind: string; digits?: number; pick?: number; of?: number; prizes?: { match: number; pays: number }[] };
    const view = open.json.value as unknown as View & { lottery: Lottery; rtp: number };
    expect(['digits', 'lotto']).toContain(view.lottery.kind);
    expect(view.rtp).toBeLessThan(1);
    const n = view.lottery.kind === 'digits' ? view.lottery.digits! : view.lottery.pick!;
    const pick = Array.from({ length: n }, (_, i) => (view.lottery.kind === 'digits' ? i % 10 : i + 1));
    const before = (await t.portal.db.query<{ n: string }>('SELECT count(*) AS n FROM vendor_transactions')).rows[0]!.n;
    const bad = await simApi('/play', { stake: 100, pick: pick.slice(1) }, view.session);
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('VALIDATION');
    expect((await t.portal.db.query<{ n: string }>('SELECT count(*) AS n FROM vendor_transactions')).rows[0]!.n).toBe(before);
    const r = await simApi<Played & { outcome: { drawn: number[]; matched: number; pays: number } }>('/play', { stake: 500, pick }, view.session);
    expect(r.status).toBe(200);
    const { round, outcome, balance } = r.json.value!;
    expect(round.win).toBe(Math.floor((500 * outcome.pays) / 100));
    expect(outcome.drawn.length).toBeGreaterThan(0);
    expect(balance).toBe(100_000 - 500 + round.win);
    expect(await balanceOf(m.token)).toBe(balance);
    const rows = (await t.portal.db.query<{ kind: string; amount: string }>(
      `SELECT kind, amount FROM vendor_transactions WHERE vendor = $1 AND round_id = $2 ORDER BY kind`, [g.vassalage, round.roundId])).rows;
    expect(rows.map((x) => [x.kind, Number(x.amount)])).toEqual([['bet', 500], ['win', round.win]]);
  });

  it('a match is bet on the odds shown before the bet; the next match comes with the answer', async () => {
    const m = await member(100_000);
    type Fx = { home: string; away: string; odds: { home: number; draw: number | null; away: number } };
    for (const type of ['SPORTS', 'ESPORTS', 'COCKFIGHT']) {
      const { open } = await launchAndOpen(m.token, type);
      const shown = (open.json.value as unknown as { fixture: Fx }).fixture;
      expect(shown.home, type).not.toBe(shown.away);
      if (type === 'ESPORTS') {
        // No draw to bet on in a best-of-three.
        expect(shown.odds.draw).toBeNull();
        expect((await simApi('/play', { stake: 100, side: 'draw' }, open.json.value!.session)).json.code).toBe('VALIDATION');
      }
      if (type === 'COCKFIGHT') expect(shown.odds.draw).toBe(900);
      const r = await simApi<Played & { outcome: { fixture: Fx; result: string }; fixture: Fx }>('/play', { stake: 1_000, side: 'home' }, open.json.value!.session);
      expect(r.status, type).toBe(200);
      const { round, outcome, fixture } = r.json.value!;
      expect(outcome.fixture).toEqual(shown);
      const expected = outcome.result === 'home' ? Math.floor((1_000 * shown.odds.home) / 100) : type === 'COCKFIGHT' && outcome.result === 'draw' ? 1_000 : 0;
      expect(round.win, type).toBe(expected);
      expect(fixture).not.toEqual(shown);
    }
    expect(await balanceOf(m.token)).toBeGreaterThanOrEqual(0);
  });

  it('the launch code is traded once: a second open is refused (GAME_TOKEN_INVALID)', async () => {
    const m = await member(10_000);
    const { p } = await launchAndOpen(m.token, 'FISH');
    const again = await simApi('/open', { token: p.token, game: p.game, vendor: p.vendor, operator: p.operator, type: p.type, name: p.name });
    expect(again.status).toBe(401);
    expect(again.json.code).toBe('GAME_TOKEN_INVALID');
  });

  it('a reload takes the session up again from its HttpOnly cookie (per game); without it the page is told the session ended', async () => {
    const m = await member(10_000);
    const g = await gameOf('RNG');
    const l = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: g.node_id }, token: m.token });
    const p = Object.fromEntries(new URL(l.json!.value!.url).searchParams);
    const r = await fetch(`${simUrl}/api/open`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: p.token, game: p.game, vendor: p.vendor, operator: p.operator, type: p.type, name: p.name }) });
    const opened = ((await r.json()) as { value: View }).value;
    const setCookie = r.headers.get('set-cookie') ?? '';
    const name = simSessionCookie(p.vendor!, p.game!);
    expect(setCookie).toContain(`${name}=${opened.session}`);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\/api/);
    const resume = async (body: unknown, cookie?: string) => {
      const x = await fetch(`${simUrl}/api/resume`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
      return { status: x.status, json: (await x.json()) as { code?: string; value?: View } };
    };
    const played = await simApi<Played>('/play', { stake: 1_000 }, opened.session);
    const back = await resume({ game: p.game, vendor: p.vendor }, `other=1; ${name}=${opened.session}`);
    expect(back.status).toBe(200);
    expect(back.json.value).toMatchObject({ session: opened.session, balance: played.json.value!.balance, free: false });
    // No cookie, another game's, or a made-up session: ended, no 500.
    for (const [body, cookie] of [
      [{ game: p.game, vendor: p.vendor }, undefined],
      [{ game: 'OTHER1', vendor: p.vendor }, `${simSessionCookie(p.vendor!, 'OTHER1')}=${opened.session}`],
      [{ game: p.game, vendor: p.vendor }, `${name}=nope`],
    ] as const) {
      const x = await resume(body, cookie);
      expect([x.status, x.json.code]).toEqual([401, 'GAME_TOKEN_INVALID']);
    }
    expect((await resume({ game: '../x' }, undefined)).status).toBe(400);
  });

  it('a bet over the balance is refused by the wallet (INSUFFICIENT_FUNDS) and no money moves', async () => {
    const m = await member(500);
    const { open } = await launchAndOpen(m.token, 'LIVE');
    const r = await simApi('/play', { stake: 1_000, side: 'player' }, open.json.value!.session);
    expect(r.json.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balanceOf(m.token)).toBe(500);
  });

  it('after the player logs out of the portal the game session is refused (GAME_TOKEN_INVALID)', async () => {
    const m = await member(10_000);
    const { open } = await launchAndOpen(m.token, 'PVP');
    expect((await simApi('/play', { stake: 100 }, open.json.value!.session)).status).toBe(200);
    expect((await api(t.url, '/wps/session/logout', { method: 'DELETE', token: m.token })).status).toBe(200);
    const r = await simApi('/play', { stake: 100 }, open.json.value!.session);
    expect(r.json.code).toBe('GAME_TOKEN_INVALID');
  });

  it("one vendor's secret does not sign for another vendor: the portal refuses (SIGNATURE_INVALID)", async () => {
    const { createSimWallet } = await import('./sim-wallet.ts');
    const w = createSimWallet({ walletUrl: t.url, masterSecret: master, retries: 0 });
    const [a, b] = (await t.portal.db.query<{ vendor: string }>(`SELECT vendor FROM vendor_accounts WHERE merchant_code = 'DEMO' AND simulated ORDER BY vendor LIMIT 2`)).rows;
    const err = await w.call('DEMO', b!.vendor, 'balance', { playerId: '1' }, simVendorSecret(master, 'DEMO', a!.vendor)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SimWalletRefused);
    expect((err as SimWalletRefused).code).toBe('SIGNATURE_INVALID');
    const wrongMaster = createSimWallet({ walletUrl: t.url, masterSecret: randomBytes(32).toString('hex'), retries: 0 });
    expect(((await wrongMaster.balance('DEMO', a!.vendor, '1', 'x').catch((e: unknown) => e)) as SimWalletRefused).code).toBe('SIGNATURE_INVALID');
  });

  it('a big win of an outside vendor goes to the winner board (fish: the shark pays 30x, shot until caught)', async () => {
    const m = await member(100_000);
    const { open } = await launchAndOpen(m.token, 'FISH');
    let won: Played | null = null;
    // A catch has probability 0.96 / 30 per shot: 400 shots all missing is about 2 in a million.
    for (let i = 0; i < 400 && !won; i++) {
      const r = await simApi<Played>('/play', { stake: 100, fish: 'shark' }, open.json.value!.session);
      expect(r.status).toBe(200);
      if (r.json.value!.round.win > 0) won = r.json.value!;
    }
    expect(won?.round).toMatchObject({ win: 3_000, bigWin: true });
    const board = await api<{ list: { winAmount: number; gameName: string }[] }>(t.url, '/wps/relay/GCSGAME_getRankList?limitNum=5');
    expect(board.json!.value!.list[0]).toMatchObject({ winAmount: 3_000 });
  });

  it("offers no stake below the game's minimum bet in the catalogue (a table listed from ₱20 took ₱1)", async () => {
    const g = await gameOf('LIVE');
    await t.portal.db.query(`UPDATE games SET min_bet = 2000 WHERE merchant_code = 'DEMO' AND node_id = $1`, [g.node_id]);
    try {
      const m = await member(100_000);
      const l = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: g.node_id }, token: m.token });
      const p = Object.fromEntries(new URL(l.json!.value!.url).searchParams);
      expect(p.minBet).toBe('2000');
      // as the game page sends it
      const open = await simApi<View>('/open', { token: p.token, game: p.game, vendor: p.vendor, operator: p.operator, type: p.type, name: p.name, minBet: Number(p.minBet) });
      expect(open.json.value!.stakes).toEqual([2_000, 5_000, 10_000]);
      const low = await simApi<Played>('/play', { stake: 1_000, side: 'banker' }, open.json.value!.session);
      expect([low.status, low.json.code]).toEqual([400, 'VALIDATION']);
      expect(await balanceOf(m.token)).toBe(100_000);
      const ok = await simApi<Played>('/play', { stake: 2_000, side: 'banker' }, open.json.value!.session);
      expect(ok.status).toBe(200);
      // a minimum above every stake is the one stake offered; one of the stakes is not offered twice
      expect(stakesOf('LIVE', 'PHP', 20_000)).toEqual([20_000]);
      expect(stakesOf('LIVE', 'PHP', 5_000)).toEqual([5_000, 10_000]);
      expect(stakesOf('RNG', 'PHP')).toEqual(stakesOf('RNG', 'PHP', 0));
    } finally {
      await t.portal.db.query(`UPDATE games SET min_bet = NULL WHERE merchant_code = 'DEMO' AND node_id = $1`, [g.node_id]);
    }
  });

  it("a slot listed from ₱0.20 settles every round at that stake (a win of no whole centavo was refused and the round left open, the stake taken)", async () => {
    const g = await gameOf('RNG');
    await t.portal.db.query(`UPDATE games SET min_bet = 20 WHERE merchant_code = 'DEMO' AND node_id = $1`, [g.node_id]);
    try {
      const m = await member(10_000);
      const l = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: g.node_id }, token: m.token });
      const p = Object.fromEntries(new URL(l.json!.value!.url).searchParams);
      const open = await simApi<View>('/open', { token: p.token, game: p.game, vendor: p.vendor, operator: p.operator, type: p.type, name: p.name, minBet: Number(p.minBet) });
      expect(open.json.value!.stakes[0]).toBe(20);
      let balance = 10_000;
      for (let i = 0; i < 40; i++) {
        const r = await simApi<Played>('/play', { stake: 20 }, open.json.value!.session);
        expect(r.status, JSON.stringify(r.json)).toBe(200);
        expect(Number.isInteger(r.json.value!.round.win)).toBe(true);
        balance = balance - 20 + r.json.value!.round.win;
        expect(r.json.value!.balance).toBe(balance);
      }
      expect(await balanceOf(m.token)).toBe(balance);
      const open_ = (await t.portal.db.query<{ n: string }>(
        `SELECT count(*) AS n FROM vendor_transactions b WHERE b.vendor = $1 AND b.kind = 'bet' AND b.member_id = $2
           AND NOT EXISTS (SELECT 1 FROM vendor_transactions w WHERE w.vendor = b.vendor AND w.round_id = b.round_id AND w.kind = 'win' AND w.status = 'applied')`, [g.vassalage, m.memberId])).rows[0]!.n;
      expect(Number(open_)).toBe(0);
    } finally {
      await t.portal.db.query(`UPDATE games SET min_bet = NULL WHERE merchant_code = 'DEMO' AND node_id = $1`, [g.node_id]);
    }
  });

  it('free play moves play money only: the ledger is not touched', async () => {
    const g = await gameOf('RNG');
    const l = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: g.node_id, freePlay: true }, token: (await member(0)).token });
    const u = new URL(l.json!.value!.url);
    expect(u.searchParams.get('mode')).toBe('free');
    expect(u.searchParams.has('token')).toBe(false);
    const before = (await t.portal.db.query<{ n: string }>('SELECT count(*) AS n FROM vendor_transactions')).rows[0]!.n;
    const p = Object.fromEntries(u.searchParams);
    const open = await simApi<View>('/free', { game: p.game, vendor: p.vendor, operator: p.operator, type: p.type, name: p.name });
    const r = await simApi<Played>('/play', { stake: 100 }, open.json.value!.session);
    expect(r.json.value!.balance).toBe(200_000 - 100 + r.json.value!.round.win);
    expect((await t.portal.db.query<{ n: string }>('SELECT count(*) AS n FROM vendor_transactions')).rows[0]!.n).toBe(before);
  });

  it("the back link (lobbyUrl) is the portal host the player is on when the merchant owns it, else the main domain", async () => {
    const g = await gameOf('RNG');
    const { token } = await member(0);
    const port = new URL(t.url).port;
    const lobbyFor = async (host?: string, freePlay = false) => {
      const l = await api<{ url: string }>(t.url, '/wps/game/launchGame', { body: { nodeId: g.node_id, ...(freePlay ? { freePlay } : {}) }, token, ...(host ? { headers: { host } } : {}) });
      expect(l.status, host).toBe(200);
      return new URL(l.json!.value!.url).searchParams.get('lobbyUrl');
    };
    const demo = (await t.portal.merchants.byCode('DEMO'))!;
    expect(demo.domains).not.toContain('play.lucky.test');
    // Development: the loopback origin the player used (127.0.0.1 or localhost, not PORTAL_URL's).
    expect(await lobbyFor()).toBe(`${t.url}/`);
    expect(await lobbyFor(`localhost:${port}`)).toBe(`http://localhost:${port}/`);
    expect(await lobbyFor(`127.0.0.1:${port}`, true)).toBe(`http://127.0.0.1:${port}/`);
    // A host the merchant does not own (it reached the default merchant): the configured main domain.
    expect(await lobbyFor('evil.example')).toBe(`https://${demo.mainDomain}/`);
    // One of the merchant's own domains: that host, as the player typed it.
    await t.portal.db.query(`UPDATE merchants SET domains = domains || '{play.lucky.test}'::text[] WHERE code = 'DEMO'`);
    t.portal.merchants.invalidate();
    try {
      expect(await lobbyFor('play.lucky.test:8443')).toBe('http://play.lucky.test:8443/');
    } finally {
      await t.portal.db.query(`UPDATE merchants SET domains = array_remove(domains, 'play.lucky.test') WHERE code = 'DEMO'`);
      t.portal.merchants.invalidate();
    }
    // The simulator's page links there; a lobbyUrl that is not an http(s) URL falls back to its PORTAL_URL.
    const page = async (lobbyUrl: string) => /data-lobby="([^"]*)"/.exec(await (await fetch(`${simUrl}/play?${new URLSearchParams({ lobbyUrl })}`)).text())![1];
    expect(await page(`http://localhost:${port}/`)).toBe(`http://localhost:${port}/`);
    expect(await page('javascript:alert(1)')).toBe(`${t.url}/`);
    expect(await page('https://user:pw@evil.example/')).toBe(`${t.url}/`);
  });

  it('never takes over a vendor connected for real, and switches its own rows off when not configured', async () => {
    await t.portal.db.query(`UPDATE vendor_accounts SET simulated = false, secret = 'real-secret', launch_url = 'https://real.example/play' WHERE merchant_code = 'DEMO' AND vendor = 'PCK'`);
    await ensureSimulatedVendors(t.portal.db, t.portal.merchants, { url: simUrl, secret: master });
    const real = (await t.portal.db.query<{ secret: string; launch_url: string }>(`SELECT secret, launch_url FROM vendor_accounts WHERE merchant_code = 'DEMO' AND vendor = 'PCK'`)).rows[0]!;
    expect(real).toEqual({ secret: 'real-secret', launch_url: 'https://real.example/play' });
    await ensureSimulatedVendors(t.portal.db, t.portal.merchants, null);
    const n = (await t.portal.db.query<{ n: string }>('SELECT count(*) AS n FROM vendor_accounts WHERE simulated AND active')).rows[0]!.n;
    expect(Number(n)).toBe(0);
    const g = await gameOf('FISH');
    const l = await api(t.url, '/wps/game/launchGame', { body: { nodeId: g.node_id }, token: (await member(0)).token });
    expect(l.json!.code).toBe('NOT_AVAILABLE');
    await ensureSimulatedVendors(t.portal.db, t.portal.merchants, { url: simUrl, secret: master });
  });
});
