-- The relay's work list in its own small table instead of a published_at mark on the outbox.
-- Marking rewrote every published outbox row (a new row version and entries in all five of its
-- indexes), and every pass walked the unpublished index from its start over the entries of rows
-- marked since the last vacuum, so each pass got slower the longer the server ran between vacuums
-- (on a server with autovacuum off, for ever). Now the outbox is written once and never updated;
-- a statement-level trigger lists each new row's pos in outbox_pending, the relay deletes what it
-- publishes (in the same transaction as it reads them, committed after the publish: at least once),
-- and the relay vacuums this small table itself.
CREATE TABLE outbox_pending (
  pos bigint PRIMARY KEY
);
INSERT INTO outbox_pending (pos) SELECT pos FROM outbox WHERE published_at IS NULL;

CREATE FUNCTION outbox_enqueue() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO outbox_pending (pos) SELECT pos FROM new_rows;
  RETURN NULL;
END $$;

CREATE TRIGGER outbox_enqueue AFTER INSERT ON outbox REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION outbox_enqueue();

-- published_at goes with its two indexes; pruning goes by age (outbox_at, migration 003), never
-- taking a row still pending.
ALTER TABLE outbox DROP COLUMN published_at;
