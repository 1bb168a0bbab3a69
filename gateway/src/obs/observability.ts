import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Express, NextFunction, Request, Response } from 'express';
import { ErrorCode } from '@portal/contracts/api/errors';
import { AppError } from '../app/errors.ts';
import { sendError } from '../app/http.ts';
import type { Db } from '../db/db.ts';
import type { EventBus } from '../bus/bus.ts';
import { httpDuration, jobQueueDepth, outboxBacklog, outboxOldestPending, ready, registry } from './metrics.ts';
import { requestIdFrom, withRequestId } from './request-id.ts';

type Logger = { debug(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void; isLevelEnabled?(level: string): boolean };

const statusClass = (s: number) => (s >= 500 ? '5xx' : s >= 400 ? '4xx' : s >= 300 ? '3xx' : s >= 200 ? '2xx' : '1xx');

/**
 * First middleware of the app: the request id (a safe incoming X-Request-Id, else a new UUID) is
 * echoed in the response and, with idInEvents (REQUEST_ID_IN_EVENTS), is the current request id for
 * everything the request runs (db.tx puts it on the outbox rows it writes; AsyncLocalStorage, not free:
 * see config.ts); on close the latency goes into the histogram of the matched route
 * pattern (req.route: bounded labels, never the raw URL). Requests are logged at debug level only:
 * a line per request at info would cost the hot paths more than the rest of this middleware.
 */
export function observeHttp(log: Logger, opts: { idInEvents: boolean } = { idInEvents: true }) {
  const logRequests = log.isLevelEnabled?.('debug') ?? false;
  const bind = opts.idInEvents;
  return (req: Request, res: Response, next: NextFunction) => {
    // observeFastPath may have named this request already (a bootstrap call the cache did not answer).
    const given = res.getHeader('X-Request-Id');
    const id = typeof given === 'string' ? given : requestIdFrom(req.headers['x-request-id']);
    if (given === undefined) res.setHeader('X-Request-Id', id);
    const start = performance.now();
    res.once('close', () => {
      const seconds = (performance.now() - start) / 1000;
      const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      httpDuration.observe({ method: req.method, route, status: statusClass(res.statusCode) }, seconds);
      if (logRequests) log.debug({ reqId: id, method: req.method, route, status: res.statusCode, ms: Math.round(seconds * 1000) }, 'http request');
    });
    if (bind) withRequestId(id, next);
    else next();
  };
}

/**
 * The bootstrap cache answers before Express (create-app.ts): the request id header is set before it
 * answers; call the returned function when the cache did answer, to record its latency under its path
 * (only the fixed bootstrap paths are answered there, so the label set stays small).
 */
export function observeFastPath(req: IncomingMessage, res: ServerResponse): () => void {
  res.setHeader('X-Request-Id', requestIdFrom(req.headers['x-request-id']));
  const start = performance.now();
  return () => {
    const route = (req.url ?? '').split('?', 1)[0] ?? '';
    res.once('close', () => {
      httpDuration.observe({ method: req.method ?? 'GET', route, status: statusClass(res.statusCode) }, (performance.now() - start) / 1000);
    });
  };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Who may read /metrics: with METRICS_TOKEN set, a caller sending `Authorization: Bearer <token>`;
 * without it, only a caller on this machine's loopback that did not come through a proxy (a request
 * relayed by nginx on the same host arrives from loopback too, but carries X-Forwarded-For).
 */
export function mayReadMetrics(req: Request, token: string | undefined): boolean {
  if (token) {
    const got = Buffer.from(req.headers.authorization ?? '');
    const want = Buffer.from(`Bearer ${token}`);
    return got.length === want.length && timingSafeEqual(got, want);
  }
  const proxied = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined || req.headers['x-real-ip'] !== undefined;
  return !proxied && LOOPBACK.test(req.socket.remoteAddress ?? '');
}

export type ReadinessDeps = {
  db: Db;
  bus: EventBus;
  relay: { isRunning(): boolean };
  nodeId: string;
  /** True once the node is shutting down: it stops taking traffic before it closes anything. */
  isStopping(): boolean;
};

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'db', 'migrations');
const READY_DB_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), ms); })]).finally(() => clearTimeout(timer));
}

/**
 * Readiness: may a load balancer send this node traffic now? Each check by name; all must pass.
 * db: the database answers (within 2 s); migrations: every migration file of this build is applied;
 * bus: the event bus is connected; relay: the outbox relay is running (not stopped, last pass did not
 * fail); stopping: the node is not shutting down.
 */
export async function readiness(deps: ReadinessDeps, migrationFiles: Promise<string[]>) {
  const checks: Record<string, boolean> = { db: false, migrations: false, bus: deps.bus.isReady?.() ?? true, relay: deps.relay.isRunning(), stopping: !deps.isStopping() };
  try {
    const files = await migrationFiles;
    const r = await withTimeout(deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations WHERE name = ANY($1::text[])', [files]), READY_DB_TIMEOUT_MS);
    checks.db = true;
    checks.migrations = r.rows[0]?.n === files.length;
  } catch {
    // db stays false (and migrations with it)
  }
  return { ready: Object.values(checks).every(Boolean), checks };
}

/** Cluster-wide gauges read from the database when /metrics is scraped (both statements use small or indexed sets). */
async function scrapeDb(db: Db) {
  const [backlog, jobs] = await Promise.all([
    db.query<{ n: number; age: number | null }>(
      `SELECT count(*)::int AS n, EXTRACT(EPOCH FROM now() - min(o.at))::float8 AS age
       FROM outbox_pending p JOIN outbox o ON o.pos = p.pos`),
    db.query<{ due: number; later: number }>(
      `SELECT count(*) FILTER (WHERE run_at <= now())::int AS due, count(*) FILTER (WHERE run_at > now())::int AS later
       FROM jobs WHERE done_at IS NULL AND failed_at IS NULL`),
  ]);
  outboxBacklog.set(backlog.rows[0]?.n ?? 0);
  outboxOldestPending.set(Math.max(0, backlog.rows[0]?.age ?? 0));
  jobQueueDepth.set({ state: 'due' }, jobs.rows[0]?.due ?? 0);
  jobQueueDepth.set({ state: 'scheduled' }, jobs.rows[0]?.later ?? 0);
}

/**
 * GET /healthz (liveness: the process answers), GET /readyz (readiness, 200 or 503 with the checks)
 * and GET /metrics (Prometheus text; see mayReadMetrics for who may read it).
 */
export function mountObservability(app: Express, deps: ReadinessDeps & { log: Logger; metricsToken: string | undefined }) {
  const migrationFiles = readdir(MIGRATIONS_DIR).then((f) => f.filter((x) => /^\d{3}_.+\.sql$/.test(x)));
  migrationFiles.catch(() => undefined);
  app.get('/healthz', (_req: Request, res: Response) => {
    res.json({ success: true, value: { status: 'ok', node: deps.nodeId, db: deps.db.kind, bus: deps.bus.kind } });
  });
  app.get('/readyz', async (_req: Request, res: Response) => {
    const r = await readiness(deps, migrationFiles);
    ready.set({ node: deps.nodeId }, r.ready ? 1 : 0);
    res.setHeader('Cache-Control', 'no-store');
    if (r.ready) res.json({ success: true, value: { status: 'ready', node: deps.nodeId, checks: r.checks } });
    else res.status(503).json({ success: false, code: ErrorCode.NOT_READY, message: 'Not ready', value: { node: deps.nodeId, checks: r.checks } });
  });
  app.get('/metrics', async (req: Request, res: Response) => {
    if (!mayReadMetrics(req, deps.metricsToken)) return sendError(res, new AppError(ErrorCode.FORBIDDEN));
    try {
      await withTimeout(scrapeDb(deps.db), READY_DB_TIMEOUT_MS);
    } catch (err) {
      // The in-process series are still worth serving; the database gauges keep their last values.
      deps.log.warn({ err }, 'metrics: database gauges not read');
    }
    const r = await readiness(deps, migrationFiles);
    ready.set({ node: deps.nodeId }, r.ready ? 1 : 0);
    res.setHeader('Content-Type', registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(await registry.metrics());
  });
}
