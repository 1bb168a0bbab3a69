import type { Db } from './db.ts';

type Log = { warn(obj: unknown, msg?: string): void };

/**
 * A work list that a drain empties as fast as writers fill it (outbox_pending, bet_stream_pending)
 * leaves a dead entry per row, which every claim and poll walks until a vacuum. The tables are small,
 * so their drains vacuum them themselves, after `afterRows` rows and at most every `everyMs`, rather
 * than rely on autovacuum's schedule (or on autovacuum: it is off on some servers). TRUNCATE false:
 * giving the empty tail pages back takes an ACCESS EXCLUSIVE lock that would hold up every writer's
 * insert meanwhile; the pages are reused anyway.
 */
export function createPendingVacuum(db: Db, table: 'outbox_pending' | 'bet_stream_pending', log: Log, afterRows = 1000, everyMs = 1000) {
  let since = 0;
  let runs = 0;
  let last = performance.now();
  let running: Promise<void> | null = null;
  return {
    /** Rows the drain took off the list. */
    done(rows: number) {
      since += rows;
    },
    /**
     * Vacuums the table when enough rows went and enough time passed (one vacuum at a time); never
     * throws. The returned promise settles when that vacuum is done: a drain that must not wait for
     * it (the outbox relay: a VACUUM took up to 33 ms under load, and every event committed meanwhile
     * waited for the next pass) does not await it, and awaits `settled()` when it stops.
     */
    maybe(): Promise<void> {
      if (running) return running;
      if (since < afterRows || performance.now() - last < everyMs) return Promise.resolve();
      since = 0;
      last = performance.now();
      running = (async () => {
        try {
          await db.query(`VACUUM (TRUNCATE false) ${table}`);
          runs++;
        } catch (err) {
          log.warn({ err, table }, 'work list vacuum failed');
        } finally {
          running = null;
        }
      })();
      return running;
    },
    /** Settles when no vacuum runs. */
    settled: (): Promise<void> => running ?? Promise.resolve(),
    /** Vacuums run (tests). */
    runs: () => runs,
  };
}
