import type { Queryable } from '../../db/db.ts';

/**
 * Sliding-window counters and locks in PostgreSQL, so every gateway node sees the same counts.
 */
export function createRateLimiter(db: Queryable) {
  return {
    /** Count one event; the id lets a caller take it back when the thing it counted did not happen. */
    async hit(key: string): Promise<string> {
      const r = await db.query<{ id: string | number }>('INSERT INTO rate_events (key) VALUES ($1) RETURNING id', [key]);
      return String(r.rows[0]!.id);
    },
    /** Take back events counted by `hit` (a message the provider did not send spends no limit). */
    async undo(...ids: string[]): Promise<void> {
      if (ids.length) await db.query('DELETE FROM rate_events WHERE id = ANY($1::bigint[])', [ids]);
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
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
