-- Scheduled and queued work (gateway/src/jobs/). One row per (job name, key): the key is the unit of
-- "exactly once" (a settlement period, an auto-receive tick), so enqueueing the same key twice, from
-- two nodes or after a restart, inserts nothing. The row stays after the job is done (done_at) so the
-- key can never run again; only schedules with a retention (keep) are pruned, and only far behind
-- their catch-up window.
-- On PGlite the table runner claims due rows here (run_at, locked_until, attempts). On PostgreSQL
-- graphile-worker dispatches them (ext_id is its job id) and this row keeps the outcome.
CREATE TABLE IF NOT EXISTS jobs (
  name text NOT NULL,
  key text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  run_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
  locked_until timestamptz,
  last_error text,
  last_attempt_at timestamptz,
  ext_id bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  done_at timestamptz,
  failed_at timestamptz,
  PRIMARY KEY (name, key)
);
CREATE INDEX IF NOT EXISTS jobs_due ON jobs (run_at) WHERE done_at IS NULL AND failed_at IS NULL;
