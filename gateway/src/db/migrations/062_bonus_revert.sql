-- A bet rolled back after its bonus converted (issue 14, bonus abuse): the conversion is undone.
--   conversions  how many times the reward converted (bonus account -> wallet); the n-th conversion's
--                ledger key is promo:reward:<id>:convert (n = 1) or promo:reward:<id>:convert:<n>.
--   owed         of the reward's amount, what the player still holds in the wallet after a reverted
--                conversion because the wallet had less than the bonus when it was taken back
--                (balances never go negative). The bonus account then holds amount - owed for this
--                reward; the next conversion pays amount - owed (netted) and clears it; a forfeit
--                returns amount - owed and leaves owed on the reward for operators to see.
ALTER TABLE promotion_rewards ADD COLUMN conversions int NOT NULL DEFAULT 0 CHECK (conversions >= 0);
ALTER TABLE promotion_rewards ADD COLUMN owed bigint NOT NULL DEFAULT 0 CHECK (owed >= 0 AND owed <= amount);
-- Rows converted before this migration converted once.
UPDATE promotion_rewards SET conversions = 1 WHERE status = 'completed' AND wager_required > 0;
CREATE INDEX promotion_rewards_owed ON promotion_rewards (merchant_code, id) WHERE owed > 0;
