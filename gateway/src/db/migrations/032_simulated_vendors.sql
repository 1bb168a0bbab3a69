-- Vendors played by the vendor simulator (a separate process, development by default) and vendors
-- that offer free play (play money on the vendor's page, never the ledger).
ALTER TABLE vendor_accounts ADD COLUMN simulated boolean NOT NULL DEFAULT false;
ALTER TABLE vendor_accounts ADD COLUMN free_play boolean NOT NULL DEFAULT false;
UPDATE vendor_accounts SET free_play = true WHERE vendor = 'HOUSE';
