import { defaultBackoffMs, type Backend, type QueueCore } from './job-queue.ts';

/**
 * The embedded default's runner (PGlite is one process and cannot serve LISTEN-based multi-connection
 * libraries): workers poll the jobs table and claim one due row at a time with FOR UPDATE SKIP LOCKED
 * and a lease, so two runners on one database (tests) never take the same row, and a row whose
 * runner died is taken again once its lease ends. A worker that finds nothing due sleeps until the
 * next row is due (or its lease ends), at least `pollMs` and at most `idleMaxMs`; an enqueue or a
 * runNow on this node wakes it at once (every enqueue of an embedded database is this process's own:
 * a PGlite data directory is opened by one process). It used to ask every pollMs: four claims a
 * second on an idle node, a third of its idle CPU.
 */
export function createTableBackend(opts: { pollMs?: number; idleMaxMs?: number; concurrency?: number; leaseMs?: number } = {}): Backend {
  const pollMs = opts.pollMs ?? 250;
  const idleMaxMs = Math.max(pollMs, opts.idleMaxMs ?? 8 * pollMs);
  const concurrency = opts.concurrency ?? 1;
  const leaseMs = opts.leaseMs ?? 15 * 60_000;
  let stopping = false;
  const loops: Array<Promise<void>> = [];
  const sleepers = new Set<() => void>();

  /** Wakes so far: a worker that was not asleep yet when one came (it was claiming) does not sleep through it. */
  let wakes = 0;
  function wake() {
    wakes++;
    for (const w of sleepers) w();
    sleepers.clear();
  }

  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        sleepers.delete(done);
        resolve();
      }, ms);
      const done = () => {
        clearTimeout(t);
        resolve();
      };
      sleepers.add(done);
    });
  }

  async function claim(c: QueueCore) {
    const r = await c.db.query<{ name: string; key: string; attempts: number; max_attempts: number }>(
      `UPDATE jobs j SET attempts = j.attempts + 1, locked_until = now() + make_interval(secs => $2::double precision / 1000)
       FROM (SELECT name, key FROM jobs
             WHERE done_at IS NULL AND failed_at IS NULL AND run_at <= now()
               AND (locked_until IS NULL OR locked_until < now()) AND name = ANY($1::text[])
             ORDER BY run_at LIMIT 1 FOR UPDATE SKIP LOCKED) d
       WHERE j.name = d.name AND j.key = d.key
       RETURNING j.name, j.key, j.attempts, j.max_attempts`,
      [[...c.definitions.keys()], leaseMs],
    );
    return r.rows[0] ?? null;
  }

  /** Milliseconds until the next row of these jobs can be claimed (due and not leased), null when none is queued. */
  async function nextDueMs(c: QueueCore): Promise<number | null> {
    const r = await c.db.query<{ ms: number | null }>(
      `SELECT (extract(epoch FROM min(GREATEST(run_at, COALESCE(locked_until, run_at))) - now()) * 1000)::float8 AS ms
       FROM jobs WHERE done_at IS NULL AND failed_at IS NULL AND name = ANY($1::text[])`,
      [[...c.definitions.keys()]],
    );
    const ms = r.rows[0]?.ms;
    return ms === null || ms === undefined ? null : Number(ms);
  }

  async function loop(c: QueueCore) {
    while (!stopping) {
      const seen = wakes;
      let worked = false;
      try {
        const job = await claim(c);
        if (job) {
          worked = true;
          const backoff = c.definitions.get(job.name)?.opts.backoffMs ?? defaultBackoffMs;
          await c.execute(job.name, job.key, job.attempts, job.max_attempts, new Date(Date.now() + backoff(job.attempts)));
        }
      } catch (err) {
        c.log.warn({ err }, 'job runner pass failed');
      }
      if (worked || stopping) continue;
      // Nothing due: sleep until the next row is (a row already due but not claimable is another
      // runner's claim in progress: pollMs), unless an enqueue came meanwhile.
      let wait = pollMs;
      try {
        const next = await nextDueMs(c);
        wait = next === null ? idleMaxMs : next <= 0 ? pollMs : Math.min(idleMaxMs, Math.max(10, next));
      } catch (err) {
        c.log.warn({ err }, 'job runner pass failed');
      }
      if (!stopping && wakes === seen) await sleep(wait);
    }
  }

  return {
    kind: 'table',
    ownsCron: false,
    async added(tx) {
      // Wake the workers once the enqueueing transaction commits (a plain query commits at once).
      const hook = (tx as { afterCommit?: (fn: () => void) => void }).afterCommit;
      if (hook) hook(wake);
      else setImmediate(wake);
    },
    async bringForward() {
      wake();
    },
    async start(c) {
      for (let i = 0; i < concurrency; i++) loops.push(loop(c));
    },
    async stop() {
      stopping = true;
      wake();
      await Promise.all(loops);
    },
  };
}
