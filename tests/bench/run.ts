/**
 * `npm run bench`: realtime delivery of one gateway node beside a bare Socket.IO server.
 *
 * For each target (the real gateway, then the bare server), in its own child process on 127.0.0.1:
 *   1. N members with sessions (gateway: rows in its database; bare: tokens in memory),
 *   2. N socket.io-client websocket connections from client worker processes, one member each,
 *      memory per socket = (server RSS after connecting - RSS before) / N after a forced GC,
 *   3. a warm-up, then a paced run (default 1,000 events/s for 10 s): each event a `balance.changed`
 *      to one member's room, committed through emitEvent in a database transaction (gateway),
 *   4. a saturation run: as many events as the target takes for a few seconds, one event per
 *      transaction (the commit rate of the database bounds it), then for the gateway a batched one
 *      (--per-tx events per transaction, default 20) that measures relay -> bus -> Socket.IO itself,
 *   5. broadcast: `winner.posted` to the merchant room, so every event reaches all N sockets; paced at
 *      --bcast-rate events/s (deliveries/s = rate x N), then saturated with at most --bcast-window
 *      events ahead of what every client has received (the clients' counts are fed back to the producer).
 * Commit-to-client latency = receive wall time in the client - commit wall time in the producer,
 * joined on the envelope id (same machine, same clock). A delivery is one event on one socket;
 * expected deliveries = events x sockets per event (1, or N for a broadcast). Lost must be 0.
 *
 * Options: --sockets N (5000) --rate R (1000) --seconds S (10) --sat-seconds S (4) --clients P (2) --per-tx K (20)
 *          --bcast-rate R (4) --bcast-window W (8) --workload member|broadcast|both|connect (both; connect: only
 *          the connect phase, for handshakes/s and server CPU per handshake)
 *          --high-rate R (5000) --high-per-tx K (5): a second paced member phase at R events/s, K events per
 *          transaction (one transaction per event does not reach 5,000/s on a 2-core machine shared with
 *          PostgreSQL; the bare server emits the same K events per tick)
 *          --quick (500 sockets, 3 s, 2 s) --pg (real PostgreSQL: DATABASE_URL, else a throwaway
 *          database on 127.0.0.1:5432) --only gateway|bare --dev (gateway in development mode)
 *          --relay-own-pool (experiment, PostgreSQL only: an extra outbox relay on its own connections)
 *          --cpu-prof (CPU profile of each server, one per phase, into tests/bench/results/prof/<target>/) --out FILE
 *          --stale-sessions (gateway sessions last seen 5 minutes before the connect phase, as in a reconnect
 *          storm after a node restart: each handshake also writes last_seen_at)
 *          --alternate K (both servers up and connected at once, then K rounds of the paced member phase of
 *          each, alternated; prints the ratio of each round and their median; 3 client processes by default)
 * REDIS_URL in the environment puts the gateway on the Redis Streams bus and adapter.
 * BENCH_SERVER_ARGV in the environment adds Node flags to both servers' processes (e.g. `--trace-gc`,
 * which NODE_OPTIONS refuses), the same for each so the ratios stay fair.
 * --ledger runs the ledger benchmark instead (tests/bench/ledger.ts; its own options follow).
 * --vendor runs the vendor API bet/win benchmark instead (tests/bench/vendor.ts).
 * --tree runs the agent team-tree representation benchmark instead (tests/bench/agents-tree.ts).
 * --web measures first paint of the built portal in headless Chromium instead (tests/bench/web.ts).
 * --http runs the bootstrap HTTP calls beside a bare Express route instead (tests/bench/http.ts).
 * --engagement runs the engagement sections instead (tests/bench/engagement.ts: red envelope grab storm, bonus wagering progress lag).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { latencyStats, sleep, wallMs, type ClientCollect, type Fanout, type LatencyStats, type Mem, type ProduceArgs, type ProduceResult, type Req, type Res } from './common.ts';
import { hostCpu, preparePg as prepareThrowawayPg } from './pg-gateway.ts';
import { durableBaseline, type DurableBaseline } from './durable-baseline.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

// ---------------------------------------------------------------- options
function parseArgs(argv: string[]) {
  const o = {
    sockets: 5000, rate: 1000, seconds: 10, satSeconds: 4, clients: 2, warmSeconds: 2,
    quick: false, pg: false, only: null as null | 'gateway' | 'bare', dev: false, cpuProf: false,
    out: path.join(HERE, 'results', 'latest.json'), maxInFlight: 64, relayOwnPool: false, perTx: 20,
    bcastRate: 4, bcastWindow: 8, workload: 'both' as 'member' | 'broadcast' | 'both' | 'connect',
    highRate: 5000, highPerTx: 5, staleSessions: false, alternate: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v <= 0) throw new Error(`${a} needs a positive number`);
      return v;
    };
    if (a === '--sockets') o.sockets = Math.floor(num());
    else if (a === '--rate') o.rate = num();
    else if (a === '--seconds') o.seconds = num();
    else if (a === '--sat-seconds') o.satSeconds = num();
    else if (a === '--clients') o.clients = Math.floor(num());
    else if (a === '--in-flight') o.maxInFlight = Math.floor(num());
    else if (a === '--per-tx') o.perTx = Math.floor(num());
    else if (a === '--bcast-rate') o.bcastRate = num();
    else if (a === '--high-rate') {
      // 0 skips the phase (README), which num() would refuse
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v < 0) throw new Error('--high-rate needs a number >= 0');
      o.highRate = v;
    }
    else if (a === '--high-per-tx') o.highPerTx = Math.floor(num());
    else if (a === '--bcast-window') o.bcastWindow = Math.floor(num());
    else if (a === '--workload') {
      const v = argv[++i];
      if (v !== 'member' && v !== 'broadcast' && v !== 'both' && v !== 'connect') throw new Error('--workload member|broadcast|both|connect');
      o.workload = v;
    }
    else if (a === '--quick') o.quick = true;
    else if (a === '--pg') o.pg = true;
    else if (a === '--dev') o.dev = true;
    else if (a === '--relay-own-pool') o.relayOwnPool = true;
    else if (a === '--cpu-prof') o.cpuProf = true;
    else if (a === '--stale-sessions') o.staleSessions = true;
    else if (a === '--alternate') o.alternate = Math.floor(num());
    else if (a === '--only') {
      const v = argv[++i];
      if (v !== 'gateway' && v !== 'bare') throw new Error('--only gateway|bare');
      o.only = v;
    } else if (a === '--out') o.out = path.resolve(argv[++i] ?? '');
    else if (a === '--help' || a === '-h') {
      console.log('npm run bench -- [--quick] [--sockets N] [--rate R] [--high-rate R] [--high-per-tx K] [--seconds S] [--sat-seconds S] [--clients P] [--per-tx K] [--bcast-rate R] [--bcast-window W] [--workload member|broadcast|both|connect] [--pg] [--only gateway|bare] [--dev] [--cpu-prof] [--stale-sessions] [--alternate K] [--out FILE]');
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --help)`);
  }
  if (o.quick) {
    if (!argv.includes('--sockets')) o.sockets = 500;
    if (!argv.includes('--seconds')) o.seconds = 3;
    if (!argv.includes('--sat-seconds')) o.satSeconds = 2;
    o.warmSeconds = 1;
  }
  // --alternate holds both servers' sockets at once: three client processes unless told otherwise.
  if (o.alternate && !argv.includes('--clients')) o.clients = 3;
  if ((o.alternate ? 2 : 1) * o.sockets > 9000 * o.clients) throw new Error('too many sockets per client process for the fd limit: add --clients');
  return o;
}
// `npm run bench -- --web [...]`: first paint of the built portal in headless Chromium (tests/bench/web.ts).
if (process.argv.includes('--web')) {
  const { main } = await import('./web.ts');
  process.exit(await main(process.argv.slice(2).filter((a) => a !== '--web')));
}
// `npm run bench -- --http [...]`: the bootstrap calls beside a bare Express route (tests/bench/http.ts).
if (process.argv.includes('--http')) {
  const { main } = await import('./http.ts');
  process.exit(await main(process.argv.slice(2).filter((a) => a !== '--http')));
}
// `npm run bench -- --catalogue [...]`: the game-list search benchmark instead (tests/bench/catalogue.ts).
if (process.argv.includes('--catalogue')) {
  const { runCatalogueBench } = await import('./catalogue.ts');
  await runCatalogueBench(process.argv.slice(2).filter((a) => a !== '--catalogue'));
  process.exit(0);
}
// `npm run bench -- --agents [...]` (without --tree): the agent back office at scale (tests/bench/agents.ts).
if (process.argv.includes('--agents') && !process.argv.includes('--tree')) {
  const { main } = await import('./agents.ts');
  process.exit(await main(process.argv.slice(2).filter((a) => a !== '--agents')));
}
// `npm run bench -- --tree [...]` (or `--agents --tree`): the agent team-tree representations (tests/bench/agents-tree.ts).
if (process.argv.includes('--tree')) {
  const { main } = await import('./agents-tree.ts');
  process.exit(await main(process.argv.slice(2).filter((a) => a !== '--tree' && a !== '--agents')));
}
// `npm run bench -- --ledger [...]`: the ledger benchmark (tests/bench/ledger.ts) instead of the realtime one.
if (process.argv.includes('--ledger')) {
  const { main } = await import('./ledger.ts');
  process.exit(await main(process.argv.slice(2).filter((a) => a !== '--ledger')));
}
// `npm run bench -- --engagement [...]`: engagement workloads, one section each (tests/bench/engagement.ts).
if (process.argv.includes('--engagement')) {
  const { main } = await import('./engagement.ts');
  process.exit(await main(process.argv.slice(2).filter((a) => a !== '--engagement')));
}
// `npm run bench -- --vendor [...]`: vendor bet/win pairs over the signed vendor API (tests/bench/vendor.ts).
if (process.argv.includes('--vendor')) {
  const { main } = await import('./vendor.ts');
  process.exit(await main(process.argv.slice(2).filter((a) => a !== '--vendor')));
}
const opts = parseArgs(process.argv.slice(2));

// ---------------------------------------------------------------- children (always killed on exit)
const children = new Set<ChildProcess>();
function killAll() {
  for (const c of children) if (c.exitCode === null && c.pid) c.kill('SIGKILL');
}
process.on('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));
// The whole run is bounded: a hung phase ends the bench instead of running forever.
const deadline = setTimeout(() => {
  console.error('bench: overall deadline (20 min) reached, stopping');
  process.exit(2);
}, 20 * 60_000);
deadline.unref();

class Child {
  readonly proc: ChildProcess;
  readonly ready: Promise<{ port?: number }>;
  private seq = 0;
  private pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  constructor(readonly name: string, file: string, env: Record<string, string | undefined>, extraArgv: string[] = []) {
    this.proc = fork(path.join(HERE, file), [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx', '--expose-gc', ...extraArgv],
      env: { ...process.env, ...env },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.add(this.proc);
    let onReady: (v: { port?: number }) => void;
    let onFail: (e: Error) => void;
    this.ready = new Promise((res, rej) => {
      onReady = res;
      onFail = rej;
    });
    const readyTimer = setTimeout(() => onFail(new Error(`${name}: not ready after 120 s`)), 120_000);
    this.proc.on('message', (m: Res & { ready?: boolean; port?: number }) => {
      if (m.ready) {
        clearTimeout(readyTimer);
        onReady({ port: m.port });
        return;
      }
      const p = this.pending.get(m.reqId);
      if (!p) return;
      this.pending.delete(m.reqId);
      clearTimeout(p.timer);
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(`${name}: ${m.error}`));
    });
    this.proc.on('exit', (code, signal) => {
      children.delete(this.proc);
      clearTimeout(readyTimer);
      onFail(new Error(`${name} exited (${code ?? signal}) before ready`));
      for (const p of this.pending.values()) {
        clearTimeout(p.timer);
        p.reject(new Error(`${name} exited (${code ?? signal})`));
      }
      this.pending.clear();
    });
  }
  call<T>(cmd: string, args?: unknown, timeoutMs = 120_000): Promise<T> {
    const reqId = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(reqId);
        reject(new Error(`${this.name}: ${cmd} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(reqId, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.proc.send({ reqId, cmd, args } satisfies Req);
    });
  }
  /** Ask the child to stop cleanly; kill it if it does not exit within `ms`. */
  async stop(ms = 15_000) {
    if (this.proc.exitCode !== null) return;
    const exited = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.call('stop', undefined, ms).catch(() => undefined);
    const t = setTimeout(() => this.proc.kill('SIGKILL'), ms);
    await exited;
    clearTimeout(t);
  }
}

// ---------------------------------------------------------------- measurement
type Loop = { p50: number; p99: number; max: number };
type PhaseResult = {
  mode: ProduceArgs['mode'];
  fanout: Fanout;
  targetRate: number | null;
  /** Sockets each event goes to: 1 (member room), or every connected socket (merchant room). */
  socketsPerEvent: number;
  committed: number;
  failed: number;
  firstError: string | null;
  commitRate: number;
  /** Deliveries: distinct (socket, event) receptions. */
  delivered: number;
  deliveredPerSec: number;
  lost: number;
  duplicates: number;
  seqAnomalies: number;
  unexpectedDisconnects: number;
  /** Sockets still open at the end of the phase (a socket the server dropped, e.g. on a missed heartbeat, gets nothing more). */
  openSockets: number;
  /** Server CPU time per committed event (us): for member events, what the ratio to bare compares. */
  serverCpuUsPerCommitted: number;
  latencyMs: LatencyStats;
  commitToBusMs: LatencyStats | null;
  /** Gateway on PostgreSQL: db.single statements run alone, and batches committed together (group commit). */
  groupCommit: ProduceResult['groupCommit'] | null;
  busToClientMs: LatencyStats | null;
  producerMaxBacklog: number;
  serverCpuPercent: number;
  /** Server CPU time per delivered event (microseconds): comparable even when the machine is shared. */
  serverCpuUsPerEvent: number;
  clientCpuPercent: number;
  /** Client workers' CPU time per delivery (microseconds): near the server's, the clients bound the rate. */
  clientCpuUsPerEvent: number;
  /** Whole machine busy (% of one core, so up to cores x 100) and PostgreSQL's share; null off Linux. */
  hostCpuPercent: number | null;
  pgCpuPercent: number | null;
  serverLoopDelayMs: Loop;
  drainMs: number;
  /** Gateway: VACUUM of the outbox before the phase (what autovacuum would have done meanwhile). */
  vacuumMs: number;
};

async function loadPhase(node: Child, clients: Child[], args: ProduceArgs, sockets: number, profFile?: string): Promise<PhaseResult> {
  const fanout: Fanout = args.fanout ?? 'member';
  const perEvent = fanout === 'merchant' ? Math.max(1, sockets) : 1;
  await Promise.all(clients.map((c) => c.call('reset')));
  const vacuumMs = await node.call<number>('vacuum');
  await node.call('loop');
  if (profFile) await node.call('profStart');
  const cpu0 = await node.call<number>('cpu');
  const host0 = hostCpu();
  const t0 = wallMs();
  const totalCount = async () => (await Promise.all(clients.map((c) => c.call<number>('count')))).reduce((a, b) => a + b, 0);
  // Window mode: tell the producer how many events every socket has received, every few ms.
  let feeding = args.mode === 'window';
  const feeder = (async () => {
    while (feeding) {
      await node.call('ack', Math.floor((await totalCount()) / perEvent));
      await sleep(5);
    }
  })();
  const prod = await node.call<ProduceResult>('produce', args, args.seconds * 1000 + 90_000).finally(() => (feeding = false));
  await feeder;
  // Drain: until every committed event arrived everywhere, or nothing arrived for 3 s, or 30 s passed.
  const expected = prod.ids.length * perEvent;
  const drainStart = wallMs();
  let last = -1;
  let lastChange = wallMs();
  for (;;) {
    const total = await totalCount();
    if (total >= expected) break;
    if (total !== last) {
      last = total;
      lastChange = wallMs();
    }
    if (wallMs() - lastChange > 3000 || wallMs() - drainStart > 30_000) break;
    await sleep(50);
  }
  const drainMs = wallMs() - drainStart;
  const loop = await node.call<Loop>('loop');
  const cpu1 = await node.call<number>('cpu');
  const host1 = hostCpu();
  if (profFile) await node.call('profStop', profFile);
  const wall = (wallMs() - t0) / 1000;
  const bus = await node.call<{ ids: string[]; at: Float64Array }>('busTimes');
  const cols = await Promise.all(clients.map((c) => c.call<ClientCollect & { unexpectedDisconnects: number; open: number }>('collect')));

  const n = prod.ids.length;
  const eventOf = new Map<string, number>();
  for (let i = 0; i < n; i++) eventOf.set(prod.ids[i]!, i);
  const busAt = new Float64Array(n).fill(NaN);
  for (let i = 0; i < bus.ids.length; i++) {
    const k = eventOf.get(bus.ids[i]!);
    if (k !== undefined) busAt[k] = bus.at[i]!;
  }
  // One delivery = one event on one socket: (worker, socket, event) counted once, repeats are duplicates.
  const seen = new Set<number>();
  const lat: number[] = [];
  const c2b: number[] = [];
  const b2c: number[] = [];
  const busSeen = new Uint8Array(n);
  let duplicates = 0;
  let lastRecv = 0;
  let clientCpu = 0;
  cols.forEach((col, w) => {
    clientCpu += col.cpuSeconds;
    const ev = col.ids.map((id) => eventOf.get(id) ?? -1);
    for (let r = 0; r < col.idOf.length; r++) {
      const k = ev[col.idOf[r]!]!;
      if (k < 0) continue; // an event from an earlier phase still in flight, or not the bench's
      const key = (w * 1_000_000 + col.sockOf[r]!) * n + k;
      if (seen.has(key)) {
        duplicates++;
        continue;
      }
      seen.add(key);
      const t = col.receivedAt[r]!;
      lat.push(t - prod.committedAt[k]!);
      if (t > lastRecv) lastRecv = t;
      const b = busAt[k]!;
      if (!Number.isNaN(b)) {
        b2c.push(t - b);
        if (!busSeen[k]) {
          busSeen[k] = 1;
          c2b.push(b - prod.committedAt[k]!);
        }
      }
    }
  });
  const delivered = seen.size;
  const span = Math.max(1e-3, ((lastRecv || prod.endedAt) - prod.startedAt) / 1000);
  return {
    mode: args.mode,
    fanout,
    targetRate: args.mode === 'rate' ? args.rate : null,
    socketsPerEvent: perEvent,
    committed: n,
    failed: prod.failed,
    firstError: prod.firstError,
    commitRate: n / Math.max(1e-3, prod.elapsedSeconds),
    delivered,
    deliveredPerSec: delivered / span,
    lost: expected - delivered,
    duplicates,
    seqAnomalies: cols.reduce((a, c) => a + c.seqAnomalies, 0),
    unexpectedDisconnects: cols.reduce((a, c) => a + c.unexpectedDisconnects, 0),
    openSockets: cols.reduce((a, c) => a + c.open, 0),
    serverCpuUsPerCommitted: n ? ((cpu1 - cpu0) * 1e6) / n : NaN,
    latencyMs: latencyStats(lat),
    commitToBusMs: c2b.length ? latencyStats(c2b) : null,
    busToClientMs: b2c.length ? latencyStats(b2c) : null,
    producerMaxBacklog: prod.maxBacklog,
    groupCommit: prod.groupCommit ?? null,
    serverCpuPercent: ((cpu1 - cpu0) / wall) * 100,
    serverCpuUsPerEvent: delivered ? ((cpu1 - cpu0) * 1e6) / delivered : NaN,
    clientCpuPercent: (clientCpu / wall) * 100,
    clientCpuUsPerEvent: delivered ? (clientCpu * 1e6) / delivered : NaN,
    hostCpuPercent: host0 && host1 ? ((host1.busy - host0.busy) / wall) * 100 : null,
    // Backends that exited during the phase are missing from the second reading (an undercount).
    pgCpuPercent: host0 && host1 ? ([...host1.pg].reduce((a, [pid, t]) => a + t - (host0.pg.get(pid) ?? 0), 0) / wall) * 100 : null,
    serverLoopDelayMs: loop,
    drainMs,
    vacuumMs,
  };
}

type TargetResult = {
  target: 'gateway' | 'bare';
  info: Record<string, unknown>;
  sockets: { requested: number; connected: number; failed: number; firstError: string | null; connectSeconds: number; connectPerSec: number; connectCpuUsPerSocket: number; connectNetCpuUsPerSocket: number; idleCpuPercent: number; serverSeesOpen: number };
  memory: { base: Mem; beforeSockets: Mem; afterSockets: Mem; rssPerSocketKB: number; heapPerSocketKB: number; clientRssPerSocketKB: number };
  setupMs: number;
  /** Per-member phases (one socket per event); null with --workload broadcast. */
  paced: PhaseResult | null;
  /** Paced at --high-rate events/s, --high-per-tx events per transaction. */
  pacedHigh: PhaseResult | null;
  saturation: PhaseResult | null;
  /** Gateway: the same saturation with each event's transaction made by db.tx (two round trips) instead of db.single. */
  saturationTx: PhaseResult | null;
  /** Gateway: saturation with `perTx` events per transaction (bare: the same as saturation). */
  saturationBatched: PhaseResult | null;
  /** Broadcast to the merchant room (every socket gets every event), paced and saturated; null with --workload member. */
  broadcastPaced: PhaseResult | null;
  broadcastSaturation: PhaseResult | null;
};

/** A server child: the real gateway or the bare Socket.IO server, with BENCH_SERVER_ARGV's Node flags (the same for both). */
function serverChild(target: 'gateway' | 'bare', env: Record<string, string | undefined>) {
  return new Child(target, target === 'gateway' ? 'gateway-node.ts' : 'bare-node.ts', env, (process.env.BENCH_SERVER_ARGV ?? '').split(' ').filter(Boolean));
}

/** Each client process opens its share of `tokens` on `url` (a client's `connected` counts every socket it holds). */
function connectClients(clients: Child[], url: string, tokens: string[]) {
  const share = Math.ceil(tokens.length / clients.length);
  return Promise.all(
    clients.map((c, i) =>
      c.call<{ connected: number; failed: number; firstError: string | null }>(
        'connect',
        { url, tokens: tokens.slice(i * share, (i + 1) * share), concurrency: 50, timeoutMs: 30_000 },
        600_000,
      ),
    ),
  );
}

/**
 * --alternate K: the paced member phase of both servers, alternated. Both servers are up and connected
 * at once (N sockets each, over the same client processes), then K rounds, each a paced phase of one
 * server and then of the other (the order flips every round), so the two figures of a round are seconds
 * apart instead of minutes: the bare server's own CPU per event moves by half within an hour on these
 * machines, which decided the ratio more than the gateway did. Prints every round's server CPU per
 * committed event, its ratio, and the median ratio (the issue 12 target: <= 2x).
 */
async function runAlternate(rounds: number, clients: Child[], env: Record<string, string | undefined>) {
  const nodes = { gateway: serverChild('gateway', env), bare: serverChild('bare', {}) };
  const connected = { gateway: 0, bare: 0 };
  try {
    let held = 0;
    for (const target of ['gateway', 'bare'] as const) {
      const node = nodes[target];
      const { port } = await node.ready;
      const setup = await node.call<{ tokens: string[] }>('setup', { n: opts.sockets }, 300_000);
      const conns = await connectClients(clients, `http://127.0.0.1:${port}`, setup.tokens);
      const total = conns.reduce((a, c) => a + c.connected, 0);
      connected[target] = total - held;
      held = total;
      console.log(`[alternate] ${target}: ${connected[target]}/${opts.sockets} sockets connected`);
    }
    const paced = { mode: 'rate' as const, rate: opts.rate, maxInFlight: opts.maxInFlight };
    for (const target of ['gateway', 'bare'] as const) await loadPhase(nodes[target], clients, { ...paced, seconds: opts.warmSeconds }, connected[target]);
    const rows: Array<{ round: number; gateway: PhaseResult; bare: PhaseResult }> = [];
    for (let r = 1; r <= rounds; r++) {
      const order = r % 2 ? (['gateway', 'bare'] as const) : (['bare', 'gateway'] as const);
      const got: Partial<Record<'gateway' | 'bare', PhaseResult>> = {};
      for (const target of order) got[target] = await loadPhase(nodes[target], clients, { ...paced, seconds: opts.seconds }, connected[target]);
      const g = got.gateway!;
      const b = got.bare!;
      rows.push({ round: r, gateway: g, bare: b });
      console.log(
        `[alternate] round ${r} (${order.join(' then ')}): server CPU per committed event ${fmt(g.serverCpuUsPerCommitted, 0)} / ${fmt(b.serverCpuUsPerCommitted, 0)} us = ` +
          `${(g.serverCpuUsPerCommitted / b.serverCpuUsPerCommitted).toFixed(2)}x; p99 ${fmt(g.latencyMs.p99)} / ${fmt(b.latencyMs.p99)} ms; ` +
          `lost ${g.lost} / ${b.lost}, dup ${g.duplicates} / ${b.duplicates}, seq ${g.seqAnomalies} / ${b.seqAnomalies}; load ${os.loadavg()[0]!.toFixed(1)}`,
      );
    }
    const ratios = rows.map((x) => x.gateway.serverCpuUsPerCommitted / x.bare.serverCpuUsPerCommitted).sort((a, b) => a - b);
    const median = ratios.length % 2 ? ratios[(ratios.length - 1) / 2]! : (ratios[ratios.length / 2 - 1]! + ratios[ratios.length / 2]!) / 2;
    const clean = rows.every((x) => x.gateway.lost === 0 && x.bare.lost === 0 && x.gateway.seqAnomalies === 0 && x.gateway.duplicates === 0);
    console.log(
      `[alternate] paced member events at ${opts.rate}/s, ${opts.sockets} sockets per server: gateway/bare server CPU per committed event, ` +
        `median of ${rows.length} rounds ${median.toFixed(2)}x (${median <= 2 ? 'OK' : 'MISSED'}, target <= 2x; rounds ${ratios.map((x) => x.toFixed(2)).join(', ')}); ` +
        `every round lossless and in order: ${clean ? 'yes' : 'NO'}`,
    );
    await Promise.all(clients.map((c) => c.call('disconnect')));
    return { rounds: rows.map((x) => ({ round: x.round, gateway: x.gateway, bare: x.bare })), medianRatio: median, clean };
  } finally {
    await Promise.all([nodes.gateway.stop(), nodes.bare.stop()]);
  }
}

async function runTarget(target: 'gateway' | 'bare', clients: Child[], env: Record<string, string | undefined>): Promise<TargetResult> {
  const log = (s: string) => console.log(`[${target}] ${s}`);
  const node = serverChild(target, env);
  if (opts.cpuProf) mkdirSync(path.join(HERE, 'results', 'prof', target), { recursive: true });
  /** With --cpu-prof, the phase's profile file (warm-ups are not profiled). */
  const prof = (phase: string) => (opts.cpuProf ? path.join(HERE, 'results', 'prof', target, `${phase}.cpuprofile`) : undefined);
  try {
    const { port } = await node.ready;
    const info = await node.call<Record<string, unknown>>('info');
    log(`listening on 127.0.0.1:${port} ${JSON.stringify(info)}`);
    const base = await node.call<Mem>('mem');
    const setup = await node.call<{ tokens: string[]; ms: number }>('setup', { n: opts.sockets, staleSessions: opts.staleSessions }, 300_000);
    log(`${setup.tokens.length} members with sessions in ${(setup.ms / 1000).toFixed(1)} s`);
    const beforeSockets = await node.call<Mem>('mem');
    const clientMem0 = await Promise.all(clients.map((c) => c.call<Mem>('mem')));

    const url = `http://127.0.0.1:${port}`;
    // The server's CPU while idle (the gateway's relay poll, jobs, house game rounds), subtracted from
    // its connect phase below: on a loaded machine a slow connect phase would otherwise charge minutes
    // of background work to the handshakes.
    const idle0 = await node.call<number>('cpu');
    const ti = wallMs();
    await sleep(3000);
    const idleCpuPerSec = ((await node.call<number>('cpu')) - idle0) / ((wallMs() - ti) / 1000);
    const tc = wallMs();
    const cpuC0 = await node.call<number>('cpu');
    if (opts.cpuProf) await node.call('profStart');
    const conns = await connectClients(clients, url, setup.tokens);
    const connectSeconds = (wallMs() - tc) / 1000;
    // Server CPU per handshake: the Socket.IO and WebSocket upgrade, the handshake's checks, the joins.
    const connectCpuUs = ((await node.call<number>('cpu')) - cpuC0) * 1e6;
    if (opts.cpuProf) await node.call('profStop', path.join(HERE, 'results', 'prof', target, 'connect.cpuprofile'));
    const connected = conns.reduce((a, c) => a + c.connected, 0);
    const failed = conns.reduce((a, c) => a + c.failed, 0);
    const connectCpuUsPerSocket = connectCpuUs / Math.max(1, connected);
    const connectNetCpuUsPerSocket = Math.max(0, connectCpuUs - idleCpuPerSec * 1e6 * connectSeconds) / Math.max(1, connected);
    log(
      `${connected}/${opts.sockets} sockets connected in ${connectSeconds.toFixed(1)} s, ${(connected / connectSeconds).toFixed(0)}/s, server CPU ${connectCpuUsPerSocket.toFixed(0)} us per socket, ` +
        `${connectNetCpuUsPerSocket.toFixed(0)} us without its idle CPU (${(idleCpuPerSec * 100).toFixed(1)}% of a core) (${failed} failed${failed ? `: ${conns.find((c) => c.firstError)?.firstError}` : ''})`,
    );
    await sleep(1000);
    const afterSockets = await node.call<Mem>('mem');
    const clientMem1 = await Promise.all(clients.map((c) => c.call<Mem>('mem')));
    const serverSeesOpen = await node.call<number>('sockets');
    const n = Math.max(1, connected);
    const memory = {
      base,
      beforeSockets,
      afterSockets,
      rssPerSocketKB: (afterSockets.rss - beforeSockets.rss) / n / 1024,
      heapPerSocketKB: (afterSockets.heapUsed - beforeSockets.heapUsed) / n / 1024,
      clientRssPerSocketKB: clientMem1.reduce((a, m, i) => a + m.rss - clientMem0[i]!.rss, 0) / n / 1024,
    };
    log(`memory per socket: ${memory.rssPerSocketKB.toFixed(1)} KB RSS, ${memory.heapPerSocketKB.toFixed(1)} KB heap`);

    let pacedRes: PhaseResult | null = null;
    let pacedHigh: PhaseResult | null = null;
    let sat: PhaseResult | null = null;
    let satTx: PhaseResult | null = null;
    let batched: PhaseResult | null = null;
    if (opts.workload === 'member' || opts.workload === 'both') {
      const paced = { mode: 'rate' as const, rate: opts.rate, maxInFlight: opts.maxInFlight };
      await loadPhase(node, clients, { ...paced, seconds: opts.warmSeconds }, connected);
      log(`warm-up done; paced run ${opts.rate}/s for ${opts.seconds} s`);
      pacedRes = await loadPhase(node, clients, { ...paced, seconds: opts.seconds }, connected, prof('paced'));
      log(summary(pacedRes));
      if (opts.highRate > 0) {
        const k = Math.max(1, opts.highPerTx);
        log(`paced run ${opts.highRate} events/s (${k} per transaction) for ${opts.seconds} s`);
        pacedHigh = await loadPhase(node, clients, { mode: 'rate', rate: opts.highRate / k, perTx: k, seconds: opts.seconds, maxInFlight: opts.maxInFlight }, connected, prof('paced-high'));
        log(summary(pacedHigh));
      }
      log(`saturation run for ${opts.satSeconds} s`);
      sat = await loadPhase(node, clients, { mode: 'max', seconds: opts.satSeconds, maxInFlight: opts.maxInFlight }, connected, prof('saturation'));
      log(summary(sat));
      if (target === 'gateway') {
        log(`saturation run for ${opts.satSeconds} s, each event's transaction by db.tx (BEGIN with the statement, then COMMIT)`);
        satTx = await loadPhase(node, clients, { mode: 'max', seconds: opts.satSeconds, maxInFlight: opts.maxInFlight, commit: 'tx' }, connected, prof('saturation-tx'));
        log(summary(satTx));
      }
    }
    if ((opts.workload === 'member' || opts.workload === 'both') && target === 'gateway' && opts.perTx > 1) {
      log(`batched saturation run for ${opts.satSeconds} s, ${opts.perTx} events per transaction`);
      batched = await loadPhase(node, clients, { mode: 'max', seconds: opts.satSeconds, maxInFlight: Math.max(4, Math.ceil(opts.maxInFlight / opts.perTx)), perTx: opts.perTx }, connected, prof('batched'));
      log(summary(batched));
    }
    let bPaced: PhaseResult | null = null;
    let bSat: PhaseResult | null = null;
    if (opts.workload === 'broadcast' || opts.workload === 'both') {
      const bp = { mode: 'rate' as const, rate: opts.bcastRate, maxInFlight: 4, fanout: 'merchant' as const };
      await loadPhase(node, clients, { ...bp, seconds: opts.warmSeconds }, connected);
      log(`broadcast: paced run ${opts.bcastRate} events/s to ${connected} sockets for ${opts.seconds} s`);
      bPaced = await loadPhase(node, clients, { ...bp, seconds: opts.seconds }, connected, prof('bcast-paced'));
      log(summary(bPaced));
      log(`broadcast: saturation run for ${opts.satSeconds} s, at most ${opts.bcastWindow} events ahead of the clients`);
      bSat = await loadPhase(node, clients, { mode: 'window', seconds: opts.satSeconds, maxInFlight: opts.bcastWindow, fanout: 'merchant' }, connected, prof('bcast-saturation'));
      log(summary(bSat));
    }

    await Promise.all(clients.map((c) => c.call('disconnect')));
    return {
      target,
      info,
      sockets: { requested: opts.sockets, connected, failed, firstError: conns.find((c) => c.firstError)?.firstError ?? null, connectSeconds, connectPerSec: connected / connectSeconds, connectCpuUsPerSocket, connectNetCpuUsPerSocket, idleCpuPercent: idleCpuPerSec * 100, serverSeesOpen },
      memory,
      setupMs: setup.ms,
      paced: pacedRes,
      pacedHigh,
      saturation: sat,
      saturationTx: satTx,
      saturationBatched: batched,
      broadcastPaced: bPaced,
      broadcastSaturation: bSat,
    };
  } finally {
    await node.stop();
  }
}

function summary(p: PhaseResult) {
  const l = p.latencyMs;
  return (
    `${p.fanout === 'merchant' ? 'broadcast ' : ''}${p.mode}: committed ${p.committed} (${p.commitRate.toFixed(0)}/s), delivered ${p.delivered} (${p.deliveredPerSec.toFixed(0)}/s), ` +
    `lost ${p.lost}, dup ${p.duplicates}, seq ${p.seqAnomalies}, sockets open ${p.openSockets}${p.unexpectedDisconnects ? ` (${p.unexpectedDisconnects} dropped by the server since connecting)` : ''}, p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms, ` +
    `server CPU ${p.serverCpuPercent.toFixed(0)}% (${p.serverCpuUsPerEvent.toFixed(1)} us/delivery), clients ${p.clientCpuPercent.toFixed(0)}% (${p.clientCpuUsPerEvent.toFixed(1)} us/delivery), ` +
    `PostgreSQL ${fmt(p.pgCpuPercent, 0)}%, machine ${fmt(p.hostCpuPercent, 0)}% of ${os.cpus().length * 100}%`
  );
}

// ---------------------------------------------------------------- real PostgreSQL (optional)
async function preparePg(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  if (!process.env.DATABASE_URL && !opts.pg) return null;
  return prepareThrowawayPg('portal_bench');
}

// ---------------------------------------------------------------- report
const fmt = (v: number | null | undefined, d = 1) => (v === null || v === undefined || Number.isNaN(v) ? '-' : v.toFixed(d));
function table(results: TargetResult[]) {
  const g = results.find((r) => r.target === 'gateway');
  const b = results.find((r) => r.target === 'bare');
  const rows: Array<[string, (r: TargetResult) => string]> = [
    ['sockets connected', (r) => `${r.sockets.connected}/${r.sockets.requested}`],
    ['connect rate (sockets/s)', (r) => fmt(r.sockets.connectPerSec, 0)],
    ['connect: server CPU us per socket', (r) => fmt(r.sockets.connectCpuUsPerSocket, 0)],
    ['connect: the same without idle CPU', (r) => fmt(r.sockets.connectNetCpuUsPerSocket, 0)],
    ['RSS per socket (KB)', (r) => fmt(r.memory.rssPerSocketKB)],
    ['heap per socket (KB)', (r) => fmt(r.memory.heapPerSocketKB)],
    ...(opts.workload === 'member' || opts.workload === 'both' ? memberRows() : []),
    ...(opts.workload === 'broadcast' || opts.workload === 'both' ? bcastRows() : []),
  ];
  function memberRows(): Array<[string, (r: TargetResult) => string]> {
    return [
      [`paced: committed/s (target ${opts.rate})`, (r) => fmt(r.paced!.commitRate, 0)],
      ['paced: delivered events/s', (r) => fmt(r.paced!.deliveredPerSec, 0)],
      ['paced: latency p50 (ms)', (r) => fmt(r.paced!.latencyMs.p50)],
      ['paced: latency p95 (ms)', (r) => fmt(r.paced!.latencyMs.p95)],
      ['paced: latency p99 (ms)', (r) => fmt(r.paced!.latencyMs.p99)],
      ['paced: latency max (ms)', (r) => fmt(r.paced!.latencyMs.max)],
      ['paced: commit->bus p50/p99 (ms)', (r) => (r.paced!.commitToBusMs ? `${fmt(r.paced!.commitToBusMs.p50)}/${fmt(r.paced!.commitToBusMs.p99)}` : '-')],
      ['paced: lost / dup / seq gaps', (r) => `${r.paced!.lost} / ${r.paced!.duplicates} / ${r.paced!.seqAnomalies}`],
      ['sockets open after paced / after bcast sat.', (r) => `${r.paced!.openSockets} / ${r.broadcastSaturation?.openSockets ?? '-'}`],
      ['paced: server CPU %', (r) => fmt(r.paced!.serverCpuPercent, 0)],
      ['paced: server CPU us per event', (r) => fmt(r.paced!.serverCpuUsPerEvent, 0)],
      ['paced: server CPU us per committed event', (r) => fmt(r.paced!.serverCpuUsPerCommitted, 0)],
      ...(opts.highRate > 0
        ? ([
            [`paced ${opts.highRate}/s (${opts.highPerTx}/tx): events/s`, (r) => fmt(r.pacedHigh?.commitRate, 0)],
            [`paced ${opts.highRate}/s: p50/p99 (ms)`, (r) => `${fmt(r.pacedHigh?.latencyMs.p50)}/${fmt(r.pacedHigh?.latencyMs.p99)}`],
            [`paced ${opts.highRate}/s: lost / dup / seq gaps`, (r) => (r.pacedHigh ? `${r.pacedHigh.lost} / ${r.pacedHigh.duplicates} / ${r.pacedHigh.seqAnomalies}` : '-')],
            [`paced ${opts.highRate}/s: server CPU us per event`, (r) => fmt(r.pacedHigh?.serverCpuUsPerEvent, 0)],
          ] as Array<[string, (r: TargetResult) => string]>)
        : []),
      ['saturation: committed/s', (r) => fmt(r.saturation!.commitRate, 0)],
      ['saturation: delivered events/s', (r) => fmt(r.saturation!.deliveredPerSec, 0)],
      ['saturation: latency p50 (ms)', (r) => fmt(r.saturation!.latencyMs.p50)],
      ['saturation: latency p99 (ms)', (r) => fmt(r.saturation!.latencyMs.p99)],
      ['saturation: commit->bus p50/p99 (ms)', (r) => (r.saturation!.commitToBusMs ? `${fmt(r.saturation!.commitToBusMs.p50)}/${fmt(r.saturation!.commitToBusMs.p99)}` : '-')],
      ['saturation: lost / dup / seq gaps', (r) => `${r.saturation!.lost} / ${r.saturation!.duplicates} / ${r.saturation!.seqAnomalies}`],
      ['saturation: server CPU %', (r) => fmt(r.saturation!.serverCpuPercent, 0)],
      ['saturation: group commit: alone / batches, avg', (r) => {
        const g = r.saturation!.groupCommit;
        return g ? `${g.alone} / ${g.batches}, ${fmt(g.batched / Math.max(1, g.batches), 1)}` : '-';
      }],
      ['saturation: server CPU us per event', (r) => fmt(r.saturation!.serverCpuUsPerEvent, 0)],
      ['saturation: client CPU % (all workers)', (r) => fmt(r.saturation!.clientCpuPercent, 0)],
      [`batched sat. (${opts.perTx}/tx): committed/s`, (r) => fmt((r.saturationBatched ?? r.saturation!).commitRate, 0)],
      [`batched sat. (${opts.perTx}/tx): delivered/s`, (r) => fmt((r.saturationBatched ?? r.saturation!).deliveredPerSec, 0)],
      [`batched sat. (${opts.perTx}/tx): p50/p99 (ms)`, (r) => `${fmt((r.saturationBatched ?? r.saturation!).latencyMs.p50)}/${fmt((r.saturationBatched ?? r.saturation!).latencyMs.p99)}`],
      [`batched sat. (${opts.perTx}/tx): lost`, (r) => `${(r.saturationBatched ?? r.saturation!).lost}`],
      [`batched sat. (${opts.perTx}/tx): CPU us/event`, (r) => fmt((r.saturationBatched ?? r.saturation!).serverCpuUsPerEvent, 0)],
      [`batched sat. (${opts.perTx}/tx): client CPU %`, (r) => fmt((r.saturationBatched ?? r.saturation!).clientCpuPercent, 0)],
    ];
  }
  function bcastRows(): Array<[string, (r: TargetResult) => string]> {
    const bp = (r: TargetResult) => r.broadcastPaced!;
    const bs = (r: TargetResult) => r.broadcastSaturation!;
    return [
      [`bcast paced ${opts.bcastRate}/s: events/s`, (r) => fmt(bp(r).commitRate, 1)],
      ['bcast paced: deliveries/s', (r) => fmt(bp(r).deliveredPerSec, 0)],
      ['bcast paced: p50/p99 (ms)', (r) => `${fmt(bp(r).latencyMs.p50)}/${fmt(bp(r).latencyMs.p99)}`],
      ['bcast paced: lost / dup / seq gaps', (r) => `${bp(r).lost} / ${bp(r).duplicates} / ${bp(r).seqAnomalies}`],
      ['bcast paced: server / client CPU %', (r) => `${fmt(bp(r).serverCpuPercent, 0)} / ${fmt(bp(r).clientCpuPercent, 0)}`],
      ['bcast paced: server / client us/delivery', (r) => `${fmt(bp(r).serverCpuUsPerEvent, 1)} / ${fmt(bp(r).clientCpuUsPerEvent, 1)}`],
      [`bcast sat. (window ${opts.bcastWindow}): events/s`, (r) => fmt(bs(r).commitRate, 1)],
      ['bcast sat.: deliveries/s', (r) => fmt(bs(r).deliveredPerSec, 0)],
      ['bcast sat.: p50/p99 (ms)', (r) => `${fmt(bs(r).latencyMs.p50)}/${fmt(bs(r).latencyMs.p99)}`],
      ['bcast sat.: lost / dup / seq gaps', (r) => `${bs(r).lost} / ${bs(r).duplicates} / ${bs(r).seqAnomalies}`],
      ['bcast sat.: server / client CPU %', (r) => `${fmt(bs(r).serverCpuPercent, 0)} / ${fmt(bs(r).clientCpuPercent, 0)}`],
      ['bcast sat.: server / client us/delivery', (r) => `${fmt(bs(r).serverCpuUsPerEvent, 1)} / ${fmt(bs(r).clientCpuUsPerEvent, 1)}`],
    ];
  }
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const line = (a: string, x: string, y: string) => `${a.padEnd(w0)} | ${x.padStart(12)} | ${y.padStart(12)}`;
  const out = [line('', 'gateway', 'bare'), '-'.repeat(w0 + 32)];
  for (const [name, f] of rows) out.push(line(name, g ? f(g) : '-', b ? f(b) : '-'));
  return out.join('\n');
}

// ---------------------------------------------------------------- main
const started = new Date();
const loadStart = os.loadavg()[0]!;
if (loadStart > os.cpus().length)
  console.warn(`bench: WARNING load average ${loadStart.toFixed(1)} on ${os.cpus().length} cores: other work shares this machine, figures will be low and noisy`);
const pgDb = await preparePg();
const gatewayEnv: Record<string, string | undefined> = {
  NODE_ENV: opts.dev ? 'development' : 'production',
  LOG_LEVEL: 'warn',
  BENCH_TAG: `${process.pid}${Date.now().toString(36)}`,
  BENCH_RELAY_OWN_POOL: opts.relayOwnPool ? '1' : undefined,
  ...(pgDb ? { DATABASE_URL: pgDb.url } : { DATABASE_URL: undefined }),
};
console.log(
  `bench: ${opts.sockets} sockets over ${opts.clients} client processes, ${opts.rate} events/s for ${opts.seconds} s, saturation ${opts.satSeconds} s; ` +
    `gateway db ${pgDb ? 'PostgreSQL' : 'PGlite (memory)'}, bus ${process.env.REDIS_URL ? 'Redis' : 'in-process'}`,
);
const clients = Array.from({ length: opts.clients }, (_, i) => new Child(`client-${i}`, 'client-worker.ts', {}));
const results: TargetResult[] = [];
let durable = null as DurableBaseline | null;
/** events/s of each baseline run, in order. */
const durableRuns: number[] = [];
let exitCode = 0;
try {
  await Promise.all(clients.map((c) => c.ready));
  // The bare PostgreSQL baseline of a durable event: on the gateway's database (its schema, its
  // outbox_emit), with no server running; as many clients as the gateway's saturation phase. Run twice,
  // right after the gateway's target and again at the end: this machine's commit rate drifts within a
  // run, so the ratio is taken against the faster of the two (the conservative one) and both are printed.
  const baseline = async (when: string) => {
    const gw = results.find((r) => r.target === 'gateway');
    if (!pgDb || !gw?.saturation) return;
    console.log(`[durable] bare PostgreSQL (${when}): the outbox row of each event inserted and committed by ${opts.maxInFlight} clients for ${opts.satSeconds} s`);
    const d = await durableBaseline(pgDb.url, {
      clients: opts.maxInFlight, seconds: opts.satSeconds, warmSeconds: opts.warmSeconds, audiences: opts.sockets,
      merchantCode: String(gw.info.merchantCode ?? 'DEMO'),
    });
    console.log(
      `[durable] ${when}: ${d.committed} committed (${d.eventsPerSec.toFixed(0)}/s), failed ${d.failed}${d.firstError ? ` (${d.firstError})` : ''}, ` +
        `p50 ${d.latencyMs.p50.toFixed(1)} ms, p99 ${d.latencyMs.p99.toFixed(1)} ms, PostgreSQL ${fmt(d.pgCpuPercent, 0)}% ` +
        `(${fmt(d.pgCpuUsPerEvent, 0)} us/event), machine ${fmt(d.hostCpuPercent, 0)}%`,
    );
    durableRuns.push(d.eventsPerSec);
    if (!durable || d.eventsPerSec > durable.eventsPerSec) durable = d;
  };
  if (opts.alternate > 0) {
    const alt = await runAlternate(opts.alternate, clients, gatewayEnv);
    mkdirSync(path.dirname(opts.out), { recursive: true });
    writeFileSync(opts.out, JSON.stringify({ started, opts, alternate: alt }, null, 2));
    console.log(`JSON: ${path.relative(ROOT, opts.out)}`);
  }
  for (const target of ['gateway', 'bare'] as const) {
    if (opts.alternate > 0) break;
    if (opts.only && opts.only !== target) continue;
    results.push(await runTarget(target, clients, target === 'gateway' ? gatewayEnv : {}));
    if (target === 'gateway') await baseline('after the gateway');
  }
  if (!opts.only && !opts.alternate) await baseline('at the end');
} catch (err) {
  console.error('bench failed:', err instanceof Error ? err.stack ?? err.message : err);
  exitCode = 1;
} finally {
  await Promise.all(clients.map((c) => c.stop(5000)));
  if (pgDb) await pgDb.drop().catch((err) => console.error('could not drop the bench database:', err));
}

if (results.length) {
  const g = results.find((r) => r.target === 'gateway');
  const b = results.find((r) => r.target === 'bare');
  const ratio = g?.saturation && b?.saturation ? g.saturation.deliveredPerSec / b.saturation.deliveredPerSec : null;
  const batchedRatio = g?.saturationBatched && b?.saturation ? g.saturationBatched.deliveredPerSec / b.saturation.deliveredPerSec : null;
  const pacedRatio = g?.paced && b?.paced ? g.paced.deliveredPerSec / b.paced.deliveredPerSec : null;
  const bcastPacedRatio = g?.broadcastPaced && b?.broadcastPaced ? g.broadcastPaced.deliveredPerSec / b.broadcastPaced.deliveredPerSec : null;
  const bcastSatRatio = g?.broadcastSaturation && b?.broadcastSaturation ? g.broadcastSaturation.deliveredPerSec / b.broadcastSaturation.deliveredPerSec : null;
  const targets = g
    ? {
        socketsConnected: g.sockets.connected === opts.sockets,
        p99AtRateMs: g.paced?.latencyMs.p99 ?? null,
        p99Ok: g.paced ? g.paced.latencyMs.p99 <= 100 && g.paced.commitRate >= opts.rate * 0.95 : null,
        noLoss: [g.paced, g.pacedHigh, g.saturation, g.saturationBatched, g.broadcastPaced, g.broadcastSaturation].every((p) => !p || (p.lost === 0 && p.seqAnomalies === 0)),
        throughputRatio: ratio,
        throughputOk: ratio === null ? null : ratio >= 0.8,
      }
    : null;
  console.log('\n' + table(results));
  if (g && b)
    console.log(
      `connect: gateway/bare sockets/s ${(g.sockets.connectPerSec / b.sockets.connectPerSec).toFixed(2)}x ` +
        `(${g.sockets.connectPerSec.toFixed(0)} / ${b.sockets.connectPerSec.toFixed(0)}), server CPU per socket ` +
        `${(g.sockets.connectCpuUsPerSocket / b.sockets.connectCpuUsPerSocket).toFixed(2)}x (${g.sockets.connectCpuUsPerSocket.toFixed(0)} / ${b.sockets.connectCpuUsPerSocket.toFixed(0)} us), ` +
        `without idle CPU ${(g.sockets.connectNetCpuUsPerSocket / b.sockets.connectNetCpuUsPerSocket).toFixed(2)}x (${g.sockets.connectNetCpuUsPerSocket.toFixed(0)} / ${b.sockets.connectNetCpuUsPerSocket.toFixed(0)} us)`,
    );
  if (ratio !== null)
    console.log(
      `\nthroughput gateway/bare at saturation: ${ratio.toFixed(2)}x one event per transaction, ` +
        `${batchedRatio === null ? '-' : batchedRatio.toFixed(2)}x with ${opts.perTx} events per transaction (target >= 0.8x); paced: ${pacedRatio!.toFixed(2)}x`,
    );
  if (bcastSatRatio !== null)
    console.log(
      `broadcast to ${g!.broadcastSaturation!.socketsPerEvent} sockets, gateway/bare: ${bcastSatRatio.toFixed(2)}x saturated (window ${opts.bcastWindow}), ` +
        `${bcastPacedRatio!.toFixed(2)}x paced at ${opts.bcastRate} events/s; client CPU at saturation ${fmt(g!.broadcastSaturation!.clientCpuPercent, 0)}% / ${fmt(b!.broadcastSaturation!.clientCpuPercent, 0)}% ` +
        `of ${os.cpus().length * 100}% (when the clients are the limit for both, the ratio says little: compare server CPU us per delivery)`,
    );
  const durableRatio = durable && g?.saturation ? g.saturation.commitRate / durable.eventsPerSec : null;
  const durableBatchedRatio = durable && g?.saturationBatched ? g.saturationBatched.commitRate / durable.eventsPerSec : null;
  const durableTxRatio = durable && g?.saturationTx ? g.saturationTx.commitRate / durable.eventsPerSec : null;
  if (durable && durableRatio !== null)
    console.log(
      `durable events/s, gateway (saturation, one event per transaction, ${opts.maxInFlight} in flight, relayed and delivered) / bare PostgreSQL ` +
        `(the same outbox row committed by ${durable.clients} clients, nothing relayed; the faster of ${durableRuns.map((x) => x.toFixed(0)).join(' and ')}/s): ${g!.saturation!.commitRate.toFixed(0)} / ${durable.eventsPerSec.toFixed(0)} = ` +
        `${durableRatio.toFixed(2)}x (target >= 0.7x: ${durableRatio >= 0.7 ? 'OK' : 'MISSED'})` +
        (durableTxRatio !== null ? `; each event's transaction by db.tx (two round trips): ${g!.saturationTx!.commitRate.toFixed(0)}/s = ${durableTxRatio.toFixed(2)}x` : '') +
        (durableBatchedRatio !== null ? `; ${opts.perTx} events per transaction: ${durableBatchedRatio.toFixed(2)}x` : ''),
    );
  if (g && b) {
    const r = (x: number | undefined, y: number | undefined) => (x !== undefined && y ? x / y : null);
    const pr = (v: number | null, lim: number) => (v === null ? 'n/a' : `${v.toFixed(2)}x ${v <= lim ? 'OK' : 'MISSED'}`);
    const lines = [
      `paced member events: gateway/bare server CPU per committed event ${pr(r(g.paced?.serverCpuUsPerCommitted, b.paced?.serverCpuUsPerCommitted), 2)} (target <= 2x); ` +
        `commit-to-client p99 ${fmt(g.paced?.latencyMs.p99)} ms at ${opts.rate}/s (bare ${fmt(b.paced?.latencyMs.p99)} ms; target <= 25 ms: ` +
        `${g.paced ? (g.paced.latencyMs.p99 <= 25 ? 'OK' : 'MISSED') : 'n/a'}), ` +
        `${fmt(g.pacedHigh?.latencyMs.p99)} ms at ${opts.highRate}/s (bare ${fmt(b.pacedHigh?.latencyMs.p99)} ms; target <= 50 ms: ` +
        `${g.pacedHigh ? (g.pacedHigh.latencyMs.p99 <= 50 && g.pacedHigh.commitRate >= opts.highRate * 0.95 ? 'OK' : 'MISSED') : 'n/a'}); ` +
        `CPU per event at ${opts.highRate}/s ${pr(r(g.pacedHigh?.serverCpuUsPerCommitted, b.pacedHigh?.serverCpuUsPerCommitted), 2)}`,
      `broadcast paced: server CPU per delivery ${pr(r(g.broadcastPaced?.serverCpuUsPerEvent, b.broadcastPaced?.serverCpuUsPerEvent), 1.2)}, ` +
        `p99 ${pr(r(g.broadcastPaced?.latencyMs.p99, b.broadcastPaced?.latencyMs.p99), 1.2)} (targets <= 1.2x); ` +
        `saturated: CPU per delivery ${pr(r(g.broadcastSaturation?.serverCpuUsPerEvent, b.broadcastSaturation?.serverCpuUsPerEvent), 1.2)}, ` +
        `p99 ${pr(r(g.broadcastSaturation?.latencyMs.p99, b.broadcastSaturation?.latencyMs.p99), 1.2)}`,
    ];
    for (const l of lines) console.log(l);
    const dropped = [g, b].map((x) => `${x.target} ${Math.max(0, opts.sockets - Math.min(...[x.paced, x.broadcastSaturation].filter((p) => p).map((p) => p!.openSockets)))}`);
    console.log(
      `sockets dropped by the servers during the run (missed heartbeats when the machine is overloaded; their events count as lost above, ` +
        `a browser reconnects and catches up by seq): ${dropped.join(', ')}`,
    );
  }
  if (targets)
    console.log(
      `targets: ${opts.sockets} sockets ${targets.socketsConnected ? 'OK' : 'MISSED'}; p99 <= 100 ms at ${opts.rate}/s ${targets.p99Ok === null ? 'n/a' : targets.p99Ok ? 'OK' : 'MISSED'} (${fmt(targets.p99AtRateMs)} ms); ` +
        `lost events 0 ${targets.noLoss ? 'OK' : 'MISSED'}; throughput >= 0.8x bare ${targets.throughputOk === null ? 'n/a' : targets.throughputOk ? 'OK' : 'MISSED'}`,
    );
  const report = {
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    startedAt: started.toISOString(),
    machine: { node: process.version, cpus: os.cpus().length, platform: process.platform, loadAvgStart: loadStart, loadAvgEnd: os.loadavg()[0] },
    options: opts,
    gatewayDb: pgDb ? 'postgresql' : 'pglite-memory',
    gatewayBus: process.env.REDIS_URL ? 'redis' : 'memory',
    throughputRatioSaturation: ratio,
    throughputRatioPaced: pacedRatio,
    throughputRatioBatched: batchedRatio,
    throughputRatioBroadcastPaced: bcastPacedRatio,
    throughputRatioBroadcastSaturation: bcastSatRatio,
    durableBaseline: durable,
    durableBaselineRuns: durableRuns,
    durableRatio,
    durableBatchedRatio,
    durableTxRatio,
    targets,
    results,
  };
  mkdirSync(path.dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, JSON.stringify(report, null, 2));
  console.log(`\nJSON: ${path.relative(ROOT, opts.out)}`);
}
process.exit(exitCode);
