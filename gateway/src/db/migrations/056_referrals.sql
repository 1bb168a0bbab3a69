-- Player referral (issue 14, member-centre item `referral`): a member's own referral code, given out
-- as a link on the merchant's domain (`/register?referralCode=CODE`), and who registered through it.
-- A referrer is not an upline: the agent team tree (parent_id, affiliateCode, agent_invitations) is
-- untouched; a registration may carry both an invitation code and a referral code.
ALTER TABLE members ADD COLUMN referral_code text;
ALTER TABLE members ADD COLUMN referrer_id bigint REFERENCES members(id);
CREATE UNIQUE INDEX members_referral_code ON members (merchant_code, referral_code) WHERE referral_code IS NOT NULL;
CREATE INDEX members_referrer ON members (referrer_id, id DESC) WHERE referrer_id IS NOT NULL;
