-- Merchants: brand configuration and module flags from day one. Every business table carries its merchant.
CREATE TABLE merchants (
  code text PRIMARY KEY CHECK (code ~ '^[A-Za-z0-9_-]{1,32}$'),
  name text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  domains text[] NOT NULL DEFAULT '{}',
  main_domain text NOT NULL DEFAULT '',
  module_flags jsonb NOT NULL DEFAULT '{}',
  whitelabel jsonb NOT NULL DEFAULT '{}',
  brand jsonb NOT NULL DEFAULT '{}',
  currency text NOT NULL DEFAULT 'PHP',
  maintenance boolean NOT NULL DEFAULT false,
  maintenance_message text,
  blocked_ips text[] NOT NULL DEFAULT '{}',
  agent_types int[] NOT NULL DEFAULT '{}',
  trial_types int[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX merchants_one_default ON merchants (is_default) WHERE is_default;

CREATE TABLE members (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  account text NOT NULL,
  nickname text,
  type int NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  parent_id bigint REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_code, account)
);

-- Session tokens are random and opaque; only their SHA-256 is stored.
CREATE TABLE sessions (
  token_hash bytea PRIMARY KEY,
  member_id bigint NOT NULL REFERENCES members(id),
  merchant_code text NOT NULL REFERENCES merchants(code),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_member ON sessions (member_id);

-- Transactional outbox: written in the same transaction as the business change; the relay publishes
-- rows in pos order and marks them; published rows stay for reconnect catch-up until retention ends.
CREATE TABLE audience_seq (
  audience text PRIMARY KEY,
  seq bigint NOT NULL
);
CREATE TABLE outbox (
  pos bigserial PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  merchant_code text NOT NULL REFERENCES merchants(code),
  audience text NOT NULL,
  seq bigint NOT NULL,
  type text NOT NULL,
  v int NOT NULL DEFAULT 1,
  payload jsonb NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  UNIQUE (audience, seq)
);
CREATE INDEX outbox_unpublished ON outbox (pos) WHERE published_at IS NULL;
CREATE INDEX outbox_published_at ON outbox (published_at);

-- Content.
CREATE TABLE banners (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  grp text NOT NULL,
  url text NOT NULL,
  title text NOT NULL DEFAULT '',
  linkage_type text CHECK (linkage_type IN ('URL', 'ROUTE', 'GAME')),
  linkage text,
  sort int NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true
);
CREATE INDEX banners_merchant ON banners (merchant_code, grp, sort);

CREATE TABLE announcements (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  kind text NOT NULL CHECK (kind IN ('PL', 'PU', 'PR', 'H')),
  language text NOT NULL DEFAULT 'EN',
  title text NOT NULL,
  content text NOT NULL,
  promotion_type text,
  execution text CHECK (execution IN ('A', 'B', 'F')),
  start_at timestamptz NOT NULL DEFAULT now(),
  end_at timestamptz,
  sort int NOT NULL DEFAULT 0
);
CREATE INDEX announcements_merchant ON announcements (merchant_code, kind, language);

CREATE TABLE resources (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  resource_type text NOT NULL,
  name text NOT NULL,
  label_name_en text NOT NULL,
  url text NOT NULL,
  sort int NOT NULL DEFAULT 0
);

CREATE TABLE customer_service (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  cs_type text NOT NULL,
  title text NOT NULL,
  url text NOT NULL,
  sort int NOT NULL DEFAULT 0
);

CREATE TABLE help_items (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  language text NOT NULL,
  anchor text NOT NULL,
  title text NOT NULL,
  content text NOT NULL,
  sort int NOT NULL DEFAULT 0,
  UNIQUE (merchant_code, language, anchor)
);

-- Games catalogue.
CREATE TABLE vendors (
  merchant_code text NOT NULL REFERENCES merchants(code),
  vassalage text NOT NULL,
  game_type text NOT NULL,
  game_category text NOT NULL,
  display_name text NOT NULL,
  icon_url text,
  sort int NOT NULL DEFAULT 0,
  maintenance boolean NOT NULL DEFAULT false,
  PRIMARY KEY (merchant_code, vassalage, game_type)
);

CREATE TABLE games (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  node_id text NOT NULL,
  vassalage text NOT NULL,
  game_code text NOT NULL,
  is_game text NOT NULL DEFAULT 'GAME',
  game_type text NOT NULL,
  game_classify text,
  game_name text NOT NULL,
  icon_url text,
  hot_rank int,
  sort int NOT NULL DEFAULT 0,
  maintenance boolean NOT NULL DEFAULT false,
  UNIQUE (merchant_code, node_id),
  UNIQUE (merchant_code, vassalage, game_code)
);
CREATE INDEX games_type ON games (merchant_code, game_type, sort);
CREATE INDEX games_hot ON games (merchant_code, hot_rank) WHERE hot_rank IS NOT NULL;

-- Winner board: big wins, a business row announced by winner.posted.
CREATE TABLE winners (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint REFERENCES members(id),
  customer_name text NOT NULL,
  game_name text NOT NULL,
  icon_url text,
  win_amount bigint NOT NULL CHECK (win_amount >= 0),
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX winners_recent ON winners (merchant_code, at DESC);
