-- A session opened by a password login whose password must change (the default password, or an expired
-- one where the merchant forces the change): until it changes, the session reads but writes nothing
-- but the change itself (auth/password-change-gate.ts). Set when the session is opened (an SMS or
-- social login is not held to it, spec section 4); a password change ends every session anyway.
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS password_change_required boolean NOT NULL DEFAULT false;
