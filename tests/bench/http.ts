/**
 * `npm run bench -- --http [--pg] [--seconds S] [--connections C] [--only name,name] [--out FILE]`:
 * requests per second and latency of the bootstrap calls every visitor makes on arrival (system status,
 * whitelabel, domain route, registration settings, game menus, vendors, hot games, rank list,
 * announcements, help centre), each beside a bare Express route that returns the very same bytes.
 *
 * Two child processes on 127.0.0.1: the real gateway (createPortal, production mode, demo content with
 * the full 10,500-game catalogue, no demo accounts), and a bare Express 5 app whose routes send the
 * bytes the gateway answered for each call (same Content-Type). For each call, in turn: autocannon with
 * C connections (50) for 1 s of warm-up then S seconds (5) against the gateway, then the same against
 * the bare route. Prints req/s, p50/p99 latency (ms) and gateway/bare ratio. Targets: ratio >= 0.7,
 * gateway p99 <= 20 ms. `cpu us`: the server process's CPU time per answered request (less sensitive to
 * other work on the machine than req/s and latency). It also prints the load average before the run. --pg: real PostgreSQL (DATABASE_URL, else a throwaway database on
 * 127.0.0.1:5432, dropped afterwards); default PGlite in memory. --etag also measures a revalidation
 * (If-None-Match with the call's ETag, answered 304) when the gateway sends one.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { preparePg as prepareThrowawayPg } from './pg-gateway.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = process.env.HTTP_BENCH_CHILD;

/** The calls a visitor's first page load makes, with the query strings the client sends. */
export const BOOT_CALLS: Array<{ name: string; path: string }> = [
  { name: 'status', path: '/wps/system/status' },
  { name: 'whitelabel', path: '/wps/system/whitelabel' },
  { name: 'domainRoute', path: '/wps/system/domainRoute' },
  { name: 'registerSettings', path: '/wps/system/setting/register' },
  { name: 'gameMenus', path: '/lgw/games/game_menus?language=TY&pageSize=20' },
  { name: 'vendors', path: '/wps/relay/GCSGAME_gameVendor' },
  { name: 'hotGames', path: '/wps/relay/GCSGAME_hotGamesV2?isPlatform=1&platform=html5&language=TY' },
  { name: 'rankList', path: '/wps/relay/GCSGAME_getRankList?gameCategory=ALL&language=TY&limitNum=20' },
  { name: 'announcements', path: '/wps/relay/MCSFE_getListAnnouncements?types=B%2CPL%2CPU%2CPR%2CH&platform=W&language=TY' },
  { name: 'helpCenter', path: '/wps/system/helpCenter?lang=TY&device=WEB' },
];

type Msg = { ready?: true; port?: number; error?: string; cpu?: number };

/** Both children answer 'cpu' with their process CPU time so far (user + system, microseconds). */
function answerCpu() {
  process.on('message', (m) => {
    if (m === 'cpu') {
      const c = process.cpuUsage();
      process.send!({ cpu: c.user + c.system } satisfies Msg);
    }
  });
}

// ---------------------------------------------------------------- children
async function gatewayChild() {
  const { loadConfig } = await import('@portal/gateway/app/config');
  const { startSeededPortal } = await import('./seeded-portal.ts');
  const config = loadConfig({
    NODE_ENV: 'production', LOG_LEVEL: 'warn', DATA_DIR: ':memory:', SEED: 'none', SEED_CATALOGUE: 'full',
    ...process.env, PORT: '0', HOST: '127.0.0.1',
  });
  const portal = await startSeededPortal(config, config.SEED_CATALOGUE);
  const port = await portal.listen(0, '127.0.0.1');
  answerCpu();
  process.send!({ ready: true, port } satisfies Msg);
  process.on('disconnect', () => {
    void portal.stop().finally(() => process.exit(0));
  });
}

async function bareChild() {
  const { default: express } = await import('express');
  const bodies = await new Promise<Array<{ body: string; type: string }>>((resolve) => process.once('message', resolve as never));
  const app = express();
  app.disable('x-powered-by');
  bodies.forEach((b, i) => {
    const bytes = Buffer.from(b.body, 'base64');
    app.get(`/bare/${i}`, (_req, res) => {
      res.type(b.type).send(bytes);
    });
  });
  answerCpu();
  const server = app.listen(0, '127.0.0.1', () => {
    const a = server.address();
    process.send!({ ready: true, port: typeof a === 'object' && a ? a.port : 0 } satisfies Msg);
  });
  server.keepAliveTimeout = 65_000;
  process.on('disconnect', () => process.exit(0));
}

// ---------------------------------------------------------------- parent
function parseArgs(argv: string[]) {
  const o = { pg: false, seconds: 5, warm: 1, connections: 50, only: null as string[] | null, etag: false, out: path.join(HERE, 'results', 'http.json') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v <= 0) throw new Error(`${a} needs a positive number`);
      return v;
    };
    if (a === '--pg') o.pg = true;
    else if (a === '--seconds') o.seconds = num();
    else if (a === '--warm') o.warm = num();
    else if (a === '--connections') o.connections = Math.floor(num());
    else if (a === '--only') o.only = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (a === '--etag') o.etag = true;
    else if (a === '--out') o.out = path.resolve(argv[++i] ?? '');
    else if (a === '--help' || a === '-h') {
      console.log('npm run bench -- --http [--pg] [--seconds S (5)] [--warm S (1)] [--connections C (50)] [--only status,hotGames,...] [--etag] [--out FILE]');
      console.log(`calls: ${BOOT_CALLS.map((c) => c.name).join(', ')}`);
      process.exit(0);
    } else throw new Error(`unknown option ${a} for --http (try --http --help)`);
  }
  if (o.only) for (const n of o.only) if (!BOOT_CALLS.some((c) => c.name === n)) throw new Error(`--only: no call named ${n}`);
  return o;
}

function start(env: Record<string, string>, init?: unknown): Promise<{ proc: ChildProcess; port: number }> {
  const proc = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'], env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (init !== undefined) proc.send(init as never);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('http bench child: not ready after 300 s')), 300_000);
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`http bench child exited (${code})`)); });
    proc.once('message', (m: Msg) => {
      clearTimeout(timer);
      if (m.error || !m.port) reject(new Error(m.error ?? 'no port'));
      else resolve({ proc, port: m.port });
    });
  });
}

type Run = { reqPerSec: number; p50: number; p99: number; non2xx: number; errors: number; requests: number; cpuUsPerReq: number };

function cpuOf(proc: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const on = (m: Msg) => {
      if (m.cpu === undefined) return;
      proc.off('message', on);
      resolve(m.cpu);
    };
    proc.on('message', on);
    proc.send('cpu');
  });
}

/** autocannon against url; cpuUsPerReq: the server process's CPU time per answered request. */
async function load(server: ChildProcess, url: string, connections: number, seconds: number, headers: Record<string, string> = {}): Promise<Run> {
  const cpu0 = await cpuOf(server);
  const r = await autocannon({ url, connections, duration: seconds, pipelining: 1, headers });
  const cpu1 = await cpuOf(server);
  const done = r.requests.total || 1;
  return {
    reqPerSec: r.requests.average, p50: r.latency.p50, p99: r.latency.p99,
    non2xx: r.non2xx, errors: r.errors + r.timeouts, requests: r.requests.total, cpuUsPerReq: (cpu1 - cpu0) / done,
  };
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export async function main(argv: string[]): Promise<number> {
  const o = parseArgs(argv);
  const calls = BOOT_CALLS.filter((c) => !o.only || o.only.includes(c.name));
  const pg = o.pg ? await prepareThrowawayPg('portal_bench_http') : null;
  const children: ChildProcess[] = [];
  const deadline = setTimeout(() => {
    console.error('http bench: hard deadline (20 min) reached');
    for (const c of children) c.kill('SIGKILL');
    process.exit(2);
  }, 20 * 60_000);
  deadline.unref();
  try {
    const gw = await start({ HTTP_BENCH_CHILD: 'gateway', ...(pg ? { DATABASE_URL: pg.url } : {}) });
    children.push(gw.proc);
    const base = `http://127.0.0.1:${gw.port}`;
    const answers: Array<{ body: string; type: string; etag: string | null }> = [];
    for (const c of calls) {
      const res = await fetch(base + c.path);
      const bytes = Buffer.from(await res.arrayBuffer());
      const parsed = JSON.parse(bytes.toString('utf8')) as { success?: boolean };
      if (res.status !== 200 || parsed.success !== true) throw new Error(`${c.name}: ${res.status} ${bytes.toString('utf8').slice(0, 200)}`);
      answers.push({ body: bytes.toString('base64'), type: res.headers.get('content-type') ?? 'application/json', etag: res.headers.get('etag') });
    }
    // The bare child takes the bodies first, then listens.
    const bare = await start({ HTTP_BENCH_CHILD: 'bare' }, answers.map((a) => ({ body: a.body, type: a.type })));
    children.push(bare.proc);
    const rows: Array<Record<string, unknown>> = [];
    console.log(`http bench: ${o.pg ? 'PostgreSQL' : 'PGlite'}, ${o.connections} connections, ${o.seconds} s per target (warm-up ${o.warm} s), load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    console.log(['call'.padEnd(17), 'bytes'.padStart(7), 'gw req/s'.padStart(9), 'p50'.padStart(6), 'p99'.padStart(6), 'cpu us'.padStart(7), 'bare req/s'.padStart(11), 'p50'.padStart(5), 'p99'.padStart(5), 'cpu us'.padStart(7), 'ratio'.padStart(6), ...(o.etag ? ['304 req/s'.padStart(10), 'p99'.padStart(5)] : [])].join(' '));
    for (let i = 0; i < calls.length; i++) {
      const c = calls[i]!;
      await load(gw.proc, base + c.path, o.connections, o.warm);
      const g = await load(gw.proc, base + c.path, o.connections, o.seconds);
      const bareUrl = `http://127.0.0.1:${bare.port}/bare/${i}`;
      await load(bare.proc, bareUrl, o.connections, o.warm);
      const b = await load(bare.proc, bareUrl, o.connections, o.seconds);
      const etag = answers[i]!.etag;
      const e = o.etag && etag ? await load(gw.proc, base + c.path, o.connections, o.seconds, { 'if-none-match': etag }) : null;
      const ratio = g.reqPerSec / b.reqPerSec;
      const size = Buffer.from(answers[i]!.body, 'base64').length;
      rows.push({ call: c.name, path: c.path, bytes: size, gateway: g, bare: b, ratio, etag: e, ok: ratio >= 0.7 && g.p99 <= 20 && g.non2xx === 0 && g.errors === 0 });
      console.log([
        c.name.padEnd(17), fmt(size).padStart(7), fmt(g.reqPerSec).padStart(9), fmt(g.p50).padStart(6), fmt(g.p99).padStart(6), fmt(g.cpuUsPerReq).padStart(7),
        fmt(b.reqPerSec).padStart(11), fmt(b.p50).padStart(5), fmt(b.p99).padStart(5), fmt(b.cpuUsPerReq).padStart(7), fmt(ratio, 2).padStart(6),
        ...(e ? [fmt(e.reqPerSec).padStart(10), fmt(e.p99).padStart(5)] : o.etag ? ['-'.padStart(10), '-'.padStart(5)] : []),
        g.non2xx || g.errors ? ` (gateway: ${g.non2xx} non-2xx, ${g.errors} errors)` : '',
      ].join(' '));
    }
    const failed = rows.filter((r) => !r.ok).map((r) => r.call);
    console.log(failed.length ? `below target (ratio >= 0.7 and p99 <= 20 ms): ${failed.join(', ')}` : 'every call meets the target (ratio >= 0.7, p99 <= 20 ms)');
    mkdirSync(path.dirname(o.out), { recursive: true });
    writeFileSync(o.out, JSON.stringify({ db: o.pg ? 'pg' : 'pglite', connections: o.connections, seconds: o.seconds, rows }, null, 2));
    return 0;
  } finally {
    for (const c of children) {
      c.disconnect?.();
      await new Promise<void>((r) => {
        if (c.exitCode !== null) return r();
        const t = setTimeout(() => { c.kill('SIGKILL'); r(); }, 10_000);
        c.once('exit', () => { clearTimeout(t); r(); });
      });
    }
    await pg?.drop();
  }
}

if (CHILD === 'gateway') gatewayChild().catch((err) => { process.send?.({ error: String(err?.stack ?? err) }); process.exit(1); });
else if (CHILD === 'bare') bareChild().catch((err) => { process.send?.({ error: String(err?.stack ?? err) }); process.exit(1); });
