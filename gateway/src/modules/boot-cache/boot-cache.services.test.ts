import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TEventEnvelope } from '@portal/contracts/events/events';
import { runImport } from '../../cli/catalogue-import.ts';
import { freshDatabase, requireEnv } from '../../testing/fresh-database.ts';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import type { TCatalogueFile } from '../games/catalogue.ts';
import { signedInOperator } from '../../testing/vendor-suite.ts';

/**
 * The bootstrap cache on two gateway nodes sharing one PostgreSQL database and one Redis Streams bus:
 * a change made through the real write path (dev merchant route, winner, the catalogue import
 * command in its own process-like run, a provider connected on /ops/providers) shows on the next call of the node that made it, and on the
 * other node as soon as the bus has carried the event there, never the old bytes after that.
 */
const DATABASE_URL = requireEnv('DATABASE_URL');
const REDIS_URL = requireEnv('REDIS_URL');

let db: { url: string; drop(): Promise<void> };
let env: Record<string, string>;
let a: TestPortal;
let b: TestPortal;

const HOT = '/wps/relay/GCSGAME_hotGamesV2?language=TY';
const RANK = '/wps/relay/GCSGAME_getRankList?limitNum=20';

async function get(url: string, p: string, headers: Record<string, string> = {}) {
  const r = await fetch(url + p, { headers });
  const text = await r.text();
  return { status: r.status, etag: r.headers.get('etag'), text, json: text ? JSON.parse(text) : null };
}

/** Resolves when `t`'s bus has handed it an event matching pred (its cache handler subscribed first, so it ran). */
function arrivesOn(t: TestPortal, pred: (e: TEventEnvelope) => boolean): Promise<TEventEnvelope> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('event never reached the node')), 20_000);
    const off = t.portal.bus.subscribe((events) => {
      const e = events.find(pred);
      if (e) {
        clearTimeout(timer);
        off();
        resolve(e);
      }
    });
  });
}

beforeAll(async () => {
  db = await freshDatabase(DATABASE_URL);
  env = { DATABASE_URL: db.url, REDIS_URL, BUS_STREAM: `portal:test:${randomBytes(4).toString('hex')}` };
  a = await startTestPortal({ ...env, NODE_ID: 'node-a' });
  b = await startTestPortal({ ...env, NODE_ID: 'node-b' });
});
afterAll(async () => {
  await Promise.allSettled([a?.stop(), b?.stop()]);
  await db?.drop();
});

describe('bootstrap cache on two nodes (PostgreSQL + Redis Streams)', () => {
  it('shows a merchant change made on node A on A at once and on B once the bus delivered it', async () => {
    const before = await get(b.url, '/wps/system/whitelabel');
    await get(a.url, '/wps/system/whitelabel');
    expect(before.json.value.modules.FREEPLAY3).toBeTypeOf('boolean');
    const flag = before.json.value.modules.FREEPLAY3 as boolean;
    const onB = arrivesOn(b, (e) => e.type === 'content.changed');
    await api(a.url, '/wps/dev/merchant', { body: { modules: { FREEPLAY3: !flag } } });
    expect((await get(a.url, '/wps/system/whitelabel')).json.value.modules.FREEPLAY3).toBe(!flag);
    await onB;
    const after = await get(b.url, '/wps/system/whitelabel');
    expect(after.json.value.modules.FREEPLAY3).toBe(!flag);
    expect(after.etag).not.toBe(before.etag);
    // An If-None-Match with the old ETag is not answered 304.
    expect((await get(b.url, '/wps/system/whitelabel', { 'if-none-match': before.etag! })).status).toBe(200);
  });

  it('puts a winner posted on B on the board of A', async () => {
    await get(a.url, RANK);
    const onA = arrivesOn(a, (e) => e.type === 'winner.posted');
    const w = (await api<{ id: string }>(b.url, '/wps/dev/winners', { body: { customerName: 'Se***s', gameName: 'Fortune Gems', iconUrl: null, winAmount: 123_400 } })).json!.value!;
    expect((await get(b.url, RANK)).json.value.list[0].id).toBe(w.id);
    await onA;
    expect((await get(a.url, RANK)).json.value.list[0].id).toBe(w.id);
  });

  it('drops cached hot games on both nodes when the catalogue import command changes them', async () => {
    const hotA = await get(a.url, HOT);
    const hotB = await get(b.url, HOT);
    expect(hotB.text).toBe(hotA.text);
    const vendorsBefore = await get(a.url, '/wps/relay/GCSGAME_gameVendor');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bootcache-'));
    try {
      const file = path.join(dir, 'cat.json');
      const cat: TCatalogueFile = {
        version: 1,
        vendors: [{ vassalage: 'BCV', gameType: 'RNG', gameCategory: 'SLOT', displayName: 'Boot Cache Vendor', iconUrl: null, sort: -100 }],
        games: [{
          nodeId: 'BCV-HOT1', vassalage: 'BCV', gameCode: 'HOT1', isGame: 'GAME', gameType: 'RNG', gameClassify: null,
          gameName: 'Cache Buster', iconUrl: null, hotRank: 1, minBet: null, sort: -100,
        }],
      };
      writeFileSync(file, JSON.stringify(cat));
      // Its provider is connected: players are shown connected providers' games only.
      await a.portal.db.query(`INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url) VALUES ('DEMO', 'BCV', $1, 'https://vendor.example/play')`, ['b'.repeat(64)]);
      const onA = arrivesOn(a, (e) => e.type === 'content.changed');
      const onB = arrivesOn(b, (e) => e.type === 'content.changed');
      const r = await runImport([file, '--merchant', 'DEMO'], { ...process.env, ...env, NODE_ENV: 'test' }, () => undefined);
      expect(r.changed).toBe(2);
      // The command has no bus: a running node relays its outbox row to every node.
      await Promise.all([onA, onB]);
      for (const t of [a, b]) {
        const hot = await get(t.url, HOT);
        expect(hot.json.value.list.map((g: { nodeId: string }) => g.nodeId)).toContain('BCV-HOT1');
        const vendors = await get(t.url, '/wps/relay/GCSGAME_gameVendor');
        expect(vendors.etag).not.toBe(vendorsBefore.etag);
        expect(vendors.text).toContain('Boot Cache Vendor');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows a provider connected on node A on both nodes, and drops it from both when disconnected', async () => {
    const vendor = (await a.portal.db.query<{ vassalage: string }>(
      `SELECT vassalage FROM games WHERE merchant_code = 'DEMO' AND vassalage NOT IN ('HOUSE', 'BCV') AND hot_rank IS NOT NULL
       GROUP BY vassalage ORDER BY count(*) DESC, vassalage LIMIT 1`)).rows[0]!.vassalage;
    const hotVendors = async (t: TestPortal) => ((await get(t.url, HOT)).json.value.list as Array<{ vassalage: string }>).map((g) => g.vassalage);
    // Both nodes hold the answer without it (players are shown connected providers only).
    for (const t of [a, b]) expect(await hotVendors(t)).not.toContain(vendor);
    const admin = await signedInOperator(a, 'bc_provider_admin', 'Provider12345', ['administrator']);
    const isGames = (e: TEventEnvelope) => e.type === 'system.changed' && (e.payload as { parts: string[] }).parts.includes('games');
    let onB = arrivesOn(b, isGames);
    const on = await api(a.url, '/ops/api/providers/connect', { token: admin, body: { vendor, launchUrl: 'https://games.example.com/launch' } });
    expect(on.status, on.text).toBe(200);
    expect(await hotVendors(a)).toContain(vendor);
    await onB;
    expect(await hotVendors(b)).toContain(vendor);
    onB = arrivesOn(b, isGames);
    const off = await api(a.url, '/ops/api/providers/disconnect', { token: admin, body: { vendor, reason: 'Contract ended' } });
    expect(off.status, off.text).toBe(200);
    expect(await hotVendors(a)).not.toContain(vendor);
    await onB;
    expect(await hotVendors(b)).not.toContain(vendor);
  });
});
