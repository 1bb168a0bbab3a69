-- Responsible-gaming edges (issue 13).
--
-- A restricted-persons list that no longer names a member lifts the exclusion an earlier list's
-- match started (kind 'restricted' only: self, cooling, family and operator exclusions are never
-- lifted by a list). The exclusion records which import's re-check lifted it, and the import how
-- many it lifted, so operators see both.
ALTER TABLE rg_exclusions ADD COLUMN lifted_by_import bigint REFERENCES rg_restricted_imports(id);
ALTER TABLE rg_exclusions ADD CONSTRAINT rg_exclusions_list_lift CHECK (lifted_by_import IS NULL OR kind = 'restricted');
ALTER TABLE rg_restricted_imports ADD COLUMN lifted int;

