/**
 * `npm run bench -- --ledger`: the double-entry ledger on real PostgreSQL.
 *
 * 1. Throughput: 10,000 member accounts seeded with balances; C concurrent clients (64) doing
 *    transfers for S seconds, every one touching a house account (bets member -> game, wins
 *    game -> member), through the gateway's ledger transfer() with the house over its default SYSTEM_SHARDS
 *    shard rows, over 1,024 rows (uncontended baseline) and over ONE row (hot house); the same
 *    transfers as a hand-written SQL transaction (bare baseline: no ledger code, no events), with
 *    and without the outbox row the ledger writes per member change; then the ledger paced at the
 *    target rate and at half of what it sustained. checkLedger() at the end: zero violations = zero drift.
 * 2. Fault run: the real gateway as a child process, K clients on the vendor bet/win API, the
 *    gateway killed with SIGKILL every few seconds and restarted, every call retried with the same
 *    transaction id until answered; then every acknowledged call is in the ledger exactly once
 *    with its amount, balances match the acknowledged history, checkLedger/checkCashier are clean.
 *
 * Options: --seconds S (8) --clients C (64) --accounts N (10000) --rate R (1000) --win-share F (0.3)
 *          --fault-clients K (16) --kills N (5) --kill-every S (3) --only throughput|fault
 *          --quick (3 s phases, 2 kills) --out FILE
 * DATABASE_URL: use that database (not dropped); else a throwaway database on 127.0.0.1:5432.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPgDb } from '../../gateway/src/db/db.ts';
import { migrate } from '../../gateway/src/db/migrate.ts';
import { seedDemo } from '../../gateway/src/db/seed.ts';
import { checkLedger, SYSTEM_SHARDS, type Violation } from '../../gateway/src/modules/wallet/ledger.ts';
import { HOUSE_ROWS_SEEDED, runLoad, seedAccounts, type LoadSpec, type PhaseResult } from './ledger-load.ts';
import { runFault, type FaultResult } from './ledger-fault.ts';
import { wallMs } from './common.ts';
import { guardRun, preparePg, textTable } from './pg-gateway.ts';

/** House rows for the uncontended baseline: 64 clients over this many rows practically never meet on one. */
const UNCONTENDED = 1024;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

function parseArgs(argv: string[]) {
  const o = {
    seconds: 8, clients: 64, accounts: 10_000, rate: 1000, winShare: 0.3, warmSeconds: 2,
    faultClients: 16, kills: 5, killEvery: 3, only: null as null | 'throughput' | 'fault',
    out: path.join(HERE, 'results', 'ledger-latest.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v < 0) throw new Error(`${a} needs a number`);
      return v;
    };
    if (a === '--seconds') o.seconds = num();
    else if (a === '--clients') o.clients = Math.max(1, Math.floor(num()));
    else if (a === '--accounts') o.accounts = Math.max(10, Math.floor(num()));
    else if (a === '--rate') o.rate = num();
    else if (a === '--win-share') o.winShare = Math.min(1, num());
    else if (a === '--fault-clients') o.faultClients = Math.max(1, Math.floor(num()));
    else if (a === '--kills') o.kills = Math.floor(num());
    else if (a === '--kill-every') o.killEvery = num();
    else if (a === '--quick') {
      o.seconds = 3;
      o.kills = 2;
      o.warmSeconds = 1;
    } else if (a === '--only') {
      const v = argv[++i];
      if (v !== 'throughput' && v !== 'fault') throw new Error('--only throughput|fault');
      o.only = v;
    } else if (a === '--out') o.out = path.resolve(argv[++i] ?? '');
    else if (a === '--help' || a === '-h') {
      console.log('npm run bench -- --ledger [--quick] [--seconds S] [--clients C] [--accounts N] [--rate R] [--win-share F] [--fault-clients K] [--kills N] [--kill-every S] [--only throughput|fault] [--out FILE]');
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --ledger --help)`);
  }
  if (o.clients > 80) throw new Error('--clients above 80 would exhaust max_connections (100) beside other users');
  return o;
}

const fmt = (v: number | null | undefined, d = 1) => (v === null || v === undefined || Number.isNaN(v) ? '-' : v.toFixed(d));
const pct = (v: number | null) => (v === null ? '-' : `${fmt(v * 100, 0)}%`);

function phaseTable(phases: PhaseResult[]) {
  const head = ['phase', 'transfers/s', 'p50 ms', 'p99 ms', 'max ms', 'ok', 'failed', 'client CPU us/tr', 'top waits (share of active backends)'];
  const rows = phases.map((p) => [
    p.name, fmt(p.transfersPerSec, 0), fmt(p.latencyMs.p50), fmt(p.latencyMs.p99), fmt(p.latencyMs.max), String(p.ok), String(p.failed), fmt(p.clientCpuUsPerTransfer, 0),
    Object.entries(p.waits).slice(0, 3).map(([k, v]) => `${k} ${v}%`).join(', '),
  ]);
  return textTable(head, rows);
}

export async function main(argv: string[]): Promise<number> {
  const opts = parseArgs(argv);
  const { children, killAll, started, loadStart } = guardRun('ledger', 8);
  const t0 = wallMs();
  const pgDb = await preparePg('portal_ledger_bench');
  const log = (s: string) => console.log(`[ledger ${((wallMs() - t0) / 1000).toFixed(0).padStart(3)} s] ${s}`);
  let exitCode = 0;
  const phases: PhaseResult[] = [];
  let fault: FaultResult | null = null;
  let violationsAfterLoad: Violation[] | null = null;
  let violationsAtEnd: Violation[] | null = null;
  const db = createPgDb(pgDb.url, opts.clients);
  try {
    await migrate(db);
    await seedDemo(db, { catalogue: 'small' });
    const ts = wallMs();
    const acc = await seedAccounts(db, opts.accounts, `${process.pid}${Date.now().toString(36)}`);
    await db.query('ANALYZE');
    log(`${opts.accounts} member accounts seeded in ${((wallMs() - ts) / 1000).toFixed(1)} s; house 'game' rows 0..${HOUSE_ROWS_SEEDED - 1} made first (ledger default SYSTEM_SHARDS=${SYSTEM_SHARDS})`);

    if (opts.only !== 'fault') {
      const base = { clients: opts.clients, seconds: opts.seconds, rate: null, winShare: opts.winShare };
      const specs: LoadSpec[] = [
        { ...base, name: `ledger, house over ${SYSTEM_SHARDS} rows`, target: { kind: 'ledger', shards: SYSTEM_SHARDS } },
        { ...base, name: `ledger, house over ${UNCONTENDED} rows`, target: { kind: 'ledger', shards: UNCONTENDED } },
        { ...base, name: 'ledger, ONE house row', target: { kind: 'ledger', shards: 1 } },
        { ...base, name: `bare SQL, ${SYSTEM_SHARDS} rows`, target: { kind: 'sql', shards: SYSTEM_SHARDS, outbox: false } },
        { ...base, name: `bare SQL + outbox, ${SYSTEM_SHARDS} rows`, target: { kind: 'sql', shards: SYSTEM_SHARDS, outbox: true } },
        { ...base, name: `bare SQL, ${UNCONTENDED} rows`, target: { kind: 'sql', shards: UNCONTENDED, outbox: false } },
        { ...base, name: `bare SQL + outbox, ${UNCONTENDED} rows`, target: { kind: 'sql', shards: UNCONTENDED, outbox: true } },
        { ...base, name: 'bare SQL, ONE house row', target: { kind: 'sql', shards: 1, outbox: false } },
        { ...base, name: `ledger, ${SYSTEM_SHARDS} rows, paced ${opts.rate}/s`, rate: opts.rate, target: { kind: 'ledger', shards: SYSTEM_SHARDS } },
      ];
      await runLoad(db, pgDb.url, acc, { ...specs[0]!, name: 'warm-up', seconds: opts.warmSeconds });
      // last: paced at half of what the ledger sustained, i.e. latency when the machine is not saturated
      const half = (): LoadSpec => {
        const sat = Math.max(10, Math.round((phases[0]?.transfersPerSec ?? 200) / 2 / 10) * 10);
        return { ...base, name: `ledger, ${SYSTEM_SHARDS} rows, paced ${sat}/s (50% of sat.)`, rate: sat, target: { kind: 'ledger', shards: SYSTEM_SHARDS } };
      };
      for (const s of [...specs, null]) {
        const spec = s ?? half();
        log(`${spec.name}: ${spec.clients} clients${spec.rate ? ` (at most), ${spec.rate}/s` : ''} for ${spec.seconds} s`);
        const r = await runLoad(db, pgDb.url, acc, spec);
        phases.push(r);
        log(`  ${fmt(r.transfersPerSec, 0)}/s, p50 ${fmt(r.latencyMs.p50)} ms, p99 ${fmt(r.latencyMs.p99)} ms, max ${fmt(r.latencyMs.max)} ms, failed ${r.failed}${r.firstError ? ` (${r.firstError})` : ''}`);
      }
      violationsAfterLoad = await checkLedger(db);
      log(`checkLedger after the throughput runs: ${violationsAfterLoad.length} violations`);
    }
    await db.close();

    if (opts.only !== 'throughput') {
      const small = createPgDb(pgDb.url, 4);
      try {
        log(`fault run: real gateway child, ${opts.faultClients} clients on the vendor bet/win API`);
        fault = await runFault(small, acc, {
          url: pgDb.url, root: ROOT, clients: opts.faultClients, members: Math.min(200, opts.accounts), kills: opts.kills,
          killEveryMs: opts.killEvery * 1000, tailMs: 2000, log,
          track: (c) => children.add(c), untrack: (c) => children.delete(c),
        });
        violationsAtEnd = fault.checks.ledgerViolations;
      } finally {
        await small.close();
      }
    }
  } catch (err) {
    console.error('ledger bench failed:', err instanceof Error ? err.stack ?? err.message : err);
    exitCode = 1;
    await db.close().catch(() => undefined);
  } finally {
    killAll();
    await pgDb.drop().catch((err) => console.error('could not drop the bench database:', err));
  }

  const get = (name: string) => phases.find((p) => p.name.startsWith(name)) ?? null;
  const l16 = get(`ledger, house over ${SYSTEM_SHARDS} rows`);
  const lFree = get(`ledger, house over ${UNCONTENDED} rows`);
  const l1 = get('ledger, ONE house row');
  const s16 = get(`bare SQL, ${SYSTEM_SHARDS} rows`);
  const so16 = get(`bare SQL + outbox, ${SYSTEM_SHARDS} rows`);
  const soFree = get(`bare SQL + outbox, ${UNCONTENDED} rows`);
  const sFree = get(`bare SQL, ${UNCONTENDED} rows`);
  const s1 = get('bare SQL, ONE house row');
  const paced = get(`ledger, ${SYSTEM_SHARDS} rows, paced ${opts.rate}/s`);
  const pacedHalf = phases.find((p) => p.name.includes('(50% of sat.)')) ?? null;
  const cost = (hot: PhaseResult | null, free: PhaseResult | null) => (hot && free ? 1 - hot.transfersPerSec / free.transfersPerSec : null);
  /** the house as the ledger runs it (default shards) against the same transfers with no contended counterpart */
  const hotCost = cost(l16, lFree);
  /** one unsharded house row against the default shards (what sharding saves) */
  const oneRowCost = cost(l1, l16);
  const targets = l16
    ? {
        throughput: { value: l16.transfersPerSec, ok: l16.transfersPerSec >= 1000 },
        p99Saturated: { value: l16.latencyMs.p99, ok: l16.latencyMs.p99 <= 50 },
        p99AtRate: paced ? { rate: opts.rate, achieved: paced.transfersPerSec, value: paced.latencyMs.p99, ok: paced.latencyMs.p99 <= 50 && paced.transfersPerSec >= opts.rate * 0.95 } : null,
        zeroDrift: { value: (violationsAfterLoad?.length ?? 0) + (violationsAtEnd?.length ?? 0), ok: (violationsAfterLoad?.length ?? 0) === 0 && (violationsAtEnd?.length ?? 0) === 0 },
        p99AtHalfSaturation: pacedHalf ? { rate: pacedHalf.rate, achieved: pacedHalf.transfersPerSec, value: pacedHalf.latencyMs.p99, ok: pacedHalf.latencyMs.p99 <= 50 } : null,
        hotHouseCost: { value: hotCost, ok: hotCost !== null && hotCost <= 0.3 },
        oneRowHouseCost: { value: oneRowCost, ok: oneRowCost !== null && oneRowCost <= 0.3 },
        faultRun: fault ? { ok: fault.ok } : null,
      }
    : null;

  if (phases.length) {
    console.log('\n' + phaseTable(phases));
    if (l16 && s16) console.log(`\nledger / bare SQL (${SYSTEM_SHARDS} rows): ${(l16.transfersPerSec / s16.transfersPerSec).toFixed(2)}x`);
    if (s16 && so16 && sFree && soFree)
      console.log(`outbox row cost on bare SQL: ${pct(cost(soFree, sFree))} of throughput uncontended (${UNCONTENDED} rows), ${pct(cost(so16, s16))} over ${SYSTEM_SHARDS} rows (written while the house row is locked)`);
    if (lFree && sFree && soFree) console.log(`ledger / bare SQL uncontended: ${(lFree.transfersPerSec / sFree.transfersPerSec).toFixed(2)}x without outbox, ${(lFree.transfersPerSec / soFree.transfersPerSec).toFixed(2)}x with`);
    console.log(`hot house cost, house over ${SYSTEM_SHARDS} rows vs ${UNCONTENDED} (uncontended): ledger ${pct(hotCost)}, bare SQL ${pct(cost(s16, sFree))} (target <= 30%)`);
    console.log(`hot house cost, ONE row vs ${SYSTEM_SHARDS} rows: ledger ${pct(oneRowCost)}, bare SQL ${pct(cost(s1, s16))}; ONE row vs uncontended: ledger ${pct(cost(l1, lFree))}, bare SQL ${pct(cost(s1, sFree))}`);
    console.log(`checkLedger after the throughput runs: ${violationsAfterLoad === null ? '-' : violationsAfterLoad.length === 0 ? '0 violations (zero drift)' : JSON.stringify(violationsAfterLoad.slice(0, 5))}`);
  }
  if (fault) {
    const c = fault.checks;
    console.log(
      `\nfault run: ${fault.kills} kill -9 (restart ${fault.restartMs.slice(1).map((m) => (m / 1000).toFixed(1)).join('/')} s), requests ${fault.requests}, acked ${fault.acked} ` +
        `(${fault.ackedBets} bets, ${fault.ackedWins} wins, ${fault.replayedAcks} answered as replays), refused ${fault.refused}, retries ${fault.retries} ` +
        `(connection errors ${fault.connectionErrors}, 5xx ${fault.serverErrors}), unfinished ${fault.unfinished}, ${fmt(fault.ackedPerSec, 0)} acks/s`,
    );
    console.log(
      `  acked missing ${c.ackedMissing}, acked duplicated ${c.ackedDuplicated}, acked with wrong amount ${c.ackedWrongAmount}, unacked present twice ${c.unackedPresentTwice}, ` +
        `vendor rows != 1 ${c.vendorRowsNotOne}, balances != acked history ${c.balanceMismatches}, checkLedger ${c.ledgerViolations.length}, checkCashier ${c.cashierViolations.length} -> ${fault.ok ? 'OK' : 'FAILED'}`,
    );
  }
  if (targets) {
    const ok = (b: boolean | undefined) => (b ? 'OK' : 'MISSED');
    console.log(
      `\ntargets: >= 1,000 transfers/s ${ok(targets.throughput.ok)} (${fmt(targets.throughput.value, 0)}); ` +
        `p99 <= 50 ms at ${opts.clients} clients saturated ${ok(targets.p99Saturated.ok)} (${fmt(targets.p99Saturated.value)} ms)` +
        (targets.p99AtRate ? `, at ${opts.rate}/s ${ok(targets.p99AtRate.ok)} (${fmt(targets.p99AtRate.value)} ms)` : '') +
        (targets.p99AtHalfSaturation ? `, at ${targets.p99AtHalfSaturation.rate}/s ${ok(targets.p99AtHalfSaturation.ok)} (${fmt(targets.p99AtHalfSaturation.value)} ms)` : '') +
        `; zero drift ${ok(targets.zeroDrift.ok)}; hot house cost <= 30%: ${SYSTEM_SHARDS} rows ${ok(targets.hotHouseCost.ok)} (${fmt((hotCost ?? NaN) * 100, 0)}%), ` +
        `ONE row ${ok(targets.oneRowHouseCost.ok)} (${fmt((oneRowCost ?? NaN) * 100, 0)}%)` +
        (targets.faultRun ? `; fault run ${ok(targets.faultRun.ok)}` : ''),
    );
  }
  if (fault && !fault.ok) exitCode = exitCode || 1;
  const report = {
    command: `npm run bench -- --ledger ${argv.join(' ')}`.trim(),
    startedAt: started.toISOString(),
    machine: { node: process.version, cpus: os.cpus().length, platform: process.platform, loadAvgStart: loadStart, loadAvgEnd: os.loadavg()[0] },
    options: opts,
    targets,
    hotHouseCost: hotCost,
    oneRowHouseCost: oneRowCost,
    ledgerOverBare: l16 && s16 ? l16.transfersPerSec / s16.transfersPerSec : null,
    phases,
    checkLedgerAfterLoad: violationsAfterLoad,
    fault: fault ? { ...fault, gatewayStderrTail: fault.ok ? undefined : fault.gatewayStderrTail } : null,
    wallSeconds: (wallMs() - t0) / 1000,
  };
  mkdirSync(path.dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, JSON.stringify(report, null, 2));
  console.log(`\nJSON: ${path.relative(ROOT, opts.out)} (${fmt(report.wallSeconds, 0)} s)`);
  return exitCode;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(await main(process.argv.slice(2)));
