-- Observability (issue 12): each outbox row records the id of the HTTP request whose transaction
-- wrote it, so relay and socket logs can be joined to the request's own log lines. db.tx sets the
-- transaction-local setting portal.request_id (with BEGIN, no extra round trip) when the transaction
-- runs for a request; every writer of the outbox (emitEvent, emitEvents, outbox_emit in the ledger's
-- and the vendor wallet's SQL) picks it up through this default, without a change of its own.
-- NULL when no request caused the write (jobs, the relay's own work, plain statements outside db.tx).
-- current_setting is stable, so adding the column does not rewrite the table.
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS request_id text DEFAULT NULLIF(current_setting('portal.request_id', true), '');
