-- The outbox's unique index on the envelope id goes. Ids are random UUIDs (gen_random_uuid() or
-- randomUUID()), so each event's entry landed on a random leaf of an index as large as the outbox:
-- one more index write per event, touching a page that is seldom in cache once the outbox is large.
-- Nothing looks events up by id: the relay goes by pos, catch-up by (audience, seq) (still unique),
-- and clients drop what they have by seq.
ALTER TABLE outbox DROP CONSTRAINT outbox_id_key;
