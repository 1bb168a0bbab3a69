import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createPgDb, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { freshDatabase, requireEnv } from '../testing/fresh-database.ts';
import { createJobQueue } from './create-job-queue.ts';
import type { JobQueue } from './job-queue.ts';

const DATABASE_URL = requireEnv('DATABASE_URL');
const log = pino({ level: 'silent' });

let fresh: { url: string; drop(): Promise<void> };
/** Each "node" has its own pool and queue, as two gateway processes would. */
const nodes: Array<{ db: Db; jobs: JobQueue; runs: string[] }> = [];

async function node(setup?: (jobs: JobQueue, runs: string[]) => void) {
  const db = createPgDb(fresh.url, 4);
  const jobs = createJobQueue({ db, log, databaseUrl: fresh.url, pollMs: 200 });
  const runs: string[] = [];
  jobs.define<{ n: number }>('s.once', async (job) => {
    runs.push(job.key);
    // long enough that both nodes are busy at once when they race for the same keys
    await new Promise((r) => setTimeout(r, 5));
  });
  setup?.(jobs, runs);
  const n = { db, jobs, runs };
  nodes.push(n);
  return n;
}

async function stopNode(n: { db: Db; jobs: JobQueue }) {
  await n.jobs.stop();
  await n.db.close();
  nodes.splice(nodes.indexOf(n as (typeof nodes)[number]), 1);
}

async function until<T>(pred: () => Promise<T | null | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await pred();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  fresh = await freshDatabase(DATABASE_URL);
  const db = createPgDb(fresh.url, 2);
  await migrate(db);
  await db.close();
});
afterAll(async () => {
  await Promise.allSettled(nodes.map((n) => stopNode(n)));
  await fresh?.drop();
});

describe('the job queue on PostgreSQL (graphile-worker), two nodes on one database', () => {
  it('runs each keyed job exactly once although both nodes enqueue every key', async () => {
    const [a, b] = await Promise.all([node(), node()]);
    // Both start at once on a fresh database: graphile-worker's schema is installed once (advisory lock).
    await Promise.all([a.jobs.start(), b.jobs.start()]);
    expect(a.jobs.kind).toBe('graphile-worker');
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    const added = await Promise.all(keys.flatMap((k) => [a.jobs.enqueue('s.once', { n: 1 }, { key: k }), b.jobs.enqueue('s.once', { n: 2 }, { key: k })]));
    expect(added.filter(Boolean)).toHaveLength(keys.length);
    await until(async () => (await a.db.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE name = 's.once' AND done_at IS NOT NULL")).rows[0]!.n === keys.length, 'every key done');
    const all = [...a.runs, ...b.runs].sort();
    expect(all).toEqual([...keys].sort());
    // a done key is never enqueued again, and the test clock does not rerun it
    expect(await b.jobs.enqueue('s.once', { n: 3 }, { key: 'k0' })).toBe(false);
    expect(await a.jobs.runNow('s.once', 'k0')).toMatchObject({ state: 'done' });
    expect([...a.runs, ...b.runs].filter((k) => k === 'k0')).toHaveLength(1);
    await Promise.all([stopNode(a), stopNode(b)]);
  });

  it('a job enqueued before a restart runs after it, once', async () => {
    const a = await node();
    await a.jobs.start();
    // due in the future: the node stops before it is due
    await a.jobs.enqueue('s.once', {}, { key: 'after-restart', runAt: new Date(Date.now() + 1500) });
    await stopNode(a);
    expect(a.runs).toEqual([]);
    const again = await node();
    await again.jobs.start();
    const s = await until(async () => { const x = await again.jobs.state('s.once', 'after-restart'); return x?.state === 'done' && x; }, 'job after restart');
    expect(s.attempts).toBe(1);
    expect(again.runs).toEqual(['after-restart']);
    await stopNode(again);
  });

  it('a recurring job runs each period once across two nodes, and a failed attempt is retried by graphile-worker', async () => {
    let failedOnce = false;
    const setup = (jobs: JobQueue, runs: string[]) => {
      jobs.define('s.every', async (job) => { runs.push(job.key); });
      jobs.schedule('s.every', { everyMs: 1000 });
      jobs.define('s.flaky', async (job) => {
        runs.push(`flaky:${job.attempt}`);
        if (!failedOnce) {
          failedOnce = true;
          throw new Error('first attempt fails');
        }
      });
    };
    const [a, b] = await Promise.all([node(setup), node(setup)]);
    await Promise.all([a.jobs.start(), b.jobs.start()]);
    await a.jobs.enqueue('s.flaky', {}, { key: 'f1' });
    await until(async () => (await a.db.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE name = 's.every' AND done_at IS NOT NULL")).rows[0]!.n >= 3, 'three periods');
    const flaky = await until(async () => { const x = await a.jobs.state('s.flaky', 'f1'); return x?.state === 'done' && x; }, 'flaky retried', 30_000);
    expect(flaky).toMatchObject({ attempts: 2 });
    await Promise.all([a.jobs.stop(), b.jobs.stop()]);
    const periods = [...a.runs, ...b.runs].filter((k) => !k.startsWith('flaky'));
    expect(new Set(periods).size).toBe(periods.length);
    expect(periods.every((k) => Date.parse(k) % 1000 === 0)).toBe(true);
    expect([...a.runs, ...b.runs].filter((k) => k.startsWith('flaky')).sort()).toEqual(['flaky:1', 'flaky:2']);
    await Promise.all([stopNode(a), stopNode(b)]);
  });
});
