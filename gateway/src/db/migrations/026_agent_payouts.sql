-- Agent settlement (issue 11): one payout row per contract per period, written with its ledger
-- transfer in one transaction by the settlement jobs (gateway/src/modules/agents/settlement.ts).
-- Exactly once: agent_settlement_runs (merchant, kind, period type, period key) is inserted first in
-- the settlement transaction, so a concurrent run waits and then skips; UNIQUE(contract_id, period_key)
-- and the ledger idempotency key agent:<kind>:<contract>:<period> back it up.

-- Per merchant settlement options (defaults when no row): carry a negative base into the next period.
CREATE TABLE agent_settlement_settings (
  merchant_code text PRIMARY KEY REFERENCES merchants(code),
  carry_over boolean NOT NULL DEFAULT false,
  active_min_valid_bets bigint NOT NULL DEFAULT 1 CHECK (active_min_valid_bets >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row per settled (merchant, kind, period): the period-level exactly-once marker.
CREATE TABLE agent_settlement_runs (
  merchant_code text NOT NULL REFERENCES merchants(code),
  kind text NOT NULL CHECK (kind IN ('dividend', 'dailyWages', 'hourlySalary', 'realtimeSalary')),
  period_type text NOT NULL,
  period_key text NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  contracts int NOT NULL DEFAULT 0,
  house_pays bigint NOT NULL DEFAULT 0,
  settled_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_code, kind, period_type, period_key)
);

CREATE TABLE agent_payouts (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  contract_id bigint NOT NULL REFERENCES agent_contracts(id),
  kind text NOT NULL CHECK (kind IN ('dividend', 'dailyWages', 'hourlySalary', 'realtimeSalary')),
  period_type text NOT NULL,
  period_key text NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  -- NULL: the house (the merchant) pays.
  payer_id bigint REFERENCES members(id),
  payee_id bigint NOT NULL REFERENCES members(id),
  amount bigint NOT NULL CHECK (amount >= 0),
  carry_in bigint NOT NULL DEFAULT 0 CHECK (carry_in <= 0),
  carry_out bigint NOT NULL DEFAULT 0 CHECK (carry_out <= 0),
  -- paid: transfer committed; nothing: amount 0; unfunded: the paying agent's balance could not cover
  -- it (nothing moved, shown to both and to ops); adjusted: an operator paid an adjustment after a dispute.
  status text NOT NULL CHECK (status IN ('paid', 'nothing', 'unfunded', 'adjusted')),
  adjusted_amount bigint NOT NULL DEFAULT 0 CHECK (adjusted_amount >= 0),
  statement jsonb NOT NULL,
  transfer_id bigint,
  settled_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (contract_id, period_key),
  CHECK ((status = 'paid') <= (transfer_id IS NOT NULL))
);
CREATE INDEX agent_payouts_payee ON agent_payouts (payee_id, period_start DESC);
CREATE INDEX agent_payouts_payer ON agent_payouts (payer_id, period_start DESC) WHERE payer_id IS NOT NULL;
CREATE INDEX agent_payouts_contract_period ON agent_payouts (contract_id, period_end DESC);

CREATE TABLE agent_disputes (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  payout_id bigint NOT NULL REFERENCES agent_payouts(id),
  member_id bigint NOT NULL REFERENCES members(id),
  reason text NOT NULL CHECK (length(reason) BETWEEN 5 AND 500),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'rejected', 'adjusted')),
  resolution_note text,
  adjustment bigint CHECK (adjustment IS NULL OR adjustment > 0),
  adjustment_transfer_id bigint,
  resolved_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  CHECK ((status = 'open') = (resolved_at IS NULL))
);
-- At most one open dispute per payout.
CREATE UNIQUE INDEX agent_disputes_one_open ON agent_disputes (payout_id) WHERE status = 'open';
CREATE INDEX agent_disputes_member ON agent_disputes (member_id, id DESC);
CREATE INDEX agent_disputes_merchant_status ON agent_disputes (merchant_code, status, id DESC);
