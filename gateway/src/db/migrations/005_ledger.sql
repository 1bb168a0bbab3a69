-- Double-entry ledger. Money is integer minor units (bigint). Every balance change is a transfer
-- between two accounts with a unique idempotency key; posted transfers write two entries summing to zero.
CREATE TABLE ledger_accounts (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  kind text NOT NULL CHECK (kind IN ('member', 'house', 'deposit', 'withdrawal', 'adjustment', 'game', 'bonus')),
  member_id bigint REFERENCES members(id),
  currency text NOT NULL,
  -- System accounts are split into shards so concurrent transfers do not queue on one row.
  shard int NOT NULL DEFAULT 0,
  balance bigint NOT NULL DEFAULT 0,
  -- Sum of pending holds against this account.
  held bigint NOT NULL DEFAULT 0 CHECK (held >= 0),
  allow_negative boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (allow_negative OR balance - held >= 0),
  CHECK ((kind = 'member') = (member_id IS NOT NULL))
);
CREATE UNIQUE INDEX ledger_accounts_member ON ledger_accounts (member_id, currency) WHERE member_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_system ON ledger_accounts (merchant_code, kind, currency, shard) WHERE member_id IS NULL;

CREATE TABLE ledger_transfers (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  idempotency_key text NOT NULL,
  -- What the request was, so a retry with the same key but other terms is refused.
  request_hash text NOT NULL,
  kind text NOT NULL,
  debit_account_id bigint NOT NULL REFERENCES ledger_accounts(id),
  credit_account_id bigint NOT NULL REFERENCES ledger_accounts(id),
  amount bigint NOT NULL CHECK (amount > 0),
  status text NOT NULL CHECK (status IN ('posted', 'pending', 'voided')),
  -- A post of a hold names the hold it resolves.
  hold_id bigint REFERENCES ledger_transfers(id),
  memo jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  CHECK (debit_account_id <> credit_account_id),
  UNIQUE (merchant_code, idempotency_key)
);
CREATE UNIQUE INDEX ledger_transfers_one_resolution ON ledger_transfers (hold_id) WHERE hold_id IS NOT NULL;
CREATE INDEX ledger_transfers_debit ON ledger_transfers (debit_account_id, created_at DESC);
CREATE INDEX ledger_transfers_credit ON ledger_transfers (credit_account_id, created_at DESC);

CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  transfer_id bigint NOT NULL REFERENCES ledger_transfers(id),
  account_id bigint NOT NULL REFERENCES ledger_accounts(id),
  amount bigint NOT NULL CHECK (amount <> 0),
  balance_after bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, id DESC);
CREATE INDEX ledger_entries_transfer ON ledger_entries (transfer_id);

-- Player messages (deposit credited, withdrawal approved, ...), announced by message.received.
CREATE TABLE messages (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  kind text NOT NULL,
  title text NOT NULL,
  body text NOT NULL DEFAULT '',
  params jsonb NOT NULL DEFAULT '{}',
  read_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX messages_member ON messages (member_id, id DESC);
CREATE INDEX messages_unread ON messages (member_id) WHERE read_at IS NULL;
