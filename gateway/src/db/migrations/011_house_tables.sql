-- House live-style tables (baccarat): rounds run continuously; every node ticks, the one holding
-- the table's advisory lock moves the round on. Bets go to the wallet through the vendor API.
CREATE TABLE house_table_rounds (
  merchant_code text NOT NULL REFERENCES merchants(code),
  table_code text NOT NULL,
  round_no int NOT NULL,
  phase text NOT NULL CHECK (phase IN ('betting', 'result')),
  server_seed text NOT NULL,
  seed_hash text NOT NULL,
  closes_at timestamptz NOT NULL,
  -- When the next round opens (set with the result).
  next_at timestamptz,
  result jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_code, table_code, round_no)
);

CREATE TABLE house_table_bets (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL,
  table_code text NOT NULL,
  round_no int NOT NULL,
  session_hash bytea NOT NULL,
  player_id text,
  nickname text NOT NULL,
  free_play boolean NOT NULL DEFAULT false,
  side text NOT NULL CHECK (side IN ('player', 'banker', 'tie')),
  stake bigint NOT NULL CHECK (stake > 0),
  win bigint,
  -- The wallet accepted the bet: it must be settled (win retried with the same transaction id).
  bet_ok boolean NOT NULL DEFAULT false,
  status text NOT NULL CHECK (status IN ('open', 'settled', 'refused', 'rolled_back')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX house_table_bets_round ON house_table_bets (merchant_code, table_code, round_no);
