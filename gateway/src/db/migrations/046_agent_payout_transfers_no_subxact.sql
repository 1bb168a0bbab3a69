-- Settlement of a whole tree without a subtransaction per transfer (issue 11, settlement at 1,000,000
-- members). agent_payout_transfers (migration 030) ran each agent-paid ledger_transfer in a PL/pgSQL
-- exception block, so that a payer the ledger refuses (SQLSTATE LD001) rolled back alone: one
-- subtransaction per payout. A daily-wages settlement of the 1,000,000-member bench tree pays ~78,000
-- contracts in one transaction: past 64 subtransactions PostgreSQL's snapshots overflow their
-- subtransaction cache (every snapshot of every session then looks up pg_subtrans), and the run took
-- minutes before it failed.
--
-- Now the refusal is decided before the transfer, with no exception block: the payer's account row is
-- locked (FOR UPDATE, so nothing changes it until the settlement commits) and the transfer is attempted
-- only when balance - held covers the amount, which is exactly the condition under which ledger_apply
-- does not raise LD001 for a posted debit; otherwise the item gets no transfer (NULL) and nothing moved,
-- as before. A key that already has a transfer goes to ledger_transfer as before (a replay returns it, a
-- key reused with other terms aborts the settlement). A payer without an account has a zero balance:
-- refused, and no account is created (the exception block rolled the creation back too). Anything the
-- ledger still raises aborts the whole settlement (nothing is paid, the run is retried), never a partial
-- one. Same signature and results: settlement.ts is unchanged.
CREATE OR REPLACE FUNCTION agent_payout_transfers(p_merchant text, p_currency text, p_shards int, p_items jsonb)
RETURNS TABLE (o_ord int, o_transfer bigint, o_events int) LANGUAGE plpgsql AS $$
DECLARE
  v jsonb;
  k int;
  r record;
  v_payer bigint;
  v_amount bigint;
  v_ok boolean;
BEGIN
  -- One pass over the array (indexing p_items -> i would detoast the whole array on every item).
  FOR v, k IN SELECT e.value, (e.ord - 1)::int FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(value, ord) ORDER BY e.ord LOOP
    o_ord := k;
    v_amount := (v ->> 'amount')::bigint;
    IF jsonb_typeof(v -> 'payer') IS DISTINCT FROM 'number' THEN
      SELECT * INTO r FROM ledger_transfer(p_merchant, p_currency, v ->> 'key', v ->> 'kind', NULL, 'house', (v ->> 'payee')::bigint, NULL,
                                           p_shards, v_amount, false, v -> 'memo');
    ELSE
      v_payer := (v ->> 'payer')::bigint;
      v_ok := EXISTS (SELECT 1 FROM ledger_transfers WHERE merchant_code = p_merchant AND idempotency_key = v ->> 'key');
      IF NOT v_ok THEN
        SELECT coalesce(bool_or(a.allow_negative OR a.balance - a.held >= v_amount), false) INTO v_ok
          FROM (SELECT allow_negative, balance, held FROM ledger_accounts
                 WHERE member_id = v_payer AND currency = p_currency FOR UPDATE) a;
      END IF;
      IF NOT v_ok THEN
        o_transfer := NULL;
        o_events := 0;
        RETURN NEXT;
        CONTINUE;
      END IF;
      SELECT * INTO r FROM ledger_transfer(p_merchant, p_currency, v ->> 'key', v ->> 'kind', v_payer, NULL, (v ->> 'payee')::bigint, NULL,
                                           p_shards, v_amount, false, v -> 'memo');
    END IF;
    IF r.o_outcome IN ('same_account', 'mismatch') THEN
      RAISE EXCEPTION 'agent payout transfer %: %', v ->> 'key', r.o_outcome;
    END IF;
    o_transfer := r.o_transfer;
    o_events := r.o_events;
    RETURN NEXT;
  END LOOP;
END $$;
