-- Every vendor money call (bet, win, rollback) in one statement, hence one round trip and one commit,
-- with the vendor request's id on its events (issue 14: wagering and mission progress kept up with
-- 1,000 bets/s over the vendor API). A bet used to be five round trips in an explicit transaction:
-- BEGIN with "is this transaction id known", the member's exclusion, the member's wager and loss limits
-- (locked), vendor_money, COMMIT. On loopback each round trip's socket write was the largest part of
-- the gateway's CPU per bet (a profile of the wagering bench: writev 24% of the process).
--
-- vendor_call makes the same decisions in the same order, inside the statement's own transaction:
--   * a transaction id already recorded replays through vendor_money, without a new check (as before);
--   * a member with an exclusion in force, or with a wager or loss limit set, is NOT handled here:
--     o_http 0 and nothing written, and the gateway runs the full check in an explicit transaction
--     (checkMoney: the limit rows locked FOR UPDATE, the period's amounts summed, RG_EXCLUDED or
--     RG_LIMIT_REACHED with its details) exactly as before;
--   * otherwise vendor_money('bet', ...), as the transaction's only write.
-- A member without limit rows had nothing to lock before either, so concurrent bets of such a member
-- are exactly as serialized as they were (by vendor_money's own locks on the balance).
-- A win or a rollback has no responsible-gaming check: vendor_call runs vendor_money for it at once
-- (it was one statement before too).
-- p_rid: the vendor request's id (X-Request-Id), recorded for the outbox rows of this transaction
-- (migration 034) as db.tx does with BEGIN: the balance.changed a vendor call causes carries it.

CREATE OR REPLACE FUNCTION vendor_call(p_rid text, p_call text, p_merchant text, p_currency text, p_trial_types int[], p_vendor text,
  p_tx text, p_member bigint, p_round text, p_game text, p_amount bigint, p_ref text, p_token bytea,
  p_shards int, p_errors jsonb,
  OUT o_http int, OUT o_response jsonb, OUT o_events int)
LANGUAGE plpgsql AS $$
BEGIN
  IF p_call = 'bet'
     AND NOT EXISTS (SELECT 1 FROM vendor_transactions WHERE merchant_code = p_merchant AND vendor = p_vendor AND transaction_id = p_tx)
     AND (
       EXISTS (SELECT 1 FROM rg_exclusions
                WHERE member_id = p_member AND ended_at IS NULL AND starts_at <= now() AND (ends_at IS NULL OR ends_at > now()))
       OR EXISTS (SELECT 1 FROM rg_limits WHERE member_id = p_member AND kind IN ('wager', 'loss') AND amount IS NOT NULL)
     ) THEN
    o_http := 0;
    o_events := 0;
    RETURN;
  END IF;
  IF p_rid IS NOT NULL THEN
    PERFORM set_config('portal.request_id', p_rid, true);
  END IF;
  SELECT m.o_http, m.o_response, m.o_events INTO o_http, o_response, o_events
    FROM vendor_money(p_call, p_merchant, p_currency, p_trial_types, p_vendor, p_tx, p_member, p_round, p_game, p_amount, p_ref,
                      p_token, p_shards, p_errors) m;
END $$;
