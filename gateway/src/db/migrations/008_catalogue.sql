-- Catalogue (issue 5): minimum bets, a precomputed search column, the indexes the game list search
-- uses, favourites, recent games and the favourite-change throttle.

-- Minimum bet in integer minor units (centavos); NULL when the vendor does not say.
ALTER TABLE games ADD COLUMN min_bet bigint CHECK (min_bet IS NULL OR min_bet >= 0);
-- Lower-cased name for the case-insensitive "contains" search. pg_trgm is not loaded in PGlite by
-- default, so the search scans this column inside the merchant's (and type's) rows: on 10,000 games
-- that stays well under the 30 ms p99 target (see tests/bench/README.md).
ALTER TABLE games ADD COLUMN name_search text GENERATED ALWAYS AS (lower(game_name)) STORED;

CREATE INDEX games_vendor ON games (merchant_code, vassalage, game_type, sort, id);
CREATE INDEX games_classify ON games (merchant_code, game_type, game_classify, sort, id);
CREATE INDEX games_list ON games (merchant_code, sort, id);

CREATE TABLE favorite_games (
  member_id bigint NOT NULL REFERENCES members(id),
  merchant_code text NOT NULL,
  node_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, node_id),
  FOREIGN KEY (merchant_code, node_id) REFERENCES games (merchant_code, node_id) ON DELETE CASCADE
);
CREATE INDEX favorite_games_recent ON favorite_games (member_id, created_at DESC);

-- One favourite change per member per second (spec section 9), shared by every gateway node.
CREATE TABLE favorite_clock (
  member_id bigint PRIMARY KEY REFERENCES members(id),
  changed_at timestamptz NOT NULL
);

-- Games a member launched, one row per game, newest launch kept.
CREATE TABLE recent_games (
  member_id bigint NOT NULL REFERENCES members(id),
  merchant_code text NOT NULL,
  node_id text NOT NULL,
  launched_at timestamptz NOT NULL DEFAULT now(),
  launches int NOT NULL DEFAULT 1,
  PRIMARY KEY (member_id, node_id),
  FOREIGN KEY (merchant_code, node_id) REFERENCES games (merchant_code, node_id) ON DELETE CASCADE
);
CREATE INDEX recent_games_member ON recent_games (member_id, launched_at DESC);
