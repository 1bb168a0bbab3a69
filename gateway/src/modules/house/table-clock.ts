/** One table's tick (house-table.ts / pvp-table.ts `step`): when to look at it next and what is still open. */
export type TableStep = () => Promise<{ dueInMs: number | null; open: number }>;

type Log = { warn(obj: unknown, msg?: string): void };

/**
 * The house tables' clock on a node. Every node runs one; the table's advisory lock lets one node move
 * each table (table-rounds.ts). `poll()` runs every `tickMs`, but a table is looked at in the database
 * only once its next deadline has come (bets close, the result's time is over), as its last tick said:
 * two or three transactions a round instead of one every `tickMs` (per table, merchant and node).
 * Again after `tickMs` when its deadline is not known here (another node held the table), while bets
 * of the round are still open after settling (a wallet answer to come, a payout to retry), and after
 * a failed tick. Deadlines move only through ticks, so a node that cached one never misses a change:
 * at worst it looks early and learns the new one.
 */
export function createTableClock(steps: TableStep[], opts: { tickMs: number; log: Log; now?: () => number }) {
  const now = opts.now ?? (() => performance.now());
  const dueAt = steps.map(() => 0);
  let running: Promise<void> | null = null;
  return {
    /** Runs the tables whose time has come (none while a poll still runs); settles when they are done. */
    poll(): Promise<void> {
      if (running) return running;
      const t = now();
      const due = steps.flatMap((_, i) => (dueAt[i]! <= t ? [i] : []));
      if (!due.length) return Promise.resolve();
      running = Promise.all(due.map(async (i) => {
        try {
          const r = await steps[i]!();
          dueAt[i] = now() + (r.dueInMs === null || r.open > 0 ? opts.tickMs : r.dueInMs);
        } catch (err) {
          dueAt[i] = now() + opts.tickMs;
          opts.log.warn({ err }, 'house table tick failed');
        }
      })).then(() => {
        running = null;
      });
      return running;
    },
  };
}
