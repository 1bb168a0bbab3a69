/**
 * `npm run bench -- --catalogue [--pg] [--queries N] [--warm N]`: GCSGAME_gameList search latency over the
 * 10,000-game catalogue.
 *
 * A child process runs the real gateway (createPortal, production mode, demo seed with the full catalogue)
 * on 127.0.0.1; this process sends a fixed, seeded mix of searches (type, vendor, classify, name, min bet,
 * deep pages) over HTTP with a member's session, one at a time, and records each round trip. Then the child
 * runs the very same statements (searchGames, the handler's SQL) straight on its database: the bare SQL
 * baseline, in the same run and on the same data. Target: HTTP p99 <= 30 ms.
 * --pg: real PostgreSQL (DATABASE_URL, else a throwaway database on 127.0.0.1:5432); default PGlite in memory.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZGameListQuery } from '@portal/contracts/api/games';
import { latencyStats, type LatencyStats } from './common.ts';
import { preparePg as prepareThrowawayPg } from './pg-gateway.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const IS_CHILD = process.env.CATALOGUE_BENCH_CHILD === '1';

type Msg = { ready?: true; port?: number; token?: string; merchant?: string; games?: number; seedMs?: number; sql?: number[]; error?: string };

// ---------------------------------------------------------------- the query mix
const WORDS = ['dragon', 'Golden', 'LUCKY', 'fortune', 'mega', 'wild', 'jungle', 'panda', 'tiger', 'gems', 'fiesta', 'hold & win', 'xmas', 'baccarat', 'fishing', 'lotto', 'a', 'zz', 'koi', 'vault'];
const VENDORS = ['JL', 'PCK', 'FCH', 'HBN', 'RSG', 'SPD', 'BNG', 'PLY', 'NLM', 'YGG', 'KAG', 'CQN', 'RTG', 'MGX', 'PGS', 'BTG'];
const CLASSIFIES = ['SC', 'JP', 'TG', 'AC', 'BG'];
const TYPES = ['LIVE', 'FISH', 'PVP', 'SPORTS', 'ESPORTS', 'LOTT', 'ELOTT', 'COCKFIGHT'];

/** mulberry32: the same mix every run. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function queryMix(n: number, seed = 42): Array<Record<string, string>> {
  const r = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const out: Array<Record<string, string>> = [];
  for (let i = 0; i < n; i++) {
    const base = { clientType: '3', platform: 'flash,html5-desktop', language: 'TY' };
    const kind = i % 8;
    let q: Record<string, string>;
    if (kind === 0) q = { gameType: 'RNG', pageNo: String(1 + Math.floor(r() * 500)) }; // browsing, deep pages too
    else if (kind === 1) q = { gameType: 'RNG', vassalage: pick(VENDORS), pageNo: String(1 + Math.floor(r() * 31)) };
    else if (kind === 2) q = { gameType: 'RNG', gameClassify: pick(CLASSIFIES), pageNo: String(1 + Math.floor(r() * 40)) };
    else if (kind === 3) q = { gameName: pick(WORDS) }; // search box over every type
    else if (kind === 4) q = { gameType: 'RNG', gameName: pick(WORDS), pageNo: String(1 + Math.floor(r() * 3)) };
    else if (kind === 5) q = { gameType: 'RNG', vassalage: pick(VENDORS), gameClassify: pick(CLASSIFIES), gameName: pick(WORDS).slice(0, 3) };
    else if (kind === 6) q = { gameType: 'RNG', minBet: pick(['10', '20', '50', '100']), gameName: pick(['', 'o', 'gold']) };
    else q = { gameType: pick(TYPES), pageSize: pick(['20', '50', '100']) };
    out.push({ ...base, gameClassify: '', gameName: '', minBet: '', vassalage: '', pageNo: '1', pageSize: '20', ...q });
  }
  return out;
}

// ---------------------------------------------------------------- child: the gateway and the bare SQL baseline
async function child() {
  const { loadConfig } = await import('@portal/gateway/app/config');
  const { startSeededPortal } = await import('./seeded-portal.ts');
  const { searchGames } = await import('@portal/gateway/modules/games/catalogue-routes');
  const config = loadConfig({
    NODE_ENV: 'production', LOG_LEVEL: 'warn', DATA_DIR: ':memory:', SEED: 'none', SEED_CATALOGUE: 'full',
    ...process.env, PORT: '0', HOST: '127.0.0.1',
  });
  const t0 = performance.now();
  const portal = await startSeededPortal(config, config.SEED_CATALOGUE);
  const seedMs = performance.now() - t0;
  const port = await portal.listen(0, '127.0.0.1');
  const merchant = (await portal.merchants.resolve({}))!;
  const m = await portal.db.query<{ id: number }>(
    `INSERT INTO members (merchant_code, account, account_lower, nickname, type) VALUES ($1, 'benchcat', 'benchcat', 'benchcat', 0)
     ON CONFLICT (merchant_code, account) DO UPDATE SET nickname = EXCLUDED.nickname RETURNING id`, [merchant.code]);
  const token = await portal.sessions.create(m.rows[0]!.id, merchant.code);
  const games = Number((await portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM games WHERE merchant_code = $1', [merchant.code])).rows[0]!.n);
  process.send!({ ready: true, port, token, merchant: merchant.code, games, seedMs } satisfies Msg);
  process.on('message', async (msg: { sql?: Array<Record<string, string>> }) => {
    try {
      if (msg.sql) {
        const times: number[] = [];
        for (const raw of msg.sql) {
          const q = ZGameListQuery.parse(raw);
          const s = performance.now();
          await searchGames(portal.db, merchant.code, {
            gameType: q.gameType, vassalage: q.vassalage, gameClassify: q.gameClassify, gameName: q.gameName, minBet: q.minBet,
            pageNo: q.pageNo, pageSize: q.pageSize,
          });
          times.push(performance.now() - s);
        }
        process.send!({ sql: times } satisfies Msg);
      }
    } catch (err) {
      process.send!({ error: String(err) } satisfies Msg);
    }
  });
  process.on('disconnect', () => {
    void portal.stop().finally(() => process.exit(0));
  });
}

// ---------------------------------------------------------------- parent
type Target = { db: 'pglite' | 'pg'; games: number; seedMs: number; http: LatencyStats; sql: LatencyStats; httpPerSec: number };

function parseArgs(argv: string[]) {
  const o = { pg: false, queries: 2000, warm: 200, out: path.join(HERE, 'results', 'catalogue.json') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--pg') o.pg = true;
    else if (a === '--queries') o.queries = Number(argv[++i]);
    else if (a === '--warm') o.warm = Number(argv[++i]);
    else if (a === '--out') o.out = path.resolve(argv[++i] ?? '');
    else if (a === '--quick') o.queries = 300;
    else if (a === '--help' || a === '-h') {
      console.log('npm run bench -- --catalogue [--pg] [--queries N (2000)] [--warm N (200)] [--quick] [--out FILE]');
      process.exit(0);
    } else throw new Error(`unknown option ${a} for --catalogue (try --catalogue --help)`);
  }
  if (!Number.isInteger(o.queries) || o.queries < 10 || !Number.isInteger(o.warm) || o.warm < 0) throw new Error('--queries >= 10, --warm >= 0');
  return o;
}

const preparePg = () => prepareThrowawayPg('portal_bench_cat');

function next(proc: ChildProcess): Promise<Msg> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('catalogue bench child: no answer after 180 s')), 180_000);
    const onExit = (code: number | null) => { clearTimeout(timer); reject(new Error(`catalogue bench child exited (${code})`)); };
    proc.once('exit', onExit);
    proc.once('message', (m: Msg) => {
      clearTimeout(timer);
      proc.off('exit', onExit);
      if (m.error) reject(new Error(m.error));
      else resolve(m);
    });
  });
}

export async function runCatalogueBench(argv: string[]) {
  const o = parseArgs(argv);
  const pgDb = o.pg ? await preparePg() : null;
  const proc = fork(fileURLToPath(import.meta.url), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, CATALOGUE_BENCH_CHILD: '1', ...(pgDb ? { DATABASE_URL: pgDb.url } : { DATABASE_URL: '' }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const kill = () => proc.kill('SIGKILL');
  process.once('exit', kill);
  try {
    const ready = await next(proc);
    const db = pgDb ? 'pg' : 'pglite';
    console.log(`catalogue bench (${db}): gateway up with ${ready.games} games (start with seed ${Math.round(ready.seedMs!)} ms); ${o.warm} warm-up + ${o.queries} searches, one at a time`);
    const base = `http://127.0.0.1:${ready.port}/wps/relay/GCSGAME_gameList?`;
    const mix = queryMix(o.warm + o.queries);
    const get = async (q: Record<string, string>) => {
      const res = await fetch(base + new URLSearchParams(q).toString(), { headers: { authorization: `Bearer ${ready.token}` } });
      const body = (await res.json()) as { success: boolean; value?: { games: unknown[] } };
      if (res.status !== 200 || !body.success) throw new Error(`search ${JSON.stringify(q)} answered ${res.status}`);
    };
    for (const q of mix.slice(0, o.warm)) await get(q);
    const httpTimes: number[] = [];
    const started = performance.now();
    for (const q of mix.slice(o.warm)) {
      const s = performance.now();
      await get(q);
      httpTimes.push(performance.now() - s);
    }
    const httpPerSec = (o.queries * 1000) / (performance.now() - started);
    proc.send({ sql: mix.slice(0, o.warm) });
    await next(proc);
    proc.send({ sql: mix.slice(o.warm) });
    const sql = (await next(proc)).sql!;
    const r: Target = { db, games: ready.games!, seedMs: ready.seedMs!, http: latencyStats(httpTimes), sql: latencyStats(sql), httpPerSec };
    const f = (v: number) => v.toFixed(2);
    console.log(`\n| ${db}, ${r.games} games, ${o.queries} searches | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) | mean (ms) |`);
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(`| HTTP GCSGAME_gameList (gateway) | ${f(r.http.p50)} | ${f(r.http.p95)} | ${f(r.http.p99)} | ${f(r.http.max)} | ${f(r.http.mean)} |`);
    console.log(`| bare SQL (same statements) | ${f(r.sql.p50)} | ${f(r.sql.p95)} | ${f(r.sql.p99)} | ${f(r.sql.max)} | ${f(r.sql.mean)} |`);
    console.log(`\nHTTP searches/s (one at a time): ${r.httpPerSec.toFixed(0)}. Target p99 <= 30 ms: ${r.http.p99 <= 30 ? 'met' : 'MISSED'} (${f(r.http.p99)} ms).`);
    const load = os.loadavg()[0]!;
    if (load > os.cpus().length) console.log(`warning: load average ${load.toFixed(1)} exceeds ${os.cpus().length} cores; figures are noisy`);
    mkdirSync(path.dirname(o.out), { recursive: true });
    writeFileSync(o.out, JSON.stringify({ at: new Date().toISOString(), node: process.version, cores: os.cpus().length, load: os.loadavg(), ...r }, null, 2));
    console.log(`JSON: ${path.relative(ROOT, o.out)}`);
    return r;
  } finally {
    proc.disconnect();
    await new Promise((res) => { const t = setTimeout(() => { kill(); res(null); }, 5000); proc.once('exit', () => { clearTimeout(t); res(null); }); });
    process.off('exit', kill);
    await pgDb?.drop();
  }
}

if (IS_CHILD) await child();
else if (import.meta.url === `file://${process.argv[1]}`) await runCatalogueBench(process.argv.slice(2));
