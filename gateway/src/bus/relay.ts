import { heldTx, prepared, type Db, type Queryable } from '../db/db.ts';
import { anyPending, createPassRunner, startIdlePoll } from '../db/pass-runner.ts';
import { createPendingVacuum } from '../db/pending-vacuum.ts';
import type { EventBus } from './bus.ts';
import { onOutboxCommit, rowToEnvelope, type OutboxRow } from './outbox.ts';
import { eventsPublished, relayLag } from '../obs/metrics.ts';

/** Held in the relay's transaction: one node relays at a time, so publication stays in commit order. */
const RELAY_LOCK = 7_242_002;
/**
 * Rows per pass. Under a backlog bigger passes relay more per second; under light load a pass takes
 * what committed, usually a few rows.
 */
const BATCH = 2000;
/** The relay vacuums outbox_pending after this many published rows, at most every VACUUM_EVERY_MS. */
const VACUUM_AFTER_ROWS = 1000;
const VACUUM_EVERY_MS = 1000;

/**
 * One statement per pass: take the relay lock (or get nothing), then take the next batch off
 * outbox_pending in pos order and return its outbox rows with `at` already in ISO form. The delete
 * commits only after the publish, so a failed publish or a crash leaves the rows pending for the next
 * pass (at least once). The outbox rows themselves are never rewritten (migration 015). The pass
 * commits without waiting for its WAL flush (synchronous_commit off for this transaction only): a
 * delete lost in a crash means the rows are published again, which at least once allows, and the
 * relay no longer waits for, or adds, one disk flush per pass. Both steps look rows up by pos through
 * `= ANY (ARRAY(...))`, which plans as index probes: written as joins, the planner hashed the whole
 * outbox (every retained event, a sequential scan) on every pass, hundreds of passes a second under
 * load, and that scan grew with the outbox.
 */
const CLAIM_SQL = prepared(`WITH lock AS (
     SELECT pg_try_advisory_xact_lock(${RELAY_LOCK}) AS ok, set_config('synchronous_commit', 'off', true) AS async_commit
   ),
   next AS (
     DELETE FROM outbox_pending p WHERE p.pos = ANY (ARRAY(
       SELECT pos FROM outbox_pending WHERE (SELECT ok FROM lock) ORDER BY pos LIMIT ${BATCH} FOR UPDATE
     )) RETURNING p.pos
   )
   SELECT o.pos, o.id, o.merchant_code, o.audience, o.seq, o.type, o.v, o.payload, o.request_id,
     to_char(o.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
   FROM outbox o WHERE o.pos = ANY (ARRAY(SELECT pos FROM next))
   ORDER BY o.pos`);

/**
 * The poll's question, one autocommitted round trip: is anything waiting? A full pass (a transaction:
 * the lock, the claim, the commit) runs only when it is. Local commits wake the relay directly; the
 * poll is there for rows another node's relay may have left (it held the lock meanwhile) and for
 * writers that did not wake this one, and on an idle node it asked for a whole pass every
 * RELAY_POLL_MS (issue 12, lean fan-out: that was most of an idle node's CPU).
 */
const PENDING_SQL = prepared('SELECT EXISTS (SELECT 1 FROM outbox_pending) AS any');
/**
 * A quiet node's poll waits up to 2^5 = 32 x RELAY_POLL_MS (800 ms at the default 25): the poll is only
 * for rows no local commit announced (another node's, left while that node held the lock: that node
 * rearms its own poll), and a busy node polls at the full rate again at once. At 2^3 an idle embedded
 * node asked five times a second, a fifth of its idle CPU with the bet stream's and the job runner's polls.
 */
const IDLE_BACKOFF_STEPS = 5;

type Logger = {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
  debug?(obj: unknown, msg?: string): void;
  isLevelEnabled?(level: string): boolean;
};

/**
 * Publishes committed outbox rows to the bus in pos order and takes them off outbox_pending in the
 * same transaction that locked them. A crash between publish and commit republishes: delivery is at
 * least once and clients drop seqs they already applied.
 */
export function startRelay(db: Db, bus: EventBus, log: Logger, pollMs: number, minGapMs = 10, nodeId = 'node') {
  let stopped = false;
  let lastPassFailed = false;
  const published = eventsPublished.labels({ node: nodeId });
  const lag = relayLag.labels({ node: nodeId });
  // Per-pass debug lines (event ids with their request ids) only when debug is on: the check is made once.
  const logPasses = (log.isLevelEnabled?.('debug') ?? false) && !!log.debug;
  const vacuum = createPendingVacuum(db, 'outbox_pending', log, VACUUM_AFTER_ROWS, VACUUM_EVERY_MS);

  /**
   * On PostgreSQL a pass's transaction stays open after its publish, and its COMMIT goes in the same
   * write as the next pass's BEGIN and claim (HeldTx, db.ts): one round trip a pass where there were
   * two. A pass that no other follows within holdMs is committed on its own. Meanwhile its rows are
   * published and their deletion not yet committed: a crash then publishes them again (at least once,
   * as a crash between publish and COMMIT always did), and the relay lock stays with this node.
   * PGlite (one connection for everything) commits each pass at once, as before.
   */
  const held = heldTx(db);
  const holdMs = Math.max(10, 2 * minGapMs);
  let commitTimer: NodeJS.Timeout | null = null;
  const commitHeld = () => {
    commitTimer = null;
    held?.commit().catch((err: unknown) => {
      if (!stopped) log.warn({ err }, 'outbox relay commit failed');
    });
  };

  /** Whether the latest pass relayed any row (it held the lock). */
  let lastPassRelayed = false;

  async function drain(): Promise<void> {
    poll.rearm();
    lastPassRelayed = false;
    if (commitTimer) {
      clearTimeout(commitTimer);
      commitTimer = null;
    }
    for (;;) {
      const n = await (held ? held.run.bind(held) : db.tx.bind(db))(async (tx: Queryable) => {
        const rows = await tx.query<OutboxRow>(CLAIM_SQL);
        if (!rows.rows.length) return 0;
        // In pos order (per audience, pos order is seq order).
        const batch = rows.rows;
        const envelopes = batch.map(rowToEnvelope);
        await bus.publish(envelopes);
        published.inc(batch.length);
        // The oldest event of the pass: commit-to-publish lag (one Date.parse per pass).
        lag.observe(Math.max(0, (Date.now() - Date.parse(envelopes[0]!.at)) / 1000));
        if (logPasses) log.debug!({ events: envelopes.map((e) => ({ id: e.id, type: e.type, requestId: e.requestId })) }, 'relay published');
        return batch.length;
      });
      vacuum.done(n);
      lastPassRelayed = n > 0;
      if (n < BATCH) return;
    }
  }

  const runner = createPassRunner({
    minGapMs,
    stopped: () => stopped,
    async pass() {
      try {
        await drain();
        lastPassFailed = false;
        if (held && !stopped) commitTimer = setTimeout(commitHeld, holdMs);
        // Not awaited: the next pass must not wait for a VACUUM (stop() waits for it).
        void vacuum.maybe();
      } catch (err) {
        lastPassFailed = true;
        if (!stopped) log.warn({ err }, 'outbox relay pass failed');
      }
    },
  });
  const kick = runner.kick;
  // Commits that land in the same tick share one relay pass.
  const unsubscribe = onOutboxCommit(runner.kickSoon);
  const poll = startIdlePoll({
    runner,
    pollMs,
    backoffSteps: IDLE_BACKOFF_STEPS,
    anyPending: anyPending(db, PENDING_SQL),
    mustRun: () => lastPassFailed,
    stopped: () => stopped,
    // A pass that took the lock and relayed started within the poll's period: it looked at the pending
    // rows itself (under load, local commits run a pass every few ms, and the poll's question added a
    // round trip to each period for nothing). A pass that relayed nothing may have found the lock taken
    // by another node: then the poll asks, as before.
    fresh: () => lastPassRelayed && performance.now() - runner.lastStart() < pollMs,
  });
  kick();

  return {
    kick,
    /** Running and its last pass did not fail (readiness). */
    isRunning: () => !stopped && !lastPassFailed,
    /** Vacuums of outbox_pending this relay ran (tests). */
    vacuums: () => vacuum.runs(),
    async stop() {
      stopped = true;
      unsubscribe();
      poll.stop();
      await runner.idle();
      if (commitTimer) clearTimeout(commitTimer);
      await held?.commit().catch((err: unknown) => log.warn({ err }, 'outbox relay commit failed'));
      await vacuum.settled();
    },
  };
}

/** Drop published events older than the retention window; catch-up beyond it becomes a resync. */
export async function pruneOutbox(db: Db, retentionHours: number): Promise<number> {
  const r = await db.query(
    `DELETE FROM outbox o WHERE o.at < now() - make_interval(secs => $1) AND NOT EXISTS (SELECT 1 FROM outbox_pending p WHERE p.pos = o.pos)`,
    [retentionHours * 3600],
  );
  return r.rowCount;
}
