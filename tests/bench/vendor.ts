/**
 * `npm run bench -- --vendor`: vendor bet -> win pairs per second over the signed seamless-wallet
 * API (/vendor/v1/:vendor/bet|win) of the real gateway on PostgreSQL, with zero drift, beside a
 * bare SQL baseline of the same money movements in the same run.
 *
 * - A throwaway database (pg-gateway.ts preparePg), the gateway's migrate() and demo seed (small
 *   catalogue), N players with ledger accounts and balances (ledger-load.ts seedAccounts: the house
 *   rows exist first), a vendor account `VBENCH` with a known secret and one live game session per
 *   player (hashed token, like the wallet's openSession).
 * - The real gateway as a child process (pg-gateway.ts startGateway: production, SEED=none).
 *   For each K in --clients: K vendor clients in a closed loop for S seconds, each doing a signed
 *   bet then a signed win for a random player (unique transaction ids and round id per pair) over
 *   keep-alive HTTP. Pair latency = bet sent -> win answered; each call's latency too.
 *   Gateway CPU per pair from /proc/<pid>/stat; DB waits from pg_stat_activity every 50 ms.
 * - Afterwards: checkLedger() must be [] and vendor_transactions must hold one row per acknowledged
 *   call (2 x acknowledged pairs when no call failed).
 * - Bare SQL: the same bet + win as two plain SQL transactions (ledger-load.ts sqlTransfer:
 *   idempotency row, guarded member update, house update over the ledger's 16 house rows, two
 *   entries) from K node-pg clients: no HTTP, no ledger code, no vendor_transactions, no events;
 *   `+ outbox` adds the balance.changed outbox row the ledger writes per member change.
 *
 * Options: --players N (2000) --clients 32,64 --seconds S (10) --warm S (2) --quick (3 s) --out FILE
 *          --cpu-prof: V8 profile of the gateway child in tests/bench/results/prof/vendor-gateway/ (prof-summary.ts)
 * DATABASE_URL: use that database (not dropped); else a throwaway database on 127.0.0.1:5432.
 */
import type { ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { Pool } from 'undici';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createPgDb, type Db } from '../../gateway/src/db/db.ts';
import { migrate } from '../../gateway/src/db/migrate.ts';
import { seedDemo } from '../../gateway/src/db/seed.ts';
import { checkLedger, SYSTEM_SHARDS, type Violation } from '../../gateway/src/modules/wallet/ledger.ts';
import { drive, latencyStats, sleep, wallMs, type LatencyStats } from './common.ts';
import { MERCHANT, seedAccounts, sqlTransfer, waitSampler, type Accounts, type WaitSample } from './ledger-load.ts';
import { freePort, guardRun, hostCpu, killChild, preparePg, processCpuSeconds, setupVendor, startGateway, textTable, vendorHeaders } from './pg-gateway.ts';

const VENDOR = 'VBENCH';
const TARGET_PAIRS_PER_SEC = 800;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

function parseArgs(argv: string[]) {
  const o = { players: 2000, clients: [32, 64], seconds: 10, warmSeconds: 2, cpuProf: false, out: path.join(HERE, 'results', 'vendor-latest.json') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v <= 0) throw new Error(`${a} needs a positive number`);
      return v;
    };
    if (a === '--players') o.players = Math.max(10, Math.floor(num()));
    else if (a === '--clients') {
      o.clients = String(argv[++i] ?? '').split(',').map((s) => Math.floor(Number(s)));
      if (!o.clients.length || o.clients.some((c) => !Number.isFinite(c) || c < 1)) throw new Error('--clients K[,K...]');
    } else if (a === '--seconds') o.seconds = num();
    else if (a === '--warm') o.warmSeconds = num();
    else if (a === '--cpu-prof') o.cpuProf = true;
    else if (a === '--quick') {
      o.seconds = 3;
      o.warmSeconds = 1;
    } else if (a === '--out') o.out = path.resolve(argv[++i] ?? '');
    else if (a === '--help' || a === '-h') {
      console.log('npm run bench -- --vendor [--quick] [--players N (2000)] [--clients 32,64] [--seconds S (10)] [--warm S (2)] [--cpu-prof] [--out FILE]');
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --vendor --help)`);
  }
  if (Math.max(...o.clients) > 80) throw new Error('--clients above 80 would exhaust max_connections (100) in the bare SQL phase');
  return o;
}

export type VendorPhase = {
  name: string;
  target: 'gateway' | 'sql' | 'sql+outbox';
  clients: number;
  seconds: number;
  pairs: number;
  pairsPerSec: number;
  /** calls answered 200/success (gateway) or committed (SQL) */
  ackedCalls: number;
  errors: number;
  firstError: string | null;
  pairMs: LatencyStats;
  betMs: LatencyStats;
  winMs: LatencyStats;
  /** gateway child's CPU per pair (null for SQL) */
  gatewayCpuUsPerPair: number | null;
  gatewayCpuPercent: number | null;
  /** this process's CPU per pair (HTTP client + signing, or node-pg) */
  benchCpuUsPerPair: number;
  /** PostgreSQL's processes' CPU per pair (every postgres process of the server) */
  pgCpuUsPerPair: number | null;
  /** the whole machine's CPU use over the phase, % of one core */
  hostCpuPercent: number | null;
  waits: WaitSample;
  waitSamples: number;
  /** average number of bench-database backends in each state over the phase */
  backendsByState: Record<string, number>;
  /** average number of backends waiting on a lock, by statement */
  lockWaitersByStatement: Record<string, number>;
};

/**
 * Where the bench database's connections are, every 50 ms: backend states (an `idle in transaction`
 * backend holds its locks while it waits for the client, i.e. a round trip or the client's CPU) and
 * the statements that wait on a lock (Lock:* wait events), by their first words.
 */
function stateSampler(url: string, everyMs = 50) {
  const states: Record<string, number> = {};
  const lockWaiters: Record<string, number> = {};
  let samples = 0;
  let stop = false;
  const c = new pg.Client({ connectionString: url });
  const done = (async () => {
    await c.connect();
    while (!stop) {
      const r = await c.query<{ state: string; lockq: string | null }>(
        `SELECT coalesce(state, '?') AS state,
                CASE WHEN wait_event_type = 'Lock' THEN wait_event || ': ' || left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 60) END AS lockq
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
      samples++;
      for (const row of r.rows) {
        states[row.state] = (states[row.state] ?? 0) + 1;
        if (row.lockq) lockWaiters[row.lockq] = (lockWaiters[row.lockq] ?? 0) + 1;
      }
      await sleep(everyMs);
    }
    await c.end();
  })();
  return {
    async stop() {
      stop = true;
      await done.catch(() => undefined);
      const avg = (o: Record<string, number>) =>
        Object.fromEntries(Object.entries(o).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => [k, Math.round((v / Math.max(1, samples)) * 10) / 10]));
      return { backendsByState: avg(states), lockWaitersByStatement: avg(lockWaiters) };
    },
  };
}

type CallOut = { status: number; body: string };

/**
 * One signed POST over the keep-alive pool. undici rather than node:http: the load generator shares
 * the two cores with the gateway and PostgreSQL, and node:http's client costs about three times the CPU per call.
 */
async function post(pool: Pool, p: string, raw: string, headers: Record<string, string>): Promise<CallOut> {
  const res = await pool.request({ path: p, method: 'POST', headers, body: raw, headersTimeout: 10_000, bodyTimeout: 10_000 });
  return { status: res.statusCode, body: await res.body.text() };
}

/** Unique across phases: transaction and round ids are never reused within a run. */
let pairSeq = 0;

type Phase = { name: string; target: VendorPhase['target']; clients: number; seconds: number };

async function runPhase(
  ph: Phase,
  ctx: { url: string; acc: Accounts; tokens: string[]; secret: string; pool: Pool; gatewayPid: number | undefined; sqlDb: Db | null; tag: string },
): Promise<VendorPhase> {
  const n = ctx.acc.memberIds.length;
  const pairLat: number[] = [];
  const betLat: number[] = [];
  const winLat: number[] = [];
  let pairs = 0;
  let ackedCalls = 0;
  let errors = 0;
  let firstError: string | null = null;
  const fail = (msg: string) => {
    errors++;
    firstError ??= msg;
  };
  const gatewayCall = async (kind: 'bet' | 'win', body: Record<string, unknown>) => {
    const raw = JSON.stringify(body);
    const r = await post(ctx.pool, `/vendor/v1/${VENDOR}/${kind}`, raw, vendorHeaders(MERCHANT, ctx.secret, raw));
    if (r.status !== 200 || !(JSON.parse(r.body) as { success?: boolean }).success) throw new Error(`${kind} ${r.status} ${r.body.slice(0, 200)}`);
  };
  const fire = async () => {
    const i = randomInt(n);
    const s = `${ctx.tag}-${++pairSeq}`;
    const member = ctx.acc.memberIds[i]!;
    const bet = 1 + randomInt(500);
    const win = 1 + randomInt(900);
    const t0 = wallMs();
    try {
      if (ph.target === 'gateway') {
        const round = `r${s}`;
        await gatewayCall('bet', { transactionId: `${s}-b`, playerId: String(member), roundId: round, gameCode: 'G1', amount: bet, token: ctx.tokens[i]! });
        ackedCalls++;
        const t1 = wallMs();
        betLat.push(t1 - t0);
        await gatewayCall('win', { transactionId: `${s}-w`, playerId: String(member), roundId: round, gameCode: 'G1', amount: win, token: ctx.tokens[i]! });
        ackedCalls++;
        winLat.push(wallMs() - t1);
      } else {
        const outbox = ph.target === 'sql+outbox';
        const common = { member: ctx.acc.memberAccountIds[i]!, memberId: member, outbox };
        const db = ctx.sqlDb!;
        await db.tx((tx) => sqlTransfer(tx, { ...common, key: `sql:${s}-b`, kind: 'bet', bet: true, amount: bet, house: ctx.acc.houseIds[randomInt(SYSTEM_SHARDS)]! }));
        ackedCalls++;
        const t1 = wallMs();
        betLat.push(t1 - t0);
        await db.tx((tx) => sqlTransfer(tx, { ...common, key: `sql:${s}-w`, kind: 'win', bet: false, amount: win, house: ctx.acc.houseIds[randomInt(SYSTEM_SHARDS)]! }));
        ackedCalls++;
        winLat.push(wallMs() - t1);
      }
      pairs++;
      pairLat.push(wallMs() - t0);
    } catch (err) {
      fail(err instanceof Error ? err.message : String(err));
    }
  };
  const sampler = waitSampler(ctx.url);
  const states = stateSampler(ctx.url);
  const host0 = hostCpu();
  const cpu0 = process.cpuUsage();
  const g0 = ph.target === 'gateway' ? processCpuSeconds(ctx.gatewayPid) : null;
  const d = await drive({ mode: 'max', seconds: ph.seconds, maxInFlight: ph.clients }, fire);
  const g1 = ph.target === 'gateway' ? processCpuSeconds(ctx.gatewayPid) : null;
  const cpu = process.cpuUsage(cpu0);
  const host1 = hostCpu();
  const { waits, samples } = await sampler.stop();
  const { backendsByState, lockWaitersByStatement } = await states.stop();
  const elapsed = (d.endedAt - d.startedAt) / 1000;
  const gcpu = g0 !== null && g1 !== null ? g1 - g0 : null;
  return {
    name: ph.name, target: ph.target, clients: ph.clients, seconds: elapsed, pairs, pairsPerSec: pairs / elapsed, ackedCalls, errors, firstError,
    pairMs: latencyStats(pairLat), betMs: latencyStats(betLat), winMs: latencyStats(winLat),
    gatewayCpuUsPerPair: gcpu !== null && pairs ? (gcpu * 1e6) / pairs : null,
    gatewayCpuPercent: gcpu !== null ? (gcpu / elapsed) * 100 : null,
    benchCpuUsPerPair: pairs ? (cpu.user + cpu.system) / pairs : NaN,
    pgCpuUsPerPair: host0 && host1 && pairs ? ([...host1.pg].reduce((a, [pid, t]) => a + t - (host0.pg.get(pid) ?? 0), 0) * 1e6) / pairs : null,
    hostCpuPercent: host0 && host1 ? ((host1.busy - host0.busy) / elapsed) * 100 : null,
    waits, waitSamples: samples, backendsByState, lockWaitersByStatement,
  };
}

const fmt = (v: number | null | undefined, d = 1) => (v === null || v === undefined || Number.isNaN(v) ? '-' : v.toFixed(d));

function phaseTable(phases: VendorPhase[]) {
  const head = ['phase', 'clients', 'pairs/s', 'pair p50/p99 ms', 'bet p50/p99 ms', 'win p50/p99 ms', 'errors', 'gateway CPU us/pair (%)', 'bench CPU us/pair', 'PostgreSQL CPU us/pair', 'machine CPU %', 'top waits (share of active backends)'];
  const rows = phases.map((p) => [
    p.name, String(p.clients), fmt(p.pairsPerSec, 0),
    `${fmt(p.pairMs.p50)} / ${fmt(p.pairMs.p99)}`, `${fmt(p.betMs.p50)} / ${fmt(p.betMs.p99)}`, `${fmt(p.winMs.p50)} / ${fmt(p.winMs.p99)}`,
    String(p.errors), p.gatewayCpuUsPerPair === null ? '-' : `${fmt(p.gatewayCpuUsPerPair, 0)} (${fmt(p.gatewayCpuPercent, 0)}%)`, fmt(p.benchCpuUsPerPair, 0), fmt(p.pgCpuUsPerPair, 0), fmt(p.hostCpuPercent, 0),
    Object.entries(p.waits).slice(0, 3).map(([k, v]) => `${k} ${v}%`).join(', '),
  ]);
  return textTable(head, rows);
}

export async function main(argv: string[]): Promise<number> {
  const opts = parseArgs(argv);
  const { children, killAll, started, loadStart } = guardRun('vendor', 6);
  const t0 = wallMs();
  const log = (s: string) => console.log(`[vendor ${((wallMs() - t0) / 1000).toFixed(0).padStart(3)} s] ${s}`);
  const pgDb = await preparePg('portal_vendor_bench');
  const tag = `${process.pid}${Date.now().toString(36)}`;
  const db = createPgDb(pgDb.url, 4);
  const phases: VendorPhase[] = [];
  let exitCode = 0;
  let gw: ChildProcess | null = null;
  let pool: Pool | null = null;
  let violationsAfterGateway: Violation[] | null = null;
  let violationsAtEnd: Violation[] | null = null;
  let vendorRows: number | null = null;
  let ackedGatewayCalls = 0;
  let ackedGatewayPairs = 0;
  try {
    await migrate(db);
    await seedDemo(db, { catalogue: 'small' });
    const acc = await seedAccounts(db, opts.players, tag);
    const { secret, tokens } = await setupVendor(db, MERCHANT, VENDOR, acc.memberIds);
    await db.query('ANALYZE');
    log(`${opts.players} players with balances and live game sessions; vendor ${VENDOR} with a known secret`);

    const port = await freePort();
    const g = await startGateway({ root: ROOT, url: pgDb.url, port, nodeId: `vendor-bench-${tag}`, track: (c) => children.add(c), untrack: (c) => children.delete(c),
      nodeArgs: opts.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', path.join(HERE, 'results', 'prof', 'vendor-gateway')] : [],
    });
    gw = g.child;
    log(`gateway up on 127.0.0.1:${port} in ${(g.readyMs / 1000).toFixed(1)} s (pid ${gw.pid})`);
    pool = new Pool(`http://127.0.0.1:${port}`, { connections: Math.max(...opts.clients), pipelining: 1 });
    const ctx = { url: pgDb.url, acc, tokens, secret, pool, gatewayPid: gw.pid, sqlDb: null as Db | null, tag };
    const count = (p: VendorPhase) => {
      if (p.target === 'gateway') {
        ackedGatewayCalls += p.ackedCalls;
        ackedGatewayPairs += p.pairs;
      }
    };
    const warm = await runPhase({ name: 'warm-up (gateway)', target: 'gateway', clients: Math.min(...opts.clients), seconds: opts.warmSeconds }, ctx);
    count(warm);
    log(`warm-up: ${fmt(warm.pairsPerSec, 0)} pairs/s, errors ${warm.errors}${warm.firstError ? ` (${warm.firstError})` : ''}`);
    for (const k of opts.clients) {
      const r = await runPhase({ name: 'gateway HTTP bet+win', target: 'gateway', clients: k, seconds: opts.seconds }, ctx);
      count(r);
      phases.push(r);
      log(`gateway, ${k} clients: ${fmt(r.pairsPerSec, 0)} pairs/s, pair p50 ${fmt(r.pairMs.p50)} ms p99 ${fmt(r.pairMs.p99)} ms, errors ${r.errors}${r.firstError ? ` (${r.firstError})` : ''}, gateway CPU ${fmt(r.gatewayCpuUsPerPair, 0)} us/pair`);
    }
    await pool.close();
    pool = null;
    await killChild(gw, 'SIGTERM');
    gw = null;
    violationsAfterGateway = await checkLedger(db);
    vendorRows = Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM vendor_transactions WHERE merchant_code = $1 AND vendor = $2', [MERCHANT, VENDOR])).rows[0]!.n);
    log(`gateway stopped; checkLedger ${violationsAfterGateway.length} violations; vendor_transactions ${vendorRows} rows for ${ackedGatewayCalls} acknowledged calls (${ackedGatewayPairs} pairs)`);

    for (const k of opts.clients) {
      for (const target of ['sql', 'sql+outbox'] as const) {
        if (target === 'sql+outbox' && k !== Math.max(...opts.clients)) continue;
        const sqlDb = createPgDb(pgDb.url, k);
        try {
          if (phases.every((p) => p.target === 'gateway')) await runPhase({ name: 'warm-up (SQL)', target, clients: k, seconds: opts.warmSeconds }, { ...ctx, sqlDb });
          const r = await runPhase({ name: target === 'sql' ? 'bare SQL bet+win' : 'bare SQL + outbox bet+win', target, clients: k, seconds: opts.seconds }, { ...ctx, sqlDb });
          phases.push(r);
          log(`${r.name}, ${k} clients: ${fmt(r.pairsPerSec, 0)} pairs/s, pair p50 ${fmt(r.pairMs.p50)} ms p99 ${fmt(r.pairMs.p99)} ms, errors ${r.errors}${r.firstError ? ` (${r.firstError})` : ''}`);
        } finally {
          await sqlDb.close();
        }
      }
    }
    violationsAtEnd = await checkLedger(db);
  } catch (err) {
    console.error('vendor bench failed:', err instanceof Error ? err.stack ?? err.message : err);
    exitCode = 1;
  } finally {
    await pool?.destroy().catch(() => undefined);
    await killChild(gw).catch(() => undefined);
    killAll();
    await db.close().catch(() => undefined);
    await pgDb.drop().catch((err) => console.error('could not drop the bench database:', err));
  }

  const gwPhases = phases.filter((p) => p.target === 'gateway');
  const best = gwPhases.reduce<VendorPhase | null>((a, p) => (!a || p.pairsPerSec > a.pairsPerSec ? p : a), null);
  const gatewayErrors = gwPhases.reduce((a, p) => a + p.errors, 0);
  const ratios = opts.clients.map((k) => {
    const gp = phases.find((p) => p.target === 'gateway' && p.clients === k);
    const sp = phases.find((p) => p.target === 'sql' && p.clients === k);
    return { clients: k, gateway: gp?.pairsPerSec ?? null, sql: sp?.pairsPerSec ?? null, ratio: gp && sp ? gp.pairsPerSec / sp.pairsPerSec : null };
  });
  const vendorRowsOk = vendorRows !== null && vendorRows === ackedGatewayCalls && (gatewayErrors > 0 || vendorRows === 2 * ackedGatewayPairs);
  const targets = best
    ? {
        pairsPerSec: { value: best.pairsPerSec, clients: best.clients, target: TARGET_PAIRS_PER_SEC, ok: best.pairsPerSec >= TARGET_PAIRS_PER_SEC },
        zeroDrift: { value: (violationsAfterGateway?.length ?? 0) + (violationsAtEnd?.length ?? 0), ok: violationsAfterGateway?.length === 0 && (violationsAtEnd?.length ?? 0) === 0 },
        errors: { value: gatewayErrors, ok: gatewayErrors === 0 },
        vendorRows: { value: vendorRows, ackedCalls: ackedGatewayCalls, ackedPairs: ackedGatewayPairs, ok: vendorRowsOk },
      }
    : null;
  if (phases.length) {
    console.log('\n' + phaseTable(phases));
    console.log('\naverage backends by state, and lock waiters by statement (pg_stat_activity every 50 ms):');
    for (const p of phases)
      console.log(`  ${p.name}, ${p.clients} clients: ${JSON.stringify(p.backendsByState)}; lock waits ${JSON.stringify(p.lockWaitersByStatement)}`);
    for (const r of ratios) if (r.ratio !== null) console.log(`gateway / bare SQL at ${r.clients} clients: ${fmt(r.ratio, 2)}x (${fmt(r.gateway, 0)} vs ${fmt(r.sql, 0)} pairs/s)`);
  }
  if (targets) {
    const ok = (b: boolean) => (b ? 'OK' : 'MISSED');
    console.log(
      `\ntargets: >= ${TARGET_PAIRS_PER_SEC} pairs/s ${ok(targets.pairsPerSec.ok)} (${fmt(best!.pairsPerSec, 0)} at ${best!.clients} clients); ` +
        `zero drift ${ok(targets.zeroDrift.ok)} (checkLedger ${violationsAfterGateway?.length ?? '-'} after the gateway, ${violationsAtEnd?.length ?? '-'} at the end); ` +
        `errors 0 ${ok(targets.errors.ok)} (${gatewayErrors}); vendor_transactions ${vendorRows} = acked calls ${ackedGatewayCalls} = 2 x ${ackedGatewayPairs} pairs ${ok(targets.vendorRows.ok)}`,
    );
  }
  if (targets && !(targets.zeroDrift.ok && targets.errors.ok && targets.vendorRows.ok)) exitCode = exitCode || 1;
  const report = {
    command: `npm run bench -- --vendor ${argv.join(' ')}`.trim(),
    startedAt: started.toISOString(),
    machine: { node: process.version, cpus: os.cpus().length, platform: process.platform, loadAvgStart: loadStart, loadAvgEnd: os.loadavg()[0] },
    options: opts,
    targets,
    ratios,
    phases,
    vendorTransactionRows: vendorRows,
    ackedGatewayCalls,
    ackedGatewayPairs,
    checkLedgerAfterGateway: violationsAfterGateway,
    checkLedgerAtEnd: violationsAtEnd,
    wallSeconds: (wallMs() - t0) / 1000,
  };
  mkdirSync(path.dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, JSON.stringify(report, null, 2));
  console.log(`\nJSON: ${path.relative(ROOT, opts.out)} (${fmt(report.wallSeconds, 0)} s)`);
  return exitCode;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(await main(process.argv.slice(2)));
