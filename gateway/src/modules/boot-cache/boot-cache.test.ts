import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { defineCall } from '@portal/contracts/api/envelope';
import { cacheAudience, type TEventEnvelope } from '@portal/contracts/events/events';
import { loadConfig } from '../../app/config.ts';
import { createPortal, type Portal } from '../../app/create-app.ts';
import { errorHandler } from '../../app/http.ts';
import { createMemoryBus, type EventBus } from '../../bus/bus.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { aliasDb, type Db } from '../../db/db.ts';
import { migratedPgliteDb } from '../../testing/pglite-snapshot.ts';
import { migrate } from '../../db/migrate.ts';
import { api, waitFor } from '../../testing/test-portal.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { createBootCache, matchesEtag } from './boot-cache.ts';

/**
 * Two gateway nodes on one embedded database, sharing the in-process bus: node B has its own handle
 * on the database (aliasDb), so it hears of node A's commits only from the bus, as it would on
 * PostgreSQL and Redis (the services suite runs the same on real ones: boot-cache.services.test.ts).
 */
let db: Db;
let bus: ReturnType<typeof gatedBus>;

/** The in-process bus, which a test can hold (events queue until resume): then only local commits reach the cache. */
function gatedBus(): EventBus & { pause(): void; resume(): Promise<void> } {
  const inner = createMemoryBus();
  let queue: TEventEnvelope[][] | null = null;
  return {
    kind: 'memory',
    publish: async (events) => {
      if (queue) queue.push(events);
      else await inner.publish(events);
    },
    subscribe: (h) => inner.subscribe(h),
    start: () => inner.start(),
    close: () => inner.close(),
    pause() {
      queue = [];
    },
    async resume() {
      const q = queue ?? [];
      queue = null;
      for (const events of q) await inner.publish(events);
    },
  };
}
let a: { portal: Portal; url: string };
let b: { portal: Portal; url: string };

const HOT = '/wps/relay/GCSGAME_hotGamesV2?isPlatform=1&platform=html5&language=TY';
const RANK = '/wps/relay/GCSGAME_getRankList?gameCategory=ALL&language=TY&limitNum=20';
const ANN = '/wps/relay/MCSFE_getListAnnouncements?types=B%2CPL%2CPU%2CPR&platform=W&language=EN';

async function get(url: string, path: string, headers: Record<string, string> = {}) {
  const r = await fetch(url + path, { headers });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, json: text ? JSON.parse(text) : null };
}

/** Resolves when the shared bus has carried an event matching `pred` (after the nodes' own handlers ran). */
function busEvent(pred: (e: TEventEnvelope) => boolean): Promise<TEventEnvelope> {
  return new Promise((resolve) => {
    const off = bus.subscribe((events) => {
      const e = events.find(pred);
      if (e) {
        off();
        resolve(e);
      }
    });
  });
}

beforeAll(async () => {
  db = await migratedPgliteDb();
  await migrate(db);
  bus = gatedBus();
  await bus.start();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: ':memory:', PORT: '0', HOST: '127.0.0.1', RELAY_POLL_MS: '10', SEED_CATALOGUE: 'small' });
  const pa = await createPortal({ ...config, NODE_ID: 'node-a' }, { db, bus });
  const pb = await createPortal({ ...config, NODE_ID: 'node-b' }, { db: aliasDb(db), bus });
  a = { portal: pa, url: `http://127.0.0.1:${await pa.listen(0, '127.0.0.1')}` };
  b = { portal: pb, url: `http://127.0.0.1:${await pb.listen(0, '127.0.0.1')}` };
}, 180_000);
afterAll(async () => {
  await a?.portal.stop();
  await b?.portal.stop();
  await bus?.close();
  await db?.close();
});

describe('bootstrap calls answer from memory', () => {
  it('sends the same bytes with a strong ETag, loads once, and answers 304 to If-None-Match', async () => {
    const first = await get(a.url, HOT);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const loads = a.portal.bootCache.stats.loads;
    const again = await get(a.url, HOT);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('etag')).toBe(etag);
    expect(a.portal.bootCache.stats.loads).toBe(loads);
    // The language and platform the client sends do not change the hot list: one entry.
    await get(a.url, '/wps/relay/GCSGAME_hotGamesV2?language=EN');
    expect(a.portal.bootCache.stats.loads).toBe(loads);
    const revalidated = await get(a.url, HOT, { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe('');
    expect(revalidated.headers.get('etag')).toBe(etag);
    expect((await get(a.url, HOT, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('splices the visitor address and host name into the stored bytes', async () => {
    const s1 = await get(a.url, '/wps/system/status');
    expect(s1.json.value).toEqual({ systemStatus: 0, ip: '127.0.0.1' });
    const byIp = await api<{ info: { domainRoute: string }; location: { ip: string } }>(a.url, '/wps/system/domainRoute', { headers: { host: 'LuckyPeso.example' } });
    expect(byIp.json!.value!.info.domainRoute).toBe('luckypeso.example');
    const byLocal = await api<{ info: { domainRoute: string }; location: { ip: string } }>(a.url, '/wps/system/domainRoute', { headers: { host: 'localhost:1234' } });
    expect(byLocal.json!.value!.info.domainRoute).toBe('localhost');
    expect(byLocal.json!.value!.location.ip).toBe('127.0.0.1');
  });

  it('keeps the security headers on answers served from memory', async () => {
    await get(a.url, '/wps/system/whitelabel');
    const loads = a.portal.bootCache.stats.loads;
    const hit = await get(a.url, '/wps/system/whitelabel');
    expect(a.portal.bootCache.stats.loads).toBe(loads);
    const viaExpress = await get(a.url, '/healthz');
    for (const h of ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cross-origin-resource-policy', 'cross-origin-opener-policy', 'strict-transport-security']) {
      expect(hit.headers.get(h), h).toBe(viaExpress.headers.get(h));
    }
    expect(hit.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(hit.headers.get('x-powered-by')).toBeNull();
  });

  it('gives members their popups and visitors theirs, whatever was asked first', async () => {
    const member = (await api<{ token: string }>(a.url, '/wps/dev/sessions', { body: { account: 'bootcache01' } })).json!.value!;
    const other = (await api<{ token: string }>(a.url, '/wps/dev/sessions', { body: { account: 'bootcache02' } })).json!.value!;
    const asMember = await get(a.url, ANN, { authorization: `Bearer ${member.token}` });
    const asVisitor = await get(a.url, ANN);
    const asOther = await get(a.url, ANN, { authorization: `Bearer ${other.token}` });
    const titles = (r: { json: { value: { popup: Array<{ title: string }> } } }) => r.json.value.popup.map((p) => p.title);
    expect(titles(asMember)).toEqual(['Weekend reload', 'Your first steps']);
    expect(titles(asVisitor)).toEqual(['Welcome to LuckyPeso']);
    expect(asOther.text).toBe(asMember.text);
    expect(asVisitor.headers.get('etag')).not.toBe(asMember.headers.get('etag'));
    // A token that is no session is a visitor.
    expect((await get(a.url, ANN, { authorization: `Bearer ${'x'.repeat(43)}` })).text).toBe(asVisitor.text);
  });
});

describe('invalidation', () => {
  it('shows an operator change on the next call on the same node, and on the other node once the bus carried it', async () => {
    const before = await get(a.url, '/wps/system/whitelabel');
    await get(b.url, '/wps/system/whitelabel');
    const flag = before.json.value.security.botCheck as boolean;
    const arrived = busEvent((e) => e.type === 'content.changed' && e.audience === cacheAudience('DEMO'));
    await api(a.url, '/wps/dev/merchant', { body: { security: { botCheck: !flag } } });
    expect((await get(a.url, '/wps/system/whitelabel')).json.value.security.botCheck).toBe(!flag);
    await arrived;
    expect((await get(b.url, '/wps/system/whitelabel')).json.value.security.botCheck).toBe(!flag);
    expect((await get(b.url, '/wps/system/whitelabel')).headers.get('etag')).not.toBe(before.headers.get('etag'));
    await api(a.url, '/wps/dev/merchant', { body: { security: { botCheck: flag } } });
    expect((await get(a.url, '/wps/system/whitelabel')).json.value.security.botCheck).toBe(flag);
  });

  it('closes the cached game calls during maintenance on both nodes, and reopens them', async () => {
    expect((await get(a.url, HOT)).status).toBe(200);
    expect((await get(b.url, HOT)).status).toBe(200);
    const on = busEvent((e) => e.type === 'content.changed' && e.audience === cacheAudience('DEMO'));
    await api(a.url, '/wps/dev/merchant', { body: { maintenance: true, maintenanceMessage: 'Back soon' } });
    expect((await get(a.url, HOT)).json.code).toBe('MAINTENANCE');
    expect((await get(a.url, '/wps/system/status')).json.value).toEqual({ systemStatus: 1, ip: '127.0.0.1', message: 'Back soon' });
    await on;
    expect((await get(b.url, HOT)).json.code).toBe('MAINTENANCE');
    expect((await get(b.url, '/wps/system/status')).json.value.systemStatus).toBe(1);
    const off = busEvent((e) => e.type === 'content.changed' && e.audience === cacheAudience('DEMO'));
    await api(a.url, '/wps/dev/merchant', { body: { maintenance: false } });
    expect((await get(a.url, HOT)).status).toBe(200);
    await off;
    expect((await get(b.url, '/wps/system/status')).json.value).toEqual({ systemStatus: 0, ip: '127.0.0.1' });
    expect((await get(b.url, HOT)).status).toBe(200);
  });

  it('puts a new winner on the board at once on the node that wrote it and on the other after the bus', async () => {
    await get(a.url, RANK);
    await get(b.url, RANK);
    const posted = busEvent((e) => e.type === 'winner.posted');
    // The bus held: node B sees its own commit without it.
    bus.pause();
    const w = (await api<{ id: string }>(b.url, '/wps/dev/winners', { body: { customerName: 'Bo***e', gameName: 'Fortune Gems', iconUrl: null, winAmount: 777_700 } })).json!.value!;
    expect((await get(b.url, RANK)).json.value.list[0].id).toBe(w.id);
    await bus.resume();
    await posted;
    expect((await get(a.url, RANK)).json.value.list[0].id).toBe(w.id);
  });

  it('serves nothing stale after an invalidation, and a miss storm makes one load', async () => {
    const old = await get(a.url, HOT);
    const top = old.json.value.list[0].nodeId as string;
    // An operator's catalogue change: hot_rank of the first game moves to the end, announced in the same transaction.
    const changed = busEvent((e) => e.type === 'content.changed');
    bus.pause();
    await a.portal.db.tx(async (tx) => {
      await tx.query("UPDATE games SET hot_rank = 999 WHERE merchant_code = 'DEMO' AND node_id = $1", [top]);
      await emitEvent(tx, 'DEMO', cacheAudience('DEMO'), 'content.changed', { scopes: ['games'] });
    });
    const loads = a.portal.bootCache.stats.loads;
    const storm = await Promise.all(Array.from({ length: 40 }, () => get(a.url, HOT)));
    expect(a.portal.bootCache.stats.loads).toBe(loads + 1);
    for (const r of storm) {
      expect(r.status).toBe(200);
      expect(r.json.value.list[0].nodeId).not.toBe(top);
      expect(r.text).toBe(storm[0]!.text);
    }
    await bus.resume();
    await changed;
    const onB = await get(b.url, HOT);
    expect(onB.text).toBe(storm[0]!.text);
    expect(onB.headers.get('etag')).toBe(storm[0]!.headers.get('etag'));
  });

  it('ends a cached announcement list when the next announcement starts', async () => {
    const before = await get(a.url, ANN);
    expect(before.json.value.notices.some((n: { title: string }) => n.title === 'Starts soon')).toBe(false);
    // An operator schedules an announcement a second ahead (announced as a content change).
    await a.portal.db.tx(async (tx) => {
      await tx.query(
        `INSERT INTO announcements (merchant_code, kind, language, title, content, sort, start_at) VALUES ('DEMO', 'PL', 'EN', 'Starts soon', 'x', 99, now() + interval '1 second')`,
      );
      await emitEvent(tx, 'DEMO', cacheAudience('DEMO'), 'content.changed', { scopes: ['content'] });
    });
    // Not yet: and the list stored now must end by itself when it starts (no event comes then).
    expect((await get(a.url, ANN)).json.value.notices.some((n: { title: string }) => n.title === 'Starts soon')).toBe(false);
    const seen = await (async () => {
      for (let i = 0; i < 300; i++) {
        const r = await get(a.url, ANN);
        if (r.json.value.notices.some((n: { title: string }) => n.title === 'Starts soon')) return true;
        await new Promise((res) => setTimeout(res, 20));
      }
      return false;
    })();
    expect(seen).toBe(true);
  });
});

describe('the cache itself', () => {
  const merchant = { code: 'M1' } as Merchant;
  const def = defineCall({ method: 'GET', path: '/t', auth: false, query: z.object({}).strict(), value: z.object({ n: z.number() }) });

  async function serve(cache: ReturnType<typeof createBootCache>): Promise<{ url: string; server: Server }> {
    const app = express();
    app.use((req: Request, _res: Response, next: NextFunction) => {
      req.ctx = { merchant, ip: '127.0.0.1', session: null, token: null };
      next();
    });
    return new Promise((resolve) => {
      const server = createServer(app);
      cache.mount(app as never, spec);
      app.use(errorHandler({ error: () => undefined }));
      server.listen(0, '127.0.0.1', () => {
        const ad = server.address();
        resolve({ server, url: `http://127.0.0.1:${typeof ad === 'object' && ad ? ad.port : 0}` });
      });
    });
  }
  let value = 1;
  let hold: Promise<void> | null = null;
  const spec = {
    def, scopes: ['games' as const],
    load: async () => {
      const n = value;
      if (hold) await hold;
      return { value: { n } };
    },
  };

  it('hands a load overtaken by an invalidation to its waiters but never stores it', async () => {
    const cache = createBootCache();
    const { url, server } = await serve(cache);
    try {
      let release!: () => void;
      hold = new Promise<void>((r) => { release = r; });
      const slow = get(url, '/t');
      await waitFor(() => cache.stats.loads === 1, 'load started');
      value = 2;
      cache.invalidate('M1', ['games']);
      hold = null;
      release();
      expect((await slow).json.value.n).toBe(1);
      expect((await get(url, '/t')).json.value.n).toBe(2);
      expect(cache.stats.loads).toBe(2);
      // Another scope leaves the entry alone.
      cache.invalidate('M1', ['winners']);
      expect((await get(url, '/t')).json.value.n).toBe(2);
      expect(cache.stats.loads).toBe(2);
    } finally {
      server.close();
    }
  });

  it('compares If-None-Match as RFC 9110 asks', () => {
    expect(matchesEtag('"a"', '"a"')).toBe(true);
    expect(matchesEtag('W/"a"', '"a"')).toBe(true);
    expect(matchesEtag('"b", "a"', '"a"')).toBe(true);
    expect(matchesEtag('*', '"a"')).toBe(true);
    expect(matchesEtag('"b"', '"a"')).toBe(false);
    expect(matchesEtag(undefined, '"a"')).toBe(false);
  });
});
