-- The console's list of a merchant's contract payouts (GET /ops/api/agent-payouts), newest period first.
CREATE INDEX agent_payouts_merchant_period ON agent_payouts (merchant_code, period_start DESC, id DESC);
