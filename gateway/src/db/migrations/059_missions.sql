-- Missions and leaderboard (issue 14; spec sections 2, 7: MCSFE_getMissionSummaryDetails, getMissionLeaderboard).
--
-- A mission belongs to a merchant and runs per period of the merchant's calendar (its brand's UTC offset):
-- daily (period key = the local day, 'YYYY-MM-DD') or weekly (key = 'W' and the local Monday, 'WYYYY-MM-DD').
-- kind decides what moves progress:
--   valid_bet   amount of valid bets (minor units)    bet_count  number of bets
--   game_bet    amount of valid bets on game_type      deposit    amount of paid deposits (minor units)
--   login_days  days the player signed in (a new session on a new local day)
CREATE TABLE missions (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  period text NOT NULL CHECK (period IN ('daily', 'weekly')),
  kind text NOT NULL CHECK (kind IN ('valid_bet', 'bet_count', 'game_bet', 'deposit', 'login_days')),
  game_type text CHECK (game_type ~ '^[A-Z]{2,12}$'),
  target bigint NOT NULL CHECK (target > 0),
  reward_amount bigint NOT NULL CHECK (reward_amount > 0),
  title jsonb NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  sort int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'game_bet') = (game_type IS NOT NULL))
);
CREATE INDEX missions_merchant ON missions (merchant_code, sort, id) WHERE enabled;

-- A member's progress on a mission in one period. completed_at: when progress reached the target (cleared
-- again when a rollback takes it back below, unless claimed); claimed_at: the reward was paid (once: the
-- claim locks this row and the ledger key is this row's).
CREATE TABLE mission_progress (
  id bigserial PRIMARY KEY,
  mission_id bigint NOT NULL REFERENCES missions(id),
  member_id bigint NOT NULL REFERENCES members(id),
  merchant_code text NOT NULL,
  period_key text NOT NULL,
  progress bigint NOT NULL DEFAULT 0 CHECK (progress >= 0),
  completed_at timestamptz,
  claimed_at timestamptz,
  reward_paid bigint,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (mission_id, member_id, period_key)
);
CREATE INDEX mission_progress_member ON mission_progress (member_id, period_key);
CREATE INDEX mission_progress_unclaimed ON mission_progress (member_id) WHERE completed_at IS NOT NULL AND claimed_at IS NULL;

-- What each bet gave (to missions: { missionProgressId: amount }, and to the leaderboard), so that its
-- rollback takes exactly that back.
CREATE TABLE mission_bet_credits (
  merchant_code text NOT NULL,
  vendor text NOT NULL,
  transaction_id text NOT NULL,
  member_id bigint NOT NULL,
  given jsonb NOT NULL DEFAULT '{}',
  leaderboard bigint NOT NULL DEFAULT 0,
  daily_key text NOT NULL,
  weekly_key text NOT NULL,
  PRIMARY KEY (merchant_code, vendor, transaction_id)
);

-- Days a member signed in (merchant calendar): the first session of a day moves login_days missions.
CREATE TABLE mission_login_days (
  member_id bigint NOT NULL REFERENCES members(id),
  day text NOT NULL,
  PRIMARY KEY (member_id, day)
);

-- Leaderboard: valid bets per member and period, with the time the total was reached (ties: earlier first).
-- The index serves the top N of a period and a member's rank without scanning bets.
CREATE TABLE leaderboard_totals (
  merchant_code text NOT NULL REFERENCES merchants(code),
  period text NOT NULL CHECK (period IN ('daily', 'weekly')),
  period_key text NOT NULL,
  member_id bigint NOT NULL REFERENCES members(id),
  total bigint NOT NULL CHECK (total >= 0),
  reached_at timestamptz NOT NULL,
  PRIMARY KEY (merchant_code, period, period_key, member_id)
);
CREATE INDEX leaderboard_totals_top ON leaderboard_totals (merchant_code, period, period_key, total DESC, reached_at, member_id);
