-- Settlement of a whole tree in one round trip for its ledger transfers (issue 11, settlement throughput).
-- agent_payout_transfers(merchant, currency, shards, items) runs ledger_transfer (migrations 013/017) for
-- each item in array order (the settlement's top-down order: an upline is credited before it pays its
-- downlines). An agent payer whose balance the ledger refuses (SQLSTATE LD001) gets no transfer (NULL):
-- the exception block rolls back only that transfer, what the per-payout SAVEPOINT did from the client.
-- The house (payer NULL) is never refused; an idempotency key reused with other terms aborts the whole
-- settlement, as before.
--   items: [{"key", "kind", "payer" (member id or null for the house), "payee", "amount", "memo"}]
--   returns one row per item: its index, the transfer id (NULL: refused) and the events it emitted.
CREATE FUNCTION agent_payout_transfers(p_merchant text, p_currency text, p_shards int, p_items jsonb)
RETURNS TABLE (o_ord int, o_transfer bigint, o_events int) LANGUAGE plpgsql AS $$
DECLARE
  v jsonb;
  k int;
  r record;
BEGIN
  -- One pass over the array (indexing p_items -> i would detoast the whole array on every item).
  FOR v, k IN SELECT e.value, (e.ord - 1)::int FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(value, ord) ORDER BY e.ord LOOP
    o_ord := k;
    IF jsonb_typeof(v -> 'payer') IS DISTINCT FROM 'number' THEN
      SELECT * INTO r FROM ledger_transfer(p_merchant, p_currency, v ->> 'key', v ->> 'kind', NULL, 'house', (v ->> 'payee')::bigint, NULL,
                                           p_shards, (v ->> 'amount')::bigint, false, v -> 'memo');
    ELSE
      BEGIN
        SELECT * INTO r FROM ledger_transfer(p_merchant, p_currency, v ->> 'key', v ->> 'kind', (v ->> 'payer')::bigint, NULL, (v ->> 'payee')::bigint, NULL,
                                             p_shards, (v ->> 'amount')::bigint, false, v -> 'memo');
      EXCEPTION WHEN SQLSTATE 'LD001' THEN
        o_transfer := NULL;
        o_events := 0;
        RETURN NEXT;
        CONTINUE;
      END;
    END IF;
    IF r.o_outcome IN ('same_account', 'mismatch') THEN
      RAISE EXCEPTION 'agent payout transfer %: %', v ->> 'key', r.o_outcome;
    END IF;
    o_transfer := r.o_transfer;
    o_events := r.o_events;
    RETURN NEXT;
  END LOOP;
END $$;
