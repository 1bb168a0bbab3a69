import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { type Db } from '../db/db.ts';
import { migratedPgliteDb } from '../testing/pglite-snapshot.ts';
import { migrate } from '../db/migrate.ts';
import { createQueue, duePeriods, periodKey, type JobQueue } from './job-queue.ts';
import { createTableBackend } from './table-runner.ts';
import { createJobQueue } from './create-job-queue.ts';

const log = pino({ level: 'silent' });
let db: Db;
const queues: JobQueue[] = [];

beforeAll(async () => {
  db = await migratedPgliteDb();
  await migrate(db);
});
afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop()));
});
afterAll(async () => {
  await db.close();
});

/** A table-runner queue on the shared PGlite, stopped after each test. */
function queue(pollMs = 20): JobQueue {
  const q = createQueue({ db, log, backend: createTableBackend({ pollMs }) });
  queues.push(q);
  return q;
}

async function until<T>(pred: () => Promise<T | null | undefined | false>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await pred();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const doneCount = async (name: string) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE name = $1 AND done_at IS NOT NULL', [name])).rows[0]!.n;

describe('the job queue on PGlite (table runner)', () => {
  it('picks the table runner for PGlite even when a DATABASE_URL is around', () => {
    expect(createJobQueue({ db, log, databaseUrl: 'postgres://nowhere/x' }).kind).toBe('table');
  });

  it('runs a key once although it is enqueued twice and by two runners sharing the database', async () => {
    const runs: string[] = [];
    const [a, b] = [queue(), queue()];
    for (const q of [a, b]) q.define<{ n: number }>('t.once', async (job) => { runs.push(`${job.key}:${job.payload.n}`); });
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
    // Both "nodes" enqueue every key, before and while both run.
    const firstRound = await Promise.all(keys.map((k, i) => (i % 2 ? a : b).enqueue('t.once', { n: 1 }, { key: k })));
    expect(firstRound.every(Boolean)).toBe(true);
    await Promise.all([a.start(), b.start()]);
    const secondRound = await Promise.all(keys.flatMap((k) => [a.enqueue('t.once', { n: 2 }, { key: k }), b.enqueue('t.once', { n: 2 }, { key: k })]));
    expect(secondRound.some(Boolean)).toBe(false);
    await until(async () => (await doneCount('t.once')) === keys.length, 'every key done');
    // Enqueueing a done key again does nothing either.
    expect(await a.enqueue('t.once', { n: 3 }, { key: 'k0' })).toBe(false);
    expect(await b.runNow('t.once', 'k0')).toMatchObject({ state: 'done', attempts: 1 });
    expect(runs.sort()).toEqual(keys.map((k) => `${k}:1`).sort());
  });

  it('an idle worker sleeps until the next row is due instead of asking every pollMs; an enqueue wakes it at once', async () => {
    // The shared PGlite with the runner's statements counted (claims and next-due questions).
    let statements = 0;
    const counted: Db = { ...db, query: (sql, params) => ((/FROM jobs/.test(sql) ? statements++ : 0), db.query(sql, params)) };
    const q = createQueue({ db: counted, log, backend: createTableBackend({ pollMs: 20, idleMaxMs: 400 }) });
    queues.push(q);
    const ran: Array<{ key: string; at: number }> = [];
    q.define('t.idle', async (job) => { ran.push({ key: job.key, at: Date.now() }); });
    await q.start();
    await new Promise((r) => setTimeout(r, 200));
    const before = statements;
    await new Promise((r) => setTimeout(r, 1_000));
    // Every 20 ms that second would be 50 claims; asleep up to 400 ms, a claim and a question each time.
    expect(statements - before).toBeGreaterThan(0);
    expect(statements - before).toBeLessThanOrEqual(12);
    // A row due in 300 ms: the worker wakes for it (it would otherwise sleep up to 400 ms, then 20 ms polls).
    const at = Date.now();
    await q.enqueue('t.idle', {}, { key: 'later', runAt: new Date(at + 300) });
    await until(async () => ran.find((r) => r.key === 'later'), 'the scheduled row');
    expect(ran[0]!.at - at).toBeGreaterThanOrEqual(290);
    expect(ran[0]!.at - at).toBeLessThan(1_000);
    // An enqueue due now wakes the sleeping worker (well before its 400 ms are up).
    await new Promise((r) => setTimeout(r, 100));
    const now = Date.now();
    await q.enqueue('t.idle', {}, { key: 'now' });
    await until(async () => ran.find((r) => r.key === 'now'), 'the enqueued row');
    expect(ran[1]!.at - now).toBeLessThan(250);
  });

  it('retries a failing handler with backoff until it succeeds, and marks a key failed after its last attempt', async () => {
    const q = queue();
    const attempts: number[] = [];
    q.define('t.flaky', async (job) => {
      attempts.push(job.attempt);
      if (job.attempt < 3) throw new Error(`boom ${job.attempt}`);
    }, { maxAttempts: 5, backoffMs: () => 10 });
    q.define('t.broken', async () => { throw new Error('always'); }, { maxAttempts: 2, backoffMs: () => 10 });
    await q.enqueue('t.flaky', {}, { key: 'x' });
    await q.enqueue('t.broken', {}, { key: 'y' });
    await q.start();
    const flaky = await until(async () => { const s = await q.state('t.flaky', 'x'); return s?.state === 'done' && s; }, 'flaky job done');
    expect(flaky).toMatchObject({ attempts: 3, lastError: 'Error: boom 2' });
    expect(attempts).toEqual([1, 2, 3]);
    const broken = await until(async () => { const s = await q.state('t.broken', 'y'); return s?.state === 'failed' && s; }, 'broken job failed');
    expect(broken).toMatchObject({ attempts: 2, lastError: 'Error: always' });
  });

  it('schedules a retry later rather than at once (the backoff is applied to run_at)', async () => {
    const q = queue();
    q.define('t.later', async () => { throw new Error('not yet'); }, { maxAttempts: 3, backoffMs: () => 3600_000 });
    await q.enqueue('t.later', {}, { key: 'z' });
    await q.start();
    await until(async () => (await q.state('t.later', 'z'))?.lastError, 'first attempt failed');
    const r = await db.query<{ later: boolean; failed: boolean }>(
      `SELECT run_at > now() + interval '50 minutes' AS later, failed_at IS NOT NULL AS failed FROM jobs WHERE name = 't.later' AND key = 'z'`,
    );
    expect(r.rows[0]).toEqual({ later: true, failed: false });
  });

  it('stop() waits for the running job', async () => {
    const q = queue();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    let started!: () => void;
    const isStarted = new Promise<void>((r) => { started = r; });
    q.define('t.slow', async () => {
      started();
      await gate;
      order.push('job finished');
    });
    await q.enqueue('t.slow', {}, { key: 's' });
    await q.start();
    await isStarted;
    const stopping = q.stop().then(() => order.push('stop resolved'));
    // The job cannot finish before the gate opens, so stop() cannot have resolved before it.
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    release();
    await stopping;
    expect(order).toEqual(['job finished', 'stop resolved']);
    expect((await q.state('t.slow', 's'))?.state).toBe('done');
  });

  it('commits a handler\'s effects and "done" together (completeIn): a run that lost the race changes nothing', async () => {
    await db.query('CREATE TABLE IF NOT EXISTS t_effects (key text NOT NULL)');
    const q = queue();
    q.define<{ lose?: boolean }>('t.tx', async (job) => {
      // Another runner finishing the same key meanwhile (a lost lease, a test clock and a node at once).
      if (job.payload.lose) await db.query('UPDATE jobs SET done_at = now() WHERE name = $1 AND key = $2', [job.name, job.key]);
      await db.tx(async (tx) => {
        await tx.query('INSERT INTO t_effects (key) VALUES ($1)', [job.key]);
        await job.completeIn(tx);
      });
    });
    await q.start();
    expect(await q.runNow('t.tx', 'won')).toMatchObject({ state: 'done', attempts: 1, lastError: null });
    expect(await q.runNow('t.tx', 'lost', { payload: { lose: true } })).toMatchObject({ state: 'done', lastError: null });
    const effects = (await db.query<{ key: string }>('SELECT key FROM t_effects ORDER BY key')).rows.map((r) => r.key);
    expect(effects).toEqual(['won']);
  });

  it('runNow (the test clock) runs a future period now, once, and reports a failed attempt', async () => {
    const q = queue(5000);
    const ran: string[] = [];
    q.define('t.clock', async (job) => { ran.push(job.key); });
    q.define('t.bad', async () => { throw new Error('nope'); }, { maxAttempts: 3, backoffMs: () => 3600_000 });
    await q.enqueue('t.clock', {}, { key: '2030-01-01T00:00:00.000Z', runAt: new Date('2030-01-01T00:00:00Z') });
    await q.start();
    expect(await q.runNow('t.clock', '2030-01-01T00:00:00.000Z')).toMatchObject({ state: 'done' });
    expect(await q.runNow('t.clock', '2030-01-01T00:00:00.000Z')).toMatchObject({ state: 'done' });
    expect(await q.runNow('t.clock', 'manual-1')).toMatchObject({ state: 'done' });
    expect(ran).toEqual(['2030-01-01T00:00:00.000Z', 'manual-1']);
    expect(await q.runNow('t.bad', 'b1')).toMatchObject({ state: 'queued', attempts: 1, lastError: 'Error: nope' });
    await expect(q.runNow('t.nothing', 'x')).rejects.toThrow('not defined');
  });

  it('a recurring job enqueues each period once, with two runners ticking on one database', async () => {
    const [a, b] = [queue(), queue()];
    const runs: string[] = [];
    for (const q of [a, b]) {
      q.define('t.every', async (job) => { runs.push(job.key); });
      // A catch-up window, so a tick that runs more than a period late (a busy CI process stalls the
      // event loop) still enqueues the period it slept through: with catchUpMs 0 it is skipped by design.
      q.schedule('t.every', { everyMs: 1000 }, { catchUpMs: 10_000 });
    }
    await Promise.all([a.start(), b.start()]);
    await until(async () => (await doneCount('t.every')) >= 3, 'three periods', 15_000);
    await Promise.all([a.stop(), b.stop()]);
    const keys = (await db.query<{ key: string }>("SELECT key FROM jobs WHERE name = 't.every' ORDER BY key")).rows.map((r) => r.key);
    // one run per period, periods are whole seconds, none missing in between
    expect(runs.sort()).toEqual(keys.filter((k) => runs.includes(k)));
    expect(new Set(runs).size).toBe(runs.length);
    const ms = keys.map((k) => Date.parse(k));
    for (let i = 1; i < ms.length; i++) expect(ms[i]! - ms[i - 1]!).toBe(1000);
    expect(ms.every((t) => t % 1000 === 0)).toBe(true);
  });

  it('keepMs on a defined job deletes its done rows once older, and only those (queued rows and other jobs stay)', async () => {
    const q = queue();
    q.define('t.kept', async () => {}, { keepMs: 1_000 });
    q.define('t.forever', async () => {});
    await q.start();
    for (const name of ['t.kept', 't.forever']) expect((await q.runNow(name, 'old')).state).toBe('done');
    await q.enqueue('t.kept', {}, { key: 'later', runAt: new Date(Date.now() + 3_600_000) });
    await db.query(`UPDATE jobs SET done_at = now() - interval '1 hour' WHERE key = 'old' AND name IN ('t.kept', 't.forever')`);
    await until(async () => (await q.state('t.kept', 'old')) === null, 'the old done row pruned');
    expect((await q.state('t.forever', 'old'))?.state).toBe('done');
    expect((await q.state('t.kept', 'later'))?.state).toBe('queued');
    expect(() => queue().define('t.bad', async () => {}, { keepMs: 10 })).toThrow('keepMs');
  });

  it('after a restart, enqueues the periods missed while down, bounded by the catch-up window', async () => {
    const q = queue();
    q.define('t.catchup', async () => undefined);
    q.schedule('t.catchup', { everyMs: 1000 }, { catchUpMs: 5000 });
    // The last period this schedule knew was an hour ago ("every node was down since").
    const old = Math.floor(Date.now() / 1000) * 1000 - 3600_000;
    await db.query("INSERT INTO jobs (name, key, done_at) VALUES ('t.catchup', $1, now())", [periodKey(old)]);
    const before = Math.floor(Date.now() / 1000) * 1000;
    await q.start();
    const keys = (await db.query<{ key: string }>("SELECT key FROM jobs WHERE name = 't.catchup' AND key > $1 ORDER BY key", [periodKey(old)])).rows.map((r) => Date.parse(r.key));
    expect(keys[0]).toBeGreaterThanOrEqual(before - 5000);
    expect(keys.length).toBeGreaterThanOrEqual(6);
    expect(keys.length).toBeLessThanOrEqual(8);
  });
});

describe('duePeriods', () => {
  const T = Date.parse('2026-11-24T07:30:02.500Z');
  it('gives the current interval period, and the ones after the last enqueued within the catch-up window', () => {
    expect(duePeriods({ everyMs: 5000 }, null, null, T, 0).map(periodKey)).toEqual(['2026-11-24T07:30:00.000Z']);
    expect(duePeriods({ everyMs: 5000 }, null, Date.parse('2026-11-24T07:30:00Z'), T, 0)).toEqual([]);
    expect(duePeriods({ everyMs: 5000 }, null, Date.parse('2026-11-24T07:29:45Z'), T, 60_000).map(periodKey))
      .toEqual(['2026-11-24T07:29:50.000Z', '2026-11-24T07:29:55.000Z', '2026-11-24T07:30:00.000Z']);
    expect(duePeriods({ everyMs: 5000 }, null, Date.parse('2026-11-01T00:00:00Z'), T, 10_000).map(periodKey))
      .toEqual(['2026-11-24T07:29:50.000Z', '2026-11-24T07:29:55.000Z', '2026-11-24T07:30:00.000Z']);
  });

  it('matches cron minutes in UTC, catching up missed ones within the window', () => {
    const q = createQueue({ db: null as unknown as Db, log, backend: createTableBackend() });
    q.define('c', async () => undefined);
    // through the queue's own cron parsing (graphile-worker's): daily at 16:00 UTC (midnight UTC+8)
    q.schedule('c', { cron: '0 16 * * *' }, { catchUpMs: 3 * 86_400_000 });
    expect(() => q.schedule('c', { cron: 'not a cron' })).toThrow();
    const match = (d: Date) => d.getUTCHours() === 16 && d.getUTCMinutes() === 0;
    expect(duePeriods({ cron: '0 16 * * *' }, match, null, T, 3 * 86_400_000).map(periodKey))
      .toEqual(['2026-11-21T16:00:00.000Z', '2026-11-22T16:00:00.000Z', '2026-11-23T16:00:00.000Z']);
    expect(duePeriods({ cron: '0 16 * * *' }, match, Date.parse('2026-11-22T16:00:00Z'), T, 3 * 86_400_000).map(periodKey))
      .toEqual(['2026-11-23T16:00:00.000Z']);
  });

  it('refuses a retention inside the catch-up window and sub-second intervals', () => {
    const q = createQueue({ db: null as unknown as Db, log, backend: createTableBackend() });
    q.define('r', async () => undefined);
    expect(() => q.schedule('r', { everyMs: 5000 }, { catchUpMs: 60_000, keepMs: 30_000 })).toThrow('keepMs');
    expect(() => q.schedule('r', { everyMs: 10 })).toThrow('everyMs');
  });
});
