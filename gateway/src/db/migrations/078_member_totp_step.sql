-- A member's authenticator code is single-use, as an operator's is (047): the last accepted 30 s step
-- is kept, and a code of that step or an earlier one is refused, so one code cannot finish two logins.
ALTER TABLE members ADD COLUMN totp_last_step bigint;
