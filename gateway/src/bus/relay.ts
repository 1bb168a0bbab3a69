import type { Db } from '../db/db.ts';
import type { EventBus } from './bus.ts';
import { onOutboxCommit, rowToEnvelope, type OutboxRow } from './outbox.ts';

/** Held in the relay's transaction: one node relays at a time, so publication stays in commit order. */
const RELAY_LOCK = 7_242_002;
const BATCH = 500;

type Logger = { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };

/**
 * Publishes committed outbox rows to the bus in pos order and marks them published in the same
 * transaction that locked them. A crash between publish and mark republishes: delivery is at least
 * once and clients drop seqs they already applied.
 */
export function startRelay(db: Db, bus: EventBus, log: Logger, pollMs: number) {
  let stopped = false;
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let idle: Promise<void> = Promise.resolve();

  async function drain(): Promise<void> {
    for (;;) {
      const n = await db.tx(async (tx) => {
        const lock = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [RELAY_LOCK]);
        if (!lock.rows[0]?.ok) return 0;
        const rows = await tx.query<OutboxRow>(
          `SELECT pos, id, merchant_code, audience, seq, type, v, payload, at FROM outbox
           WHERE published_at IS NULL ORDER BY pos LIMIT ${BATCH} FOR UPDATE`,
        );
        if (!rows.rows.length) return 0;
        await bus.publish(rows.rows.map(rowToEnvelope));
        await tx.query('UPDATE outbox SET published_at = now() WHERE pos = ANY($1::bigint[])', [rows.rows.map((r) => r.pos)]);
        return rows.rows.length;
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
