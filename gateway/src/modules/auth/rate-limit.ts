import type { Queryable } from '../../db/db.ts';

/**
 * Sliding-window counters and locks in PostgreSQL, so every gateway node sees the same counts.
 */
export function createRateLimiter(db: Queryable) {
  const limiter = {
    /** Count one event; the id lets a caller take it back when the thing it counted did not happen. */
    async hit(key: string): Promise<string> {
      const r = await db.query<{ id: string | number }>('INSERT INTO rate_events (key) VALUES ($1) RETURNING id', [key]);
      return String(r.rows[0]!.id);
    },
    /** Take back events counted by `hit` (a message the provider did not send spends no limit). */
    async undo(...ids: string[]): Promise<void> {
      if (ids.length) await db.query('DELETE FROM rate_events WHERE id = ANY($1::bigint[])', [ids]);
    },
    /**
     * Take one of `max` slots of `key` in the window for an attempt about to be judged (a password check):
     * its id, or null when the slots are spent. Attempts in flight hold their slots, so parallel attempts
     * cannot all be judged under the limit (count, judge, then record let 29 of them through at once):
     * an attempt past the max by the slots' order gives its slot back and is refused. The caller keeps the
     * slot for a failure and gives it back (`undo`) when the attempt did not fail.
     */
    async reserve(key: string, max: number, windowMs: number): Promise<string | null> {
      if ((await limiter.count(key, windowMs)) >= max) return null;
      const id = await limiter.hit(key);
      if ((await limiter.countBefore(key, windowMs, id)) >= max) {
        await limiter.undo(id);
        return null;
      }
      return id;
    },
    /**
     * Record a failed attempt (a wrong password) judged while fewer than `max` were recorded: true when it
     * is one of the first `max` by the order of recording, false (and not recorded) when the limit was
     * reached meanwhile, by attempts judged in parallel with it: that attempt is answered as locked.
     */
    async miss(key: string, max: number, windowMs: number): Promise<boolean> {
      const id = await limiter.hit(key);
      if ((await limiter.countBefore(key, windowMs, id)) < max) return true;
      await limiter.undo(id);
      return false;
    },
    /**
     * Judge one attempt (a password, a code) against a budget of `max` failures of `key` in the window:
     * 'locked' when the budget was spent before it or while it was judged (a right answer judged beside
     * the failure that spent it is not taken), 'wrong' for a failure recorded within it (`miss`), 'ok'.
     */
    async judge(key: string, max: number, windowMs: number, attempt: () => Promise<boolean>): Promise<'ok' | 'wrong' | 'locked'> {
      const spent = async () => (await limiter.count(key, windowMs)) >= max;
      if (await spent()) return 'locked';
      if (!(await attempt())) return (await limiter.miss(key, max, windowMs)) ? 'wrong' : 'locked';
      return (await spent()) ? 'locked' : 'ok';
    },
    /** Events of `key` in the window counted before the event `id` (slots taken earlier, in flight or not). */
    async countBefore(key: string, windowMs: number, id: string): Promise<number> {
      const r = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM rate_events WHERE key = $1 AND at > now() - make_interval(secs => $2) AND id < $3',
        [key, windowMs / 1000, id],
      );
      return r.rows[0]?.n ?? 0;
    },
    async count(key: string, windowMs: number): Promise<number> {
      const r = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM rate_events WHERE key = $1 AND at > now() - make_interval(secs => $2)',
        [key, windowMs / 1000],
      );
      return r.rows[0]?.n ?? 0;
    },
    /** Milliseconds since the last hit of `key`, or null when there was none in the window. */
    async sinceLast(key: string, windowMs: number): Promise<number | null> {
      const r = await db.query<{ ms: number | null }>(
        `SELECT (extract(epoch FROM now() - max(at)) * 1000)::float8 AS ms FROM rate_events
         WHERE key = $1 AND at > now() - make_interval(secs => $2)`,
        [key, windowMs / 1000],
      );
      const ms = r.rows[0]?.ms;
      return ms === null || ms === undefined ? null : Number(ms);
    },
    async lock(key: string, ms: number): Promise<void> {
      await db.query(
        `INSERT INTO rate_locks (key, until) VALUES ($1, now() + make_interval(secs => $2))
         ON CONFLICT (key) DO UPDATE SET until = EXCLUDED.until`,
        [key, ms / 1000],
      );
    },
    async isLocked(key: string): Promise<boolean> {
      const r = await db.query('SELECT 1 FROM rate_locks WHERE key = $1 AND until > now()', [key]);
      return r.rows.length > 0;
    },
    async clear(key: string): Promise<void> {
      await db.query('DELETE FROM rate_events WHERE key = $1', [key]);
    },
    async prune(olderThanMs = 2 * 3600_000): Promise<void> {
      await db.query('DELETE FROM rate_events WHERE at < now() - make_interval(secs => $1)', [olderThanMs / 1000]);
      await db.query('DELETE FROM rate_locks WHERE until < now()');
    },
  };
  return limiter;
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
