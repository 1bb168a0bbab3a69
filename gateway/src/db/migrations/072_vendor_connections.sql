-- Provider connections made from the operator console (/ops/providers): when the row last changed
-- there, when its signing secret was made (it is shown once, never again), and why it was
-- disconnected. Rows the simulator or the house set up leave them null.
ALTER TABLE vendor_accounts ADD COLUMN changed_at timestamptz, ADD COLUMN secret_set_at timestamptz, ADD COLUMN disconnect_reason text;
