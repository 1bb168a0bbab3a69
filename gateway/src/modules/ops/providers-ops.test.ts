import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TGame, TGameCategory, TGameListValue, TVassGameTypeValue } from '@portal/contracts/api/games';
import type { TOpsProvider } from '@portal/contracts/api/ops-providers';
import { cacheAudience } from '@portal/contracts/events/events';
import { api, connectSocket, startProductionTestPortal, startTestPortal, waitFor, type ProductionTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { signedInOperator, vendorClient } from '../../testing/vendor-suite.ts';
import { testMembers } from '../../testing/test-members.ts';
import { opsTotp } from '../../testing/ops-totp.ts';
import { connectCatalogueVendors } from '../../testing/catalogue-vendors.ts';
import { ensureSimulatedVendors } from '../provider/sim-vendors.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { importCatalogue, type TCatalogueFile } from '../games/catalogue.ts';

/**
 * Game providers on /ops/providers (providers-ops.ts) and the rule behind them: players are shown a
 * provider's games only while it is connected (connected-vendors.ts). A test portal starts without the
 * vendor simulator, so the demo catalogue's providers are not connected until a test connects them.
 */
let t: TestPortal;
let admin = '';
let content = '';
let finance = '';
const call = <T = unknown>(path: string, init: { method?: string; body?: unknown; token?: string } = {}) => api<T>(t.url, path, init);
const member = testMembers(() => t.url, { prefix: 'prv' });

/** Everything a player is shown of the catalogue, as the home page, category pages and search ask for it. */
async function shown(vendor: string, gameType: string, gameName: string) {
  const hot = (await call<{ list: TGame[] }>('/wps/relay/GCSGAME_hotGamesV2')).json!.value!.list;
  const lanes = (await call<{ data: { lanes: TGameCategory[] } }>('/wps/relay/GCSGAME_gameVendor')).json!.value!.data.lanes;
  const menus = (await call<{ menus: Array<{ games: TGame[] }> }>('/lgw/games/game_menus?pageSize=50')).json!.value!.menus;
  const byVendor = (await call<TGameListValue>(`/wps/relay/GCSGAME_gameList?vassalage=${vendor}&pageSize=100`)).json!.value!;
  const all = (await call<TGameListValue>('/wps/relay/GCSGAME_gameList?pageSize=100')).json!.value!;
  const search = (await call<TGameListValue>(`/wps/relay/GCSGAME_gameList?gameName=${encodeURIComponent(gameName)}`)).json!.value!;
  const vass = (await call<TVassGameTypeValue>(`/wps/relay/GCSGAME_getVassGameType?gameType=${gameType}`)).json!.value!;
  return {
    hot: hot.filter((g) => g.vassalage === vendor).length,
    hotHouse: hot.filter((g) => g.vassalage === 'HOUSE').length,
    lane: lanes.some((l) => l.vendors.some((v) => v.vassalage === vendor)),
    menus: menus.flatMap((m) => m.games).filter((g) => g.vassalage === vendor).length,
    listed: byVendor.total,
    inAll: all.games.filter((g) => g.vassalage === vendor).length,
    searched: search.games.filter((g) => g.vassalage === vendor).length,
    vendorCount: vass.vendors.find((v) => v.vassalage === vendor)?.gameCount ?? null,
  };
}

async function providers(token = admin) {
  const r = await call<{ list: TOpsProvider[]; httpsOnly: boolean }>('/ops/api/providers', { token });
  expect(r.status, r.text).toBe(200);
  return r.json!.value!;
}
const providerOf = async (vendor: string) => (await providers()).list.find((p) => p.vendor === vendor)!;
async function auditRows(action: string, vendor: string) {
  const r = await call<{ list: Array<{ operator: string; targetType: string; targetId: string; before: unknown; after: unknown }> }>(
    `/ops/api/audit?action=${action}&targetId=${vendor}`, { token: admin });
  return r.json!.value!.list;
}

/** A vendor of the demo catalogue with hot games, and one of its games. */
let V = '';
let vType = '';
let vGame = { node_id: '', game_name: '' };
let vCount = 0;

beforeAll(async () => {
  t = await startTestPortal();
  admin = await signedInOperator(t, 'prov_admin', 'Provider12345', ['administrator']);
  content = await signedInOperator(t, 'prov_content', 'Provider12345', ['content']);
  finance = await signedInOperator(t, 'prov_finance', 'Provider12345', ['finance']);
  const v = (await t.portal.db.query<{ vassalage: string; game_type: string; n: number }>(
    `SELECT vassalage, min(game_type) AS game_type, count(*)::int AS n FROM games
     WHERE merchant_code = 'DEMO' AND vassalage <> 'HOUSE' AND is_game = 'GAME' AND hot_rank IS NOT NULL
     GROUP BY vassalage ORDER BY count(*) DESC, vassalage LIMIT 1`)).rows[0]!;
  V = v.vassalage;
  vType = v.game_type;
  vGame = (await t.portal.db.query<{ node_id: string; game_name: string }>(
    `SELECT node_id, game_name FROM games WHERE merchant_code = 'DEMO' AND vassalage = $1 AND game_type = $2 AND is_game = 'GAME' ORDER BY hot_rank NULLS LAST, id LIMIT 1`, [V, vType])).rows[0]!;
  vCount = Number((await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM games WHERE merchant_code = 'DEMO' AND vassalage = $1`, [V])).rows[0]!.n);
});
afterAll(async () => {
  await t?.stop();
});

describe('players see only connected providers', () => {
  it('an unconnected provider is absent from every list; connecting shows it at once (caches dropped, pages told), disconnecting hides it again', async () => {
    const none = { hot: 0, lane: false, menus: 0, listed: 0, inAll: 0, searched: 0, vendorCount: null };
    // Read twice: the second answer of the bootstrap calls comes from the cache the connection must drop.
    await shown(V, vType, vGame.game_name);
    const before = await shown(V, vType, vGame.game_name);
    expect(before).toMatchObject(none);
    expect(before.hotHouse).toBeGreaterThan(0);
    expect((await providerOf(V)).state).toBe('not_connected');
    const player = await member(0);
    const refused = await call('/wps/game/launchGame', { body: { nodeId: vGame.node_id }, token: player.token });
    expect(refused.json).toMatchObject({ success: false, code: 'NOT_AVAILABLE' });

    const guest = await connectSocket(t.url, {});
    try {
      const r = await call<{ provider: TOpsProvider; secret: string | null }>('/ops/api/providers/connect', { token: admin, body: { vendor: V, launchUrl: 'https://games.example.com/launch' } });
      expect(r.status, r.text).toBe(200);
      expect(r.json!.value!.provider).toMatchObject({ vendor: V, state: 'connected', launchUrl: 'https://games.example.com/launch', games: vCount });
      const after = await shown(V, vType, vGame.game_name);
      expect(after.hot).toBeGreaterThan(0);
      expect(after).toMatchObject({ lane: true, listed: vCount, searched: 1 });
      expect(after.menus).toBeGreaterThan(0);
      expect(after.vendorCount).toBeGreaterThan(0);
      // Open pages are told to re-read the game calls.
      await waitFor(() => guest.received.find((e) => e.type === 'system.changed' && JSON.stringify(e.payload) === JSON.stringify({ parts: ['games'] })), 'system.changed games');
      const launched = await call<{ url: string }>('/wps/game/launchGame', { body: { nodeId: vGame.node_id }, token: player.token });
      expect(launched.status, launched.text).toBe(200);
      expect(launched.json!.value!.url).toMatch(/^https:\/\/games\.example\.com\/launch\?token=/);
      expect((await call<{ list: TGame[] }>('/wps/relay/GCS_recentGame', { token: player.token })).json!.value!.list.some((g) => g.vassalage === V)).toBe(true);
      const fav = await call<{ ids: string[] }>('/wps/relay/MCSFE_addFavoriteGameV2', { body: { nodeId: vGame.node_id }, token: player.token });
      expect(fav.status, fav.text).toBe(200);
      expect(fav.json!.value!.ids).toContain(vGame.node_id);

      const off = await call<TOpsProvider>('/ops/api/providers/disconnect', { token: admin, body: { vendor: V, reason: 'Contract ended' } });
      expect(off.status, off.text).toBe(200);
      expect(off.json!.value).toMatchObject({ state: 'disconnected', disconnectReason: 'Contract ended', launchUrl: 'https://games.example.com/launch' });
      expect(await shown(V, vType, vGame.game_name)).toMatchObject(none);
      expect((await call('/wps/game/launchGame', { body: { nodeId: vGame.node_id }, token: player.token })).json).toMatchObject({ code: 'NOT_AVAILABLE' });
      // A member's favourites and recent games leave it too.
      expect((await call<{ list: TGame[] }>('/wps/relay/GCS_recentGame', { token: player.token })).json!.value!.list.some((g) => g.vassalage === V)).toBe(false);
      expect((await call<{ ids: string[] }>('/wps/relay/MCSFE_getFavoriteGames', { token: player.token })).json!.value!.ids).not.toContain(vGame.node_id);
      expect((await call<{ total: number }>('/wps/relay/MCSFE_getFavoriteGamesList?pageNum=1&pageSize=20', { token: player.token })).json!.value!.total).toBe(0);
      // Nor can a game of it be made a favourite (as if it did not exist), and nothing is stored.
      const other = (await t.portal.db.query<{ node_id: string }>(
        `SELECT node_id FROM games WHERE merchant_code = 'DEMO' AND vassalage = $1 AND node_id <> $2 ORDER BY id LIMIT 1`, [V, vGame.node_id])).rows[0]!.node_id;
      const refusedFav = await call('/wps/relay/MCSFE_addFavoriteGameV2', { body: { nodeId: other }, token: player.token });
      expect(refusedFav.status, refusedFav.text).toBe(404);
      expect(refusedFav.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
      expect(Number((await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM favorite_games WHERE node_id = $1', [other])).rows[0]!.n)).toBe(0);
    } finally {
      guest.close();
    }
  });

  it('another writer of the connection (the simulator at start, any node) announces on the cache audience', async () => {
    const W = (await t.portal.db.query<{ vassalage: string }>(
      `SELECT vassalage FROM vendors WHERE merchant_code = 'DEMO' AND vassalage NOT IN ('HOUSE', $1) ORDER BY vassalage LIMIT 1`, [V])).rows[0]!.vassalage;
    const lanes = async () => (await call<{ data: { lanes: TGameCategory[] } }>('/wps/relay/GCSGAME_gameVendor')).json!.value!.data.lanes.flatMap((l) => l.vendors.map((v) => v.vassalage));
    expect(await lanes()).not.toContain(W);
    const seq = async () => Number((await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE audience = $1 AND type = 'content.changed'`, [cacheAudience('DEMO')])).rows[0]!.n);
    const events = await seq();
    await connectCatalogueVendors(t);
    expect(await seq()).toBe(events + 1);
    expect(await lanes()).toContain(W);
    // Nothing changed the second time: nothing announced.
    await connectCatalogueVendors(t);
    expect(await seq()).toBe(events + 1);
    expect((await providerOf(W)).state).toBe('simulated');
    // The operator's disconnection of V stands: the simulator does not take it back.
    expect((await providerOf(V)).state).toBe('disconnected');
    await ensureSimulatedVendors(t.portal.db, t.portal.merchants, null);
    expect(await lanes()).not.toContain(W);
  });
});

describe('/ops/api/providers', () => {
  it('lists the vendors with their game counts and connection state; the house is built in', async () => {
    const p = await providers(content);
    expect(p.httpsOnly).toBe(false);
    const house = p.list.find((x) => x.vendor === 'HOUSE')!;
    expect(house).toMatchObject({ state: 'house', games: 4 });
    expect(p.list[0]!.vendor).toBe('HOUSE');
    const v = p.list.find((x) => x.vendor === V)!;
    const hot = Number((await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM games WHERE merchant_code = 'DEMO' AND vassalage = $1 AND hot_rank IS NOT NULL`, [V])).rows[0]!.n);
    expect(v).toMatchObject({ games: vCount, hotGames: hot });
    expect(v.gameTypes).toContain(vType);
    expect(JSON.stringify(p)).not.toMatch(/secret"\s*:\s*"/);
  });

  it('shows a new signing secret once: it signs the wallet API, is never read back, and a rotation replaces it', async () => {
    const U = (await t.portal.db.query<{ vassalage: string }>(
      `SELECT vassalage FROM vendors WHERE merchant_code = 'DEMO' AND vassalage NOT IN ('HOUSE', $1) ORDER BY vassalage DESC LIMIT 1`, [V])).rows[0]!.vassalage;
    // The simulator played it, then was switched off (previous test): connecting it for real gives it its own secret.
    const r = await call<{ provider: TOpsProvider; secret: string }>('/ops/api/providers/connect', { token: admin, body: { vendor: U, launchUrl: 'http://localhost:9999/play' } });
    expect(r.status, r.text).toBe(200);
    const secret = r.json!.value!.secret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(r.json!.value!.provider.secretSetAt).not.toBeNull();
    const signed = (s: string) => vendorClient(() => t.url, U, s).signedPost('balance', {}).then((x) => x.json() as Promise<{ code: string }>);
    // The signature is accepted (then the empty body fails its schema); a wrong secret is not.
    expect((await signed(secret)).code).toBe('VALIDATION');
    expect((await signed('0'.repeat(64))).code).toBe('SIGNATURE_INVALID');
    // Never read back: not by the list, not in the audit trail.
    expect(JSON.stringify(await providers())).not.toContain(secret);
    const connected = await auditRows('provider.connect', U);
    expect(connected).toHaveLength(1);
    expect(connected[0]).toMatchObject({ operator: 'prov_admin', targetType: 'vendor', targetId: U, before: { state: 'disconnected' }, after: { state: 'connected', launchUrl: 'http://localhost:9999/play' } });
    expect(JSON.stringify(connected)).not.toContain(secret);

    // A new launch URL keeps the secret (no new one shown), audited as an update; the same URL again changes nothing.
    const moved = await call<{ secret: string | null }>('/ops/api/providers/connect', { token: admin, body: { vendor: U, launchUrl: 'https://play.example.org/v2/launch' } });
    expect(moved.json!.value!.secret).toBeNull();
    expect((await call<{ secret: string | null }>('/ops/api/providers/connect', { token: admin, body: { vendor: U, launchUrl: 'https://play.example.org/v2/launch' } })).json!.value!.secret).toBeNull();
    expect(await auditRows('provider.update', U)).toHaveLength(1);

    const rotated = await call<{ provider: TOpsProvider; secret: string }>('/ops/api/providers/secret', { token: admin, body: { vendor: U } });
    expect(rotated.status, rotated.text).toBe(200);
    const next = rotated.json!.value!.secret;
    expect(next).toMatch(/^[0-9a-f]{64}$/);
    expect(next).not.toBe(secret);
    expect(JSON.stringify(await auditRows('provider.secret_rotate', U))).not.toContain(next);
    // The vendor API keeps a secret up to 5 s per node: the new one is in force within that.
    await expect.poll(async () => (await signed(next)).code, { timeout: 8000, interval: 500 }).toBe('VALIDATION');
    expect((await signed(secret)).code).toBe('SIGNATURE_INVALID');

    // Disconnected: the wallet API refuses the vendor (within the same 5 s).
    expect((await call('/ops/api/providers/disconnect', { token: admin, body: { vendor: U, reason: 'Security review' } })).status).toBe(200);
    await expect.poll(async () => (await signed(next)).code, { timeout: 8000, interval: 500 }).toBe('UNKNOWN_VENDOR');
    const disconnected = await auditRows('provider.disconnect', U);
    expect(disconnected[0]).toMatchObject({ before: { state: 'connected' }, after: { state: 'disconnected', reason: 'Security review' } });
    // Connecting again makes a new secret: the old one is not revived.
    const again = await call<{ secret: string }>('/ops/api/providers/connect', { token: admin, body: { vendor: U, launchUrl: 'https://play.example.org/v2/launch' } });
    expect(again.json!.value!.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(again.json!.value!.secret).not.toBe(next);
  });

  it('lets administrators change connections; others are refused (403, audited) and content may only read', async () => {
    expect((await call('/ops/api/providers', { token: finance })).status).toBe(403);
    for (const [path, body] of [
      ['/ops/api/providers/connect', { vendor: V, launchUrl: 'https://games.example.com/launch' }],
      ['/ops/api/providers/secret', { vendor: V }],
      ['/ops/api/providers/disconnect', { vendor: V, reason: 'Because' }],
    ] as const) {
      const r = await call(path, { token: content, body });
      expect(r.status, path).toBe(403);
      expect(r.json).toMatchObject({ success: false, code: 'FORBIDDEN' });
    }
    const denied = Number((await t.portal.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE operator_username = 'prov_content' AND action = 'permission.denied' AND target_id = 'providers.manage'`)).rows[0]!.n);
    expect(denied).toBe(3);
    expect((await providerOf(V)).state).toBe('disconnected');
  });

  it('validates on the server: bad URLs, unknown or built-in vendors, wrong states are 4xx envelopes and change nothing', async () => {
    const audits = async () => Number((await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action LIKE 'provider.%'`)).rows[0]!.n);
    const n = await audits();
    const cases: Array<[string, unknown, number, string]> = [
      ['/ops/api/providers/connect', { vendor: V, launchUrl: 'ftp://games.example.com/play' }, 400, 'VALIDATION'],
      ['/ops/api/providers/connect', { vendor: V, launchUrl: 'https://games.example.com/play?x=1' }, 400, 'VALIDATION'],
      ['/ops/api/providers/connect', { vendor: V, launchUrl: 'https://user:pw@games.example.com/play' }, 400, 'VALIDATION'],
      ['/ops/api/providers/connect', { vendor: V, launchUrl: 'games.example.com' }, 400, 'VALIDATION'],
      ['/ops/api/providers/connect', { vendor: V, launchUrl: '' }, 400, 'VALIDATION'],
      ['/ops/api/providers/connect', { vendor: V, launchUrl: `https://games.example.com/${'x'.repeat(600)}` }, 400, 'VALIDATION'],
      ['/ops/api/providers/connect', { vendor: V }, 400, 'VALIDATION'],
      ['/ops/api/providers/connect', { vendor: V, launchUrl: 'https://games.example.com', secret: 'mine' }, 400, 'VALIDATION'],
      ['/ops/api/providers/connect', { vendor: 'bad code!', launchUrl: 'https://games.example.com' }, 400, 'VALIDATION'],
      ['/ops/api/providers/connect', { vendor: 'NOPE', launchUrl: 'https://games.example.com' }, 404, 'NOT_FOUND'],
      ['/ops/api/providers/connect', { vendor: 'HOUSE', launchUrl: 'https://games.example.com' }, 409, 'CONFLICT'],
      ['/ops/api/providers/disconnect', { vendor: 'HOUSE', reason: 'No' }, 409, 'CONFLICT'],
      ['/ops/api/providers/disconnect', { vendor: V }, 400, 'VALIDATION'],
      ['/ops/api/providers/disconnect', { vendor: V, reason: ' x ' }, 400, 'VALIDATION'],
      ['/ops/api/providers/disconnect', { vendor: V, reason: 'Already off' }, 409, 'CONFLICT'],
      ['/ops/api/providers/secret', { vendor: V }, 409, 'CONFLICT'],
      ['/ops/api/providers/secret', {}, 400, 'VALIDATION'],
    ];
    for (const [path, body, status, code] of cases) {
      const r = await call(path, { token: admin, body });
      expect(r.status, `${path} ${JSON.stringify(body)}: ${r.text}`).toBe(status);
      expect(r.json).toMatchObject({ success: false, code, message: expect.any(String) });
    }
    expect(await audits()).toBe(n);
    expect((await providerOf(V)).state).toBe('disconnected');
  });
});

describe('in production (no simulator)', () => {
  let p: ProductionTestPortal;
  beforeAll(async () => {
    p = await startProductionTestPortal();
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('an imported catalogue stays out of the lobby until its provider is connected, with an https launch URL', async () => {
    const merchant = p.fixture.merchant;
    const cat: TCatalogueFile = {
      version: 1,
      vendors: [
        { vassalage: 'PRA', gameType: 'RNG', gameCategory: 'SLOT', displayName: 'Provider A', iconUrl: null, sort: 1 },
        { vassalage: 'PRB', gameType: 'LIVE', gameCategory: 'LIVE', displayName: 'Provider B', iconUrl: null, sort: 2 },
      ],
      games: [
        { nodeId: 'PRA-1', vassalage: 'PRA', gameCode: '1', isGame: 'GAME', gameType: 'RNG', gameClassify: 'SC', gameName: 'Alpha Reels', iconUrl: null, hotRank: 1, minBet: null, sort: 1 },
        { nodeId: 'PRB-1', vassalage: 'PRB', gameCode: '1', isGame: 'GAME', gameType: 'LIVE', gameClassify: null, gameName: 'Beta Table', iconUrl: null, hotRank: 2, minBet: null, sort: 2 },
      ],
    };
    await p.portal.db.tx(async (tx) => {
      await importCatalogue(tx, merchant, cat);
      await emitEvent(tx, merchant, cacheAudience(merchant), 'content.changed', { scopes: ['games'] });
    });
    const hot = async () => (await api<{ list: TGame[] }>(p.url, '/wps/relay/GCSGAME_hotGamesV2')).json!.value!.list.map((g) => g.vassalage);
    const listed = async () => (await api<TGameListValue>(p.url, '/wps/relay/GCSGAME_gameList?pageSize=100')).json!.value!.games.map((g) => g.vassalage);
    expect(new Set(await hot())).toEqual(new Set(['HOUSE']));
    expect(new Set(await listed())).toEqual(new Set(['HOUSE']));

    const token = (await api<{ token: string }>(p.url, '/ops/api/session/login', { body: { username: p.fixture.admin.username, password: p.fixture.admin.password, totp: await opsTotp(p.fixture.admin.username, p.url) } })).json!.value!.token;
    const list = (await api<{ list: TOpsProvider[]; httpsOnly: boolean }>(p.url, '/ops/api/providers', { token })).json!.value!;
    expect(list.httpsOnly).toBe(true);
    expect(list.list.map((x) => [x.vendor, x.state])).toEqual([['HOUSE', 'house'], ['PRA', 'not_connected'], ['PRB', 'not_connected']]);
    const plain = await api(p.url, '/ops/api/providers/connect', { token, body: { vendor: 'PRA', launchUrl: 'http://games.example.com/play' } });
    expect(plain.status, plain.text).toBe(400);
    expect(plain.json).toMatchObject({ success: false, code: 'VALIDATION' });
    expect(await hot()).not.toContain('PRA');
    const ok = await api<{ secret: string }>(p.url, '/ops/api/providers/connect', { token, body: { vendor: 'PRA', launchUrl: 'https://games.example.com/play' } });
    expect(ok.status, ok.text).toBe(200);
    expect(await hot()).toContain('PRA');
    expect(await hot()).not.toContain('PRB');
    expect(new Set(await listed())).toEqual(new Set(['HOUSE', 'PRA']));
  });
});
