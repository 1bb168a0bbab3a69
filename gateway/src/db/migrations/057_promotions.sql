-- Promotions, bonuses with wagering, rebates and raffles (issue 14).
--
-- Member bonus accounts. Bonus money is kept apart from withdrawable money in a ledger account of
-- kind 'bonus' held for one member. It is NOT given member_id: member_id identifies the member's
-- withdrawable wallet everywhere (the unique index ledger_accounts_member that ledger_member_account's
-- ON CONFLICT relies on, and the balance sub-queries of the vendor functions, which would fail on two
-- rows), so the holder is named by bonus_member_id and the row uses the negative shard -member (system
-- accounts use shards 0..N-1), which keeps it unique under ledger_accounts_system without changing it.
-- The CHECK ((kind = 'member') = (member_id IS NOT NULL)) therefore stays as it is.
ALTER TABLE ledger_accounts ADD COLUMN bonus_member_id bigint REFERENCES members(id);
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_bonus_holder
  CHECK (bonus_member_id IS NULL OR (kind = 'bonus' AND member_id IS NULL AND shard = -bonus_member_id AND NOT allow_negative));

-- The member's bonus account (created on first use).
CREATE FUNCTION promo_bonus_account(p_merchant text, p_member bigint, p_currency text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  SELECT id INTO v_id FROM ledger_accounts WHERE merchant_code = p_merchant AND kind = 'bonus' AND currency = p_currency AND shard = -p_member AND member_id IS NULL;
  IF FOUND THEN RETURN v_id; END IF;
  INSERT INTO ledger_accounts (merchant_code, kind, currency, shard, allow_negative, bonus_member_id)
    VALUES (p_merchant, 'bonus', p_currency, -p_member, false, p_member)
    ON CONFLICT (merchant_code, kind, currency, shard) WHERE member_id IS NULL DO NOTHING RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    SELECT id INTO v_id FROM ledger_accounts WHERE merchant_code = p_merchant AND kind = 'bonus' AND currency = p_currency AND shard = -p_member AND member_id IS NULL;
  END IF;
  RETURN v_id;
END $$;

-- A posted transfer between two accounts given by id (a bonus account is neither a member wallet nor a
-- shared system row, so ledger_transfer cannot name it). Same rules as ledger_transfer: the transfer row
-- first (unique key: a retry is a replay, other terms a mismatch), both legs via ledger_post_legs
-- (lock order, entries, balance.changed for a member wallet leg).
CREATE FUNCTION promo_transfer(p_merchant text, p_currency text, p_key text, p_kind text,
  p_debit bigint, p_credit bigint, p_amount bigint, p_memo jsonb,
  OUT o_outcome text, OUT o_transfer bigint, OUT o_events int)
LANGUAGE plpgsql AS $$
DECLARE
  v_hash text := translate(rtrim(encode(sha256(convert_to(concat_ws('|', p_kind, 'a' || p_debit, 'a' || p_credit,
    p_amount::text, p_currency, 'post'), 'UTF8')), 'base64'), '='), '+/', '-_');
  prior record;
BEGIN
  o_events := 0;
  INSERT INTO ledger_transfers (merchant_code, idempotency_key, request_hash, kind, debit_account_id, credit_account_id, amount, status, memo)
    VALUES (p_merchant, p_key, v_hash, p_kind, p_debit, p_credit, p_amount, 'posted', p_memo)
    ON CONFLICT (merchant_code, idempotency_key) DO NOTHING
    RETURNING id INTO o_transfer;
  IF o_transfer IS NULL THEN
    SELECT id, request_hash INTO prior FROM ledger_transfers WHERE merchant_code = p_merchant AND idempotency_key = p_key;
    o_transfer := prior.id;
    o_outcome := CASE WHEN prior.request_hash = v_hash THEN 'replay' ELSE 'mismatch' END;
    RETURN;
  END IF;
  o_outcome := 'ok';
  o_events := ledger_post_legs(p_merchant, p_currency, p_kind, o_transfer, p_debit, p_credit, p_amount, false);
END $$;

-- Promotions and activities, authored by operators per language (title and rules in EN and TY).
-- kind decides the rule that moves a player's status:
--   signup        join only (the player signs up; later rules may refer to it)
--   request       join (when requires_join), then a reward request with a remark; an operator approves or rejects
--   first_deposit the first paid deposit after joining (or at all, without requires_join) grants a bonus
--   daily_signin  one sign-in per day (merchant's calendar) credits the reward
--   rebate        a job settles valid bets per period by game type into claimable rebates
--   raffle        entries until draw_at; a verifiable draw picks winners who claim their prize
CREATE TABLE promotions (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  category text NOT NULL CHECK (category IN ('newbie', 'limited', 'special', 'daily', 'high_rebate', 'vip')),
  kind text NOT NULL CHECK (kind IN ('signup', 'request', 'first_deposit', 'daily_signin', 'rebate', 'raffle')),
  title jsonb NOT NULL,
  rules jsonb NOT NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz,
  enabled boolean NOT NULL DEFAULT true,
  requires_join boolean NOT NULL DEFAULT true,
  -- A fixed reward (minor units), or a share of the deposit in basis points up to reward_cap.
  reward_amount bigint NOT NULL DEFAULT 0 CHECK (reward_amount >= 0),
  reward_bps int NOT NULL DEFAULT 0 CHECK (reward_bps BETWEEN 0 AND 100000),
  reward_cap bigint CHECK (reward_cap > 0),
  min_deposit bigint NOT NULL DEFAULT 0 CHECK (min_deposit >= 0),
  -- Wagering requirement of a bonus: multiple of the bonus plus multiple of the deposit (0 and 0: paid as cash).
  wagering_bonus_x int NOT NULL DEFAULT 0 CHECK (wagering_bonus_x BETWEEN 0 AND 100),
  wagering_deposit_x int NOT NULL DEFAULT 0 CHECK (wagering_deposit_x BETWEEN 0 AND 100),
  -- Per game type: percent of a bet that counts towards wagering (missing type: 100).
  weights jsonb NOT NULL DEFAULT '{}',
  -- Rebate per game type in basis points (rebate kind).
  rebate_bps jsonb NOT NULL DEFAULT '{}',
  -- Days a bonus has to meet its wagering before it is forfeited.
  bonus_days int NOT NULL DEFAULT 7 CHECK (bonus_days BETWEEN 1 AND 365),
  -- Raffle: draw time, number of winners, commitment (sha256 hex of the seed) and the seed, revealed after the draw.
  draw_at timestamptz,
  winners int CHECK (winners BETWEEN 1 AND 1000),
  seed_hash text,
  seed text,
  drawn_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (kind <> 'raffle' OR (draw_at IS NOT NULL AND winners IS NOT NULL AND seed_hash IS NOT NULL))
);
CREATE INDEX promotions_merchant ON promotions (merchant_code, starts_at DESC);

-- Sign-ups (join), raffle entries and daily sign-ins (period_key = the day; '' otherwise).
CREATE TABLE promotion_joins (
  id bigserial PRIMARY KEY,
  promotion_id bigint NOT NULL REFERENCES promotions(id),
  member_id bigint NOT NULL REFERENCES members(id),
  period_key text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (promotion_id, member_id, period_key)
);
CREATE INDEX promotion_joins_member ON promotion_joins (member_id);

-- Rewards of a player: one per promotion, member and period (a second one is refused by this key).
--   applying   a request waits for an operator      rejected   the operator refused it
--   claimable  waits for the player to claim it     processing a bonus under wagering
--   completed  paid out (claimed_at set when the player claimed it)   forfeited  bonus expired
CREATE TABLE promotion_rewards (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  promotion_id bigint NOT NULL REFERENCES promotions(id),
  member_id bigint NOT NULL REFERENCES members(id),
  period_key text NOT NULL DEFAULT '',
  status text NOT NULL CHECK (status IN ('applying', 'rejected', 'claimable', 'processing', 'completed', 'forfeited')),
  amount bigint NOT NULL DEFAULT 0 CHECK (amount >= 0),
  -- The deposit a first-deposit bonus came from (its wagering may count it).
  deposit_amount bigint NOT NULL DEFAULT 0,
  remark text CHECK (char_length(remark) <= 140),
  decided_by text,
  decision_reason text CHECK (char_length(decision_reason) <= 140),
  -- Wagering of a bonus (processing/completed/forfeited): what is required, what was counted, the weights used.
  wager_required bigint NOT NULL DEFAULT 0,
  wager_progress bigint NOT NULL DEFAULT 0,
  weights jsonb NOT NULL DEFAULT '{}',
  expires_at timestamptz,
  claimed_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (promotion_id, member_id, period_key)
);
CREATE INDEX promotion_rewards_member ON promotion_rewards (member_id, id DESC);
CREATE INDEX promotion_rewards_processing ON promotion_rewards (member_id, id) WHERE status = 'processing';
CREATE INDEX promotion_rewards_applying ON promotion_rewards (merchant_code, id) WHERE status = 'applying';

-- What each bet gave to a bonus's wagering, so a rolled-back bet gives exactly that back.
CREATE TABLE promotion_wagers (
  reward_id bigint NOT NULL REFERENCES promotion_rewards(id),
  vendor text NOT NULL,
  transaction_id text NOT NULL,
  merchant_code text NOT NULL,
  contributed bigint NOT NULL,
  PRIMARY KEY (merchant_code, vendor, transaction_id)
);
CREATE INDEX promotion_wagers_reward ON promotion_wagers (reward_id);

-- Raffle winners, in draw order (position), kept with the draw for verification.
CREATE TABLE promotion_raffle_winners (
  promotion_id bigint NOT NULL REFERENCES promotions(id),
  position int NOT NULL,
  member_id bigint NOT NULL REFERENCES members(id),
  PRIMARY KEY (promotion_id, position)
);
