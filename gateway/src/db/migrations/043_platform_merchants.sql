-- More than one merchant (issue 13).
-- 1. A platform administrator: an operator that may create merchants (POST /ops/api/platform/merchants).
--    Only the first operator created with `npm run ops:create-operator -- --platform` or the demo seed's
--    platform operator carries it; it is a flag beside the merchant role, not a role of its own.
ALTER TABLE operators ADD COLUMN is_platform boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX operators_one_platform ON operators (is_platform) WHERE is_platform;
-- 2. The market a merchant serves (ISO 3166 alpha-2: PH, VN, ...).
ALTER TABLE merchants ADD COLUMN market text NOT NULL DEFAULT 'PH' CHECK (market ~ '^[A-Z]{2}$');
