-- Bet stream (issue 14): every accepted bet, every paid win and every rolled-back bet, for the modules
-- that follow play (bonus wagering, points, missions, leaderboards, rebates). One row per fact in
-- bet_stream_pending, written by a trigger on vendor_transactions inside the transaction of the vendor
-- call (a fact exists if and only if the call committed; house games go through the same wallet), and
-- deleted by the drain (gateway/src/modules/engagement/bet-stream.ts) in the same transaction as the
-- consumers' effects: each fact is consumed exactly once, whatever node drains it and across restarts.
-- One node drains at a time (advisory transaction lock), in id order: a bet always commits before its
-- rollback starts, so a bet is always consumed before (or in the same batch as) its rollback.
-- A win of 0 is not a fact (vendors close every losing round with one).
CREATE TABLE bet_stream_pending (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL,
  vendor text NOT NULL,
  transaction_id text NOT NULL,
  fact text NOT NULL CHECK (fact IN ('bet', 'win', 'bet_rolled_back')),
  at timestamptz NOT NULL DEFAULT now()
);

-- A fact a consumer failed on by itself (after its batch failed and it was retried alone): kept here
-- with the error for an operator or developer, instead of blocking every later fact.
CREATE TABLE bet_stream_parked (
  id bigint PRIMARY KEY,
  merchant_code text NOT NULL,
  vendor text NOT NULL,
  transaction_id text NOT NULL,
  fact text NOT NULL,
  at timestamptz NOT NULL,
  error text NOT NULL,
  parked_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION bet_stream_capture() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status = 'applied' AND (NEW.kind = 'bet' OR (NEW.kind = 'win' AND NEW.amount > 0)) THEN
      INSERT INTO bet_stream_pending (merchant_code, vendor, transaction_id, fact)
      VALUES (NEW.merchant_code, NEW.vendor, NEW.transaction_id, NEW.kind);
    END IF;
  ELSIF OLD.status = 'applied' AND NEW.status = 'rolled_back' AND NEW.kind = 'bet' THEN
    INSERT INTO bet_stream_pending (merchant_code, vendor, transaction_id, fact)
    VALUES (NEW.merchant_code, NEW.vendor, NEW.transaction_id, 'bet_rolled_back');
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER vendor_transactions_bet_stream AFTER INSERT OR UPDATE OF status ON vendor_transactions
  FOR EACH ROW EXECUTE FUNCTION bet_stream_capture();
