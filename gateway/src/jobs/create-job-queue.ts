import type { Logger } from 'pino';
import type { Db } from '../db/db.ts';
import { createQueue, type JobQueue } from './job-queue.ts';
import { createGraphileBackend } from './graphile-runner.ts';
import { createTableBackend } from './table-runner.ts';

/**
 * The portal's job queue: graphile-worker on PostgreSQL (DATABASE_URL), the table runner on the
 * embedded PGlite. Same interface and semantics either way (see README, "Scheduled jobs").
 */
export function createJobQueue(deps: { db: Db; log: Logger; databaseUrl?: string; pollMs?: number; concurrency?: number }): JobQueue {
  const log = deps.log.child({ part: 'jobs' });
  const backend = deps.databaseUrl && deps.db.kind === 'pg'
    ? createGraphileBackend({ url: deps.databaseUrl, log, concurrency: deps.concurrency, pollMs: deps.pollMs })
    : createTableBackend({ pollMs: deps.pollMs, concurrency: deps.concurrency });
  return createQueue({ db: deps.db, log, backend });
}
