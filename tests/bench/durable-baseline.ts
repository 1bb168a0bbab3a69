/**
 * The bare PostgreSQL baseline of a durable event (`npm run bench -- --pg`, issue 12): the same outbox
 * row the gateway writes for a `balance.changed` (outbox_emit: the audience's next seq, the row, its
 * entry in outbox_pending), inserted and committed by 64 clients in a closed loop, each statement its
 * own transaction (autocommit: one round trip, one WAL flush). No relay, no bus, no sockets, no Node
 * work beyond the driver: the physical ceiling of an event that must survive a crash on this
 * database, which the bare Socket.IO server does not pay. The gateway's durable events per second
 * (its saturation phase, one event per transaction, as many in flight) are reported as a ratio of it.
 *
 * Audiences are `user:<id>` for ids no bench member has (900,000,001 and up, round robin over
 * `audiences` of them, as the gateway's producer goes round its members); the rows are deleted after.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { balancePayload, latencyStats, sleep, wallMs, type LatencyStats } from './common.ts';
import { hostCpu } from './pg-gateway.ts';

export type DurableBaseline = {
  clients: number;
  seconds: number;
  committed: number;
  failed: number;
  firstError: string | null;
  eventsPerSec: number;
  latencyMs: LatencyStats;
  /** Whole machine busy (% of one core) and PostgreSQL's share during the timed run; null off Linux. */
  hostCpuPercent: number | null;
  pgCpuPercent: number | null;
  /** PostgreSQL CPU per committed event (us). */
  pgCpuUsPerEvent: number | null;
};

const ID_BASE = 900_000_000;
const EMIT = 'SELECT outbox_emit($1, $2, $3, $4::jsonb, $5::uuid, $6::timestamptz) AS seq';

export async function durableBaseline(
  url: string,
  opts: { clients: number; seconds: number; warmSeconds: number; audiences: number; merchantCode: string },
): Promise<DurableBaseline> {
  const conns = await Promise.all(
    Array.from({ length: opts.clients }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  const aud = Math.max(1, opts.audiences);
  const audienceLike = `user:9________`;
  try {
    await conns[0]!.query('VACUUM outbox');
    await conns[0]!.query('VACUUM audience_seq');
    let k = 0;
    const run = async (seconds: number) => {
      const lat: number[] = [];
      let failed = 0;
      let firstError: string | null = null;
      const endAt = wallMs() + seconds * 1000;
      await Promise.all(
        conns.map(async (c) => {
          while (wallMs() < endAt) {
            const i = k++;
            const memberId = ID_BASE + 1 + (i % aud);
            const t0 = wallMs();
            try {
              await c.query({
                name: 'bench_outbox_emit',
                text: EMIT,
                values: [opts.merchantCode, `user:${memberId}`, 'balance.changed', JSON.stringify(balancePayload(memberId, i)), randomUUID(), new Date().toISOString()],
              });
              lat.push(wallMs() - t0);
            } catch (err) {
              failed++;
              firstError ??= err instanceof Error ? err.message : String(err);
              await sleep(10);
            }
          }
        }),
      );
      return { lat, failed, firstError };
    };
    await run(opts.warmSeconds);
    const host0 = hostCpu();
    const t0 = wallMs();
    const r = await run(opts.seconds);
    const wall = (wallMs() - t0) / 1000;
    const host1 = hostCpu();
    const pgSec = host0 && host1 ? [...host1.pg].reduce((a, [pid, t]) => a + t - (host0.pg.get(pid) ?? 0), 0) : null;
    return {
      clients: opts.clients,
      seconds: wall,
      committed: r.lat.length,
      failed: r.failed,
      firstError: r.firstError,
      eventsPerSec: r.lat.length / wall,
      latencyMs: latencyStats(r.lat),
      hostCpuPercent: host0 && host1 ? ((host1.busy - host0.busy) / wall) * 100 : null,
      pgCpuPercent: pgSec === null ? null : (pgSec / wall) * 100,
      pgCpuUsPerEvent: pgSec === null || !r.lat.length ? null : (pgSec * 1e6) / r.lat.length,
    };
  } finally {
    // Nothing relays these rows: take them out of the outbox, its work list and the seq counters.
    const c = conns[0]!;
    await c
      .query(`DELETE FROM outbox_pending p USING outbox o WHERE o.pos = p.pos AND o.audience LIKE $1`, [audienceLike])
      .then(() => c.query('DELETE FROM outbox WHERE audience LIKE $1', [audienceLike]))
      .then(() => c.query('DELETE FROM audience_seq WHERE audience LIKE $1', [audienceLike]))
      .catch((err) => console.error('durable baseline: cleanup failed:', err instanceof Error ? err.message : err));
    await Promise.all(conns.map((c) => c.end().catch(() => undefined)));
  }
}
