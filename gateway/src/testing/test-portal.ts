import { io as ioClient, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, TEventEnvelope } from '@portal/contracts/events/events';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { loadConfig } from '../app/config.ts';
import { freshDatabase, requireEnv } from './fresh-database.ts';
import { createPortal, type Portal } from '../app/create-app.ts';
import { createPgDb } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { createPasswordHasher } from '../modules/auth/password-hasher.ts';
import { insertProductionFixture, type ProductionFixture } from './production-fixture.ts';
import { migratedPgliteDb, seededPgliteDb } from './pglite-snapshot.ts';

export type TestPortal = { portal: Portal; url: string; port: number; stop(): Promise<void> };

/**
 * A whole gateway on an ephemeral port. Embedded PGlite in memory unless env is given
 * (DATABASE_URL, REDIS_URL for the services suites).
 */
export async function startTestPortal(env: Record<string, string | undefined> = {}): Promise<TestPortal> {
  const defaults = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: ':memory:',
    PORT: '0',
    HOST: '127.0.0.1',
    RELAY_POLL_MS: '10',
    // The demo's small catalogue keeps every test portal's start fast; catalogue tests ask for 'full'.
    SEED_CATALOGUE: 'small',
  };
  // A portal that seeds exactly the test demo (SEED=demo, small catalogue, NODE_ENV=test) starts from the
  // run's seeded copy (tests/global-setup.ts); its own seed then finds the merchant and writes nothing.
  const asked = loadConfig({ ...defaults, ...env });
  const seeded = asked.SEED === 'demo' && asked.SEED_CATALOGUE === 'small' && asked.NODE_ENV === 'test';
  // The services suite re-runs the integration tests on real PostgreSQL (and Redis), each portal on its own database.
  let fresh: { url: string; drop(): Promise<void> } | null = null;
  if (process.env.TEST_ON_SERVICES === '1' && !env.DATABASE_URL) {
    fresh = await freshDatabase(requireEnv('DATABASE_URL'), { migrated: true, seeded });
    env = { ...env, DATABASE_URL: fresh.url, REDIS_URL: requireEnv('REDIS_URL'), BUS_STREAM: `portal:test:${randomBytes(4).toString('hex')}` };
  }
  // On services the environment gained the database, Redis and stream of the fresh database: read it again.
  const config = fresh ? loadConfig({ ...defaults, ...env }) : asked;
  // In memory, the portal's own PGlite starts from a dump (pglite-snapshot.ts): no initdb, no migrations to run, and no seed when seeded.
  const db = !config.DATABASE_URL && config.DATA_DIR === ':memory:' ? await (seeded ? seededPgliteDb() : migratedPgliteDb()) : null;
  const portal = await createPortal(config, db ? { db } : {});
  // Loopback unless the test asks for an address (HOST), e.g. to be a client from another address.
  const host = env.HOST ?? '127.0.0.1';
  const port = await portal.listen(config.PORT, host);
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    portal, port, url: `http://${urlHost}:${port}`,
    async stop() {
      await portal.stop();
      await db?.close();
      await fresh?.drop();
    },
  };
}

export type ProductionTestPortal = TestPortal & { fixture: ProductionFixture };

/**
 * A gateway in production mode (NODE_ENV=production: no dev routes, dev tap or dev SMS/e-mail sinks)
 * with what production requires: no demo seed (SEED=none), secrets from the environment, and its
 * merchant and accounts written to the database before the portal starts (see production-fixture.ts);
 * no payment simulator (production refuses PAYMENT_SIM_SECRET).
 * No SMS gateway or SMTP is configured unless env gives SMTP_URL. Requests to 127.0.0.1 reach the
 * fixture merchant as the default; link-sending calls must say `host: PRODUCTION_TEST_DOMAIN`.
 */
export async function startProductionTestPortal(env: Record<string, string | undefined> = {}): Promise<ProductionTestPortal> {
  let fresh: { url: string; drop(): Promise<void> } | null = null;
  if (process.env.TEST_ON_SERVICES === '1' && !env.DATABASE_URL) {
    fresh = await freshDatabase(requireEnv('DATABASE_URL'), { migrated: true });
    env = { ...env, DATABASE_URL: fresh.url, REDIS_URL: requireEnv('REDIS_URL'), BUS_STREAM: `portal:test:${randomBytes(4).toString('hex')}` };
  }
  const config = loadConfig({
    NODE_ENV: 'production',
    SEED: 'none',
    LOG_LEVEL: 'silent',
    DATA_DIR: ':memory:',
    PORT: '0',
    HOST: '127.0.0.1',
    RELAY_POLL_MS: '10',
    HOUSE_VENDOR_SECRET: randomBytes(24).toString('hex'),
    ...env,
  });
  const db = config.DATABASE_URL ? createPgDb(config.DATABASE_URL, config.DB_POOL_SIZE) : await migratedPgliteDb();
  await migrate(db);
  const fixture = await insertProductionFixture(db, createPasswordHasher({ concurrency: 2 }));
  const portal = await createPortal(config, { db });
  const port = await portal.listen(config.PORT, '127.0.0.1');
  return {
    portal, port, fixture, url: `http://127.0.0.1:${port}`,
    async stop() {
      await portal.stop();
      await db.close();
      await fresh?.drop();
    },
  };
}

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents> & {
  received: TEventEnvelope[];
  /** The event frames in arrival order: `event` (count 1) or `events` with how many it carried. */
  frames: Array<{ name: 'event' | 'events'; count: number }>;
};

/** A real socket.io-client connection that records every event it receives. */
export function connectSocket(url: string, auth: Record<string, unknown> = {}, opts: { reconnection?: boolean } = {}): Promise<TestSocket> {
  const socket = ioClient(url, { auth, transports: ['websocket'], reconnection: opts.reconnection ?? false, forceNew: true }) as TestSocket;
  socket.received = [];
  socket.frames = [];
  socket.on('event', (e) => {
    socket.received.push(e);
    socket.frames.push({ name: 'event', count: 1 });
  });
  socket.on('events', (es) => {
    socket.received.push(...es);
    socket.frames.push({ name: 'events', count: es.length });
  });
  return new Promise((resolve, reject) => {
    socket.once('hello', () => resolve(socket));
    socket.once('connect_error', (err) => reject(err));
  });
}

/** Wait until `pred` holds, polling; fails with `what` after `ms`. */
export async function waitFor<T>(pred: () => T | undefined | null | false, what: string, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = pred();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * One HTTP call with the envelope parsed. A `host` header is sent as given (fetch would replace it
 * with the URL's), so tests can speak as a browser that reached the portal under another name.
 */
export async function api<T = unknown>(url: string, path: string, init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = {
    ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    ...init.headers,
  };
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const res = Object.keys(headers).some((h) => h.toLowerCase() === 'host')
    ? await rawRequest(url + path, method, headers, body)
    : await fetch(url + path, { method, headers, ...(body !== undefined ? { body } : {}) }).then(async (r) => ({ status: r.status, text: await r.text() }));
  const text = res.text;
  let json: { success: boolean; code?: string; message?: string; value?: T } | null = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json, text };
}

function rawRequest(url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
