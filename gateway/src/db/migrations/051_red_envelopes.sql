-- Red envelopes (issue 14).
-- 1. The escrow: a system account kind 'envelope' between the house and the players. The kind list
--    is widened from whatever it is now (other features add kinds too), so the order of migrations
--    does not matter.
DO $$
DECLARE
  c record;
BEGIN
  FOR c IN SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
           WHERE conrelid = 'ledger_accounts'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%''house''%' LOOP
    IF position('''envelope''' IN c.def) = 0 THEN
      EXECUTE format('ALTER TABLE ledger_accounts DROP CONSTRAINT %I', c.conname);
      EXECUTE format('ALTER TABLE ledger_accounts ADD CONSTRAINT %I %s', c.conname,
                     replace(c.def, '''house''::text', '''house''::text, ''envelope''::text'));
    END IF;
  END LOOP;
END $$;

-- 2. Envelopes. audience_kind: all (every player of the merchant), depositors (a paid deposit in the
--    last audience_days days when dropped), accounts (a list). A segment's members are fixed at the
--    drop in red_envelope_targets. status: open until the expiry job returns what is left (expired).
CREATE TABLE red_envelopes (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  currency text NOT NULL,
  request_id text NOT NULL,
  total_amount bigint NOT NULL CHECK (total_amount > 0),
  share_count int NOT NULL CHECK (share_count > 0),
  min_share bigint NOT NULL CHECK (min_share > 0),
  audience_kind text NOT NULL CHECK (audience_kind IN ('all', 'depositors', 'accounts')),
  audience_days int,
  target_count int,
  message_en text,
  message_ty text,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'expired')),
  refunded_amount bigint,
  fund_transfer_id bigint NOT NULL,
  refund_transfer_id bigint,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  UNIQUE (merchant_code, request_id),
  CHECK (share_count * min_share <= total_amount)
);
CREATE INDEX red_envelopes_open ON red_envelopes (merchant_code, expires_at) WHERE status = 'open';
CREATE INDEX red_envelopes_merchant ON red_envelopes (merchant_code, id DESC);

-- 3. The shares, split when the envelope drops: a grab claims one unclaimed row (SKIP LOCKED), so
--    thousands of simultaneous grabs take distinct rows without waiting on one another. One share per
--    member per envelope by the unique index. refunded_at: returned to the house at expiry.
CREATE TABLE red_envelope_shares (
  envelope_id bigint NOT NULL REFERENCES red_envelopes(id),
  idx int NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  member_id bigint REFERENCES members(id),
  claimed_at timestamptz,
  refunded_at timestamptz,
  PRIMARY KEY (envelope_id, idx),
  CHECK ((member_id IS NULL) = (claimed_at IS NULL)),
  CHECK (member_id IS NULL OR refunded_at IS NULL)
);
CREATE UNIQUE INDEX red_envelope_shares_member ON red_envelope_shares (envelope_id, member_id) WHERE member_id IS NOT NULL;
CREATE INDEX red_envelope_shares_free ON red_envelope_shares (envelope_id, idx) WHERE member_id IS NULL AND refunded_at IS NULL;
CREATE INDEX red_envelope_shares_history ON red_envelope_shares (member_id, claimed_at DESC) WHERE member_id IS NOT NULL;

-- 4. A segment's players, fixed at the drop.
CREATE TABLE red_envelope_targets (
  envelope_id bigint NOT NULL REFERENCES red_envelopes(id),
  member_id bigint NOT NULL REFERENCES members(id),
  PRIMARY KEY (envelope_id, member_id)
);
CREATE INDEX red_envelope_targets_member ON red_envelope_targets (member_id);
