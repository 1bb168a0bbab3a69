-- Accounts made by the development helpers (POST /wps/dev/members, /wps/dev/sessions): the only
-- accounts those helpers may hand a session for, disable, or time-travel. A real account (registered,
-- seeded, signed in through OIDC) is never one of them.
ALTER TABLE members ADD COLUMN created_by_dev boolean NOT NULL DEFAULT false;
