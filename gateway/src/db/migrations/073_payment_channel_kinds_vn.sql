-- Vietnam's payment channels (the second demo merchant, LuckyDong, and any merchant in market VN):
-- VietQR, the MoMo and ZaloPay e-wallets and a NAPAS 247 bank transfer, besides the Philippine kinds.
ALTER TABLE payment_channels DROP CONSTRAINT IF EXISTS payment_channels_kind_check;
ALTER TABLE payment_channels ADD CONSTRAINT payment_channels_kind_check
  CHECK (kind IN ('gcash', 'maya', 'instapay', 'vietqr', 'momo', 'zalopay', 'napas', 'manual_bank'));
