/**
 * `npm run bench -- --engagement [--section envelopes,wagering] [--sockets N] [--clients P] [--dup-every K] [--grab socket|http]
 * [--rate R] [--seconds S] [--members M] [--cpu-prof FILE] [--out FILE]`: engagement workloads on the real gateway over real
 * PostgreSQL, one SECTION each, each printed beside a bare baseline. Sections run in the order given
 * (default: all). wagering: see wageringSection (bonus wagering and mission progress lag).
 *
 * envelopes: red envelope grab storm.
 *   1. A gateway child (createPortal: migrations, outbox relay, Socket.IO; production mode; demo merchant
 *      seeded without its accounts) on a throwaway PostgreSQL database (or DATABASE_URL), N members with
 *      sessions (default 10,000).
 *   2. P client worker processes (default 2) open N socket.io-client websocket connections, one member each.
 *   3. The gateway child drops ONE envelope with N shares to every player (the service an operator's
 *      /ops/api/envelopes call runs: house -> escrow, shares split, `envelope.dropped` to the merchant room).
 *   4. Each socket, when the drop event reaches it, grabs at once: over that socket (`envelope:grab`
 *      with an ack, the page's path; --grab socket, the default) or over HTTP (POST
 *      /wps/envelopes/:id/grab, --grab http); every K-th socket (default 20) clicks twice, and the
 *      second click must be refused.
 *   5. Figures: drop commit -> last grab answered (the "within one second" target), grabs/s, grab latency
 *      p50/p99 (from the drop event reaching that socket to the grab's answer), and the checks: each
 *      member at most once, zero over-grab (successes <= shares, no share claimed twice), total exact
 *      (the shares claimed and the ledger credits both sum to the total, escrow back to zero).
 *   Baseline: the same number of requests, arriving at once, each ONE single-row UPDATE on PostgreSQL
 *   (10,000 rows, each updated once) through a pool of the gateway's size (20 connections): the floor a
 *   grab (red_envelope_grab: checks, claim, ledger transfer, two events, in one statement) is measured
 *   against. Between the two: the same N grabs as service calls without HTTP, sessions or sockets (a
 *   second envelope to the same members, all started at once on the gateway's pool of 20), which tells
 *   the database's share of a grab from the HTTP path's. Over the socket (the default), a second baseline:
 *   the same storm (same client processes, sockets and frames) against a bare Socket.IO server with an
 *   in-memory claim and nothing durable (bareRole): the transport's floor on the machine, printed beside
 *   the gateway's window with both servers' and the clients' CPU during each storm.
 *   --cpu-prof FILE: a V8 CPU profile of the gateway child from the drop to the last grab answered
 *   (summary: tests/bench/prof-summary.ts).
 * Prints the load average before and after: the machine is shared, read the figures with it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { latencyStats, sleep, wallMs, type LatencyStats, type Req, type Res } from './common.ts';
import { preparePg, textTable } from './pg-gateway.ts';
import { probeHandlers } from './child-common.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROLE = process.env.ENGAGEMENT_ROLE;

// ---------------------------------------------------------------- IPC
function serve(handlers: Record<string, (args: any) => unknown>) {
  process.on('message', async (m: Req) => {
    try {
      const h = handlers[m.cmd];
      if (!h) throw new Error(`unknown command ${m.cmd}`);
      process.send!({ reqId: m.reqId, ok: true, value: await h(m.args) } satisfies Res);
    } catch (err) {
      process.send!({ reqId: m.reqId, ok: false, error: err instanceof Error ? err.stack ?? err.message : String(err) } satisfies Res);
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({ reqId: 0, ok: true, value: 'ready' } satisfies Res);
}

type Child = { proc: ChildProcess; ask<T>(cmd: string, args?: unknown): Promise<T> };
const children: ChildProcess[] = [];
async function spawnChild(role: string, env: Record<string, string>): Promise<Child> {
  const proc = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx', '--max-old-space-size=4096'], env: { ...process.env, ...env, ENGAGEMENT_ROLE: role }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(proc);
  let next = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const ready = new Promise<void>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${role} exited (${code}) while starting`)));
    proc.on('message', (m: Res) => {
      if (m.reqId === 0) return resolve();
      const w = waiting.get(m.reqId);
      waiting.delete(m.reqId);
      if (m.ok) w?.resolve(m.value);
      else w?.reject(new Error(`${role}: ${m.error}`));
    });
  });
  await ready;
  return {
    proc,
    ask<T>(cmd: string, args?: unknown) {
      const reqId = next++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(reqId, { resolve: resolve as (v: unknown) => void, reject });
        proc.send({ reqId, cmd, args } satisfies Req);
      });
    },
  };
}
function killChildren() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

// ---------------------------------------------------------------- gateway child
async function gatewayRole() {
  const { loadConfig } = await import('@portal/gateway/app/config');
  const { startSeededPortal } = await import('./seeded-portal.ts');
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'warn', SEED: 'none', ...process.env, PORT: '0', HOST: '127.0.0.1', REDIS_URL: '' });
  const portal = await startSeededPortal(config, 'small');
  const port = await portal.listen(0, '127.0.0.1');
  const merchant = (await portal.merchants.resolve({}))!;
  const db = portal.db;
  const tag = Date.now().toString(36);
  let memberIds: number[] = [];
  let drops = 0;
  async function drop({ total, count }: { total: number; count: number }) {
    const op = (await db.query<{ id: number; username: string }>(
      `INSERT INTO operators (merchant_code, username, password_hash, roles, must_change_password) VALUES ($1, $2, 'unused', ARRAY['content'], false) RETURNING id, username`,
      [merchant.code, `bench${tag}${Math.floor(Math.random() * 1e6)}`])).rows[0]!;
    const t0 = wallMs();
    const r = await portal.envelopes.drop(
      { id: Number(op.id), merchantCode: merchant.code, username: op.username, roles: ['content'], mustChangePassword: false, totpEnrolled: true },
      merchant, { totalAmount: total, count, minShare: 1, expiresInMinutes: 60, audience: { kind: 'all' }, message: { en: 'Benchmark' }, requestId: `bench-${tag}-${count}-${++drops}` });
    return { envelopeId: r.envelope.envelopeId, committedAt: wallMs(), dropMs: wallMs() - t0 };
  }
  serve({
    ...probeHandlers(),
    info: async () => ({ port, merchant: merchant.code }),
    async members({ n }: { n: number }) {
      const t0 = wallMs();
      const r = await db.query<{ id: number }>(
        `INSERT INTO members (merchant_code, account, account_lower, nickname, type) SELECT $1, $2 || g, $2 || g, $2 || g, 0 FROM generate_series(1, $3::int) g RETURNING id`,
        [merchant.code, `env${tag}_`, n]);
      memberIds = r.rows.map((x) => Number(x.id));
      const tokens: string[] = new Array(memberIds.length);
      let k = 0;
      await Promise.all(Array.from({ length: 16 }, async () => {
        while (k < memberIds.length) {
          const i = k++;
          tokens[i] = await portal.sessions.create(memberIds[i]!, merchant.code);
        }
      }));
      return { tokens, ms: wallMs() - t0 };
    },
    drop,
    /** The grab service's counters (statements, batched grabs, joined second clicks, reruns) and the envelope's envelope.left broadcasts. */
    async grabStats({ envelopeId }: { envelopeId: string }) {
      const left = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE type = 'envelope.left' AND payload->>'envelopeId' = $1`, [envelopeId])).rows[0]!.n;
      return { ...portal.envelopes.stats, leftBroadcasts: left };
    },
    async verify({ envelopeId, total }: { envelopeId: string; total: number }) {
      // ONE statement, so one snapshot: grabs still committing cannot fall between the claims, the
      // credits and the escrow read.
      const r = (await db.query<{ n: number; members: number; sum: string; shares: number; credits: number; credit_sum: string; escrow: string }>(
        `WITH s AS (
           SELECT count(member_id)::int AS n, count(DISTINCT member_id)::int AS members,
                  COALESCE(sum(amount) FILTER (WHERE member_id IS NOT NULL), 0)::bigint AS sum, count(*)::int AS shares
             FROM red_envelope_shares WHERE envelope_id = $1),
         c AS (SELECT count(*)::int AS credits, COALESCE(sum(amount), 0)::bigint AS credit_sum FROM ledger_transfers
                WHERE kind = 'envelope.grab' AND idempotency_key LIKE $2),
         e AS (SELECT COALESCE(sum(balance), 0)::bigint AS escrow FROM ledger_accounts WHERE kind = 'envelope' AND merchant_code = $3)
         SELECT * FROM s, c, e`, [envelopeId, `envelope:${envelopeId}:%`, merchant.code])).rows[0]!;
      return { claimed: r.n, distinctMembers: r.members, claimedSum: Number(r.sum), shares: r.shares, credits: r.credits, creditSum: Number(r.credit_sum), escrow: Number(r.escrow), total };
    },
    /**
     * The grab without HTTP, sessions and sockets: a second envelope of n shares to the same members,
     * every member's grab service call started at once on the gateway's own pool: what is left is the
     * database's share of a grab.
     */
    async direct({ total }: { total: number }) {
      const d = await drop({ total, count: memberIds.length });
      const t0 = wallMs();
      const lat = await Promise.all(memberIds.map(async (id) => {
        const ok = await portal.envelopes.grab(merchant, id, Number(d.envelopeId)).then(() => true, () => false);
        return { ok, ms: wallMs() - t0 };
      }));
      const ms = wallMs() - t0;
      return { ms, ok: lat.filter((x) => x.ok).length, latency: latencyStats(lat.map((x) => x.ms)) };
    },
    async stop() {
      setTimeout(() => void portal.stop().then(() => process.exit(0)), 10);
      return true;
    },
  });
}

// ---------------------------------------------------------------- client worker
type GrabOutcome = { status: number; code: string | null; ms: number; doneAt: number };
async function clientRole() {
  const { io } = await import('socket.io-client');
  type Sock = ReturnType<typeof io>;
  let sockets: Sock[] = [];
  let outcomes: GrabOutcome[] = [];
  let received = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 1000 });
  let url = '';
  let via: 'socket' | 'http' = 'socket';
  function grab(token: string, s: Sock, envelopeId: string, t0: number): Promise<GrabOutcome> {
    if (via === 'socket') {
      return new Promise((resolve) => {
        s.timeout(120_000).emit('envelope:grab', { envelopeId }, (err: Error | null, reply: { success: boolean; code?: string }) => {
          const t = wallMs();
          if (err) return resolve({ status: 0, code: err.message, ms: t - t0, doneAt: t });
          resolve({ status: reply.success ? 200 : 400, code: reply.success ? null : reply.code ?? null, ms: t - t0, doneAt: t });
        });
      });
    }
    return new Promise((resolve) => {
      const req = request(`${url}/wps/envelopes/${envelopeId}/grab`, {
        method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': '2', authorization: `Bearer ${token}` },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const t = wallMs();
          let code: string | null = null;
          try {
            code = (JSON.parse(Buffer.concat(chunks).toString()) as { code?: string }).code ?? null;
          } catch { /* not JSON */ }
          resolve({ status: res.statusCode ?? 0, code, ms: t - t0, doneAt: t });
        });
      });
      req.on('error', (err) => resolve({ status: 0, code: err.message, ms: wallMs() - t0, doneAt: wallMs() }));
      req.end('{}');
    });
  }
  serve({
    cpu: () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    },
    async connect({ base, tokens, dupEvery, offset, grabVia }: { base: string; tokens: string[]; dupEvery: number; offset: number; grabVia: 'socket' | 'http' }) {
      url = base;
      via = grabVia;
      const t0 = wallMs();
      let i = 0;
      const open = async (token: string, k: number) => {
        const s = io(base, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true, timeout: 180_000 });
        const onEvent = (e: { type: string; payload: { envelopeId: string } }) => {
          if (e.type !== 'envelope.dropped') return;
          received++;
          const at = wallMs();
          const clicks = (offset + k) % dupEvery === 0 ? 2 : 1;
          for (let c = 0; c < clicks; c++) void grab(token, s, e.payload.envelopeId, at).then((o) => outcomes.push(o));
        };
        s.on('event', onEvent);
        s.on('events', (es: Array<Parameters<typeof onEvent>[0]>) => es.forEach(onEvent));
        await new Promise<void>((resolve, reject) => {
          s.once('hello', () => resolve());
          s.once('connect_error', reject);
        });
        return s;
      };
      // 64 handshakes in flight at a time: what a crowd of arriving players looks like to the server.
      sockets = new Array(tokens.length);
      await Promise.all(Array.from({ length: 64 }, async () => {
        while (i < tokens.length) {
          const k = i++;
          sockets[k] = await open(tokens[k]!, k);
        }
      }));
      return { ms: wallMs() - t0 };
    },
    async collect({ expected, timeoutMs }: { expected: number; timeoutMs: number }) {
      const end = wallMs() + timeoutMs;
      while (outcomes.length < expected && wallMs() < end) await sleep(50);
      const out = { outcomes, received };
      outcomes = [];
      return out;
    },
    async close() {
      for (const s of sockets) s?.close();
      sockets = [];
      agent.destroy();
      return true;
    },
  });
}

// ---------------------------------------------------------------- baseline: bare Socket.IO grab server
/**
 * The storm's transport floor: a bare Socket.IO server (same version and options as the gateway, its own
 * process), no database, no outbox, no sessions. The drop is one broadcast to the merchant room; a grab
 * (`envelope:grab` with an ack) claims the next share of an in-memory list (each member once, a second
 * click refused), sends the player's room the same two events a grab commits (balance.changed,
 * envelope.grabbed, the gateway's envelope shape) in one `events` frame and answers the ack. The same
 * frames as the gateway writes (its fan-out sends consecutive events of one audience as one `events`
 * frame), with nothing durable behind them.
 */
async function bareRole() {
  const { createServer } = await import('node:http');
  const { randomBytes, randomUUID } = await import('node:crypto');
  const { Server } = await import('socket.io');
  const http = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  const io = new Server(http, { serveClient: false, maxHttpBufferSize: 16 * 1024, pingInterval: 10_000, pingTimeout: 8_000 });
  const byToken = new Map<string, number>();
  const seqs = new Map<string, number>();
  let shares: number[] = [];
  let next = 0;
  let envelopeId = 0;
  const grabbed = new Set<number>();
  const balances = new Map<number, number>();
  const envelope = (audience: string, type: string, payload: Record<string, unknown>) => {
    const seq = (seqs.get(audience) ?? 0) + 1;
    seqs.set(audience, seq);
    return { id: randomUUID(), type, v: 1, audience, seq, at: new Date().toISOString(), payload };
  };
  io.use((socket, nextMw) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const memberId = typeof token === 'string' ? byToken.get(token) : undefined;
    if (memberId === undefined) return nextMw(new Error('UNAUTHORIZED'));
    socket.data = { memberId };
    nextMw();
  });
  io.on('connection', (socket) => {
    const { memberId } = socket.data as { memberId: number };
    const audiences = ['merchant:DEMO', `user:${memberId}`];
    socket.join(audiences);
    socket.emit('hello', { memberId, merchantCode: 'DEMO', audiences, nodeId: 'bare' });
    socket.on('envelope:grab', (req: { envelopeId?: unknown }, ack: (r: unknown) => void) => {
      if (typeof ack !== 'function') return void socket.disconnect(true);
      if (String(req?.envelopeId) !== String(envelopeId)) return ack({ success: false, code: 'NOT_FOUND', message: 'no such envelope' });
      if (grabbed.has(memberId)) return ack({ success: false, code: 'ENVELOPE_ALREADY_GRABBED', message: 'already grabbed' });
      if (next >= shares.length) return ack({ success: false, code: 'ENVELOPE_EMPTY', message: 'empty' });
      grabbed.add(memberId);
      const amount = shares[next++]!;
      const balance = (balances.get(memberId) ?? 0) + amount;
      balances.set(memberId, balance);
      const room = `user:${memberId}`;
      const transferId = String(next);
      // The grab's two events in one `events` frame, as the gateway's fan-out sends consecutive events of one audience.
      io.to(room).emit('events', [
        envelope(room, 'balance.changed', { memberId, currency: 'PHP', balance, available: balance, delta: amount, reason: 'envelope.grab', transferId }),
        envelope(room, 'envelope.grabbed', { envelopeId: String(envelopeId), amount, transferId }),
      ]);
      ack({ success: true, value: { envelopeId: String(envelopeId), amount, balance, available: balance, transferId } });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const addr = http.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  serve({
    ...probeHandlers(),
    info: async () => ({ port }),
    async members({ n }: { n: number }) {
      const tokens: string[] = [];
      for (let i = 1; i <= n; i++) {
        const t = randomBytes(32).toString('base64url');
        byToken.set(t, i);
        tokens.push(t);
      }
      return { tokens, ms: 0 };
    },
    async drop({ total, count }: { total: number; count: number }) {
      envelopeId++;
      shares = Array.from({ length: count }, (_, i) => Math.floor(total / count) + (i < total % count ? 1 : 0));
      next = 0;
      grabbed.clear();
      const committedAt = wallMs();
      const id = String(envelopeId);
      io.to('merchant:DEMO').emit('event', envelope('merchant:DEMO', 'envelope.dropped', { envelopeId: id, left: count, count }));
      return { envelopeId: id, committedAt, dropMs: 0 };
    },
    async verify() {
      return { claimed: next, distinctMembers: grabbed.size, shares: shares.length };
    },
    async stop() {
      setTimeout(() => process.exit(0), 10);
      return true;
    },
  });
}

// ---------------------------------------------------------------- baseline: single-row UPDATEs
async function bareUpdates(url: string, n: number, poolSize: number): Promise<{ ms: number; perSec: number; latency: LatencyStats }> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client's connection ended by the database's drop (WITH FORCE) must not end the bench with an
  // unhandled 'error' (seen once after a 10,000-socket run, once its figures were printed).
  pool.on('error', () => undefined);
  await pool.query('CREATE TABLE IF NOT EXISTS bench_bare_rows (id int PRIMARY KEY, claimed_by int)');
  await pool.query('TRUNCATE bench_bare_rows');
  await pool.query('INSERT INTO bench_bare_rows (id) SELECT g FROM generate_series(1, $1::int) g', [n]);
  await Promise.all(Array.from({ length: poolSize }, () => pool.query('SELECT 1')));
  const t0 = wallMs();
  const lat = await Promise.all(Array.from({ length: n }, async (_, i) => {
    await pool.query('UPDATE bench_bare_rows SET claimed_by = $2 WHERE id = $1 AND claimed_by IS NULL', [i + 1, i + 1]);
    return wallMs() - t0;
  }));
  const ms = wallMs() - t0;
  await pool.query('DROP TABLE bench_bare_rows');
  await pool.end();
  return { ms, perSec: (n * 1000) / ms, latency: latencyStats(lat) };
}

// ---------------------------------------------------------------- sections
type Opts = { sockets: number; clients: number; dupEvery: number; grabVia: 'socket' | 'http'; out: string; sections: string[]; rate: number; seconds: number; members: number; cpuProf: string | null };
type SectionResult = { name: string; lines: string[]; data: Record<string, unknown>; ok: boolean };

type Storm = {
  clients: Child[]; connectMs: number; drop: { envelopeId: string; committedAt: number; dropMs: number }; outcomes: GrabOutcome[]; received: number;
  ok: GrabOutcome[]; refusedDup: number; other: GrabOutcome[]; windowMs: number; reached: LatencyStats; latency: LatencyStats;
  /** CPU seconds (all threads) from just before the drop to the last answer collected: the server's, and the client processes' together. */
  serverCpuS: number; clientsCpuS: number;
};
/**
 * One storm against a server child (the gateway or the bare server): the client processes open a socket
 * per token, the server drops one envelope of n shares, every socket grabs when the drop reaches it (every
 * dupEvery-th twice), and the answers are collected. The clients are left open (close them when the
 * server's side has been read).
 */
async function storm(server: Child, base: string, tokens: string[], total: number, o: Opts, prof: boolean): Promise<Storm> {
  const n = tokens.length;
  const clients: Child[] = [];
  for (let c = 0; c < o.clients; c++) clients.push(await spawnChild('client', {}));
  const per = Math.ceil(n / o.clients);
  const t0 = wallMs();
  await Promise.all(clients.map((c, k) => c.ask('connect', { base, tokens: tokens.slice(k * per, (k + 1) * per), dupEvery: o.dupEvery, offset: k * per, grabVia: o.grabVia })));
  const connectMs = wallMs() - t0;
  if (prof) await server.ask('profStart');
  const cpu = async () => [await server.ask<number>('cpu'), (await Promise.all(clients.map((c) => c.ask<number>('cpu')))).reduce((a, x) => a + x, 0)] as const;
  const cpu0 = await cpu();
  const drop = await server.ask<{ envelopeId: string; committedAt: number; dropMs: number }>('drop', { total, count: n });
  const results = await Promise.all(clients.map((c, k) => c.ask<{ outcomes: GrabOutcome[]; received: number }>('collect', {
    expected: Math.min(per, n - k * per) + tokens.slice(k * per, (k + 1) * per).filter((_, i) => (k * per + i) % o.dupEvery === 0).length, timeoutMs: 120_000,
  })));
  const cpu1 = await cpu();
  if (prof) {
    mkdirSync(path.dirname(o.cpuProf!), { recursive: true });
    await server.ask('profStop', o.cpuProf);
  }
  const outcomes = results.flatMap((r) => r.outcomes);
  const received = results.reduce((a, r) => a + r.received, 0);
  const ok = outcomes.filter((x) => x.status === 200);
  const refusedDup = outcomes.filter((x) => x.code === 'ENVELOPE_ALREADY_GRABBED').length;
  const other = outcomes.filter((x) => x.status !== 200 && x.code !== 'ENVELOPE_ALREADY_GRABBED');
  const lastDone = Math.max(...outcomes.map((x) => x.doneAt));
  // When the drop reached each socket (its grab starts then: doneAt - ms), from the drop's commit: the
  // fan-out's share of the window.
  const reached = latencyStats(outcomes.map((x) => x.doneAt - x.ms - drop.committedAt));
  return {
    clients, connectMs, drop, outcomes, received, ok, refusedDup, other, windowMs: lastDone - drop.committedAt, reached, latency: latencyStats(ok.map((x) => x.ms)),
    serverCpuS: cpu1[0] - cpu0[0], clientsCpuS: cpu1[1] - cpu0[1],
  };
}

async function envelopesSection(o: Opts, db: { url: string }): Promise<SectionResult> {
  const n = o.sockets;
  const total = n * 1_000 + 12_345;
  const gw = await spawnChild('gateway', { DATABASE_URL: db.url });
  const { port } = await gw.ask<{ port: number }>('info');
  const base = `http://127.0.0.1:${port}`;
  const { tokens, ms: setupMs } = await gw.ask<{ tokens: string[]; ms: number }>('members', { n });
  const dups = Array.from({ length: n }, (_, i) => i).filter((i) => i % o.dupEvery === 0).length;
  const { clients, connectMs, drop, outcomes, received, ok, refusedDup, other, windowMs, reached, latency, serverCpuS, clientsCpuS } = await storm(gw, base, tokens, total, o, !!o.cpuProf);
  // The clients stop first (requests they gave up on or saw reset may still be running in the
  // gateway); then the check waits until the claims stop moving (two reads 1 s apart alike).
  for (const c of clients) await c.ask('close').catch(() => undefined);
  type Verify = { claimed: number; distinctMembers: number; claimedSum: number; shares: number; credits: number; creditSum: number; escrow: number; total: number };
  let v = await gw.ask<Verify>('verify', { envelopeId: drop.envelopeId, total });
  for (let i = 0; i < 60; i++) {
    await sleep(1000);
    const again = await gw.ask<Verify>('verify', { envelopeId: drop.envelopeId, total });
    const still = again.claimed === v.claimed;
    v = again;
    if (still) break;
  }
  type GrabStats = { grabBatches: number; grabsBatched: number; grabsJoined: number; grabsBusy: number; grabsAfterBatchError: number; grabRetries: number; leftBroadcasts: number };
  const gs = await gw.ask<GrabStats>('grabStats', { envelopeId: drop.envelopeId });
  const direct = await gw.ask<{ ms: number; ok: number; latency: LatencyStats }>('direct', { total });
  await gw.ask('stop').catch(() => undefined);
  await sleep(500);
  killChildren();
  const bare = await bareUpdates(db.url, n, 20);
  // The transport floor: the same storm (same sockets, client processes and frames) against a bare
  // Socket.IO server with nothing durable behind it (bareRole). Over the socket only.
  let bareIo: (Pick<Storm, 'windowMs' | 'reached' | 'latency' | 'refusedDup' | 'serverCpuS' | 'clientsCpuS'> & { requests: number; ok: number; claimed: number; distinct: number }) | null = null;
  if (o.grabVia === 'socket') {
    const b = await spawnChild('bare', {});
    const { port: bport } = await b.ask<{ port: number }>('info');
    const { tokens: btokens } = await b.ask<{ tokens: string[] }>('members', { n });
    const r = await storm(b, `http://127.0.0.1:${bport}`, btokens, total, o, false);
    for (const c of r.clients) await c.ask('close').catch(() => undefined);
    const bv = await b.ask<{ claimed: number; distinctMembers: number }>('verify');
    bareIo = { windowMs: r.windowMs, reached: r.reached, latency: r.latency, refusedDup: r.refusedDup, serverCpuS: r.serverCpuS, clientsCpuS: r.clientsCpuS, requests: r.outcomes.length, ok: r.ok.length, claimed: bv.claimed, distinct: bv.distinctMembers };
    await b.ask('stop').catch(() => undefined);
    await sleep(200);
    killChildren();
  }
  const overGrab = Math.max(0, ok.length - v.shares) + (v.claimed - v.distinctMembers);
  const checks = {
    // at most one share per member: every claimed share a distinct member, one success per claim
    // (a grab the client stopped waiting for may still have been paid: answered <= claimed)
    eachOnce: v.distinctMembers === v.claimed && ok.length <= v.claimed,
    zeroOverGrab: overGrab === 0 && v.claimed <= v.shares,
    // what was claimed was credited to the cent, and claimed + still in escrow is the total
    totalExact: v.claimedSum === v.creditSum && v.claimedSum + v.escrow === total,
  };
  const f = (x: number) => x.toFixed(1);
  const lines = [
    `red envelope: ${n} sockets (${o.clients} client processes), ${n} shares, total ${total}; setup ${(setupMs / 1000).toFixed(1)} s, connect ${(connectMs / 1000).toFixed(1)} s, drop ${f(drop.dropMs)} ms`,
    textTable(['', 'requests', 'answered', 'window ms', 'per s', 'p50 ms', 'p99 ms', 'max ms'], [
      [o.grabVia === 'socket' ? 'gateway grab (socket envelope:grab, batched)' : 'gateway grab (HTTP, batched per envelope)', String(outcomes.length), String(ok.length), f(windowMs), f((outcomes.length * 1000) / windowMs), f(latency.p50), f(latency.p99), f(latency.max)],
      ['grab service call (no HTTP), pool 20', String(n), String(direct.ok), f(direct.ms), f((n * 1000) / direct.ms), f(direct.latency.p50), f(direct.latency.p99), f(direct.latency.max)],
      ['bare single-row UPDATE (pg, pool 20)', String(n), String(n), f(bare.ms), f(bare.perSec), f(bare.latency.p50), f(bare.latency.p99), f(bare.latency.max)],
      ...(bareIo ? [['bare Socket.IO grab (in memory, same frames)', String(bareIo.requests), String(bareIo.ok), f(bareIo.windowMs), f((bareIo.requests * 1000) / bareIo.windowMs), f(bareIo.latency.p50), f(bareIo.latency.p99), f(bareIo.latency.max)]] : []),
    ]),
    `drop event reached ${received}/${n} sockets (after its commit: median ${f(reached.p50)} ms, last ${f(reached.max)} ms); ${ok.length} grabs succeeded, ${refusedDup}/${dups} second clicks refused (ENVELOPE_ALREADY_GRABBED), ${other.length} other answers${other.length ? ` (${[...new Set(other.map((x) => `${x.status} ${x.code}`))].slice(0, 5).join(', ')})` : ''}`,
    `grab statements: ${gs.grabBatches} batches carrying ${gs.grabsBatched} grabs, ${gs.grabsJoined} second clicks joined their first, ${gs.grabsBusy} busy and ${gs.grabsAfterBatchError} after a failed statement run alone, ${gs.grabRetries} deadlock retries; envelope.left broadcasts during the storm: ${gs.leftBroadcasts}`,
    `within one second: ${windowMs <= 1000 ? 'yes' : 'NO'} (${f(windowMs)} ms from the drop's commit to the last grab answered)`,
    ...(bareIo ? [`bare Socket.IO server, same storm with nothing durable: drop reached every socket after ${f(bareIo.reached.max)} ms (median ${f(bareIo.reached.p50)}), last grab answered at ${f(bareIo.windowMs)} ms (${bareIo.ok} paid in memory, ${bareIo.refusedDup}/${dups} second clicks refused, ${bareIo.distinct === bareIo.claimed ? 'each once' : 'NOT each once'}); gateway window / bare window = ${(windowMs / bareIo.windowMs).toFixed(2)}x`,
      `server CPU during the storm (drop to last answer, all threads): gateway ${serverCpuS.toFixed(2)} s, bare ${bareIo.serverCpuS.toFixed(2)} s = ${(serverCpuS / bareIo.serverCpuS).toFixed(2)}x; client processes ${clientsCpuS.toFixed(2)} s / ${bareIo.clientsCpuS.toFixed(2)} s`] : []),
    `all shares grabbed: ${v.claimed === n ? 'yes' : `NO (${v.claimed}/${n}; the rest stays in escrow until the expiry job returns it)`}`,
    `paid without the answer reaching its client (it gave up or saw a reset; the player sees the balance change): ${v.claimed - ok.length}`,
    `checks: each member once ${checks.eachOnce ? 'OK' : 'FAIL'}, zero over-grab ${checks.zeroOverGrab ? 'OK' : `FAIL (${overGrab})`}, total exact ${checks.totalExact ? 'OK' : `FAIL (claimed ${v.claimedSum}, credited ${v.creditSum}, escrow ${v.escrow})`}`,
  ];
  return { name: 'envelopes', lines, ok: checks.eachOnce && checks.zeroOverGrab && checks.totalExact, data: { n, grabVia: o.grabVia, total, setupMs, connectMs, drop, windowMs, dropReached: reached, latency, outcomes: outcomes.length, ok: ok.length, refusedDup, dups, other: other.length, verify: v, grabStats: gs, direct, bare, bareIo, serverCpuS, clientsCpuS, checks } };
}

/**
 * wagering: bonus wagering progress kept up with a bet rate (engagement-wagering.ts, in this process on
 * its own throwaway database): bets through the signed vendor API at --rate per second for --seconds,
 * lag from each bet's answer to the bonus.progress event that counts it, beside the bare bet stream
 * (the same bets for members without a bonus, lag to a consumer that does nothing), and the same
 * bonus bets made by calling the vendor wallet's bet in this process, without HTTP (the pipeline's own
 * capacity when the HTTP path cannot bring the rate on these cores).
 */
async function wageringSection(o: Opts): Promise<SectionResult> {
  const { engagementWageringBench } = await import('./engagement-wagering.ts');
  const r = await engagementWageringBench({ rate: o.rate, seconds: o.seconds, members: o.members, log: () => undefined });
  const f = (x: number) => x.toFixed(1);
  const label = { bare: 'bare bet stream (no-op consumer)', wagering: 'bonus.progress (wagering consumer)', 'wagering-service': 'bonus.progress, bets without HTTP' } as const;
  const lines = [
    `wagering progress: ${o.rate} bets/s target for ${o.seconds} s, ${r.members} members per phase, each with one bet in flight at most; lag = bet answered -> event committed`,
    textTable(['', 'target/s', 'achieved/s', 'answered', 'failed', 'lag p50 ms', 'lag p99 ms', 'lag max ms', 'unseen', 'mission p50', 'mission p99', 'm. unseen'], r.phases.map((p) => [
      label[p.name], String(p.targetRate), String(p.achievedRate), String(p.answered), String(p.failed), f(p.lag.p50), f(p.lag.p99), f(p.lag.max), String(p.unseen),
      p.missionLag ? f(p.missionLag.p50) : '-', p.missionLag ? f(p.missionLag.p99) : '-', p.missionLag ? String(p.missionUnseen) : '-',
    ])),
    `mission lag: bet answered -> the mission.progress event of the daily "Bet 500.00 today" mission (every bet counts) committed, in every phase (the missions consumer runs for every bet)`,
    `bets reached ${o.rate}/s: ${r.phases.map((p) => `${label[p.name]} ${p.achievedRate >= o.rate * 0.95 ? 'yes' : `NO (${p.achievedRate}/s)`}`).join('; ')}; every bet counted: ${r.phases.every((p) => p.unseen === 0 && p.failed === 0) ? 'yes' : 'NO'}; ledger violations: ${r.ledgerViolations}`,
  ];
  return { name: 'wagering', lines, ok: r.ledgerViolations === 0 && r.phases.every((p) => p.unseen === 0 && p.missionUnseen === 0), data: { ...r } };
}

/** Each section: a name and its run (its own database). */
const SECTIONS: Record<string, (o: Opts, db: { url: string }) => Promise<SectionResult>> = {
  envelopes: envelopesSection,
  wagering: wageringSection,
};
/** Sections that make their own database (none is prepared for them). */
const OWN_DATABASE = new Set(['wagering']);

function parseArgs(argv: string[]): Opts {
  const o: Opts = {
    sockets: 10_000, clients: 2, dupEvery: 20, grabVia: 'socket', out: path.join(HERE, 'results', 'engagement.json'), sections: Object.keys(SECTIONS), rate: 1_000, seconds: 10, members: 600, cpuProf: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v <= 0) throw new Error(`${a} needs a positive whole number`);
      return v;
    };
    if (a === '--sockets') o.sockets = num();
    else if (a === '--clients') o.clients = num();
    else if (a === '--dup-every') o.dupEvery = num();
    else if (a === '--rate') o.rate = num();
    else if (a === '--seconds') o.seconds = num();
    else if (a === '--members') o.members = num();
    else if (a === '--out') o.out = argv[++i]!;
    else if (a === '--grab') {
      const v = argv[++i];
      if (v !== 'socket' && v !== 'http') throw new Error('--grab socket|http');
      o.grabVia = v;
    }
    else if (a === '--cpu-prof') o.cpuProf = argv[++i]!;
    else if (a === '--section') {
      const s = (argv[++i] ?? '').split(',').filter(Boolean);
      const unknown = s.filter((x) => !(x in SECTIONS));
      if (!s.length || unknown.length) throw new Error(`--section ${Object.keys(SECTIONS).join('|')} (comma-separated)`);
      o.sections = s;
    } else throw new Error(`unknown option ${a}`);
  }
  return o;
}

export async function main(argv: string[]): Promise<number> {
  const o = parseArgs(argv);
  process.on('exit', killChildren);
  const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`engagement bench: sections ${o.sections.join(', ')}; ${os.cpus().length} cores; load average ${load()}`);
  const results: SectionResult[] = [];
  let allOk = true;
  for (const name of o.sections) {
    const db = OWN_DATABASE.has(name) ? { url: '', drop: async () => undefined } : await preparePg('bench_engagement');
    try {
      const r = await SECTIONS[name]!(o, db);
      results.push(r);
      allOk &&= r.ok;
      console.log(`\n== ${name} ==`);
      for (const l of r.lines) console.log(l);
    } finally {
      killChildren();
      await db.drop().catch(() => undefined);
    }
  }
  console.log(`\nload average after: ${load()}`);
  mkdirSync(path.dirname(o.out), { recursive: true });
  writeFileSync(o.out, JSON.stringify({ at: new Date().toISOString(), loadavg: os.loadavg(), sections: results.map((r) => ({ name: r.name, ok: r.ok, ...r.data })) }, null, 2));
  return allOk ? 0 : 1;
}

if (ROLE === 'gateway') await gatewayRole();
else if (ROLE === 'client') await clientRole();
else if (ROLE === 'bare') await bareRole();
