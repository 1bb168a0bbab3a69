-- Accounts: credentials, contact, profile, invitation codes, and what login security needs.
ALTER TABLE merchants ADD COLUMN registration jsonb NOT NULL DEFAULT '[]';
ALTER TABLE merchants ADD COLUMN security jsonb NOT NULL DEFAULT '{}';

ALTER TABLE members ADD COLUMN account_lower text;
UPDATE members SET account_lower = lower(account);
ALTER TABLE members ALTER COLUMN account_lower SET NOT NULL;
CREATE UNIQUE INDEX members_account_lower ON members (merchant_code, account_lower);
ALTER TABLE members ADD COLUMN password_hash text;
ALTER TABLE members ADD COLUMN payment_password_hash text;
ALTER TABLE members ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;
ALTER TABLE members ADD COLUMN password_changed_at timestamptz;
ALTER TABLE members ADD COLUMN password_expires_at timestamptz;
ALTER TABLE members ADD COLUMN dialing_code text;
ALTER TABLE members ADD COLUMN mobile_num text;
ALTER TABLE members ADD COLUMN email text;
ALTER TABLE members ADD COLUMN payee_name text;
ALTER TABLE members ADD COLUMN profile jsonb NOT NULL DEFAULT '{}';
ALTER TABLE members ADD COLUMN invitation_code text;
ALTER TABLE members ADD COLUMN language text;
ALTER TABLE members ADD COLUMN first_login_at timestamptz;
ALTER TABLE members ADD COLUMN last_login_at timestamptz;
ALTER TABLE members ADD COLUMN totp_secret text;
ALTER TABLE members ADD COLUMN totp_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE members ADD COLUMN register_ip text;
CREATE UNIQUE INDEX members_mobile ON members (merchant_code, dialing_code, mobile_num) WHERE mobile_num IS NOT NULL;
CREATE UNIQUE INDEX members_invitation ON members (merchant_code, invitation_code) WHERE invitation_code IS NOT NULL;
CREATE INDEX members_email ON members (merchant_code, lower(email)) WHERE email IS NOT NULL;
CREATE INDEX members_parent ON members (parent_id);

-- Known login addresses: a login from another one asks for a second step.
CREATE TABLE member_ips (
  member_id bigint NOT NULL REFERENCES members(id),
  ip text NOT NULL,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, ip)
);

-- Sliding counters for rate limits and lockouts, shared by every node.
CREATE TABLE rate_events (
  id bigserial PRIMARY KEY,
  key text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rate_events_key_at ON rate_events (key, at);
CREATE TABLE rate_locks (
  key text PRIMARY KEY,
  until timestamptz NOT NULL
);

-- One-time secrets: only hashes are stored.
CREATE TABLE sms_codes (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  purpose text NOT NULL CHECK (purpose IN ('login', 'register', 'reset', 'verify')),
  dialing_code text NOT NULL,
  mobile_num text NOT NULL,
  code_hash bytea NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sms_codes_lookup ON sms_codes (merchant_code, purpose, dialing_code, mobile_num, created_at DESC);

CREATE TABLE captchas (
  key text PRIMARY KEY,
  answer_hash bytea NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE bot_challenges (
  id text PRIMARY KEY,
  answer int NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE login_challenges (
  id text PRIMARY KEY,
  member_id bigint NOT NULL REFERENCES members(id),
  merchant_code text NOT NULL REFERENCES merchants(code),
  ip text NOT NULL,
  methods text[] NOT NULL,
  code_hash bytea,
  code_method text,
  attempts int NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE password_resets (
  token_hash bytea PRIMARY KEY,
  member_id bigint NOT NULL REFERENCES members(id),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE oidc_identities (
  merchant_code text NOT NULL REFERENCES merchants(code),
  issuer text NOT NULL,
  subject text NOT NULL,
  member_id bigint NOT NULL REFERENCES members(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_code, issuer, subject)
);
CREATE TABLE oidc_states (
  state text PRIMARY KEY,
  merchant_code text NOT NULL,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  return_to text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE TABLE oidc_handoffs (
  code_hash bytea PRIMARY KEY,
  member_id bigint NOT NULL REFERENCES members(id),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

ALTER TABLE sessions ADD COLUMN ip text;
ALTER TABLE sessions ADD COLUMN kind text NOT NULL DEFAULT 'member';
