-- Responsible-gaming edges (issue 13).
--
-- 1. A restricted-persons list that no longer names a member lifts the exclusion an earlier list's
-- match started (kind 'restricted' only: self, cooling, family and operator exclusions are never
-- lifted by a list). The exclusion records which import's re-check lifted it, and the import how
-- many it lifted, so operators see both.
ALTER TABLE rg_exclusions ADD COLUMN lifted_by_import bigint REFERENCES rg_restricted_imports(id);
ALTER TABLE rg_exclusions ADD CONSTRAINT rg_exclusions_list_lift CHECK (lifted_by_import IS NULL OR kind = 'restricted');
ALTER TABLE rg_restricted_imports ADD COLUMN lifted int;


-- 2. Social sign-in where the market screens identities (the Philippines): the callback's handoff
--    waits for the full name and birth date (identity_required). A first sign-in has no member yet:
--    the provider's claims wait in `pending` ({ issuer, claims, ip }) and the member is created only
--    when the person passes the age and restricted-persons checks; an older social account missing
--    them (member_id set) becomes usable only once given.
ALTER TABLE oidc_handoffs ALTER COLUMN member_id DROP NOT NULL;
ALTER TABLE oidc_handoffs ADD COLUMN merchant_code text REFERENCES merchants(code);
ALTER TABLE oidc_handoffs ADD COLUMN identity_required boolean NOT NULL DEFAULT false;
ALTER TABLE oidc_handoffs ADD COLUMN pending jsonb;
ALTER TABLE oidc_handoffs ADD CONSTRAINT oidc_handoffs_who CHECK (member_id IS NOT NULL OR (identity_required AND pending IS NOT NULL AND merchant_code IS NOT NULL));
