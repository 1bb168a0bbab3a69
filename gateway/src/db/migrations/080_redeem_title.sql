-- A redeem keeps the title its reward had when the player redeemed it, as it keeps its points and amount
-- (a walk-through's finding): the history read the reward's live title, so an operator's later rename
-- ("QA mug" -> "QA mug v2") rewrote every past redeem of it, and the decision's message named the new one.
ALTER TABLE point_redemptions ADD COLUMN title jsonb;
UPDATE point_redemptions d SET title = r.title FROM point_rewards r WHERE r.id = d.reward_id;
ALTER TABLE point_redemptions ALTER COLUMN title SET NOT NULL;
