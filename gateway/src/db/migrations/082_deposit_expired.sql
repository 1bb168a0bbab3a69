-- A payment provider's order that was never paid expires (a walk-through's finding): it stayed "Pending,
-- Pay now" for ever and kept counting against the player's deposit limit, with no way to cancel it.
-- The cashier.deposit.expire job moves it to 'expired' after DEPOSIT_ORDER_TTL_MINUTES; a provider's
-- late 'paid' still credits it. Manual bank deposits wait for their operator and never expire.
ALTER TABLE deposits DROP CONSTRAINT deposits_status_check;
ALTER TABLE deposits ADD CONSTRAINT deposits_status_check CHECK (status IN ('pending', 'paid', 'failed', 'rejected', 'expired'));
CREATE INDEX deposits_pending_created ON deposits (created_at) WHERE status = 'pending' AND provider <> 'manual';
