-- One account, one player: binding a bank account looks up whether any player of the merchant holds the
-- same bank (its name without case or spaces around it) and number. The only index on the table is per
-- member, so each binding read every live account of the merchant. This index answers the lookup.
CREATE INDEX member_bank_accounts_bound ON member_bank_accounts (merchant_code, account_number, (lower(btrim(bank_name)))) WHERE removed_at IS NULL;
