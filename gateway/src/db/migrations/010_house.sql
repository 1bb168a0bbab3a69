-- The built-in house game server's own state. It reaches the wallet only through the vendor API;
-- these tables hold game sessions, provably fair seeds and rounds, never money.
CREATE TABLE house_sessions (
  token_hash bytea PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  -- The vendor API's player id; null in guest free play.
  player_id text,
  nickname text NOT NULL,
  game_code text NOT NULL,
  -- The launch token the wallet issued (the vendor API's player token); null in free play.
  vendor_token text,
  free_play boolean NOT NULL DEFAULT false,
  -- Play money for free play only, centavos.
  play_balance bigint NOT NULL DEFAULT 0 CHECK (play_balance >= 0),
  server_seed text NOT NULL,
  client_seed text NOT NULL,
  nonce int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

CREATE TABLE house_rounds (
  round_id text PRIMARY KEY,
  merchant_code text NOT NULL,
  session_hash bytea NOT NULL,
  player_id text,
  game_code text NOT NULL,
  free_play boolean NOT NULL,
  stake bigint NOT NULL CHECK (stake > 0),
  win bigint,
  server_seed_hash text NOT NULL,
  client_seed text NOT NULL,
  nonce int NOT NULL,
  outcome jsonb,
  -- The wallet accepted the bet: the win must follow (retried with the same transaction id).
  bet_ok boolean NOT NULL DEFAULT false,
  -- open: bet sent; settled: win sent; refused: the wallet refused the bet; rolled_back: could not complete.
  status text NOT NULL CHECK (status IN ('open', 'settled', 'refused', 'rolled_back')),
  created_at timestamptz NOT NULL DEFAULT now(),
  settled_at timestamptz
);
CREATE INDEX house_rounds_open ON house_rounds (status, created_at) WHERE status = 'open';

-- Seeds revealed by rotation: anyone holding a round's seed hash can fetch the seed and verify it.
CREATE TABLE house_revealed_seeds (
  seed_hash text PRIMARY KEY,
  server_seed text NOT NULL,
  revealed_at timestamptz NOT NULL DEFAULT now()
);
