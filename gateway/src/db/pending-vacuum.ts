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
  return {
    /** Rows the drain took off the list. */
    done(rows: number) {
      since += rows;
    },
    /** Vacuums the table when enough rows went and enough time passed; never throws. */
    async maybe(): Promise<void> {
      if (since < afterRows || performance.now() - last < everyMs) return;
      since = 0;
      last = performance.now();
      try {
        await db.query(`VACUUM (TRUNCATE false) ${table}`);
        runs++;
      } catch (err) {
        log.warn({ err, table }, 'work list vacuum failed');
      }
    },
    /** Vacuums run (tests). */
    runs: () => runs,
  };
}
