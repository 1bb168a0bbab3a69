-- Seamless wallet for game vendors.
CREATE TABLE vendor_accounts (
  merchant_code text NOT NULL REFERENCES merchants(code),
  vendor text NOT NULL,
  -- The HMAC key the vendor signs with (a shared secret: it must be readable to verify).
  secret text NOT NULL,
  launch_url text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  PRIMARY KEY (merchant_code, vendor)
);

-- A launched game: the opaque token the vendor presents (only its hash is kept).
CREATE TABLE game_sessions (
  token_hash bytea PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  vendor text NOT NULL,
  game_code text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX game_sessions_member ON game_sessions (member_id);

-- Every vendor money call, keyed by the vendor's transaction id, with the answer it got.
CREATE TABLE vendor_transactions (
  merchant_code text NOT NULL REFERENCES merchants(code),
  vendor text NOT NULL,
  transaction_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('bet', 'win', 'rollback')),
  member_id bigint NOT NULL REFERENCES members(id),
  round_id text NOT NULL,
  game_code text,
  amount bigint NOT NULL CHECK (amount >= 0),
  ref_transaction_id text,
  -- applied: moved money; refused: answered with an error; rolled_back: a bet cancelled later.
  status text NOT NULL CHECK (status IN ('applied', 'refused', 'rolled_back')),
  response jsonb NOT NULL,
  http_status int NOT NULL DEFAULT 200,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_code, vendor, transaction_id)
);
CREATE INDEX vendor_transactions_round ON vendor_transactions (merchant_code, vendor, round_id);
CREATE INDEX vendor_transactions_member ON vendor_transactions (member_id, created_at DESC);

-- A rollback that came before its bet: remembered, so the late bet is refused.
CREATE TABLE vendor_rollback_marks (
  merchant_code text NOT NULL,
  vendor text NOT NULL,
  bet_transaction_id text NOT NULL,
  rollback_transaction_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_code, vendor, bet_transaction_id)
);
