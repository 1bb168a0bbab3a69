-- Points mall (issue 14; spec sections 1, 3, 4, 7). Points are an integer balance per member kept with an
-- append-only points ledger; they never expire. Earned from valid bets (the bet stream) at the merchant's
-- ratio, spent on catalogue rewards (redeemed under the transaction password, decided by an operator) or
-- converted to cash at the merchant's conversion rate.

-- The merchant's rules (a merchant without a row uses the defaults below: getPointConfig shows them).
--   bet_per_point   minor units of valid bet that earn one point (per bet, rounded down)
--   minor_per_point cash, in minor units, one point converts to
--   min_convert     fewest points one conversion takes
CREATE TABLE points_config (
  merchant_code text PRIMARY KEY REFERENCES merchants(code),
  bet_per_point bigint NOT NULL DEFAULT 100 CHECK (bet_per_point BETWEEN 1 AND 100000000),
  minor_per_point int NOT NULL DEFAULT 1 CHECK (minor_per_point BETWEEN 1 AND 1000000),
  min_convert int NOT NULL DEFAULT 100 CHECK (min_convert BETWEEN 1 AND 100000000),
  enabled boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The member's points. owed: points a rolled-back bet should have taken back but had already been spent;
-- they are netted against later earnings (never a negative balance).
CREATE TABLE point_accounts (
  member_id bigint PRIMARY KEY REFERENCES members(id),
  merchant_code text NOT NULL REFERENCES merchants(code),
  balance bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
  owed bigint NOT NULL DEFAULT 0 CHECK (owed >= 0),
  earned bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Every change, once per key (a retry is a replay). points: the gross amount of the change (an earn's
-- points, a clawback's points to take back, minus a redeem's cost); delta: what the balance moved;
-- owed_delta: what the shortfall moved.
CREATE TABLE points_ledger (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  idem_key text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('earn', 'clawback', 'redeem', 'refund', 'convert')),
  points bigint NOT NULL,
  delta bigint NOT NULL,
  owed_delta bigint NOT NULL DEFAULT 0,
  balance_after bigint NOT NULL CHECK (balance_after >= 0),
  ref text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_code, idem_key)
);
CREATE INDEX points_ledger_member ON points_ledger (member_id, id DESC);

-- One change of a member's points, under the account's row lock (one round trip). Credits (earn, refund)
-- add; an earn pays the shortfall first. Debits (redeem, convert) need the balance: SQLSTATE PT001
-- otherwise. A clawback takes what is there and records the rest as owed. The same key again: 'replay'.
CREATE FUNCTION points_post(p_merchant text, p_member bigint, p_key text, p_kind text, p_points bigint, p_ref text,
  OUT o_outcome text, OUT o_balance bigint, OUT o_owed bigint, OUT o_delta bigint)
LANGUAGE plpgsql AS $$
DECLARE
  acc record;
  v_delta bigint := 0;
  v_owed bigint := 0;
BEGIN
  INSERT INTO point_accounts (member_id, merchant_code) VALUES (p_member, p_merchant) ON CONFLICT (member_id) DO NOTHING;
  SELECT * INTO acc FROM point_accounts WHERE member_id = p_member FOR UPDATE;
  IF acc.merchant_code <> p_merchant THEN RAISE EXCEPTION 'points account of member % belongs to another merchant', p_member; END IF;
  IF EXISTS (SELECT 1 FROM points_ledger WHERE merchant_code = p_merchant AND idem_key = p_key) THEN
    o_outcome := 'replay'; o_balance := acc.balance; o_owed := acc.owed; o_delta := 0;
    RETURN;
  END IF;
  IF p_kind = 'earn' THEN
    IF p_points <= 0 THEN RAISE EXCEPTION 'earn needs points > 0'; END IF;
    v_owed := -LEAST(acc.owed, p_points);
    v_delta := p_points + v_owed;
  ELSIF p_kind = 'refund' THEN
    IF p_points <= 0 THEN RAISE EXCEPTION 'refund needs points > 0'; END IF;
    v_delta := p_points;
  ELSIF p_kind = 'clawback' THEN
    IF p_points >= 0 THEN RAISE EXCEPTION 'clawback needs points < 0'; END IF;
    v_delta := -LEAST(acc.balance, -p_points);
    v_owed := -p_points + v_delta;
  ELSIF p_kind IN ('redeem', 'convert') THEN
    IF p_points >= 0 THEN RAISE EXCEPTION '% needs points < 0', p_kind; END IF;
    IF acc.balance < -p_points THEN RAISE EXCEPTION 'not enough points' USING ERRCODE = 'PT001'; END IF;
    v_delta := p_points;
  ELSE
    RAISE EXCEPTION 'unknown points kind %', p_kind;
  END IF;
  UPDATE point_accounts SET balance = balance + v_delta, owed = owed + v_owed,
      earned = earned + CASE WHEN p_kind = 'earn' THEN p_points WHEN p_kind = 'clawback' THEN p_points ELSE 0 END, updated_at = now()
    WHERE member_id = p_member RETURNING balance, owed INTO o_balance, o_owed;
  INSERT INTO points_ledger (merchant_code, member_id, idem_key, kind, points, delta, owed_delta, balance_after, ref)
    VALUES (p_merchant, p_member, p_key, p_kind, p_points, v_delta, v_owed, o_balance, p_ref);
  o_outcome := 'ok';
  o_delta := v_delta;
END $$;

-- The points of a bet-stream batch in ONE round trip, in stream order: an earn posts its points (key
-- earn:<vendor>:<transaction>); a rollback takes back exactly what its bet's earn gave (key
-- clawback:<vendor>:<transaction>), nothing when it earned nothing. One row per change made or replayed.
CREATE FUNCTION points_apply_facts(p_merchants text[], p_members bigint[], p_kinds text[], p_vendors text[], p_txs text[], p_points bigint[],
  OUT o_member bigint, OUT o_merchant text, OUT o_kind text, OUT o_outcome text, OUT o_balance bigint, OUT o_owed bigint, OUT o_delta bigint)
RETURNS SETOF record
LANGUAGE plpgsql AS $$
DECLARE
  i int;
  v_points bigint;
  r record;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_members, 1), 0) LOOP
    IF p_kinds[i] = 'earn' THEN
      SELECT * INTO r FROM points_post(p_merchants[i], p_members[i], 'earn:' || p_vendors[i] || ':' || p_txs[i], 'earn', p_points[i], p_txs[i]);
    ELSE
      SELECT l.points INTO v_points FROM points_ledger l WHERE l.merchant_code = p_merchants[i] AND l.idem_key = 'earn:' || p_vendors[i] || ':' || p_txs[i];
      CONTINUE WHEN v_points IS NULL;
      SELECT * INTO r FROM points_post(p_merchants[i], p_members[i], 'clawback:' || p_vendors[i] || ':' || p_txs[i], 'clawback', -v_points, p_txs[i]);
    END IF;
    o_member := p_members[i]; o_merchant := p_merchants[i]; o_kind := p_kinds[i];
    o_outcome := r.o_outcome; o_balance := r.o_balance; o_owed := r.o_owed; o_delta := r.o_delta;
    RETURN NEXT;
  END LOOP;
END $$;

-- The rewards catalogue. amount: the cash (minor units) an approved redeem pays to the wallet; 0 for a
-- non-cash item described by its remark. stock: what is left to redeem.
CREATE TABLE point_rewards (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  title jsonb NOT NULL,
  remark jsonb NOT NULL,
  points_required bigint NOT NULL CHECK (points_required > 0),
  amount bigint NOT NULL DEFAULT 0 CHECK (amount >= 0),
  stock int NOT NULL CHECK (stock >= 0),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  sort int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX point_rewards_merchant ON point_rewards (merchant_code, sort, id);

-- Redeems (spec section 4): processing -> approved | rejected, once.
CREATE TABLE point_redemptions (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  reward_id bigint NOT NULL REFERENCES point_rewards(id),
  request_id text NOT NULL,
  quantity int NOT NULL CHECK (quantity > 0),
  points bigint NOT NULL CHECK (points > 0),
  amount bigint NOT NULL CHECK (amount >= 0),
  status text NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'approved', 'rejected')),
  decided_by text,
  reason text CHECK (char_length(reason) <= 140),
  transfer_id bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  UNIQUE (member_id, request_id)
);
CREATE INDEX point_redemptions_member ON point_redemptions (member_id, id DESC);
CREATE INDEX point_redemptions_processing ON point_redemptions (merchant_code, id) WHERE status = 'processing';

-- Conversions to cash: points -> wallet, one ledger transfer each.
CREATE TABLE point_conversions (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  request_id text NOT NULL,
  points bigint NOT NULL CHECK (points > 0),
  amount bigint NOT NULL CHECK (amount > 0),
  transfer_id bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (member_id, request_id)
);
