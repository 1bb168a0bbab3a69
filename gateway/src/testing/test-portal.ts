import { io as ioClient, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, TEventEnvelope } from '@portal/contracts/events/events';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../app/config.ts';
import { freshDatabase, requireEnv } from './fresh-database.ts';
import { createPortal, type Portal } from '../app/create-app.ts';

export type TestPortal = { portal: Portal; url: string; port: number; stop(): Promise<void> };

/**
 * A whole gateway on an ephemeral port. Embedded PGlite in memory unless env is given
 * (DATABASE_URL, REDIS_URL for the services suites).
 */
export async function startTestPortal(env: Record<string, string | undefined> = {}): Promise<TestPortal> {
  // The services suite re-runs the integration tests on real PostgreSQL (and Redis), each portal on its own database.
  let fresh: { url: string; drop(): Promise<void> } | null = null;
  if (process.env.TEST_ON_SERVICES === '1' && !env.DATABASE_URL) {
    fresh = await freshDatabase(requireEnv('DATABASE_URL'));
    env = { ...env, DATABASE_URL: fresh.url, REDIS_URL: requireEnv('REDIS_URL'), BUS_STREAM: `portal:test:${randomBytes(4).toString('hex')}` };
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: ':memory:',
    PORT: '0',
    HOST: '127.0.0.1',
    RELAY_POLL_MS: '10',
    // The demo's small catalogue keeps every test portal's start fast; catalogue tests ask for 'full'.
    SEED_CATALOGUE: 'small',
    ...env,
  });
  const portal = await createPortal(config);
  // Loopback unless the test asks for an address (HOST), e.g. to be a client from another address.
  const host = env.HOST ?? '127.0.0.1';
  const port = await portal.listen(config.PORT, host);
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    portal, port, url: `http://${urlHost}:${port}`,
    async stop() {
      await portal.stop();
      await fresh?.drop();
    },
  };
}

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents> & { received: TEventEnvelope[] };

/** A real socket.io-client connection that records every event it receives. */
export function connectSocket(url: string, auth: Record<string, unknown> = {}, opts: { reconnection?: boolean } = {}): Promise<TestSocket> {
  const socket = ioClient(url, { auth, transports: ['websocket'], reconnection: opts.reconnection ?? false, forceNew: true }) as TestSocket;
  socket.received = [];
  socket.on('event', (e) => socket.received.push(e));
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

export async function api<T = unknown>(url: string, path: string, init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(url + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  let json: { success: boolean; code?: string; message?: string; value?: T } | null = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json, text };
}
