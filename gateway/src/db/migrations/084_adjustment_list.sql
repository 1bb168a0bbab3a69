-- The console's list of balance adjustments (GET /ops/api/adjustments, newest first per merchant) reads
-- the ledger's adjustment transfers: this index answers it without reading every transfer of the merchant.
CREATE INDEX ledger_transfers_adjustments ON ledger_transfers (merchant_code, id DESC) WHERE kind = 'adjustment';
