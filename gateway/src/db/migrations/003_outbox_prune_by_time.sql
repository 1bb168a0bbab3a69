-- The relay marks published rows; an index on published_at made every mark a second index write.
-- Pruning goes by the event time instead.
DROP INDEX IF EXISTS outbox_published_at;
CREATE INDEX outbox_at ON outbox (at);
