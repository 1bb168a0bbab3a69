-- The last live count (envelope.left) sent for an envelope, and when: the count job sends it once the
-- grabs have calmed, during a long storm at most every few seconds (counted from left_sent_at, or from
-- the drop, whose event carries the count), and never the same count twice in a row.
-- See red-envelopes-service.ts, leftJob.
ALTER TABLE red_envelopes ADD COLUMN left_sent_at timestamptz, ADD COLUMN left_sent int;
