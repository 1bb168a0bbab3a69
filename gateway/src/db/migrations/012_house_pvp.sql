-- Lucky 9 Duel (PVP1): players at one table play against each other. Its rounds live in
-- house_table_rounds (table_code 'PVP1', phase 'betting' = the joining window); each seated
-- player's ante is a vendor bet, the payout a vendor win, a cancelled round a rollback.
CREATE TABLE house_pvp_seats (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL,
  table_code text NOT NULL,
  round_no int NOT NULL,
  session_hash bytea NOT NULL,
  player_id text NOT NULL,
  nickname text NOT NULL,
  ante bigint NOT NULL CHECK (ante > 0),
  win bigint,
  -- The wallet accepted the ante: the seat must be settled (win or rollback, same transaction ids on retry).
  bet_ok boolean NOT NULL DEFAULT false,
  status text NOT NULL CHECK (status IN ('open', 'settled', 'refused', 'rolled_back')),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_code, table_code, round_no, player_id)
);
CREATE INDEX house_pvp_seats_open ON house_pvp_seats (status) WHERE status = 'open';
