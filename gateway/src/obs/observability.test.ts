import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { api, connectSocket, startTestPortal, waitFor, type TestPortal, type TestSocket } from '../testing/test-portal.ts';
import { transfer } from '../modules/wallet/ledger.ts';
import { signVendorRequest } from '../modules/provider/vendor-routes.ts';
import { TEAM_ROLLUP_JOB } from '../modules/agents/team-stats.ts';
import { mayReadMetrics } from './observability.ts';

/**
 * GET /metrics exposes the portal's series and they move when the portal is used; /readyz tells
 * ready from not ready; X-Request-Id is echoed and reaches the envelope of the events it causes.
 */
let t: TestPortal;
const VENDOR = 'OBSV';
const secret = randomBytes(32).toString('hex');
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await startTestPortal();
  await t.portal.db.query(`INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url) VALUES ('DEMO', $1, $2, 'https://vendor.example/play')`, [VENDOR, secret]);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t?.stop();
});

async function scrape(): Promise<string> {
  const r = await fetch(`${t.url}/metrics`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
  return r.text();
}

/** Sum of the samples of `name` whose labels include every given label (0 when there is none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

const node = () => t.portal.config.NODE_ID;

async function member() {
  const s = (await api<{ memberId: number; token: string }>(t.url, '/wps/dev/sessions', { body: { account: `obs${Date.now() % 1e7}${randomBytes(2).toString('hex')}` } })).json!.value!;
  return s;
}

describe('GET /metrics', () => {
  it('exposes the named series', async () => {
    const text = await scrape();
    for (const name of [
      'portal_http_request_duration_seconds', 'portal_vendor_request_duration_seconds', 'portal_vendor_calls_total', 'portal_sockets_connected',
      'portal_events_published_total', 'portal_events_received_total', 'portal_events_delivered_total', 'portal_relay_lag_seconds',
      'portal_outbox_backlog', 'portal_outbox_oldest_pending_seconds', 'portal_job_queue_depth', 'portal_ledger_transfers_total',
      'portal_login_failures_total', 'portal_ready', 'portal_socket_call_duration_seconds', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds',
    ]) expect(text).toContain(`# TYPE ${name} `);
  });

  it('reads the job queue depth from the database at scrape time', async () => {
    const before = sample(await scrape(), 'portal_job_queue_depth', { state: 'scheduled' });
    // The team rollup is idempotent (a fold up to now): a run an hour from now is harmless, and this test ends long before.
    expect(await t.portal.jobs.enqueue(TEAM_ROLLUP_JOB, {}, { key: 'obs-later', runAt: new Date(Date.now() + 3600_000) })).toBe(true);
    expect(sample(await scrape(), 'portal_job_queue_depth', { state: 'scheduled' })).toBe(before + 1);
  });

  it('counts HTTP calls by route pattern, never by raw URL', async () => {
    const route = { route: '/wps/v2/withdrawals/:id', method: 'GET' };
    const before = sample(await scrape(), 'portal_http_request_duration_seconds_count', route);
    const s = await member();
    const r = await api(t.url, '/wps/v2/withdrawals/12345', { token: s.token });
    expect(r.status).toBe(404);
    const text = await scrape();
    expect(sample(text, 'portal_http_request_duration_seconds_count', route)).toBe(before + 1);
    expect(sample(text, 'portal_http_request_duration_seconds_count', { ...route, status: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('/wps/v2/withdrawals/12345');
  });

  it('counts a refused login by its code', async () => {
    const before = await scrape();
    const r = await api(t.url, '/wps/session/login', { body: { username: 'player01', password: 'definitely-not-it' } });
    expect(r.status).toBeGreaterThanOrEqual(400);
    const code = r.json!.code!;
    const after = await scrape();
    expect(sample(after, 'portal_login_failures_total', { code })).toBe(sample(before, 'portal_login_failures_total', { code }) + 1);
    expect(sample(after, 'portal_login_failures_total')).toBe(sample(before, 'portal_login_failures_total') + 1);
  });

  it('counts sockets, ledger transfers, published and delivered events', async () => {
    const s = await member();
    const before = await scrape();
    const socket = await connectSocket(t.url, { token: s.token });
    sockets.push(socket);
    const connected = await scrape();
    expect(sample(connected, 'portal_sockets_connected', { node: node() })).toBe(sample(before, 'portal_sockets_connected', { node: node() }) + 1);

    await t.portal.db.tx((tx) => transfer(tx, {
      merchant: 'DEMO', currency: 'PHP', key: `obs-${randomBytes(6).toString('hex')}`, kind: 'deposit', amount: 500, debit: { system: 'deposit' }, credit: { member: s.memberId },
    }));
    await waitFor(() => socket.received.find((e) => e.type === 'balance.changed'), 'balance.changed on the member socket');
    const after = await scrape();
    expect(sample(after, 'portal_ledger_transfers_total', { source: 'ledger' })).toBe(sample(before, 'portal_ledger_transfers_total', { source: 'ledger' }) + 1);
    expect(sample(after, 'portal_events_published_total', { node: node() })).toBeGreaterThan(sample(before, 'portal_events_published_total', { node: node() }));
    expect(sample(after, 'portal_events_delivered_total', { node: node() })).toBeGreaterThan(sample(before, 'portal_events_delivered_total', { node: node() }));
    expect(sample(after, 'portal_relay_lag_seconds_count', { node: node() })).toBeGreaterThan(sample(before, 'portal_relay_lag_seconds_count', { node: node() }));

    socket.disconnect();
    const gone = await scrape();
    // The server sees the close a moment later; the gauge comes back down.
    let now = sample(gone, 'portal_sockets_connected', { node: node() });
    for (let i = 0; i < 100 && now !== sample(before, 'portal_sockets_connected', { node: node() }); i++) {
      await new Promise((r) => setTimeout(r, 20));
      now = sample(await scrape(), 'portal_sockets_connected', { node: node() });
    }
    expect(now).toBe(sample(before, 'portal_sockets_connected', { node: node() }));
  });

  it('counts vendor calls by call and outcome, and a vendor money call as a ledger transfer', async () => {
    const s = await member();
    const before = await scrape();
    const call = async (path: string, body: unknown, key = secret) => {
      const raw = JSON.stringify(body);
      const ts = Math.floor(Date.now() / 1000);
      return fetch(`${t.url}/vendor/v1/${VENDOR}/${path}`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-timestamp': String(ts), 'x-signature': signVendorRequest(key, ts, raw) }, body: raw,
      });
    };
    expect((await call('balance', { playerId: String(s.memberId) })).status).toBe(200);
    expect((await call('balance', { playerId: String(s.memberId) }, 'f'.repeat(64))).status).toBe(401);
    // A win needs a bet of the round: refused, and no money moved.
    expect((await call('win', { transactionId: `w-${randomBytes(4).toString('hex')}`, playerId: String(s.memberId), roundId: 'r1', gameCode: 'G1', amount: 10 })).status).toBe(409);
    const after = await scrape();
    const delta = (labels: Record<string, string>) => sample(after, 'portal_vendor_calls_total', labels) - sample(before, 'portal_vendor_calls_total', labels);
    expect(delta({ call: 'balance', outcome: 'ok' })).toBe(1);
    expect(delta({ call: 'balance', outcome: 'SIGNATURE_INVALID' })).toBe(1);
    expect(delta({ call: 'win', outcome: 'BET_NOT_FOUND' })).toBe(1);
    expect(sample(after, 'portal_vendor_request_duration_seconds_count', { call: 'balance' })).toBe(sample(before, 'portal_vendor_request_duration_seconds_count', { call: 'balance' }) + 2);
    expect(sample(after, 'portal_ledger_transfers_total', { source: 'vendor' })).toBe(sample(before, 'portal_ledger_transfers_total', { source: 'vendor' }));
  });

  it('is refused to a proxied caller and, with METRICS_TOKEN, to a caller without the token', async () => {
    const r = await fetch(`${t.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(r.status).toBe(403);
    expect(((await r.json()) as { code: string }).code).toBe('FORBIDDEN');
    const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ headers, socket: { remoteAddress } }) as unknown as Request;
    expect(mayReadMetrics(req('127.0.0.1'), undefined)).toBe(true);
    expect(mayReadMetrics(req('::ffff:127.0.0.1'), undefined)).toBe(true);
    expect(mayReadMetrics(req('10.1.2.3'), undefined)).toBe(false);
    expect(mayReadMetrics(req('127.0.0.1', { 'x-real-ip': '1.2.3.4' }), undefined)).toBe(false);
    const token = 'a'.repeat(32);
    expect(mayReadMetrics(req('10.1.2.3', { authorization: `Bearer ${token}` }), token)).toBe(true);
    expect(mayReadMetrics(req('127.0.0.1'), token)).toBe(false);
    expect(mayReadMetrics(req('10.1.2.3', { authorization: `Bearer ${'b'.repeat(32)}` }), token)).toBe(false);
  });
});

describe('X-Request-Id', () => {
  it('is echoed, and the events the request causes carry it in their envelope', async () => {
    const socket = await connectSocket(t.url, {});
    sockets.push(socket);
    const id = `req-${randomBytes(6).toString('hex')}`;
    const r = await fetch(`${t.url}/wps/dev/winners`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': id },
      body: JSON.stringify({ iconUrl: null, winAmount: 1234, gameName: 'Obs Slot', customerName: 'o***s' }),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-request-id')).toBe(id);
    const e = await waitFor(() => socket.received.find((x) => x.type === 'winner.posted' && (x.payload as { gameName: string }).gameName === 'Obs Slot'), 'winner.posted');
    expect(e.requestId).toBe(id);
    const row = await t.portal.db.query<{ request_id: string | null }>('SELECT request_id FROM outbox WHERE id = $1', [e.id]);
    expect(row.rows[0]!.request_id).toBe(id);
    // A transaction outside any request leaves it empty, and the setting does not leak to the next one.
    const s = await member();
    await t.portal.db.tx((tx) => transfer(tx, {
      merchant: 'DEMO', currency: 'PHP', key: `obs-${randomBytes(6).toString('hex')}`, kind: 'deposit', amount: 100, debit: { system: 'deposit' }, credit: { member: s.memberId },
    }));
    const plain = await t.portal.db.query<{ request_id: string | null }>(
      `SELECT request_id FROM outbox WHERE audience = $1 AND type = 'balance.changed' ORDER BY pos DESC LIMIT 1`, [`user:${s.memberId}`]);
    expect(plain.rows[0]!.request_id).toBeNull();
  });

  it('is made when the caller sends none or an unsafe one', async () => {
    const none = await fetch(`${t.url}/wps/system/status`);
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    for (const bad of ['has space', 'x'.repeat(65), "quote'"]) {
      const r = await fetch(`${t.url}/wps/system/status`, { headers: { 'x-request-id': bad } });
      const echoed = r.headers.get('x-request-id');
      expect(echoed).not.toBe(bad);
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    }
    const vendor = await fetch(`${t.url}/vendor/v1/openapi.json`, { headers: { 'x-request-id': 'vendor-req-1' } });
    expect(vendor.headers.get('x-request-id')).toBe('vendor-req-1');
  });
});

describe('GET /healthz and /readyz', () => {
  it('readiness is 200 with every check passing, then 503 once the relay stops; liveness stays 200', async () => {
    const ok = await api<{ status: string; checks: Record<string, boolean> }>(t.url, '/readyz');
    expect(ok.status).toBe(200);
    expect(ok.json!.value!.checks).toEqual({ db: true, migrations: true, bus: true, relay: true, stopping: true });
    expect(sample(await scrape(), 'portal_ready', { node: node() })).toBe(1);

    await t.portal.relay.stop();
    const down = await api<{ checks: Record<string, boolean> }>(t.url, '/readyz');
    expect(down.status).toBe(503);
    expect(down.json!.code).toBe('NOT_READY');
    expect(down.json!.value!.checks.relay).toBe(false);
    expect(down.json!.value!.checks.db).toBe(true);
    expect(sample(await scrape(), 'portal_ready', { node: node() })).toBe(0);
    expect((await api(t.url, '/healthz')).status).toBe(200);
  });

  it('is 503 when a migration of this build is not applied', async () => {
    await t.portal.db.query(`DELETE FROM schema_migrations WHERE name = '034_outbox_request_id.sql'`);
    try {
      const down = await api<{ checks: Record<string, boolean> }>(t.url, '/readyz');
      expect(down.status).toBe(503);
      expect(down.json!.value!.checks.migrations).toBe(false);
    } finally {
      await t.portal.db.query(`INSERT INTO schema_migrations (name) VALUES ('034_outbox_request_id.sql')`);
    }
  });
});

describe('Grafana dashboard (infra/grafana/portal-dashboard.json)', () => {
  it('plots every portal series, and only series the gateway exposes', async () => {
    const { readFile } = await import('node:fs/promises');
    const { registry } = await import('./metrics.ts');
    const dash = JSON.parse(await readFile(new URL('../../../infra/grafana/portal-dashboard.json', import.meta.url), 'utf8')) as { panels: Array<{ targets?: Array<{ expr: string }> }> };
    const exprs = dash.panels.flatMap((p) => p.targets ?? []).map((x) => x.expr);
    const used = new Set(exprs.flatMap((e) => [...e.matchAll(/\b(portal_[a-z_]+?)(?:_bucket|_count|_sum)?\{/g)].map((m) => m[1]!)));
    const exposed = new Set((await registry.getMetricsAsJSON()).map((m) => m.name).filter((n) => n.startsWith('portal_')));
    expect([...used].filter((n) => !exposed.has(n))).toEqual([]);
    expect([...exposed].filter((n) => !used.has(n))).toEqual([]);
  });
});

describe('REQUEST_ID_IN_EVENTS', () => {
  it('is off by default in production (AsyncLocalStorage costs every promise), on elsewhere, and can be set', async () => {
    const { loadConfig } = await import('../app/config.ts');
    expect(loadConfig({ NODE_ENV: 'production' }).REQUEST_ID_IN_EVENTS).toBe('off');
    expect(loadConfig({ NODE_ENV: 'production', REQUEST_ID_IN_EVENTS: 'on' }).REQUEST_ID_IN_EVENTS).toBe('on');
    expect(loadConfig({ NODE_ENV: 'development' }).REQUEST_ID_IN_EVENTS).toBe('on');
    expect(loadConfig({ NODE_ENV: 'test', REQUEST_ID_IN_EVENTS: 'off' }).REQUEST_ID_IN_EVENTS).toBe('off');
  });
});
