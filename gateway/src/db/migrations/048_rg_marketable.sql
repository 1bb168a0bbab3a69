-- Marketing suppression (responsible gaming): the members marketing may reach now, for bulk queries
-- of the promotions, red envelopes and marketing messages (`JOIN rg_marketable_members mk ON
-- mk.member_id = m.id`). The same rule as isMarketable / marketableSql in gateway/src/modules/rg/marketing.ts:
-- an active account with no exclusion in force (self, cooling-off, family, operator, restricted person).
CREATE VIEW rg_marketable_members AS
SELECT m.id AS member_id, m.merchant_code
  FROM members m
 WHERE m.status = 'active'
   AND NOT EXISTS (SELECT 1 FROM rg_exclusions x WHERE x.member_id = m.id AND x.ended_at IS NULL
                     AND x.starts_at <= now() AND (x.ends_at IS NULL OR x.ends_at > now()));
