-- Agent fixes (issue 11).
-- 1. An operator's termination of a contract is stored with its own end reason (it was NULL).
ALTER TABLE agent_contracts DROP CONSTRAINT agent_contracts_end_reason_check;
ALTER TABLE agent_contracts ADD CONSTRAINT agent_contracts_end_reason_check CHECK (end_reason IN (
  'terminatedByUpline', 'terminatedByDownline', 'terminatedByOperator', 'rateAboveNewUplineRate', 'uplineContractEnded', 'downlineMoved', 'replacedByNewContract'));
UPDATE agent_contracts c SET end_reason = 'terminatedByOperator'
 WHERE c.status = 'terminated' AND c.end_reason IS NULL AND c.ended_by IS NULL
   AND EXISTS (SELECT 1 FROM agent_contract_audit a WHERE a.contract_id = c.id AND a.actor = 'operator' AND a.reason = 'terminatedByOperator');

-- 2. A dispute adjustment of an `unfunded` payout is charged to the upline that owed it (never the
-- house for the owed part). payer_adjusted_amount: the part of adjusted_amount the payer paid (so
-- its income report counts it as paid); adjustment_payer_id: who paid a dispute's adjustment
-- (NULL: the house's adjustment account), adjustment_house: the part above what was owed, paid by the house.
ALTER TABLE agent_payouts ADD COLUMN payer_adjusted_amount bigint NOT NULL DEFAULT 0 CHECK (payer_adjusted_amount >= 0);
ALTER TABLE agent_payouts ADD CONSTRAINT agent_payouts_payer_adjusted_le CHECK (payer_adjusted_amount <= adjusted_amount);
ALTER TABLE agent_disputes ADD COLUMN adjustment_payer_id bigint REFERENCES members(id);
ALTER TABLE agent_disputes ADD COLUMN adjustment_house bigint CHECK (adjustment_house IS NULL OR adjustment_house >= 0);
