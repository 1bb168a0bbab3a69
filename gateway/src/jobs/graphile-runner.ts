import pg from 'pg';
import { Logger as GraphileLogger, parseCronItems, run, runMigrations, type Runner, type Task } from 'graphile-worker';
import type { Logger } from 'pino';
import { periodKey, type Backend, type QueueCore } from './job-queue.ts';

/** Held while graphile-worker migrates its schema: its installer takes no lock, two fresh nodes would race. */
const GRAPHILE_MIGRATION_LOCK = 7_242_003;
const JOB_TASK = 'portal_job';
const CRON_TASK = 'portal_cron';

function graphileLogger(log: Logger) {
  return new GraphileLogger(() => (level, message, meta) => {
    const l = level === 'error' ? 'error' : level === 'warning' ? 'warn' : 'debug';
    log[l]({ ...(meta ?? {}), lib: 'graphile-worker' }, message);
  });
}

/**
 * PostgreSQL: graphile-worker dispatches (LISTEN/NOTIFY pick-up, retries with backoff, one worker per
 * job across nodes, a crashed node's jobs taken again after its lock expires) and owns the cron
 * schedules (its crontab enqueues each timestamp once across nodes and backfills missed ones). Our
 * jobs row stays the unit of exactly-once: graphile-worker deletes a job once it completes, so a later
 * enqueue of the same key would run again; the row remembers the key for good.
 */
export function createGraphileBackend(opts: { url: string; log: Logger; concurrency?: number; pollMs?: number }): Backend {
  const pool = new pg.Pool({ connectionString: opts.url, max: (opts.concurrency ?? 2) + 2 });
  pool.on('error', () => undefined);
  let runner: Runner | null = null;

  return {
    kind: 'graphile-worker',
    ownsCron: true,
    async added(tx, row) {
      const r = await tx.query<{ id: number }>(
        `SELECT (graphile_worker.add_job($1, json_build_object('name', $2::text, 'key', $3::text), run_at := $4, max_attempts := $5)).id AS id`,
        [JOB_TASK, row.name, row.key, row.runAt, row.maxAttempts],
      );
      await tx.query('UPDATE jobs SET ext_id = $3 WHERE name = $1 AND key = $2', [row.name, row.key, r.rows[0]!.id]);
    },
    async bringForward(name, key) {
      await pool.query(
        `SELECT graphile_worker.reschedule_jobs(ARRAY[ext_id]::bigint[], run_at := now(), attempts := 0)
         FROM jobs WHERE name = $1 AND key = $2 AND ext_id IS NOT NULL`,
        [name, key],
      );
    },
    async start(core: QueueCore) {
      const logger = graphileLogger(opts.log);
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [GRAPHILE_MIGRATION_LOCK]);
        await runMigrations({ pgPool: pool, logger });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [GRAPHILE_MIGRATION_LOCK]).catch(() => undefined);
        client.release();
      }
      const jobTask: Task = async (raw, helpers) => {
        const { name, key } = raw as { name: string; key: string };
        const r = await core.execute(name, key, helpers.job.attempts, helpers.job.max_attempts, null);
        // Throwing hands the retry (and its backoff) to graphile-worker; our row already holds the error.
        if (r.outcome === 'retry' || r.outcome === 'failed') throw r.error instanceof Error ? r.error : new Error(String(r.error));
      };
      const cronTask: Task = async (raw) => {
        const p = raw as { name: string; payload?: Record<string, unknown>; _cron: { ts: string } };
        await core.enqueue(p.name, p.payload ?? {}, { key: periodKey(Date.parse(p._cron.ts)), runAt: new Date(p._cron.ts) });
      };
      const cronItems = core.schedules.flatMap((s) =>
        'cron' in s.every
          ? [{
              task: CRON_TASK, match: s.every.cron, identifier: `portal:${s.name}`,
              options: { backfillPeriod: s.opts.catchUpMs ?? 0, maxAttempts: 10 },
              payload: { name: s.name, payload: s.opts.payload ?? {} },
            }]
          : [],
      );
      runner = await run({
        pgPool: pool,
        logger,
        concurrency: opts.concurrency ?? 2,
        pollInterval: opts.pollMs ?? 1000,
        noHandleSignals: true,
        taskList: { [JOB_TASK]: jobTask, [CRON_TASK]: cronTask },
        parsedCronItems: parseCronItems(cronItems),
      });
    },
    async stop() {
      if (runner) await runner.stop();
      runner = null;
      await pool.end();
    },
  };
}
