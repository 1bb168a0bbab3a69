/**
 * Shared by the bench orchestrator (run.ts) and its child processes: IPC message shapes, a wall
 * clock that agrees across processes on one machine, the load scheduler and the statistics.
 */

/** Milliseconds since the epoch with sub-millisecond resolution; comparable across processes on one host. */
export function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A command sent to a child over IPC; the child answers `{ reqId, ok, value | error }`. */
export type Req = { reqId: number; cmd: string; args?: unknown };
export type Res = { reqId: number; ok: boolean; value?: unknown; error?: string };

/** What a producer (gateway or bare server) reports after a load phase. */
export type ProduceResult = {
  /** Envelope ids in commit order and the wall time each committed (bare: when it was emitted). */
  ids: string[];
  committedAt: Float64Array;
  failed: number;
  firstError: string | null;
  startedAt: number;
  endedAt: number;
  /** Largest number of events the scheduler was behind its target (rate mode). */
  maxBacklog: number;
  /** CPU seconds the producer process spent during the phase (user + system). */
  cpuSeconds: number;
  elapsedSeconds: number;
  /** The gateway on PostgreSQL: how the phase's one-statement transactions went (db.single's group commit). */
  groupCommit?: { alone: number; batches: number; batched: number; batchesFailed: number } | null;
};

/**
 * `fanout`: 'member' (default) sends each event to one member's room `user:{id}`, round robin;
 * 'merchant' broadcasts each event to the merchant room, so every socket receives every event.
 * `window` mode (broadcast saturation): as fast as the target goes, but never more than `maxInFlight`
 * events ahead of what the clients have fully received (the orchestrator feeds that count back with
 * `acked`), so a server that can emit faster than its clients read does not queue without bound.
 */
export type Fanout = 'member' | 'merchant';
/**
 * How the gateway commits a one-event transaction: `single` (db.single: the event's statement is the
 * whole transaction, one round trip, as the hot paths commit theirs: the vendor money call, the red
 * envelope grab) or `tx` (db.tx: BEGIN with the statement, then COMMIT, two round trips, as a use case
 * of several statements does). Default `single`; the bare server ignores it.
 */
export type Commit = 'single' | 'tx';
export type ProduceArgs =
  | { mode: 'rate'; rate: number; seconds: number; maxInFlight: number; perTx?: number; fanout?: Fanout; commit?: Commit }
  | { mode: 'max'; seconds: number; maxInFlight: number; perTx?: number; fanout?: Fanout; commit?: Commit }
  | { mode: 'window'; seconds: number; maxInFlight: number; fanout?: Fanout; commit?: Commit };

/**
 * What a client worker reports after a load phase: one entry per reception. Envelope ids are sent
 * once each (`ids`), receptions point into them (`idOf`), so a broadcast received by thousands of
 * sockets does not copy its id thousands of times over IPC. `sockOf` is the worker's socket index.
 */
export type ClientCollect = {
  ids: string[];
  idOf: Uint32Array;
  sockOf: Uint32Array;
  receivedAt: Float64Array;
  /** Events whose seq was not exactly one above the previous one of the same audience on the same socket (gap or repeat). */
  seqAnomalies: number;
  cpuSeconds: number;
};

/**
 * Drive `fire()` at `rate` per second for `seconds` (rate mode), or keep `maxInFlight` calls going for
 * `seconds` (max mode). Bounded in time and in concurrency; resolves when every call started has settled.
 */
export async function drive(
  args: ProduceArgs,
  fire: () => Promise<void>,
  acked: () => number = () => 0,
): Promise<{ started: number; maxBacklog: number; startedAt: number; endedAt: number }> {
  const startedAt = wallMs();
  const endAt = startedAt + args.seconds * 1000;
  let inFlight = 0;
  let started = 0;
  let maxBacklog = 0;
  const pending = new Set<Promise<void>>();
  const launch = () => {
    inFlight++;
    started++;
    const p: Promise<void> = fire().finally(() => {
      inFlight--;
      pending.delete(p);
    });
    pending.add(p);
  };

  if (args.mode === 'rate') {
    const total = Math.round(args.rate * args.seconds);
    while (started < total) {
      const now = wallMs();
      if (now > endAt + 30_000) break; // hard stop: never run unbounded when the target cannot keep up
      const due = Math.min(total, Math.floor(((now - startedAt) / 1000) * args.rate) + 1);
      const backlog = due - started;
      if (backlog > maxBacklog) maxBacklog = backlog;
      while (started < due && inFlight < args.maxInFlight) launch();
      await sleep(1);
    }
  } else if (args.mode === 'window') {
    while (wallMs() < endAt) {
      while (started - acked() < args.maxInFlight) launch();
      const backlog = started - acked();
      if (backlog > maxBacklog) maxBacklog = backlog;
      await sleep(1);
    }
  } else {
    while (wallMs() < endAt) {
      while (inFlight < args.maxInFlight) launch();
      if (inFlight >= args.maxInFlight) await Promise.race([...pending, sleep(50)]);
      // Yield to I/O every round: a producer whose calls settle in microtasks must not starve the sockets.
      await new Promise<void>((r) => setImmediate(r));
    }
  }
  await Promise.allSettled([...pending]);
  return { started, maxBacklog, startedAt, endedAt: wallMs() };
}

export type LatencyStats = { count: number; p50: number; p95: number; p99: number; max: number; mean: number };

export function latencyStats(samples: Float64Array | number[]): LatencyStats {
  const a = Float64Array.from(samples).sort();
  const n = a.length;
  if (!n) return { count: 0, p50: NaN, p95: NaN, p99: NaN, max: NaN, mean: NaN };
  const q = (p: number) => a[Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1))]!;
  let sum = 0;
  for (const v of a) sum += v;
  return { count: n, p50: q(0.5), p95: q(0.95), p99: q(0.99), max: a[n - 1]!, mean: sum / n };
}

/** Latency of `run` called `iters` times one after another (after one warm-up call, `run(-1)`). */
export async function sequentialLatency(iters: number, run: (i: number) => Promise<unknown>): Promise<LatencyStats> {
  await run(-1);
  const samples: number[] = [];
  for (let i = 0; i < iters; i++) {
    const t0 = wallMs();
    await run(i);
    samples.push(wallMs() - t0);
  }
  return latencyStats(samples);
}

/** Serve IPC requests in a child process; exits when the parent goes away. */
export function serveIpc(handlers: Record<string, (args: any) => Promise<unknown> | unknown>) {
  if (!process.send) throw new Error('this module runs as a forked child of tests/bench/run.ts');
  process.on('message', async (m: Req) => {
    const h = handlers[m.cmd];
    try {
      if (!h) throw new Error(`unknown command ${m.cmd}`);
      const value = await h(m.args);
      process.send!({ reqId: m.reqId, ok: true, value } satisfies Res);
    } catch (err) {
      process.send!({ reqId: m.reqId, ok: false, error: err instanceof Error ? err.stack ?? err.message : String(err) } satisfies Res);
    }
  });
  // The parent died or closed the channel: never linger.
  process.on('disconnect', () => process.exit(0));
}

/** Force a full GC (children run with --expose-gc) and read memory. */
export async function measuredMemory() {
  const gc = (globalThis as { gc?: () => void }).gc;
  // Several full collections with pauses, so freed pages are returned before RSS is read.
  for (let i = 0; i < 4; i++) {
    gc?.();
    await sleep(150);
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
}
export type Mem = Awaited<ReturnType<typeof measuredMemory>>;

export function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1e6;
}

/** A winner.posted payload (the merchant's winner board), the same for the gateway and the bare server. */
export function winnerPayload(i: number) {
  return {
    id: `bench-w-${i}`,
    iconUrl: null,
    winAmount: 5_000_000 + i,
    gameName: 'Golden Empire',
    customerName: `Be***${i % 1000}`,
    at: new Date().toISOString(),
  };
}

/** A balance.changed payload of realistic size, the same for the gateway and the bare server. */
export function balancePayload(memberId: number, i: number) {
  return {
    memberId,
    currency: 'PHP',
    balance: 1_000_000 + i,
    available: 1_000_000 + i,
    delta: 100,
    reason: 'bench',
    transferId: `bench-${i}`,
  };
}
