-- Agent invitations (issue 11, register centre): an agent's invitation link with a quota of
-- registrations and the account type each registration gets (0 player, 2 agent). Registration with the
-- code locks the row, checks used < quota, not disabled, not expired, and counts itself in the same
-- transaction as the member row, so a quota of 1 admits exactly one registration however many race.
-- The per-member members.invitation_code keeps working beside it (looked up first).
CREATE TABLE agent_invitations (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  inviter_id bigint NOT NULL REFERENCES members(id),
  code text NOT NULL,
  account_type smallint NOT NULL CHECK (account_type IN (0, 2)),
  quota int NOT NULL CHECK (quota BETWEEN 1 AND 10000),
  used int NOT NULL DEFAULT 0 CHECK (used >= 0 AND used <= quota),
  disabled_at timestamptz,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_code, code)
);
CREATE INDEX agent_invitations_inviter ON agent_invitations (inviter_id, id DESC);
-- Which invitation a member registered with (none for the per-member code or direct creation).
ALTER TABLE members ADD COLUMN invitation_id bigint REFERENCES agent_invitations(id);
