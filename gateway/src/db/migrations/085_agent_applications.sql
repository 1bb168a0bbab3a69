-- The affiliate application (spec, section 2): a player without an upline asks to become an agent; an
-- operator approves (the player becomes a top agent) or rejects it with a reason. One open application per
-- player (the partial unique index); a rejected player may apply again.
CREATE TABLE agent_applications (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  contact_name text NOT NULL,
  contact text NOT NULL,
  channel text NOT NULL CHECK (channel IN ('social', 'community', 'website', 'offline', 'other')),
  audience text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  reason text,
  decided_by text,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX agent_applications_one_open ON agent_applications (member_id) WHERE status = 'pending';
CREATE INDEX agent_applications_member ON agent_applications (member_id, id DESC);
CREATE INDEX agent_applications_queue ON agent_applications (merchant_code, status, id DESC);
