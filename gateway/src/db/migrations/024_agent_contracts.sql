-- Agent contracts (issue 11): an upline offers a direct downline terms of one kind; the downline
-- accepts or rejects; either side terminates. upline_id NULL is the house (the merchant) paying a top
-- agent: such a row is created active by an operator tool (dev helper for now), never offered.
-- Terms are the zod ZContractTerms of contracts/src/domain/agent-contracts.ts; rate and the two
-- conditions are copied into columns so the lower-rate rule and settlement read them without JSON.
CREATE TABLE agent_contracts (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  kind text NOT NULL CHECK (kind IN ('dividend', 'dailyWages', 'hourlySalary', 'realtimeSalary')),
  upline_id bigint REFERENCES members(id),
  downline_id bigint NOT NULL REFERENCES members(id),
  terms jsonb NOT NULL,
  rate int NOT NULL CHECK (rate > 0 AND rate <= 10000),
  active_members int NOT NULL CHECK (active_members >= 0),
  bet_amount bigint NOT NULL CHECK (bet_amount >= 0),
  status text NOT NULL CHECK (status IN ('offered', 'active', 'rejected', 'withdrawn', 'terminated', 'ended')),
  offered_at timestamptz NOT NULL DEFAULT now(),
  answered_at timestamptz,
  ended_at timestamptz,
  -- Who ended it: a member (either party, or the agent whose acceptance ended it), NULL for an operator or the system.
  ended_by bigint REFERENCES members(id),
  end_reason text CHECK (end_reason IN ('terminatedByUpline', 'terminatedByDownline', 'rateAboveNewUplineRate', 'uplineContractEnded', 'downlineMoved', 'replacedByNewContract')),
  CHECK (upline_id IS DISTINCT FROM downline_id),
  CHECK ((status IN ('offered', 'active')) = (ended_at IS NULL))
);
-- At most one live contract and one open offer per member and kind.
CREATE UNIQUE INDEX agent_contracts_one_active ON agent_contracts (downline_id, kind) WHERE status = 'active';
CREATE UNIQUE INDEX agent_contracts_one_offer ON agent_contracts (downline_id, kind) WHERE status = 'offered';
CREATE INDEX agent_contracts_upline ON agent_contracts (upline_id, kind, status);
CREATE INDEX agent_contracts_merchant_kind ON agent_contracts (merchant_code, kind) WHERE status = 'active';

-- Every change of a contract, in the same transaction: who (member or NULL for operator/system), from what, to what, why.
CREATE TABLE agent_contract_audit (
  id bigserial PRIMARY KEY,
  contract_id bigint NOT NULL REFERENCES agent_contracts(id),
  at timestamptz NOT NULL DEFAULT now(),
  actor_member_id bigint REFERENCES members(id),
  actor text NOT NULL CHECK (actor IN ('member', 'operator', 'system')),
  from_status text,
  to_status text NOT NULL,
  reason text,
  detail jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX agent_contract_audit_contract ON agent_contract_audit (contract_id, id);
