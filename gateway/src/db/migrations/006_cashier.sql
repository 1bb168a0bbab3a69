-- Cashier: deposits (payment channels, provider orders, callbacks), withdrawals (bank accounts, holds,
-- confirmation with proof), member-to-member transfers, and the operator back office (operators,
-- their sessions, an append-only audit trail). Money is integer minor units (bigint).

-- Per-merchant cashier settings; a merchant without a row uses the defaults in code.
CREATE TABLE cashier_settings (
  merchant_code text PRIMARY KEY REFERENCES merchants(code),
  deposit_min bigint NOT NULL CHECK (deposit_min > 0),
  deposit_max bigint NOT NULL,
  withdraw_min bigint NOT NULL CHECK (withdraw_min > 0),
  withdraw_max bigint NOT NULL,
  withdraw_daily_max bigint NOT NULL,
  auto_receive_minutes int NOT NULL CHECK (auto_receive_minutes BETWEEN 1 AND 10080),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (deposit_max >= deposit_min),
  CHECK (withdraw_max >= withdraw_min),
  CHECK (withdraw_daily_max >= withdraw_max)
);

-- Payment channels per merchant: provider 'sim' (the built-in simulator) or 'manual' (bank deposit confirmed by an operator).
CREATE TABLE payment_channels (
  merchant_code text NOT NULL REFERENCES merchants(code),
  code text NOT NULL CHECK (code ~ '^[A-Z0-9_]{2,32}$'),
  kind text NOT NULL CHECK (kind IN ('gcash', 'maya', 'instapay', 'manual_bank')),
  provider text NOT NULL CHECK (provider IN ('sim', 'manual')),
  name text NOT NULL,
  min_amount bigint NOT NULL CHECK (min_amount > 0),
  max_amount bigint NOT NULL,
  -- For manual bank deposits: where the player sends the money.
  details jsonb NOT NULL DEFAULT '{}',
  active boolean NOT NULL DEFAULT true,
  sort int NOT NULL DEFAULT 0,
  PRIMARY KEY (merchant_code, code),
  CHECK (max_amount >= min_amount)
);

-- A deposit order. States: pending -> paid | failed | rejected; failed -> paid (a provider's late
-- success of the same order). paid and rejected are final. See deposit-states in contracts.
CREATE TABLE deposits (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  channel_code text NOT NULL,
  provider text NOT NULL,
  -- The order id the provider knows (the simulator's order id; for manual deposits our own reference).
  provider_order_id text NOT NULL,
  -- Our own order reference, shown to the player and sent to the provider.
  reference text NOT NULL UNIQUE,
  pay_url text,
  request_id text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'failed', 'rejected')),
  -- The player's own reference of a manual bank transfer.
  payer_reference text,
  failure_reason text,
  transfer_id bigint REFERENCES ledger_transfers(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_order_id),
  CHECK ((status = 'paid') = (transfer_id IS NOT NULL))
);
CREATE UNIQUE INDEX deposits_request ON deposits (member_id, request_id);
CREATE INDEX deposits_member ON deposits (member_id, id DESC);
CREATE INDEX deposits_queue ON deposits (merchant_code, status, id) WHERE status = 'pending';

-- Every provider callback, valid or not, for reconciliation and forensics.
CREATE TABLE payment_callbacks (
  id bigserial PRIMARY KEY,
  provider text NOT NULL,
  provider_order_id text,
  valid boolean NOT NULL,
  outcome text NOT NULL,
  raw_body text NOT NULL,
  ip text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_callbacks_order ON payment_callbacks (provider, provider_order_id);

-- The payment simulator's own book (it plays the provider: it knows its orders, not our deposits).
CREATE TABLE payment_sim_orders (
  id text PRIMARY KEY,
  merchant_order_id text NOT NULL,
  amount bigint NOT NULL,
  currency text NOT NULL,
  channel text NOT NULL,
  notify_url text NOT NULL,
  return_url text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'failed')),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Bank accounts a member withdraws to (a few per member; removal keeps the row for history).
CREATE TABLE member_bank_accounts (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  bank_name text NOT NULL,
  account_name text NOT NULL,
  account_number text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  removed_at timestamptz
);
CREATE UNIQUE INDEX member_bank_accounts_unique ON member_bank_accounts (member_id, bank_name, account_number) WHERE removed_at IS NULL;

-- A withdrawal. Its hold (a pending ledger transfer) is taken when requested, voided when rejected,
-- posted when paid. Legal transitions live in contracts (WITHDRAWAL_TRANSITIONS) and every
-- UPDATE is guarded by the expected current status.
CREATE TABLE withdrawals (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  request_id text NOT NULL,
  bank_account_id bigint NOT NULL REFERENCES member_bank_accounts(id),
  bank_name text NOT NULL,
  account_name text NOT NULL,
  account_number text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  status text NOT NULL DEFAULT 'requested' CHECK (status IN
    ('requested', 'approved', 'rejected', 'paid', 'received', 'partially_received', 'not_received', 'auto_received', 'held')),
  hold_id bigint NOT NULL REFERENCES ledger_transfers(id),
  received_amount bigint CHECK (received_amount >= 0),
  reason text,
  payout_reference text,
  paid_at timestamptz,
  auto_receive_at timestamptz,
  confirmed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (member_id, request_id),
  CHECK ((status IN ('paid', 'received', 'partially_received', 'not_received', 'auto_received')) = (paid_at IS NOT NULL AND auto_receive_at IS NOT NULL)),
  CHECK ((status IN ('received', 'partially_received', 'not_received', 'auto_received')) = (confirmed_at IS NOT NULL)),
  CHECK (received_amount IS NULL OR received_amount <= amount)
);
CREATE INDEX withdrawals_member ON withdrawals (member_id, id DESC);
CREATE INDEX withdrawals_queue ON withdrawals (merchant_code, status, id);
CREATE INDEX withdrawals_due ON withdrawals (auto_receive_at) WHERE status = 'paid';
CREATE UNIQUE INDEX withdrawals_hold ON withdrawals (hold_id);

-- Proof images of a withdrawal confirmation (png or jpeg, checked by magic bytes).
CREATE TABLE withdrawal_proofs (
  id bigserial PRIMARY KEY,
  withdrawal_id bigint NOT NULL REFERENCES withdrawals(id),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  size int NOT NULL CHECK (size > 0 AND size <= 5242880),
  data bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX withdrawal_proofs_withdrawal ON withdrawal_proofs (withdrawal_id, id);

-- Member-to-member transfers (to the direct upline, or from an agent to a member of its tree).
CREATE TABLE member_transfers (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  direction text NOT NULL CHECK (direction IN ('upline', 'downline')),
  from_member_id bigint NOT NULL REFERENCES members(id),
  to_member_id bigint NOT NULL REFERENCES members(id),
  amount bigint NOT NULL CHECK (amount > 0),
  request_id text NOT NULL,
  transfer_id bigint NOT NULL REFERENCES ledger_transfers(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (from_member_id, request_id)
);
CREATE INDEX member_transfers_to ON member_transfers (to_member_id, id DESC);
CREATE UNIQUE INDEX member_transfers_transfer ON member_transfers (transfer_id);

-- Operators of the back office: not members, their own credentials and sessions.
CREATE TABLE operators (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  username text NOT NULL CHECK (username ~ '^[a-z0-9_]{3,32}$'),
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'cashier', 'auditor')),
  must_change_password boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_code, username)
);
CREATE TABLE operator_sessions (
  token_hash bytea PRIMARY KEY,
  operator_id bigint NOT NULL REFERENCES operators(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id);

-- Append-only audit trail of operator actions: a trigger refuses UPDATE, DELETE and TRUNCATE.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  operator_id bigint NOT NULL REFERENCES operators(id),
  operator_username text NOT NULL,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text NOT NULL,
  before jsonb,
  after jsonb,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_merchant ON audit_log (merchant_code, id DESC);
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
