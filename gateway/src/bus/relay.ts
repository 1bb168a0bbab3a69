import { prepared, type Db } from '../db/db.ts';
import type { EventBus } from './bus.ts';
import { onOutboxCommit, rowToEnvelope, type OutboxRow } from './outbox.ts';

/** Held in the relay's transaction: one node relays at a time, so publication stays in commit order. */
const RELAY_LOCK = 7_242_002;
/**
 * Rows per pass. Each pass costs a commit and a walk over the unpublished index from its start
 * (past entries of rows marked since the last vacuum), so under a backlog bigger passes relay
 * more per second (500: about 27,000 events/s, 2,000: about 42,000 in isolation on 2 cores).
 * Under light load a pass takes what committed, usually a few rows.
 */
const BATCH = 2000;

/**
 * One statement per pass: take the relay lock (or get nothing), then lock and mark the next batch in
 * pos order, returning the rows with `at` already in ISO form. The mark commits only after the
 * publish, so a failed publish or a crash leaves the rows unpublished for the next pass (at least
 * once), exactly as a separate mark statement after the publish did, at one round trip instead of three.
 * The pass commits without waiting for its WAL flush (synchronous_commit off for this transaction
 * only): a mark lost in a crash means the rows are published again, which at least once allows, and
 * the relay no longer waits for, or adds, one disk flush per pass.
 */
const CLAIM_SQL = prepared(`WITH lock AS (
     SELECT pg_try_advisory_xact_lock(${RELAY_LOCK}) AS ok, set_config('synchronous_commit', 'off', true) AS async_commit
   ),
   next AS (
     SELECT pos FROM outbox WHERE published_at IS NULL AND (SELECT ok FROM lock)
     ORDER BY pos LIMIT ${BATCH} FOR UPDATE
   )
   UPDATE outbox o SET published_at = now() FROM next WHERE o.pos = next.pos
   RETURNING o.pos, o.id, o.merchant_code, o.audience, o.seq, o.type, o.v, o.payload,
     to_char(o.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at`);

type Logger = { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };

/**
 * Publishes committed outbox rows to the bus in pos order and marks them published in the same
 * transaction that locked them. A crash between publish and mark republishes: delivery is at least
 * once and clients drop seqs they already applied.
 */
export function startRelay(db: Db, bus: EventBus, log: Logger, pollMs: number, minGapMs = 5) {
  let stopped = false;
  let lastStart = -Infinity;
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let idle: Promise<void> = Promise.resolve();

  async function drain(): Promise<void> {
    for (;;) {
      const n = await db.tx(async (tx) => {
        const rows = await tx.query<OutboxRow>(CLAIM_SQL);
        if (!rows.rows.length) return 0;
        // RETURNING has no order: publish in pos order (per audience, pos order is seq order).
        const batch = rows.rows.sort((a, b) => a.pos - b.pos);
        await bus.publish(batch.map(rowToEnvelope));
        return batch.length;
      });
      if (n < BATCH) return;
    }
  }

  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    idle = (async () => {
      do {
        again = false;
        // Passes start at most every minGapMs. A commit after a quiet spell is relayed at once; under
        // load the commits of the gap share one pass, so PostgreSQL runs one relay transaction per
        // gap instead of one per commit (a pass costs about as much server CPU as the commit it relays).
        const wait = lastStart + minGapMs - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (stopped) break;
        lastStart = performance.now();
        try {
          await drain();
        } catch (err) {
          if (!stopped) log.warn({ err }, 'outbox relay pass failed');
        }
      } while (again && !stopped);
      running = false;
    })();
  }

  // Commits that land in the same tick share one relay pass.
  let kickQueued = false;
  const unsubscribe = onOutboxCommit(() => {
    if (kickQueued) return;
    kickQueued = true;
    setImmediate(() => {
      kickQueued = false;
      kick();
    });
  });
  const tick = () => {
    kick();
    if (!stopped) timer = setTimeout(tick, pollMs);
  };
  tick();

  return {
    kick,
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      await idle;
    },
  };
}

/** Drop published events older than the retention window; catch-up beyond it becomes a resync. */
export async function pruneOutbox(db: Db, retentionHours: number): Promise<number> {
  const r = await db.query(
    `DELETE FROM outbox WHERE published_at IS NOT NULL AND at < now() - make_interval(secs => $1)`,
    [retentionHours * 3600],
  );
  return r.rowCount;
}
