-- vendor_transactions_round led with (merchant_code, vendor), the primary key's own prefix: with
-- table statistics from when the table was small (no analyze since, e.g. autovacuum off), a cached
-- generic plan for the lookup by transaction id picked it and walked every row of the vendor,
-- slower with every call. Led by round_id it serves only lookups by round.
DROP INDEX vendor_transactions_round;
CREATE INDEX vendor_transactions_round ON vendor_transactions (round_id, vendor, merchant_code);
