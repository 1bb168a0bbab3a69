-- vendor_money bet + win straight from pgbench: PostgreSQL's own ceiling for the vendor API's work,
-- without HTTP or the gateway (README, "Vendor API"). One script run = one pair (two transactions).
-- Needs a database the vendor bench has filled (players 3..2002 with VBENCH sessions):
--   createdb -h 127.0.0.1 -U postgres vb
--   DATABASE_URL=postgres://postgres@127.0.0.1:5432/vb npm run bench -- --vendor --quick
--   pgbench -h 127.0.0.1 -U postgres -n -M prepared -c 32 -j 2 -T 10 -D lo=3 -D hi=2002 \
--     -f tests/bench/vendor-money.pgbench.sql vb
-- (lo/hi: SELECT min(member_id), max(member_id) FROM game_sessions WHERE vendor = 'VBENCH'.)
-- The bet's game is the session's ('G1': a session is bound to its game), and the win settles that bet's round.
\set mid random(:lo, :hi)
SELECT o_http FROM vendor_money('bet', 'DEMO', 'PHP', '{}'::int[], 'VBENCH', 'b' || :client_id || '-' || random(), :mid, 'r' || :client_id || '-' || :mid, 'G1', 100, NULL, (SELECT token_hash FROM game_sessions WHERE member_id = :mid AND vendor = 'VBENCH' LIMIT 1), 256, '{"USER_NOT_FOUND":{"status":404,"message":"x"},"TRANSACTION_CONFLICT":{"status":409,"message":"x"},"GAME_TOKEN_INVALID":{"status":401,"message":"x"},"INSUFFICIENT_FUNDS":{"status":409,"message":"x"},"ACCOUNT_DISABLED":{"status":403,"message":"x"},"TRIAL_FORBIDDEN":{"status":403,"message":"x"},"BET_ROLLED_BACK":{"status":409,"message":"x"},"BET_NOT_FOUND":{"status":409,"message":"x"},"IDEMPOTENCY_MISMATCH":{"status":409,"message":"x"}}'::jsonb);
SELECT o_http FROM vendor_money('win', 'DEMO', 'PHP', '{}'::int[], 'VBENCH', 'w' || :client_id || '-' || random(), :mid, 'r' || :client_id || '-' || :mid, 'G1', 100, NULL, NULL, 256, '{"USER_NOT_FOUND":{"status":404,"message":"x"},"TRANSACTION_CONFLICT":{"status":409,"message":"x"},"GAME_TOKEN_INVALID":{"status":401,"message":"x"},"INSUFFICIENT_FUNDS":{"status":409,"message":"x"},"ACCOUNT_DISABLED":{"status":403,"message":"x"},"TRIAL_FORBIDDEN":{"status":403,"message":"x"},"BET_ROLLED_BACK":{"status":409,"message":"x"},"BET_NOT_FOUND":{"status":409,"message":"x"},"IDEMPOTENCY_MISMATCH":{"status":409,"message":"x"}}'::jsonb);
