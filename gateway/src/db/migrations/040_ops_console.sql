-- Operator console (issue 13): several roles per operator (least privilege per action), a TOTP
-- second factor, and region blocking (country codes from a trusted proxy header).
ALTER TABLE operators ADD COLUMN roles text[] NOT NULL DEFAULT '{}';
UPDATE operators SET roles = CASE role WHEN 'admin' THEN ARRAY['administrator'] WHEN 'cashier' THEN ARRAY['finance'] ELSE ARRAY['risk'] END;
ALTER TABLE operators DROP COLUMN role;
ALTER TABLE operators ADD CONSTRAINT operators_roles_known
  CHECK (roles <@ ARRAY['administrator', 'finance', 'support', 'content', 'risk']::text[] AND cardinality(roles) >= 1);
-- The authenticator secret once enrolment is confirmed; the pending one while the operator enrols.
ALTER TABLE operators ADD COLUMN totp_secret text;
ALTER TABLE operators ADD COLUMN totp_pending_secret text;

ALTER TABLE merchants ADD COLUMN blocked_regions text[] NOT NULL DEFAULT '{}';
CREATE INDEX IF NOT EXISTS audit_log_merchant_at ON audit_log (merchant_code, at);
