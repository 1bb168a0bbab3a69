import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { userAudience, type TEventEnvelope } from '@portal/contracts/events/events';
import { createMemoryBus, type EventBus } from './bus.ts';
import { emitEvents, type NewEvent } from './outbox.ts';
import { startRelay } from './relay.ts';
import { createPgDb, type Db } from '../db/db.ts';
import { freshDatabase, requireEnv } from '../testing/fresh-database.ts';
import { waitFor } from '../testing/test-portal.ts';

/**
 * The outbox relay vacuums outbox_pending itself (pending-vacuum.ts) after 1,000 published rows and a
 * second. That VACUUM must not hold up the relay's passes: events committed while it runs (it took up
 * to 33 ms under the bench's load, and it waits for any lock that conflicts with it) are relayed at once.
 */
const DATABASE_URL = requireEnv('DATABASE_URL');

let fresh: { url: string; drop(): Promise<void> };
let db: Db;
let bus: EventBus;
const got: TEventEnvelope[] = [];

beforeAll(async () => {
  fresh = await freshDatabase(DATABASE_URL, { migrated: true });
  db = createPgDb(fresh.url, 6);
  bus = createMemoryBus();
  bus.subscribe((events) => got.push(...events));
  await bus.start();
});
afterAll(async () => {
  await bus?.close();
  await db?.close();
  await fresh?.drop();
});

const balance = (memberId: number, n: number): NewEvent => ({
  audience: userAudience(memberId),
  type: 'balance.changed',
  payload: { memberId, currency: 'PHP', balance: n, available: n, delta: 1, reason: 'test', transferId: `rv-${memberId}-${n}` },
});

describe('outbox relay and its vacuum (PostgreSQL)', () => {
  it('keeps relaying while its vacuum of outbox_pending waits for a lock', async () => {
    // 1,001 rows pending before the relay starts: its first pass publishes them at once, and the vacuum
    // is due at the first pass after a second has passed since the relay started.
    const first = await db.tx((tx) => emitEvents(tx, 'DEMO', Array.from({ length: 1001 }, (_, k) => balance(9000 + (k % 50), k))));
    const started = performance.now();
    const relay = startRelay(db, bus, { warn: () => {}, error: () => {} }, 20);
    const locker = new pg.Client({ connectionString: fresh.url });
    await locker.connect();
    try {
      await waitFor(() => got.length >= first.length, 'the first 1,001 relayed', 10_000);
      expect(relay.vacuums()).toBe(0);
      await new Promise((r) => setTimeout(r, Math.max(0, 1100 - (performance.now() - started))));

      // A lock that VACUUM waits for (but not the relay's DELETE nor a writer's INSERT: both take ROW EXCLUSIVE).
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE outbox_pending IN SHARE UPDATE EXCLUSIVE MODE');

      // The next pass publishes this event, then starts the vacuum, which now waits.
      const [a] = await db.tx((tx) => emitEvents(tx, 'DEMO', [balance(9100, 1)]));
      await waitFor(() => got.some((e) => e.id === a!.id), 'event a relayed');
      for (let i = 0; ; i++) {
        const waiting = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'VACUUM%outbox_pending' AND wait_event_type = 'Lock'`);
        if (waiting.rows[0]!.n === 1) break;
        if (i > 500) throw new Error('the relay never started its vacuum');
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(relay.vacuums()).toBe(0);

      // With the vacuum still waiting, later events are relayed all the same.
      const later = await db.tx((tx) => emitEvents(tx, 'DEMO', [balance(9100, 2), balance(9101, 1)]));
      await waitFor(() => later.every((e) => got.some((g) => g.id === e.id)), 'events committed during the vacuum relayed');
      expect(relay.vacuums()).toBe(0);

      // The lock goes: the vacuum finishes, once.
      await locker.query('ROLLBACK');
      await waitFor(() => relay.vacuums() === 1, 'the vacuum done');
    } finally {
      await locker.end();
      await relay.stop();
    }
    // Each event relayed once (the relay ran alone here; at least once allows repeats only after a crash).
    const ids = got.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
