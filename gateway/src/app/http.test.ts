import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZAnnouncements } from '@portal/contracts/api/content';
import { ZErrorEnvelope } from '@portal/contracts/api/envelope';
import { zodDetails } from './http.ts';
import { gameCalls } from '@portal/contracts/api/games';
import { api, startTestPortal, type TestPortal } from '../testing/test-portal.ts';
import { connectCatalogueVendors } from '../testing/catalogue-vendors.ts';

let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal();
  // The demo's providers connected as npm start connects them: players see connected providers' games only.
  await connectCatalogueVendors(t);
});
afterAll(async () => {
  await t.stop();
});

describe('system and content calls', () => {
  it('answers /healthz once ready', async () => {
    const r = await api<{ status: string; db: string }>(t.url, '/healthz');
    expect(r.status).toBe(200);
    expect(r.json?.value?.status).toBe('ok');
    expect(r.json?.value?.db).toBe(process.env.TEST_ON_SERVICES === '1' ? 'pg' : 'pglite');
  });

  it('serves whitelabel module flags and the brand of the default merchant', async () => {
    const r = await api<{ merchantCode: string; modules: Record<string, boolean>; brand: { defaultLanguage: string; minAge: number } }>(
      t.url, '/wps/system/whitelabel');
    expect(r.json?.success).toBe(true);
    expect(r.json?.value?.merchantCode).toBe('DEMO');
    expect(r.json?.value?.modules.DIRECTREG3).toBe(true);
    expect(r.json?.value?.brand.defaultLanguage).toBe('TY');
    expect(r.json?.value?.brand.minAge).toBe(21);
  });

  it('reports systemStatus 0 with the visitor IP', async () => {
    const r = await api<{ systemStatus: number; ip: string }>(t.url, '/wps/system/status');
    expect(r.json?.value).toMatchObject({ systemStatus: 0 });
    expect(r.json?.value?.ip).toMatch(/127\.0\.0\.1/);
  });

  it('returns announcements in the asked language with banners of every group', async () => {
    const ty = await api(t.url, '/wps/relay/MCSFE_getListAnnouncements?types=B,PL,PU,PR,H&platform=W&language=TY');
    const parsed = ZAnnouncements.parse(ty.json?.value);
    expect(parsed.banners.filter((b) => b.group === 'w_home').length).toBeGreaterThan(1);
    expect(parsed.notices[0]?.title).toBe('Nakatakdang maintenance');
    // anonymous visitors get execution A popups only
    expect(parsed.popup.map((p) => p.execution)).toEqual(['A']);
    const fallback = ZAnnouncements.parse((await api(t.url, '/wps/relay/MCSFE_getListAnnouncements?language=JA')).json?.value);
    expect(fallback.notices[0]?.title).toBe('Scheduled maintenance');
    const onlyNotices = ZAnnouncements.parse((await api(t.url, '/wps/relay/MCSFE_getListAnnouncements?types=PL')).json?.value);
    expect(onlyNotices.banners).toEqual([]);
    expect(onlyNotices.notices.length).toBe(3);
  });

  it('lists vendor lanes only for game types that have vendors, in navigation order', async () => {
    const r = await api(t.url, '/wps/relay/GCSGAME_gameVendor');
    const lanes = gameCalls.gameVendor.value.parse(r.json?.value).data.lanes;
    const types = lanes.map((l) => l.gameType);
    expect(types.slice(0, 4)).toEqual(['ELOTT', 'LOTT', 'LIVE', 'SPORTS']);
    expect(new Set(types).size).toBe(types.length);
    expect(lanes.find((l) => l.gameType === 'RNG')!.vendors.length).toBeGreaterThanOrEqual(11);
  });

  it('serves hot games, game menus and the winner board', async () => {
    const hot = gameCalls.hotGames.value.parse((await api(t.url, '/wps/relay/GCSGAME_hotGamesV2?isPlatform=2&platform=flash,html5-desktop')).json?.value);
    expect(hot.list.length).toBeGreaterThanOrEqual(6);
    const menus = gameCalls.gameMenus.value.parse((await api(t.url, '/lgw/games/game_menus?pageSize=20')).json?.value);
    const rng = menus.menus.find((m) => m.gameType === 'RNG');
    expect(rng?.games.length).toBe(20);
    const ranks = gameCalls.rankList.value.parse((await api(t.url, '/wps/relay/GCSGAME_getRankList?gameCategory=ALL&limitNum=5')).json?.value);
    expect(ranks.list.length).toBe(5);
    const times = ranks.list.map((w) => w.at);
    expect([...times].sort().reverse()).toEqual(times);
    // The spec's board item: vo with winAmount (section 3), the same amount as the item's.
    for (const w of ranks.list) expect(w.vo).toEqual({ winAmount: w.winAmount });
  });

  it('falls back to EN help items per anchor', async () => {
    const ty = await api<{ list: Array<{ anchor: string; title: string }> }>(t.url, '/wps/system/helpCenter?lang=TY&device=WEB');
    expect(ty.json?.value?.list.find((h) => h.anchor === 'about')?.title).toBe('Tungkol sa amin');
    const ja = await api<{ list: Array<{ anchor: string; title: string }> }>(t.url, '/wps/system/helpCenter?lang=JA');
    expect(ja.json?.value?.list.find((h) => h.anchor === 'about')?.title).toBe('About us');
  });

  it('draws seed artwork as SVG', async () => {
    const res = await fetch(`${t.url}/img/game/JL/RN001.svg?n=${encodeURIComponent('<script>')}`);
    expect(res.headers.get('content-type')).toContain('image/svg+xml');
    const body = await res.text();
    expect(body).toContain('&lt;script&gt;');
    expect(body).not.toContain('<script>');
  });
});

describe('bad input gets a 4xx envelope, never a 500', () => {
  it('refuses malformed JSON', async () => {
    const r = await api(t.url, '/wps/dev/winners', { body: '{"customerName": ' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ success: false, code: 'MALFORMED_JSON' });
  });

  it('refuses unknown fields and wrong types', async () => {
    const unknown = await api(t.url, '/wps/dev/winners', {
      body: { customerName: 'A***b', gameName: 'X', iconUrl: null, winAmount: 100, extra: 1 },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json?.code).toBe('VALIDATION');
    const wrongType = await api(t.url, '/wps/dev/winners', { body: { customerName: 'A', gameName: 'X', iconUrl: null, winAmount: '100' } });
    expect(wrongType.status).toBe(400);
    const fractional = await api(t.url, '/wps/dev/winners', { body: { customerName: 'A', gameName: 'X', iconUrl: null, winAmount: 1.5 } });
    expect(fractional.status).toBe(400);
    const query = await api(t.url, '/wps/relay/GCSGAME_getRankList?limitNum=abc');
    expect(query.status).toBe(400);
    const unknownQuery = await api(t.url, '/wps/system/status?x=1');
    expect(unknownQuery.status).toBe(400);
    const repeated = await api(t.url, '/wps/relay/GCSGAME_getRankList?limitNum=1&limitNum=2');
    expect(repeated.status).toBe(400);
  });

  it("names the rule each detail broke, so that a client can say it in its own language", async () => {
    const unknown = await api(t.url, '/wps/dev/winners', { body: { customerName: 'A***b', gameName: 'X', iconUrl: null, winAmount: 100, extra: 1 } });
    expect(unknown.json).toMatchObject({ code: 'VALIDATION', details: [{ path: '', rule: 'keys' }] });
    const wrong = await api(t.url, '/wps/dev/winners', { body: { customerName: 'A', gameName: 'X', iconUrl: null, winAmount: '100' } });
    expect(wrong.json).toMatchObject({ details: [{ path: 'winAmount', rule: 'type' }] });
    const fractional = await api(t.url, '/wps/dev/winners', { body: { customerName: 'A', gameName: 'X', iconUrl: null, winAmount: 1.5 } });
    expect(fractional.json).toMatchObject({ details: [{ path: 'winAmount', rule: 'int' }] });
    const schema = z.object({ name: z.string().min(2).max(4), amount: z.number().positive().max(100), tags: z.array(z.string()).max(1), kind: z.enum(['a', 'b']), code: z.string().regex(/^x$/) });
    const r = schema.safeParse({ name: 'abcdef', amount: 0, tags: ['a', 'b'], kind: 'c', code: 'y' });
    const short = schema.safeParse({ name: 'a', amount: 101, tags: [], kind: 'a', code: 'x' });
    expect(r.success || short.success).toBe(false);
    expect(zodDetails(r.error!).map(({ path, rule, of, limit }) => ({ path, rule, of, limit }))).toEqual([
      { path: 'name', rule: 'max', of: 'string', limit: 4 },
      // a number's bound is not given (a money field's is in minor units, the form's in major)
      { path: 'amount', rule: 'min', of: 'number', limit: undefined },
      { path: 'tags', rule: 'max', of: 'array', limit: 1 },
      { path: 'kind', rule: 'value', of: undefined, limit: undefined },
      { path: 'code', rule: 'format', of: undefined, limit: undefined },
    ]);
    expect(zodDetails(short.error!).map(({ path, rule, limit }) => ({ path, rule, limit }))).toEqual([
      { path: 'name', rule: 'min', limit: 2 },
      { path: 'amount', rule: 'max', limit: undefined },
    ]);
    // the envelope's contract carries it
    expect(ZErrorEnvelope.safeParse({ success: false, code: 'VALIDATION', message: 'x', details: zodDetails(r.error!) }).success).toBe(true);
  });

  it('refuses oversized bodies with 413', async () => {
    const r = await api(t.url, '/wps/dev/winners', { body: { customerName: 'x'.repeat(200_000) } });
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers unknown API paths and merchants with the envelope', async () => {
    const r = await api(t.url, '/wps/relay/NOPE');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const m = await api(t.url, '/wps/system/status', { headers: { 'x-merchant-code': 'NOPE' } });
    expect(m.status).toBe(400);
    expect(m.json?.code).toBe('UNKNOWN_MERCHANT');
  });

  it('survives a burst of random junk without a 500', async () => {
    const paths = ['/wps/dev/winners', '/wps/dev/replay', '/wps/dev/merchant', '/wps/dev/sessions', '/wps/relay/GCSGAME_getRankList', '/wps/system/helpCenter'];
    const bodies: string[] = ['null', '[]', '"x"', '1', '{"a":{"b":[1,2,{"c":null}]}}', '{"events":[{}]}', '{"events":"x"}', '\u0000', '{"__proto__":{"x":1}}', '{"maintenance":"yes"}'];
    const statuses: number[] = [];
    for (const p of paths) {
      for (const b of bodies) {
        const r = await fetch(t.url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: b });
        statuses.push(r.status);
        const env = (await r.json()) as { success: boolean };
        expect(env.success).toBe(false);
      }
      const q = await fetch(`${t.url}${p}?limitNum[$gt]=1&lang=${'z'.repeat(5000)}`);
      statuses.push(q.status);
    }
    expect(statuses.every((s) => s >= 400 && s < 500)).toBe(true);
  });
});

describe('relay aliases (contracts RELAY_ALIASES): both readings of the spec\'s prefixed lists', () => {
  it('each alias answers as the call it stands for, and the OpenAPI document names it', async () => {
    const { RELAY_ALIASES, relayPath } = await import('@portal/contracts/api/envelope');
    const doc = (await (await fetch(`${t.url}/wps/openapi.json`)).json()) as { paths: Record<string, Record<string, { 'x-aliases'?: string[] }>> };
    for (const [alias, to] of Object.entries(RELAY_ALIASES)) {
      const ops = doc.paths[relayPath(to)];
      expect(ops, to).toBeTruthy();
      expect(Object.values(ops!).some((o) => o['x-aliases']?.includes(relayPath(alias))), alias).toBe(true);
    }
    // Open calls: the same answer under both names.
    for (const [alias, query] of [['MCS2_getPointReward', '?language=EN'], ['MCS2_getPointConfig', ''], ['MCSFE_getMissionLeaderboard', '?period=daily']] as const) {
      const a = await api(t.url, relayPath(alias) + query);
      const b = await api(t.url, relayPath(RELAY_ALIASES[alias]!) + query);
      expect(a.status, `${alias}: ${a.text}`).toBe(b.status);
      expect(a.json).toEqual(b.json);
    }
    // A member's favourites through the unprefixed names.
    const token = (await api<{ token: string }>(t.url, '/wps/dev/sessions', { body: { account: 'aliasfav1' } })).json!.value!.token;
    const games = (await api<{ games: Array<{ nodeId: string }> }>(t.url, `${relayPath('GCSGAME_gameList')}?pageNo=1&pageSize=1&language=EN`)).json!.value!.games;
    const nodeId = games[0]!.nodeId;
    const add = await api(t.url, relayPath('addFavoriteGameV2'), { body: { nodeId }, token });
    expect(add.status, add.text).toBe(200);
    const list = await api<{ list: Array<{ nodeId: string }> }>(t.url, `${relayPath('getFavoriteGamesList')}?pageNum=1&pageSize=20`, { token });
    expect(list.status, list.text).toBe(200);
    expect(JSON.stringify(list.json)).toContain(nodeId);
    // The same unknown name stays unknown.
    expect((await api(t.url, relayPath('MCS2_noSuchCall'))).status).toBe(404);
  });
});
