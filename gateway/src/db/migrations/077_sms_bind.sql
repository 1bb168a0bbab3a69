-- A code sent to a number a signed-in member is adding to the account (security centre): its own
-- purpose, so a login, reset or registration code for the same number never binds it, nor the reverse.
ALTER TABLE sms_codes DROP CONSTRAINT sms_codes_purpose_check;
ALTER TABLE sms_codes ADD CONSTRAINT sms_codes_purpose_check CHECK (purpose IN ('login', 'register', 'reset', 'verify', 'bind'));
