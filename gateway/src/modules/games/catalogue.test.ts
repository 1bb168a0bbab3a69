import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ZFavoriteChangeValue, ZFavoriteListValue, ZGameListValue, ZRecentGamesValue, ZVassGameTypeValue,
  type TFavoriteChangeValue, type TGameListValue, type TVassGameTypeValue,
} from '@portal/contracts/api/games';
import { api, connectSocket, startTestPortal, waitFor, type TestPortal } from '../../testing/test-portal.ts';
import { freshDatabase, requireEnv } from '../../testing/fresh-database.ts';
import { createPgDb, createPgliteDb } from '../../db/db.ts';
import { migrate } from '../../db/migrate.ts';
import { seedDemo } from '../../db/seed.ts';
import { runImport } from '../../cli/catalogue-import.ts';
import { formatProgress, importCatalogue, loadCatalogue } from './catalogue.ts';
import { connectCatalogueVendors } from '../../testing/catalogue-vendors.ts';

const LIST = '/wps/relay/GCSGAME_gameList';
let t: TestPortal;
let token: string;
let seq = 0;

async function session(headers: Record<string, string> = {}) {
  const r = await api<{ memberId: number; token: string }>(t.url, '/wps/dev/sessions', { body: { account: `cat${Date.now() % 1e7}${++seq}` }, headers });
  expect(r.status).toBe(200);
  return r.json!.value!;
}
async function list(qs: string, tok = token) {
  const r = await api<TGameListValue>(t.url, `${LIST}?${qs}`, { token: tok });
  expect(r.status, r.text).toBe(200);
  return ZGameListValue.parse(r.json!.value);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await startTestPortal({ SEED_CATALOGUE: 'full' });
  // The catalogue's providers connected as npm start connects them: players see connected providers' games only.
  await connectCatalogueVendors(t);
  token = (await session()).token;
});
afterAll(async () => {
  await t?.stop();
});

describe('catalogue seed', () => {
  it('holds at least 10,000 games over every product line, house games kept', async () => {
    const r = await t.portal.db.query<{ game_type: string; n: number }>(
      `SELECT game_type, count(*)::int AS n FROM games WHERE merchant_code = 'DEMO' GROUP BY game_type`);
    const by = Object.fromEntries(r.rows.map((x) => [x.game_type, Number(x.n)]));
    expect(Object.values(by).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(10_000);
    expect(by.RNG).toBeGreaterThanOrEqual(10_000);
    for (const type of ['SPORTS', 'ESPORTS', 'LIVE', 'LOTT', 'ELOTT', 'FISH', 'PVP', 'COCKFIGHT']) expect(by[type], type).toBeGreaterThan(0);
    const vendors = (await t.portal.db.query<{ vassalage: string }>(`SELECT DISTINCT vassalage FROM vendors WHERE merchant_code = 'DEMO'`)).rows.map((v) => v.vassalage);
    expect(vendors).toEqual(expect.arrayContaining(['AV', 'IMES', 'IA', 'AI', 'TF', 'TCG_SEA', 'TCG_LOTTO_VN', 'DS88', 'DIG', 'HOUSE']));
  });
});

describe('existing game calls on the full catalogue', () => {
  it('game menus give the first N per type, hot games stay ranked', async () => {
    const m = await api<{ menus: Array<{ gameType: string; games: Array<{ isGame: string }> }> }>(t.url, '/lgw/games/game_menus?pageSize=20');
    expect(m.status).toBe(200);
    const rng = m.json!.value!.menus.find((x) => x.gameType === 'RNG')!;
    expect(rng.games).toHaveLength(20);
    expect(m.json!.value!.menus.every((x) => x.games.length <= 20 && x.games.every((g) => g.isGame !== 'VASSALAGE'))).toBe(true);
    const hot = await api<{ list: unknown[] }>(t.url, '/wps/relay/GCSGAME_hotGamesV2?isPlatform=2&platform=flash,html5-desktop&language=TY');
    expect(hot.json!.value!.list).toHaveLength(20);
  });

  it("winner board: a win posted without an icon shows its game's catalogue icon (by name or code), live and after a reload; an unknown game stays without", async () => {
    const g = (await t.portal.db.query<{ game_name: string; game_code: string; icon_url: string }>(
      "SELECT game_name, game_code, icon_url FROM games WHERE merchant_code = 'DEMO' AND vassalage = 'JL' AND is_game = 'GAME' ORDER BY id DESC LIMIT 2")).rows;
    const [byName, byCode] = [g[0]!, g[1]!];
    // A guest on the winners page: the live arrivals carry the icon already (no reload needed).
    const guest = await connectSocket(t.url, {});
    try {
      for (const gameName of ['No Such Game', byCode.game_code, byName.game_name]) {
        // The last leaves iconUrl out, as the dev call's own note says it may (it was 400: iconUrl required).
        const icon = gameName === byName.game_name ? {} : { iconUrl: null };
        expect((await api(t.url, '/wps/dev/winners', { body: { customerName: 'Ic***n', gameName, ...icon, winAmount: 100 } })).status).toBe(200);
      }
      const live = await waitFor(() => {
        const got = guest.received.filter((e) => e.type === 'winner.posted').map((e) => e.payload as { gameName: string; iconUrl: string | null });
        return got.length >= 3 ? got : null;
      }, 'three winner.posted');
      expect(live.map((w) => [w.gameName, w.iconUrl])).toEqual([['No Such Game', null], [byCode.game_code, byCode.icon_url], [byName.game_name, byName.icon_url]]);
    } finally {
      guest.close();
    }
    // Rows stored without an icon before posts filled it (older rows) still take it when the board is read.
    await t.portal.db.query(`UPDATE winners SET icon_url = NULL WHERE id IN (SELECT id FROM winners WHERE merchant_code = 'DEMO' ORDER BY id DESC LIMIT 3)`);
    const r = await api<{ list: Array<{ gameName: string; iconUrl: string | null }> }>(t.url, '/wps/relay/GCSGAME_getRankList?limitNum=3');
    expect(r.status, r.text).toBe(200);
    expect(r.json!.value!.list.map((w) => [w.gameName, w.iconUrl])).toEqual([
      [byName.game_name, byName.icon_url], [byCode.game_code, byCode.icon_url], ['No Such Game', null],
    ]);
  });
});

describe('GCSGAME_gameList', () => {
  it('answers guests the same list as members (category pages), and refuses unknown or bad query fields with a 4xx envelope', async () => {
    const guest = await api<TGameListValue>(t.url, `${LIST}?gameType=LIVE`);
    expect(guest.status).toBe(200);
    const member = await api<TGameListValue>(t.url, `${LIST}?gameType=LIVE`, { token });
    expect(guest.json!.value!.games.length).toBeGreaterThan(0);
    expect(guest.json!.value).toEqual(member.json!.value);
    for (const qs of ['foo=1', 'pageSize=101', 'pageNo=0', 'gameType=SLOTS', 'gameClassify=XX', 'minBet=-1', 'pageNo=abc', `gameName=${'x'.repeat(65)}`]) {
      const r = await api(t.url, `${LIST}?${qs}`, { token });
      expect(r.status, qs).toBe(400);
      expect(r.json).toMatchObject({ success: false, code: 'VALIDATION' });
    }
  });

  it("accepts the spec's payload with empty filters and pages by 20", async () => {
    const v = await list('clientType=3&platform=flash,html5-desktop&merchant=DEMO&gameType=RNG&vassalage=&gameClassify=&gameName=&minBet=&minLineNum=&pageNo=1&pageSize=20&language=TY');
    expect(v.games).toHaveLength(20);
    expect(v.pageNo).toBe(1);
    expect(v.pageSize).toBe(20);
    expect(v.total).toBeGreaterThanOrEqual(10_000);
    expect(v.totalPages).toBe(Math.ceil(v.total / 20));
    expect(v.games.every((g) => g.gameType === 'RNG')).toBe(true);
    const d = await list('gameType=RNG');
    expect(d.pageSize).toBe(20);
    expect(d.games.map((g) => g.nodeId)).toEqual(v.games.map((g) => g.nodeId));
  });

  it('pages through one vendor without gaps or repeats', async () => {
    const p1 = await list('gameType=RNG&vassalage=JL&pageNo=1');
    expect(p1.total).toBe(625);
    expect(p1.totalPages).toBe(32);
    const p2 = await list('gameType=RNG&vassalage=JL&pageNo=2');
    expect(p2.games).toHaveLength(20);
    const ids = new Set([...p1.games, ...p2.games].map((g) => g.nodeId));
    expect(ids.size).toBe(40);
    const last = await list('gameType=RNG&vassalage=JL&pageNo=32');
    expect(last.games).toHaveLength(5);
    const past = await list('gameType=RNG&vassalage=JL&pageNo=33');
    expect(past).toMatchObject({ games: [], total: 625, totalPages: 32 });
    const all = await list('vassalage=JL&gameType=RNG&pageSize=100&pageNo=7');
    expect(all.games).toHaveLength(25);
    // A vendor's own list leaves out its lobby entry; the type's list shows it.
    expect((await list('vassalage=CQN&gameType=RNG&pageSize=100')).games.some((g) => g.isGame === 'VASSALAGE')).toBe(false);
    const lobby = await list('gameType=RNG&gameName=cq nine');
    expect(lobby.games.map((g) => g.nodeId)).toContain('CQN-RNG-LOBBY');
  });

  it('filters by vendor, classify, name (case-insensitive contains) and min bet', async () => {
    const sc = await list('gameType=RNG&gameClassify=SC&pageSize=100');
    expect(sc.total).toBeGreaterThan(100);
    expect(sc.games.every((g) => g.gameClassify === 'SC')).toBe(true);

    const name = await list('gameName=DrAgOn&pageSize=100');
    const expected = (await t.portal.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM games WHERE merchant_code = 'DEMO' AND lower(game_name) LIKE '%dragon%'`)).rows[0]!.n;
    expect(name.total).toBe(Number(expected));
    expect(name.total).toBeGreaterThan(20);
    expect(name.games.every((g) => g.gameName.toLowerCase().includes('dragon'))).toBe(true);
    // LIKE wildcards in the query are literal.
    expect((await list('gameName=%25')).total).toBe(0);
    expect((await list('gameName=_')).total).toBe(0);
    expect((await list(`gameName=${encodeURIComponent('Hold & Win')}`)).total).toBeGreaterThan(0);

    const combo = await list('gameType=RNG&vassalage=PCK&gameClassify=JP&gameName=a&pageSize=100');
    expect(combo.total).toBeGreaterThan(0);
    expect(combo.games.every((g) => g.vassalage === 'PCK' && g.gameClassify === 'JP' && g.gameName.toLowerCase().includes('a'))).toBe(true);

    const cheap = await list('gameType=RNG&minBet=10&pageSize=100');
    expect(cheap.total).toBeGreaterThan(0);
    expect(cheap.games.every((g) => (g.minBet ?? 0) <= 10)).toBe(true);
    expect((await list('gameType=LIVE&minBet=10')).games.filter((g) => g.minBet !== null)).toEqual([]);

    const cock = await list('gameType=COCKFIGHT');
    expect(new Set(cock.games.map((g) => g.vassalage))).toEqual(new Set(['DS88', 'DIG']));
    expect(cock.games[0]!.iconUrl).toMatch(/^\/img\/game\/(DS88|DIG)\/CO\d{3}\.svg\?n=/);
  });
});

describe('GCSGAME_getVassGameType', () => {
  it('lists RNG vendors with their sub-categories; BG only when the merchant supports TY', async () => {
    const r = await api<TVassGameTypeValue>(t.url, '/wps/relay/GCSGAME_getVassGameType?gameType=RNG&language=EN');
    expect(r.status).toBe(200);
    const v = ZVassGameTypeValue.parse(r.json!.value);
    expect(v.gameClassifies).toEqual(['SC', 'JP', 'TG', 'AC', 'BG']);
    const jl = v.vendors.find((x) => x.vassalage === 'JL')!;
    expect(jl.gameCount).toBe(625);
    expect(jl.gameClassifies).toEqual(['SC', 'JP', 'TG', 'AC', 'BG']);
    expect((await api(t.url, '/wps/relay/GCSGAME_getVassGameType?bogus=1')).status).toBe(400);

    // A merchant that supports EN only: no bingo tab, and the BG filter finds nothing.
    await t.portal.db.query(
      `INSERT INTO merchants (code, name, is_default, domains, main_domain, module_flags, whitelabel, brand, currency)
       SELECT 'NOTY', name, false, '{}', 'noty.example', module_flags, whitelabel, jsonb_set(brand::jsonb, '{supportedLanguages}', '["EN"]'), currency
       FROM merchants WHERE code = 'DEMO'`);
    await t.portal.db.query(`INSERT INTO vendors (merchant_code, vassalage, game_type, game_category, display_name, sort)
       SELECT 'NOTY', vassalage, game_type, game_category, display_name, sort FROM vendors WHERE merchant_code = 'DEMO' AND vassalage = 'JL'`);
    await t.portal.db.query(`INSERT INTO games (merchant_code, node_id, vassalage, game_code, is_game, game_type, game_classify, game_name, sort)
       SELECT 'NOTY', node_id, vassalage, game_code, is_game, game_type, game_classify, game_name, sort FROM games WHERE merchant_code = 'DEMO' AND vassalage = 'JL'`);
    // Its JL is connected too (players are shown connected providers' games only).
    await t.portal.db.query(`INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url) VALUES ('NOTY', 'JL', $1, 'https://vendor.example/play')`, ['n'.repeat(64)]);
    t.portal.merchants.invalidate();
    const h = { 'x-merchant-code': 'NOTY' };
    const en = ZVassGameTypeValue.parse((await api(t.url, '/wps/relay/GCSGAME_getVassGameType', { headers: h })).json!.value);
    expect(en.gameClassifies).toEqual(['SC', 'JP', 'TG', 'AC']);
    expect(en.vendors.map((x) => x.vassalage)).toEqual(['JL']);
    expect(en.vendors[0]!.gameClassifies).not.toContain('BG');
    const s = await session(h);
    const bg = await api<TGameListValue>(t.url, `${LIST}?gameClassify=BG`, { token: s.token, headers: h });
    expect(bg.json?.value).toMatchObject({ games: [], total: 0 });
    expect((await list('gameClassify=BG')).total).toBeGreaterThan(0);
  });
});

describe('favourites', () => {
  it('guests get 401 on every favourite call', async () => {
    for (const [method, path, body] of [
      ['GET', '/wps/relay/MCSFE_getFavoriteGames', undefined],
      ['GET', '/wps/relay/MCSFE_getFavoriteGamesList', undefined],
      ['POST', '/wps/relay/MCSFE_addFavoriteGameV2', { nodeId: 'JL-RN001' }],
      ['DELETE', '/wps/relay/MCSFE_removeFavoriteGameV2?nodeId=JL-RN001', undefined],
      ['GET', '/wps/relay/GCS_recentGame', undefined],
    ] as const) {
      const r = await api(t.url, path, { method, body });
      expect(r.status, path).toBe(401);
      expect(r.json?.code).toBe('UNAUTHORIZED');
    }
  });

  it('adds, lists, reports ids and removes, one change per second', async () => {
    const s = await session();
    const add = (nodeId: string, extra: Record<string, unknown> = {}) =>
      api<TFavoriteChangeValue>(t.url, '/wps/relay/MCSFE_addFavoriteGameV2', { body: { nodeId, ...extra }, token: s.token });
    const a = await add('JL-RN001', { vendor: 'JL', gameType: 'RNG' });
    expect(a.status, a.text).toBe(200);
    expect(ZFavoriteChangeValue.parse(a.json!.value)).toEqual({ nodeId: 'JL-RN001', isFavorite: true, ids: ['JL-RN001'] });
    // A second change within the second is refused (the client drops trailing toggles).
    const fast = await add('PCK-RN002');
    expect(fast.status).toBe(429);
    expect(fast.json?.code).toBe('TOO_MANY_REQUESTS');
    // Bad input is a 4xx and does not use up the member's slot.
    expect((await add('NOPE-1')).status).toBe(404);
    expect((await add('JL-RN001', { vendor: 'PCK' })).status).toBe(400);
    expect((await add('JL-RN001', { extra: 1 })).status).toBe(400);
    expect((await api(t.url, '/wps/relay/MCSFE_removeFavoriteGameV2', { method: 'DELETE', token: s.token })).status).toBe(400);

    await sleep(1050);
    const b = await add('PCK-RN002', { vendor: 'PCK', gameType: 'RNG' });
    expect(b.status, b.text).toBe(200);
    expect(b.json!.value!.ids).toEqual(['PCK-RN002', 'JL-RN001']);

    const ids = await api<{ ids: string[] }>(t.url, '/wps/relay/MCSFE_getFavoriteGames', { token: s.token });
    expect(ids.json!.value!.ids).toEqual(['PCK-RN002', 'JL-RN001']);
    const page1 = ZFavoriteListValue.parse((await api(t.url, '/wps/relay/MCSFE_getFavoriteGamesList?pageNum=1&pageSize=1', { token: s.token })).json!.value);
    expect(page1).toMatchObject({ pageNum: 1, totalPages: 2, total: 2 });
    expect(page1.content.map((g) => g.nodeId)).toEqual(['PCK-RN002']);
    const page2 = ZFavoriteListValue.parse((await api(t.url, '/wps/relay/MCSFE_getFavoriteGamesList?pageNum=2&pageSize=1', { token: s.token })).json!.value);
    expect(page2.content.map((g) => g.nodeId)).toEqual(['JL-RN001']);
    expect((await api(t.url, '/wps/relay/MCSFE_getFavoriteGamesList?pageNum=3&pageSize=1', { token: s.token })).json!.value).toMatchObject({ content: [], total: 2, totalPages: 2 });

    await sleep(1050);
    const rm1 = await api<TFavoriteChangeValue>(t.url, '/wps/relay/MCSFE_removeFavoriteGameV2?nodeId=JL-RN001', { method: 'DELETE', token: s.token });
    expect(rm1.status, rm1.text).toBe(200);
    expect(rm1.json!.value).toEqual({ nodeId: 'JL-RN001', isFavorite: false, ids: ['PCK-RN002'] });
    const rm2 = await api(t.url, '/wps/relay/MCSFE_removeFavoriteGameV2?nodeId=PCK-RN002', { method: 'DELETE', token: s.token });
    expect(rm2.status).toBe(429);
    // The throttle is per member: another member is not held up.
    const other = await session();
    expect((await api(t.url, '/wps/relay/MCSFE_addFavoriteGameV2', { body: { nodeId: 'JL-RN001' }, token: other.token })).status).toBe(200);
    expect((await api<{ ids: string[] }>(t.url, '/wps/relay/MCSFE_getFavoriteGames', { token: s.token })).json!.value!.ids).toEqual(['PCK-RN002']);
  });
});

describe('GCS_recentGame', () => {
  it('lists the games a member launched, newest first', async () => {
    await t.portal.db.query(
      `INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url) VALUES ('DEMO', 'FCH', $1, 'https://vendor.example/play') ON CONFLICT DO NOTHING`,
      ['s'.repeat(40)]);
    const s = await session();
    const empty = await api(t.url, '/wps/relay/GCS_recentGame', { token: s.token });
    expect(empty.json!.value).toEqual({ list: [] });
    for (const nodeId of ['FCH-RN001', 'FCH-RN002', 'FCH-RN001']) {
      const l = await api(t.url, '/wps/game/launchGame', { body: { nodeId }, token: s.token });
      expect(l.status, l.text).toBe(200);
    }
    const r = ZRecentGamesValue.parse((await api(t.url, '/wps/relay/GCS_recentGame?limit=10', { token: s.token })).json!.value);
    expect(r.list.map((g) => g.nodeId)).toEqual(['FCH-RN001', 'FCH-RN002']);
    expect(Date.parse(r.list[0]!.launchedAt)).toBeGreaterThanOrEqual(Date.parse(r.list[1]!.launchedAt));
    expect((await api(t.url, '/wps/relay/GCS_recentGame?limit=51', { token: s.token })).status).toBe(400);
    // A refused launch (unknown game) records nothing.
    expect((await api(t.url, '/wps/game/launchGame', { body: { nodeId: 'NOPE' }, token: s.token })).status).toBe(404);
  });
});

describe('the lottery calls (spec section 7)', () => {
  it("game menus by prize mode, the Vietnam lottery's menu and a member's recent Vietnam lottery games", async () => {
    type Menus = { menus: Array<{ gameType: string; games: Array<{ nodeId: string; vassalage: string; gameType: string }> }> };
    const byMode = async (mode: string) => (await api<Menus>(t.url, `/lgw/games/game_menus?pageSize=50&prizeMode=${mode}`)).json!.value!.menus;
    const lott = await byMode('LOTT');
    expect(lott.map((m) => m.gameType)).toEqual(['LOTT']);
    expect(new Set(lott[0]!.games.map((g) => g.vassalage))).toEqual(new Set(['TCG', 'TCG_SEA', 'TCG_LOTTO_VN']));
    const sea = await byMode('SEA');
    expect(sea[0]!.games.length).toBeGreaterThan(0);
    expect(sea[0]!.games.every((g) => g.vassalage === 'TCG_SEA')).toBe(true);
    expect((await byMode('ELOTT')).map((m) => m.gameType)).toEqual(['ELOTT']);
    expect(await byMode('ZY')).toEqual([]);
    expect((await api(t.url, '/lgw/games/game_menus?prizeMode=KENO')).status).toBe(400);

    const menu = await api<{ list: Array<{ nodeId: string; vassalage: string }> }>(t.url, '/lgw/vn/games/game_menu?language=TY');
    expect(menu.status).toBe(200);
    expect(menu.json!.value!.list.length).toBe(20);
    expect(menu.json!.value!.list.every((g) => g.vassalage === 'TCG_LOTTO_VN')).toBe(true);

    expect((await api(t.url, '/lgw/vn/games/game_menu/recent')).status).toBe(401);
    const s = await session();
    const [vn1, vn2] = menu.json!.value!.list.map((g) => g.nodeId);
    for (const nodeId of [vn1!, 'JL-RN001', vn2!]) expect((await api(t.url, '/wps/game/launchGame', { body: { nodeId }, token: s.token })).status).toBe(200);
    const recent = ZRecentGamesValue.parse((await api(t.url, '/lgw/vn/games/game_menu/recent?limit=10', { token: s.token })).json!.value);
    expect(recent.list.map((g) => g.nodeId)).toEqual([vn2, vn1]);
  });
});

describe('catalogue import', () => {
  it('is idempotent on the running database: the second run changes nothing', async () => {
    const cat = await loadCatalogue();
    const count = async () => Number((await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM games WHERE merchant_code = 'DEMO'`)).rows[0]!.n);
    const before = await count();
    const seen: string[] = [];
    const r = await importCatalogue(t.portal.db, 'DEMO', cat, { onProgress: (p) => seen.push(formatProgress(p)) });
    expect(r.changed).toBe(0);
    expect(await count()).toBe(before);
    expect(seen[0]).toBe(`0/${cat.games.length} games (0%)`);
    expect(seen.at(-1)).toBe(`${cat.games.length}/${cat.games.length} games (100%)`);
    expect(seen).toContain(`2000/${cat.games.length} games (${Math.floor(200_000 / cat.games.length)}%)`);
  });

  it('the command imports into a stopped database, twice to the same count, printing progress', async () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    const db = process.env.TEST_ON_SERVICES === '1'
      ? await (async () => {
        const fresh = await freshDatabase(requireEnv('DATABASE_URL'));
        env = { DATABASE_URL: fresh.url };
        cleanup = fresh.drop;
        return createPgDb(fresh.url, 2);
      })()
      : await (async () => {
        const dir = await mkdtemp(path.join(tmpdir(), 'catalogue-'));
        env = { DATA_DIR: dir, PORT: '1' };
        cleanup = () => rm(dir, { recursive: true, force: true });
        return createPgliteDb(dir);
      })();
    try {
      await migrate(db);
      await seedDemo(db, { catalogue: 'small' });
      await db.close();
      const lines1: string[] = [];
      const first = await runImport(['--merchant', 'DEMO'], { ...env!, LOG_LEVEL: 'silent' }, (l) => lines1.push(l));
      expect(first.count).toBeGreaterThanOrEqual(10_000);
      expect(first.changed).toBeGreaterThan(9_000);
      expect(lines1.some((l) => /^2000\/\d+ games \(\d+%\)$/.test(l))).toBe(true);
      expect(lines1).toContain(`${first.games}/${first.games} games (100%)`);
      const lines2: string[] = [];
      const second = await runImport(['--merchant=DEMO', '--batch', '1000'], env!, (l) => lines2.push(l));
      expect(second.count).toBe(first.count);
      expect(second.changed).toBe(0);
      await expect(runImport(['--merchant', 'NOPE'], env!, () => undefined)).rejects.toThrow(/does not exist/);
      await expect(runImport(['--what'], env!, () => undefined)).rejects.toThrow(/unknown option/);
    } finally {
      await cleanup!();
    }
    // Four command processes and a fresh database's migrations: 31 s timed out twice at load 10-25.
  }, 120_000);
});
