import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { userAudience } from '@portal/contracts/events/events';
import { createPgDb, groupCommitStats, type Db } from './db.ts';
import { createGroupCommit } from './group-commit.ts';
import { freshDatabase, requireEnv } from '../testing/fresh-database.ts';
import { emitEvent } from '../bus/outbox.ts';
import { withRequestId } from '../obs/request-id.ts';
import { groupCommits, singleStatements } from '../obs/metrics.ts';

/**
 * db.single's group commit on real PostgreSQL (group-commit.ts): one-statement transactions that wait
 * while others run are committed together, and each caller sees what it would have seen alone.
 */
const DATABASE_URL = requireEnv('DATABASE_URL');

let fresh: { url: string; drop(): Promise<void> };
let db: Db;

beforeAll(async () => {
  fresh = await freshDatabase(DATABASE_URL, { migrated: true });
  // A pool of 8: two statements (or batches) run at once, the rest wait and go together.
  db = createPgDb(fresh.url, 8);
});
afterAll(async () => {
  await db?.close();
  await fresh?.drop();
});

const payload = (memberId: number, n: number) => ({
  memberId, currency: 'PHP', balance: n, available: n, delta: 1, reason: 'test', transferId: `gc-${memberId}-${n}`,
});

/** A counter's value for one label set, as /metrics exposes it. */
async function counted(metric: typeof singleStatements | typeof groupCommits, labels: Record<string, string>): Promise<number> {
  const v = (await metric.get()).values.find((x) => Object.entries(labels).every(([k, l]) => (x.labels as Record<string, unknown>)[k] === l));
  return v?.value ?? 0;
}

async function seqsOf(audience: string): Promise<number[]> {
  const r = await db.query<{ seq: number }>('SELECT seq FROM outbox WHERE audience = $1 ORDER BY pos', [audience]);
  return r.rows.map((x) => x.seq);
}

describe('db.single group commit (PostgreSQL)', () => {
  it('commits concurrent one-event transactions together: every caller its own seq, gapless, hooks after the commit', async () => {
    const stats = groupCommitStats(db)!;
    const before = { ...stats };
    const metricBefore = { batched: await counted(singleStatements, { how: 'batched' }), commits: await counted(groupCommits, { outcome: 'committed' }) };
    const audiences = [90_001, 90_002, 90_003].map(userAudience);
    const n = 300;
    const hooked: string[] = [];
    const results = await Promise.all(Array.from({ length: n }, (_, i) => db.single(async (tx) => {
      const e = await emitEvent(tx, 'DEMO', audiences[i % 3]!, 'balance.changed', payload(90_001 + (i % 3), i));
      tx.afterCommit(() => hooked.push(e.id));
      return e;
    })));
    // Most statements waited and went in batches of several.
    expect(stats.batches - before.batches).toBeGreaterThan(0);
    expect(stats.batched - before.batched).toBeGreaterThan(n / 2);
    expect(stats.batchesFailed - before.batchesFailed).toBe(0);
    // /metrics counts the same: statements committed in batches, and the batches.
    expect(await counted(singleStatements, { how: 'batched' }) - metricBefore.batched).toBe(stats.batched - before.batched);
    expect(await counted(groupCommits, { outcome: 'committed' }) - metricBefore.commits).toBe(stats.batches - before.batches);
    // Each caller got the seq its row has, the seqs of an audience are 1..k in commit (pos) order.
    for (const a of audiences) {
      const mine = results.filter((e) => e.audience === a).map((e) => e.seq).sort((x, y) => x - y);
      expect(mine).toEqual(Array.from({ length: n / 3 }, (_, i) => i + 1));
      expect(await seqsOf(a)).toEqual(mine);
    }
    const rows = await db.query<{ id: string; seq: number }>('SELECT id, seq FROM outbox WHERE id = ANY($1::uuid[])', [results.map((e) => e.id)]);
    const seqById = new Map(rows.rows.map((r) => [r.id, r.seq]));
    for (const e of results) expect(seqById.get(e.id)).toBe(e.seq);
    // Every caller's afterCommit hook ran, once.
    expect(hooked.sort()).toEqual(results.map((e) => e.id).sort());
  });

  it('a failing statement in a batch fails alone: the others commit, it writes nothing', async () => {
    const stats = groupCommitStats(db)!;
    const before = { ...stats };
    const refusedBefore = await counted(groupCommits, { outcome: 'refused' });
    const a = userAudience(90_010);
    const bad = new Set([7, 23, 41]);
    const outcomes = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => db.single((tx) => tx.query<{ seq: number }>(
      bad.has(i)
        ? "SELECT outbox_emit('DEMO', $1, 'balance.changed', $2::jsonb, gen_random_uuid(), now()) AS seq, 1 / 0 AS boom"
        : "SELECT outbox_emit('DEMO', $1, 'balance.changed', $2::jsonb, gen_random_uuid(), now()) AS seq",
      [a, JSON.stringify(payload(90_010, i))],
    ))));
    outcomes.forEach((o, i) => {
      if (bad.has(i)) expect(o.status === 'rejected' && String(o.reason)).toMatch(/division by zero/);
      else expect(o.status, `statement ${i}`).toBe('fulfilled');
    });
    expect(stats.batchesFailed - before.batchesFailed).toBeGreaterThan(0);
    expect(await counted(groupCommits, { outcome: 'refused' }) - refusedBefore).toBe(stats.batchesFailed - before.batchesFailed);
    // 57 rows, seqs 1..57 without a gap: the failed statements took no seq and left nothing.
    expect(await seqsOf(a)).toEqual(Array.from({ length: 57 }, (_, i) => i + 1));
    const got = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.rows[0]!.seq] : [])).sort((x, y) => x - y);
    expect(got).toEqual(Array.from({ length: 57 }, (_, i) => i + 1));
  });

  it('a parameter that cannot be sent fails its own caller, not the batch it would have joined', async () => {
    const a = userAudience(90_015);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => db.single((tx) => tx.query<{ seq: number }>(
      "SELECT outbox_emit('DEMO', $1, 'balance.changed', $2::jsonb, gen_random_uuid(), now()) AS seq",
      [a, i === 10 ? circular : JSON.stringify(payload(90_015, i))],
    ))));
    outcomes.forEach((o, i) => expect(o.status, `statement ${i}`).toBe(i === 10 ? 'rejected' : 'fulfilled'));
    expect(await seqsOf(a)).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
  });

  it('each statement of a batch records its own request id, or none', async () => {
    const stats = groupCommitStats(db)!;
    const before = { ...stats };
    const a = userAudience(90_020);
    const events = await Promise.all(Array.from({ length: 80 }, (_, i) => {
      const emit = () => db.single((tx) => emitEvent(tx, 'DEMO', a, 'balance.changed', payload(90_020, i)));
      // Every third with a request id: the ones after it in a batch must not inherit it.
      return i % 3 === 0 ? withRequestId(`gc-req-${i}`, emit) : emit();
    }));
    expect(stats.batches - before.batches).toBeGreaterThan(0);
    const rows = await db.query<{ id: string; request_id: string | null }>('SELECT id, request_id FROM outbox WHERE audience = $1', [a]);
    const rid = new Map(rows.rows.map((r) => [r.id, r.request_id]));
    events.forEach((e, i) => expect(rid.get(e.id), `event ${i}`).toBe(i % 3 === 0 ? `gc-req-${i}` : null));
  });

  it('a batch on a fresh connection parses its named statements; the connection then runs them alone', async () => {
    // A new pool: no connection has parsed anything yet.
    const other = createPgDb(fresh.url, 8);
    try {
      const a = userAudience(90_030);
      await Promise.all(Array.from({ length: 40 }, (_, i) => other.single((tx) => emitEvent(tx, 'DEMO', a, 'balance.changed', payload(90_030, i)))));
      expect(groupCommitStats(other)!.batches).toBeGreaterThan(0);
      // Alone, one after the other, on whichever connections: the named statement is known where it was parsed.
      for (let i = 40; i < 60; i++) await other.single((tx) => emitEvent(tx, 'DEMO', a, 'balance.changed', payload(90_030, i)));
      expect(await seqsOf(a)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    } finally {
      await other.close();
    }
  });

  it('two batches that deadlock each other: PostgreSQL refuses one, its statements run alone, all commit', async () => {
    const pool = new pg.Pool({ connectionString: fresh.url, max: 4 });
    // The refused batch's connection is discarded (release(true)) and ends on its own time; should the
    // test database be dropped first (afterAll), its FATAL reaches this pool, which must not throw it
    // as an uncaught error (createPgDb's pools listen the same way).
    pool.on('error', () => {});
    try {
      const group = createGroupCommit({ pool, inFlight: 2, max: 10 });
      const [x, y] = [userAudience(90_040), userAudience(90_041)];
      const emit = (audience: string, n: number, sleep: boolean) => {
        const config = {
          text: `SELECT ${sleep ? 'pg_sleep(0.3), ' : ''}outbox_emit('DEMO', $1, 'balance.changed', $2::jsonb, gen_random_uuid(), now()) AS seq`,
          values: [audience, JSON.stringify(payload(90_040, n))],
        };
        return group.run(config, null, () => pool.query(config));
      };
      // Queued in one turn with both places free: two batches, [x, then y] and [y, then x]. Each takes its
      // first audience's row, sleeps, then waits for the other's: a deadlock, which PostgreSQL breaks.
      const results = await Promise.all([emit(x, 1, false), emit(y, 2, true), emit(y, 3, false), emit(x, 4, true)]);
      expect(group.stats).toMatchObject({ batches: 2, batched: 4, batchesFailed: 1, alone: 2 });
      expect(results.map((r) => r.rows.length)).toEqual([1, 1, 1, 1]);
      expect(await seqsOf(x)).toEqual([1, 2]);
      expect(await seqsOf(y)).toEqual([1, 2]);
    } finally {
      await pool.end();
    }
  });
});
