import type { Queryable } from './db.ts';

/**
 * The loop of a consumer of a pending table (the outbox relay, the bet stream): `pass` runs when
 * kicked, one at a time, and starts at most every minGapMs. A kick while a pass runs asks for one
 * more after it (every kick meanwhile shares that one). After a quiet spell a commit is served at
 * once; under load the commits of one gap share one pass, so PostgreSQL runs one consumer
 * transaction per gap instead of one per commit. `pass` reports its own errors; a throw from it
 * ends nothing (the next kick runs it again).
 */
export function createPassRunner(opts: { minGapMs: number; pass: () => Promise<void>; stopped: () => boolean }) {
  let lastStart = -Infinity;
  let running = false;
  let again = false;
  let idle: Promise<void> = Promise.resolve();
  let queued = false;
  let asking = false;

  function kick() {
    if (opts.stopped()) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    idle = (async () => {
      do {
        again = false;
        const wait = lastStart + opts.minGapMs - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (opts.stopped()) break;
        lastStart = performance.now();
        await opts.pass().catch(() => undefined);
      } while (again && !opts.stopped());
      running = false;
    })();
  }

  return {
    kick,
    /** A kick from a commit: the commits of one tick share it. */
    kickSoon() {
      if (queued) return;
      queued = true;
      setImmediate(() => {
        queued = false;
        kick();
      });
    },
    isRunning: () => running,
    /**
     * A poll's question (one at a time): is anything pending? A pass is kicked when it is, when
     * `mustRun()` (the last pass failed), or when the question itself failed (the pass then says why).
     * Resolves true when something was pending or a pass must run, false when nothing was, null when
     * a question was already out or this one failed.
     */
    async ask(anyPending: () => Promise<boolean>, mustRun: () => boolean): Promise<boolean | null> {
      if (asking) return null;
      asking = true;
      try {
        const due = (await anyPending()) || mustRun();
        if (due) kick();
        return due;
      } catch {
        kick();
        return null;
      } finally {
        asking = false;
      }
    },
    /** When the latest pass started (performance.now()), -Infinity before the first. */
    lastStart: () => lastStart,
    /** Settles when the current pass (and the ones asked for during it) are done. */
    idle: () => idle,
  };
}

/** The poll's question of a pending table, as one autocommitted statement (`SELECT EXISTS (...) AS any`). */
export const anyPending = (db: Queryable, sql: string) => () => db.query<{ any: boolean }>(sql).then((r) => r.rows[0]?.any === true);

/**
 * The poll of a pending table's consumer, for rows no local commit announced (another node's, left
 * while that node held the lock, or written by SQL alone): every `pollMs` it kicks a pass when one is
 * running (it asks for one more after it), else asks `anyPending` (runner.ask) unless `fresh()` says a
 * pass that looked at the table started within the period. A quiet node's poll slows down: each
 * question in a row that found nothing doubles the period, up to 2^backoffSteps x pollMs; a question
 * that found something, a running pass or `rearm()` (a local pass: its rows may have met another
 * node's lock) bring it back to pollMs. The committing node always rearms, so the slowed poll only
 * delays rows nobody on this node announced.
 */
export function startIdlePoll(opts: {
  runner: Pick<ReturnType<typeof createPassRunner>, 'isRunning' | 'kick' | 'ask'>;
  pollMs: number;
  backoffSteps: number;
  anyPending: () => Promise<boolean>;
  mustRun: () => boolean;
  stopped: () => boolean;
  fresh?: () => boolean;
}) {
  let quiet = 0;
  let timer: NodeJS.Timeout | null = null;
  const tick = () => {
    if (opts.runner.isRunning()) {
      quiet = 0;
      opts.runner.kick();
    } else if (opts.fresh?.()) {
      quiet = 0;
    } else {
      void opts.runner.ask(opts.anyPending, opts.mustRun).then((due) => {
        if (due) quiet = 0;
        else if (due === false) quiet = Math.min(quiet + 1, opts.backoffSteps);
      });
    }
    if (!opts.stopped()) timer = setTimeout(tick, opts.pollMs * 2 ** quiet);
  };
  timer = setTimeout(tick, opts.pollMs);
  return {
    /** A local pass ran: poll at the full rate again. */
    rearm() {
      if (!quiet || opts.stopped()) return;
      quiet = 0;
      if (timer) clearTimeout(timer);
      timer = setTimeout(tick, opts.pollMs);
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
