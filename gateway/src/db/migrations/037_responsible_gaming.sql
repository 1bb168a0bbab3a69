-- Responsible gaming (issue 13, player protection).
-- 1. The audit trail also records events a player or the system starts (limits, exclusions): no operator
--    then (operator_id NULL); operator_username names the actor ('member:<account>' or 'system').
ALTER TABLE audit_log ALTER COLUMN operator_id DROP NOT NULL;

-- 2. Limits: one row per member, kind and period. amount: what applies now (NULL: no limit).
--    A decrease applies at once. An increase (or a removal: pending_remove) waits in pending_* until
--    pending_from (24 hours after the request) and then needs the player's confirmation.
CREATE TABLE rg_limits (
  member_id bigint NOT NULL REFERENCES members(id),
  kind text NOT NULL CHECK (kind IN ('deposit', 'loss', 'wager')),
  period text NOT NULL CHECK (period IN ('day', 'week', 'month')),
  amount bigint CHECK (amount IS NULL OR amount > 0),
  pending_amount bigint CHECK (pending_amount IS NULL OR pending_amount > 0),
  pending_remove boolean NOT NULL DEFAULT false,
  pending_from timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, kind, period)
);

-- 3. Exclusions. kind: self (6 months, 1 or 5 years), cooling (24 h, 7 or 30 days), family (decided by
--    an operator), operator. ends_at NULL: until an operator lifts it. revocable_from: before it, the
--    player cannot end it (self: the first 6 months; cooling: never before its end).
CREATE TABLE rg_exclusions (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  kind text NOT NULL CHECK (kind IN ('self', 'cooling', 'family', 'operator')),
  starts_at timestamptz NOT NULL DEFAULT now(),
  ends_at timestamptz,
  revocable_from timestamptz,
  ended_at timestamptz,
  ended_by text,
  initiated_by text NOT NULL,
  reason text,
  CHECK (ends_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX rg_exclusions_member ON rg_exclusions (member_id) WHERE ended_at IS NULL;
CREATE INDEX rg_exclusions_due ON rg_exclusions (ends_at) WHERE ended_at IS NULL;

-- 4. Reality checks and session time limits: the player's choices (NULL: off).
CREATE TABLE rg_session_settings (
  member_id bigint PRIMARY KEY REFERENCES members(id),
  reality_check_minutes int CHECK (reality_check_minutes IS NULL OR reality_check_minutes BETWEEN 5 AND 240),
  session_limit_minutes int CHECK (session_limit_minutes IS NULL OR session_limit_minutes BETWEEN 15 AND 1440)
);
