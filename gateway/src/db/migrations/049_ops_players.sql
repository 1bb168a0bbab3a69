-- Operator console, players and brand (issue 13).
-- 1. Operator notes on a player: append-only (author and time), like the audit trail.
CREATE TABLE member_notes (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  operator_id bigint NOT NULL REFERENCES operators(id),
  operator_username text NOT NULL,
  note text NOT NULL CHECK (char_length(note) BETWEEN 1 AND 2000),
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX member_notes_member ON member_notes (member_id, id DESC);
CREATE FUNCTION member_notes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'member_notes is append-only'; END $$;
CREATE TRIGGER member_notes_no_update BEFORE UPDATE OR DELETE ON member_notes FOR EACH ROW EXECUTE FUNCTION member_notes_append_only();
CREATE TRIGGER member_notes_no_truncate BEFORE TRUNCATE ON member_notes FOR EACH STATEMENT EXECUTE FUNCTION member_notes_append_only();

-- 2. What the permission response (domain route) shows beside the brand: analytics tag, image and
--    game-launch CDNs ({ gtagId, imageCDNs, launchGameCDNs }); edited in the console's brand page.
ALTER TABLE merchants ADD COLUMN site_config jsonb NOT NULL DEFAULT '{}';

-- 3. Player search by mobile number and recent sign-ins per member.
CREATE INDEX IF NOT EXISTS sessions_member_created ON sessions (member_id, created_at DESC);
