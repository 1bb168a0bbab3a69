import type { Logger } from 'pino';
import { parseCronItem } from 'graphile-worker';
import type { Db, Queryable } from '../db/db.ts';

/** One run of a job: its name, the key that makes it unique (a period, an id) and its payload. */
export type Job<P = unknown> = {
  name: string;
  key: string;
  payload: P;
  /** 1 on the first attempt. */
  attempt: number;
  /**
   * Mark the job done inside the handler's own transaction, so its effects and "done" commit together
   * (exactly once even if the process dies right after the commit). Throws JobAlreadyDone when another
   * run finished this key first: let it propagate, the transaction rolls back, the runner counts it done.
   */
  completeIn(tx: Queryable): Promise<void>;
};

export type JobHandler<P = unknown> = (job: Job<P>) => Promise<void>;

export type JobOptions = {
  /** Attempts before the key is marked failed (default 5). */
  maxAttempts?: number;
  /**
   * Delay before attempt n+1 after attempt n failed, table runner only (graphile-worker uses its own
   * exponential backoff, e^min(n,10) seconds). Default: the same curve.
   */
  backoffMs?: (attempt: number) => number;
  /**
   * Done rows of this job (enqueued ones; a schedule has its own keepMs) are deleted once older than
   * this (default: kept forever). Only for jobs whose key cannot be enqueued again after this long,
   * since a deleted key no longer dedups.
   */
  keepMs?: number;
};

/** A period: every N milliseconds (aligned to the epoch), or a cron expression (UTC, minute resolution). */
export type Recurrence = { everyMs: number } | { cron: string };

export type ScheduleOptions = {
  /**
   * How far back missed periods are enqueued when a node starts (or wakes) late: 0 enqueues only
   * the current period. Bounded so a long outage cannot flood the queue.
   */
  catchUpMs?: number;
  /** Payload of every period's job. */
  payload?: Record<string, unknown>;
  /**
   * Done periods older than this are pruned (default: kept forever). Must exceed catchUpMs, or a pruned
   * period could be enqueued again; schedule() refuses a shorter one.
   */
  keepMs?: number;
};

export type EnqueueOptions = {
  /** Unique per job name: a second enqueue with the same key does nothing. */
  key: string;
  runAt?: Date;
  maxAttempts?: number;
};

export type JobState = { name: string; key: string; state: 'queued' | 'done' | 'failed'; attempts: number; lastError: string | null };

export type JobQueue = {
  readonly kind: 'table' | 'graphile-worker';
  define<P = unknown>(name: string, handler: JobHandler<P>, opts?: JobOptions): void;
  /** Run `name` once per period; each period is enqueued under its start time (ISO) as key. */
  schedule(name: string, every: Recurrence, opts?: ScheduleOptions): void;
  /**
   * Enqueue once per key. With `tx`, the job exists only if that transaction commits. Returns false
   * when the key was already there (queued, done or failed).
   */
  enqueue(name: string, payload: unknown, opts: EnqueueOptions, tx?: Queryable): Promise<boolean>;
  /**
   * Test clock: make the job of this period (key) due now and wait until it is done or an attempt
   * failed. A key already done is not run again. Needs a started queue.
   */
  runNow(name: string, key: string, opts?: { payload?: unknown; timeoutMs?: number }): Promise<JobState>;
  state(name: string, key: string): Promise<JobState | null>;
  start(): Promise<void>;
  /** Stop scheduling and taking jobs, and wait for the running ones. */
  stop(): Promise<void>;
};

/** Thrown by Job.completeIn when the key is already done: the caller's transaction must roll back. */
export class JobAlreadyDone extends Error {
  constructor(name: string, key: string) {
    super(`job ${name}:${key} is already done`);
  }
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const defaultBackoffMs = (attempt: number) => Math.round(Math.exp(Math.min(attempt, 10)) * 1000);

type Definition = { handler: JobHandler; opts: JobOptions; prunedAt: number };
type Schedule = { name: string; every: Recurrence; opts: ScheduleOptions; match: ((d: Date) => boolean) | null; lastMs: number | null; prunedAt: number };

/** What a backend does: hand a newly enqueued row to its dispatcher, run, stop. */
export type Backend = {
  readonly kind: JobQueue['kind'];
  /** Called inside the enqueue transaction after the row was inserted. */
  added(tx: Queryable, row: { name: string; key: string; runAt: Date; maxAttempts: number }): Promise<void>;
  /** Make a queued key due now (runNow). */
  bringForward(name: string, key: string): Promise<void>;
  /** Whether cron schedules are the backend's own (graphile-worker crontab) rather than the ticker's. */
  readonly ownsCron: boolean;
  start(core: QueueCore): Promise<void>;
  stop(): Promise<void>;
};

/** The part of the queue the backends call back into. */
export type QueueCore = {
  db: Db;
  log: Logger;
  definitions: ReadonlyMap<string, Definition>;
  schedules: ReadonlyArray<Schedule>;
  /** Run one attempt of a claimed job and record its outcome; 'retry' means a failed, not final attempt. */
  execute(name: string, key: string, attempt: number, maxAttempts: number, nextRunAt: Date | null): Promise<{ outcome: 'done' | 'skipped' | 'retry' | 'failed'; error?: unknown }>;
  enqueue: JobQueue['enqueue'];
};

const MINUTE = 60_000;
const ISO_KEY = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The key of a period starting at `ms`. */
export const periodKey = (ms: number) => new Date(ms).toISOString();

/**
 * Period starts to enqueue now: those after `lastMs` (the newest already enqueued), no older than the
 * catch-up window, up to the current period. Cron periods are minutes whose start matches.
 */
export function duePeriods(every: Recurrence, match: ((d: Date) => boolean) | null, lastMs: number | null, nowMs: number, catchUpMs: number): number[] {
  const step = 'everyMs' in every ? every.everyMs : MINUTE;
  const current = Math.floor(nowMs / step) * step;
  let from = current - Math.floor(catchUpMs / step) * step;
  if (lastMs !== null) from = Math.max(from, lastMs + step);
  const out: number[] = [];
  for (let t = from; t <= current; t += step) {
    if (!match || match(new Date(t))) out.push(t);
  }
  return out;
}

function cronMatcher(cron: string, name: string): (d: Date) => boolean {
  // graphile-worker's own parser, so a crontab means the same on PGlite as on PostgreSQL.
  const item = parseCronItem({ task: name, match: cron, identifier: name });
  return (d) => item.match({ min: d.getUTCMinutes(), hour: d.getUTCHours(), date: d.getUTCDate(), month: d.getUTCMonth() + 1, dow: d.getUTCDay() });
}

type JobRow = { name: string; key: string; attempts: number; last_error: string | null; done_at: unknown; failed_at: unknown; last_attempt_at: Date | string | null };

const toState = (r: JobRow): JobState => ({
  name: r.name, key: r.key, attempts: r.attempts, lastError: r.last_error,
  state: r.done_at ? 'done' : r.failed_at ? 'failed' : 'queued',
});

function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.slice(0, 2000);
}

/**
 * The queue both backends share: definitions, keyed enqueue, the period ticker, one attempt's
 * bookkeeping, the test clock. The backend only decides who runs a due row and when.
 */
export function createQueue(deps: { db: Db; log: Logger; backend: Backend; tickSlackMs?: number }): JobQueue {
  const { db, log, backend } = deps;
  const definitions = new Map<string, Definition>();
  const schedules: Schedule[] = [];
  let started = false;
  let stopping = false;
  let tickTimer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;

  async function enqueue(name: string, payload: unknown, opts: EnqueueOptions, tx?: Queryable): Promise<boolean> {
    if (!definitions.has(name)) throw new Error(`job ${name} is not defined`);
    const def = definitions.get(name)!;
    const maxAttempts = opts.maxAttempts ?? def.opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const runAt = opts.runAt ?? new Date();
    const insert = async (q: Queryable) => {
      const r = await q.query(
        `INSERT INTO jobs (name, key, payload, run_at, max_attempts) VALUES ($1, $2, $3::jsonb, $4, $5)
         ON CONFLICT (name, key) DO NOTHING RETURNING name`,
        [name, opts.key, JSON.stringify(payload ?? {}), runAt, maxAttempts],
      );
      if (!r.rows.length) return false;
      await backend.added(q, { name, key: opts.key, runAt, maxAttempts });
      return true;
    };
    const added = tx ? await insert(tx) : await db.tx(insert);
    return added;
  }

  async function state(name: string, key: string): Promise<JobState | null> {
    const r = await db.query<JobRow>('SELECT name, key, attempts, last_error, done_at, failed_at, last_attempt_at FROM jobs WHERE name = $1 AND key = $2', [name, key]);
    return r.rows[0] ? toState(r.rows[0]) : null;
  }

  async function execute(name: string, key: string, attempt: number, maxAttempts: number, nextRunAt: Date | null) {
    const def = definitions.get(name);
    const row = (await db.query<{ payload: unknown; done_at: unknown }>('SELECT payload, done_at FROM jobs WHERE name = $1 AND key = $2', [name, key])).rows[0];
    if (!row || row.done_at) return { outcome: 'skipped' as const };
    let completedInTx = false;
    try {
      if (!def) throw new Error(`job ${name} is not defined on this node`);
      await def.handler({
        name, key, payload: row.payload, attempt,
        async completeIn(tx) {
          const r = await tx.query('UPDATE jobs SET done_at = now(), locked_until = NULL, last_attempt_at = now(), attempts = $3 WHERE name = $1 AND key = $2 AND done_at IS NULL RETURNING name', [name, key, attempt]);
          if (!r.rows.length) throw new JobAlreadyDone(name, key);
          completedInTx = true;
        },
      });
      if (!completedInTx) {
        await db.query('UPDATE jobs SET done_at = now(), locked_until = NULL, last_attempt_at = now(), attempts = $3 WHERE name = $1 AND key = $2 AND done_at IS NULL', [name, key, attempt]);
      }
      return { outcome: 'done' as const };
    } catch (err) {
      if (err instanceof JobAlreadyDone) return { outcome: 'skipped' as const };
      const isFinal = attempt >= maxAttempts;
      log.warn({ err, job: name, key, attempt, isFinal }, 'job attempt failed');
      await db.query(
        `UPDATE jobs SET attempts = $3, last_error = $4, last_attempt_at = now(), locked_until = NULL,
           failed_at = CASE WHEN $5::boolean THEN now() ELSE NULL END, run_at = COALESCE($6, run_at)
         WHERE name = $1 AND key = $2 AND done_at IS NULL`,
        [name, key, attempt, errorText(err), isFinal, isFinal ? null : nextRunAt],
      );
      return { outcome: isFinal ? ('failed' as const) : ('retry' as const), error: err };
    }
  }

  /** Enqueue the due periods of every ticker-owned schedule, prune done rows past their keepMs, then sleep until the next boundary. */
  async function tick() {
    const now = Date.now();
    for (const [name, d] of definitions) {
      if (d.opts.keepMs === undefined || now - d.prunedAt < Math.min(d.opts.keepMs, 10 * MINUTE)) continue;
      d.prunedAt = now;
      try {
        await db.query(`DELETE FROM jobs WHERE name = $1 AND done_at < now() - make_interval(secs => $2::double precision / 1000)`, [name, d.opts.keepMs]);
      } catch (err) {
        log.warn({ err, job: name }, 'job prune failed');
      }
    }
    for (const s of schedules) {
      if ('cron' in s.every && backend.ownsCron) continue;
      try {
        if (s.lastMs === null) {
          const r = await db.query<{ key: string | null }>(`SELECT max(key) AS key FROM jobs WHERE name = $1 AND key ~ '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$'`, [s.name]);
          const k = r.rows[0]?.key;
          s.lastMs = k && ISO_KEY.test(k) ? Date.parse(k) : null;
        }
        for (const t of duePeriods(s.every, s.match, s.lastMs, now, s.opts.catchUpMs ?? 0)) {
          await enqueue(s.name, s.opts.payload ?? {}, { key: periodKey(t), runAt: new Date(t) });
          s.lastMs = t;
        }
        if (s.opts.keepMs !== undefined && now - s.prunedAt > Math.min(s.opts.keepMs, 10 * MINUTE)) {
          s.prunedAt = now;
          await db.query(`DELETE FROM jobs WHERE name = $1 AND done_at < now() - make_interval(secs => $2::double precision / 1000)`, [s.name, s.opts.keepMs]);
        }
      } catch (err) {
        log.warn({ err, job: s.name }, 'job schedule tick failed');
      }
    }
  }

  function nextTickIn(): number {
    const now = Date.now();
    let next = Infinity;
    for (const s of schedules) {
      if ('cron' in s.every && backend.ownsCron) continue;
      const step = 'everyMs' in s.every ? s.every.everyMs : MINUTE;
      next = Math.min(next, (Math.floor(now / step) + 1) * step - now);
    }
    for (const d of definitions.values()) {
      if (d.opts.keepMs !== undefined) next = Math.min(next, Math.max(0, d.prunedAt + Math.min(d.opts.keepMs, 10 * MINUTE) - now));
    }
    return next === Infinity ? -1 : next + (deps.tickSlackMs ?? 5);
  }

  function arm() {
    if (stopping) return;
    const delay = nextTickIn();
    if (delay < 0) return;
    tickTimer = setTimeout(() => {
      ticking = tick().finally(() => {
        ticking = null;
        arm();
      });
    }, delay);
    tickTimer.unref();
  }

  const core: QueueCore = { db, log, definitions, schedules, execute, enqueue };

  return {
    kind: backend.kind,
    define(name, handler, opts = {}) {
      if (started) throw new Error('define jobs before start()');
      if (definitions.has(name)) throw new Error(`job ${name} is defined twice`);
      if (opts.keepMs !== undefined && !(Number.isInteger(opts.keepMs) && opts.keepMs >= 1000)) throw new Error('keepMs must be an integer >= 1000');
      definitions.set(name, { handler: handler as JobHandler, opts, prunedAt: 0 });
    },
    schedule(name, every, opts = {}) {
      if (started) throw new Error('schedule jobs before start()');
      if (!definitions.has(name)) throw new Error(`job ${name} is not defined`);
      if ('everyMs' in every && !(Number.isInteger(every.everyMs) && every.everyMs >= 1000)) throw new Error('everyMs must be an integer >= 1000');
      if (opts.keepMs !== undefined && opts.keepMs <= (opts.catchUpMs ?? 0) + ('everyMs' in every ? every.everyMs : MINUTE)) {
        throw new Error('keepMs must exceed the catch-up window');
      }
      const match = 'cron' in every ? cronMatcher(every.cron, name) : null;
      schedules.push({ name, every, opts, match, lastMs: null, prunedAt: 0 });
    },
    enqueue,
    state,
    async runNow(name, key, opts = {}) {
      if (!started || stopping) throw new Error('runNow needs a started queue');
      const before = await state(name, key);
      if (before?.state === 'done') return before;
      const t0 = (await db.query<{ now: Date | string }>('SELECT now() AS now')).rows[0]!.now;
      if (!(await enqueue(name, opts.payload ?? {}, { key }))) {
        await db.query(`UPDATE jobs SET run_at = now(), failed_at = NULL, attempts = CASE WHEN failed_at IS NULL THEN attempts ELSE 0 END
                        WHERE name = $1 AND key = $2 AND done_at IS NULL`, [name, key]);
        await backend.bringForward(name, key);
      }
      const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
      for (;;) {
        const r = await db.query<JobRow>(
          'SELECT name, key, attempts, last_error, done_at, failed_at, last_attempt_at FROM jobs WHERE name = $1 AND key = $2 AND (done_at IS NOT NULL OR last_attempt_at >= $3)',
          [name, key, t0],
        );
        if (r.rows[0]) return toState(r.rows[0]);
        if (Date.now() > deadline) throw new Error(`job ${name}:${key} did not run within the timeout`);
        await new Promise((res) => setTimeout(res, 25));
      }
    },
    async start() {
      if (started) return;
      started = true;
      await backend.start(core);
      await tick();
      arm();
    },
    async stop() {
      if (!started || stopping) return;
      stopping = true;
      if (tickTimer) clearTimeout(tickTimer);
      await ticking;
      await backend.stop();
    },
  };
}
