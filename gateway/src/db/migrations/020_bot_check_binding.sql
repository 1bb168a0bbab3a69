-- Issue 10, finding 8: the slider asks for the hole's row as well as its column (a blind guess
-- passes at most 1%), and a challenge is issued for one purpose and one account.
ALTER TABLE bot_challenges ADD COLUMN answer_y int NOT NULL DEFAULT 0;
ALTER TABLE bot_challenges ADD COLUMN purpose text NOT NULL DEFAULT 'login';
ALTER TABLE bot_challenges ADD COLUMN account_lower text;
