-- A batch of grabs pays its winners with set-based statements instead of one ledger_transfer each
-- (issue 14: 10,000 grabs within a second). red_envelope_grab_many (068) ran, per winner, a
-- ledger_transfer (its account lookups, the transfer row, two balance updates, two entries, the
-- balance.changed), an outbox_emit for envelope.grabbed and a balance read: about a dozen statements
-- inside PL/pgSQL, ~0.3 ms per winner, so a batch of 500 held the escrow shard rows (and with them every
-- other batch of the envelope) for ~150 ms. Measured before this migration on PostgreSQL: 10,000 grabs of one
-- envelope in sequential batches of 500 took 2.9-4.0 s, a batch 147-175 ms (median).
--
-- Phase 1 (the checks and the claim of the shares) is 068's, unchanged. Phase 2 now writes what
-- ledger_transfer wrote for each winner, row for row, with one statement per table:
--   * the winners' member accounts (created if missing) and the escrow shard rows their keys fall on
--     (ledger_system_account once per distinct shard) are locked as before, in the ledger's one order
--     (member accounts by id, then system accounts by id);
--   * ledger_transfers: one row per winner, key envelope:<id>:<member>, the same request hash, kind,
--     debit (the key's escrow shard), credit (the member's account), amount, status 'posted' and memo as
--     ledger_transfer writes. A key that already has a transfer (impossible while the share's unique
--     index holds, checked anyway) raises LD002: the batch rolls back and the gateway runs its grabs
--     alone, where ledger_transfer tells a replay from a mismatch as before;
--   * ledger_accounts: each member account + its share (one winner per account in a batch), each escrow
--     shard - the sum of its winners' shares, under the same guards as ledger_apply (a refused guard
--     raises LD001 and nothing of the batch stays; escrow shards allow negative rows, as before);
--   * ledger_entries: two per transfer, the member's leg first as ledger_post_legs writes them, each with
--     its balance after: the member's new balance, and for a shard row the running balance in the order
--     of the transfers (member id order, as the old loop applied them);
--   * outbox: per winner balance.changed (as ledger_announce builds it) then envelope.grabbed, each
--     audience's seq raised by 2 in one upsert (audience rows locked in audience order, as emitEvents
--     does, after every account row), the rows written in winner order with consecutive seqs, each with
--     its grab's own request id, and entered in outbox_pending.
-- Same signature and outputs: red-envelopes-service.ts is unchanged.
CREATE OR REPLACE FUNCTION red_envelope_grab_many(p_merchant text, p_envelope bigint, p_members bigint[], p_shards int, p_request_ids text[])
RETURNS TABLE (o_member bigint, o_outcome text, o_amount bigint, o_share int, o_transfer bigint, o_balance bigint, o_available bigint,
  o_events int, o_rg_kind text, o_rg_until timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  e record;
  c record;
  v_start int;
  v_want bigint[] := '{}';
  v_want_rids text[] := '{}';
  v_idx int[];
  n int;
  v_won bigint[] := '{}';
  v_rids text[] := '{}';
  v_shares int[] := '{}';
  v_amounts bigint[] := '{}';
  v_escrow bigint[];
  v_maccts bigint[];
  v_transfers bigint[];
  v_balances bigint[];
  v_helds bigint[];
  v_rows int;
  i int;
BEGIN
  SELECT id, currency, status, share_count, audience_kind, expires_at <= now() AS past
    INTO e FROM red_envelopes WHERE id = p_envelope AND merchant_code = p_merchant;
  IF NOT FOUND THEN
    RETURN QUERY SELECT DISTINCT u.m, 'not_found'::text, NULL::bigint, NULL::int, NULL::bigint, NULL::bigint, NULL::bigint, 0, NULL::text, NULL::timestamptz
      FROM unnest(p_members) AS u(m);
    RETURN;
  END IF;

  -- Phase 1 (as 068): the checks of each distinct member (the first request id given for it).
  FOR c IN
    SELECT DISTINCT ON (u.m) u.m, u.rid, x.kind AS rg_kind, x.ends_at AS rg_until, x.kind IS NOT NULL AS excluded,
           (e.audience_kind = 'all' OR EXISTS (SELECT 1 FROM red_envelope_targets rt WHERE rt.envelope_id = p_envelope AND rt.member_id = u.m)) AS targeted,
           EXISTS (SELECT 1 FROM red_envelope_shares s WHERE s.envelope_id = p_envelope AND s.member_id = u.m) AS grabbed
      FROM unnest(p_members, p_request_ids) WITH ORDINALITY AS u(m, rid, ord)
      LEFT JOIN LATERAL (SELECT x.kind, x.ends_at FROM rg_exclusions x
                           WHERE x.member_id = u.m AND x.ended_at IS NULL AND x.starts_at <= now() AND (x.ends_at IS NULL OR x.ends_at > now())
                           ORDER BY x.ends_at DESC NULLS FIRST LIMIT 1) x ON true
      ORDER BY u.m, u.ord
  LOOP
    o_member := c.m;
    o_rg_kind := NULL; o_rg_until := NULL;
    IF c.excluded THEN
      o_outcome := 'rg_excluded';
      o_rg_kind := c.rg_kind;
      o_rg_until := c.rg_until;
    ELSIF NOT c.targeted THEN
      o_outcome := 'not_eligible';
    ELSIF c.grabbed THEN
      o_outcome := 'already_grabbed';
    ELSIF e.status <> 'open' OR e.past THEN
      o_outcome := 'expired';
    ELSE
      v_want := v_want || c.m;
      v_want_rids := v_want_rids || c.rid;
      CONTINUE;
    END IF;
    RETURN NEXT;
  END LOOP;
  o_amount := NULL; o_share := NULL; o_transfer := NULL; o_balance := NULL; o_available := NULL; o_events := 0;
  o_rg_kind := NULL; o_rg_until := NULL;
  IF cardinality(v_want) = 0 THEN
    RETURN;
  END IF;

  -- The claim (as 068): free shares locked SKIP LOCKED from a random start, given in member id order.
  v_start := CASE WHEN e.share_count > 1 THEN floor(random() * e.share_count)::int ELSE 0 END;
  SELECT COALESCE(array_agg(f.idx), '{}') INTO v_idx FROM (
    SELECT idx FROM red_envelope_shares WHERE envelope_id = p_envelope AND idx >= v_start AND member_id IS NULL AND refunded_at IS NULL
    ORDER BY idx LIMIT cardinality(v_want) FOR UPDATE SKIP LOCKED) f;
  IF cardinality(v_idx) < cardinality(v_want) AND v_start > 0 THEN
    SELECT v_idx || COALESCE(array_agg(f.idx), '{}') INTO v_idx FROM (
      SELECT idx FROM red_envelope_shares WHERE envelope_id = p_envelope AND idx < v_start AND member_id IS NULL AND refunded_at IS NULL
      ORDER BY idx LIMIT cardinality(v_want) - cardinality(v_idx) FOR UPDATE SKIP LOCKED) f;
  END IF;
  n := cardinality(v_idx);
  FOR i IN 1 .. n LOOP
    UPDATE red_envelope_shares s SET member_id = v_want[i], claimed_at = now()
      WHERE s.envelope_id = p_envelope AND s.idx = v_idx[i]
      RETURNING s.amount INTO o_amount;
    v_won := v_won || v_want[i];
    v_rids := v_rids || v_want_rids[i];
    v_shares := v_shares || v_idx[i];
    v_amounts := v_amounts || o_amount;
  END LOOP;
  IF n < cardinality(v_want) THEN
    o_outcome := CASE WHEN EXISTS (SELECT 1 FROM red_envelope_shares WHERE envelope_id = p_envelope AND member_id IS NULL AND refunded_at IS NULL)
                      THEN 'busy' ELSE 'empty' END;
    FOR i IN n + 1 .. cardinality(v_want) LOOP
      o_member := v_want[i];
      RETURN NEXT;
    END LOOP;
  END IF;

  IF n = 0 THEN
    RETURN;
  END IF;

  -- Phase 2, locks: the winners' accounts (those without one get it, in one insert, as
  -- ledger_member_account would create it), then the escrow shard rows, each set
  -- in id order (member accounts by id, then system accounts by id: the ledger's one order).
  INSERT INTO ledger_accounts (merchant_code, kind, member_id, currency)
    SELECT p_merchant, 'member', w.m, e.currency FROM unnest(v_won) AS w(m)
     WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.member_id = w.m AND a.currency = e.currency)
     ORDER BY w.m
    ON CONFLICT (member_id, currency) WHERE member_id IS NOT NULL DO NOTHING;
  SELECT array_agg(a.id ORDER BY w.ord) INTO v_maccts
    FROM unnest(v_won) WITH ORDINALITY AS w(m, ord) JOIN ledger_accounts a ON a.member_id = w.m AND a.currency = e.currency;
  PERFORM 1 FROM ledger_accounts a WHERE a.id = ANY(v_maccts) ORDER BY a.id FOR UPDATE;
  -- Each key's shard, as ledger_transfer picks it; each distinct shard's row looked up (or created) once.
  WITH k AS (
    SELECT w.ord, (get_byte(d.h, 0) * 256 + get_byte(d.h, 1)) % p_shards AS shard
      FROM unnest(v_won) WITH ORDINALITY AS w(m, ord)
      CROSS JOIN LATERAL (SELECT sha256(convert_to('envelope:' || p_envelope || ':' || w.m, 'UTF8')) AS h) d
  ), s AS (
    SELECT ks.shard, ledger_system_account(p_merchant, 'envelope', e.currency, ks.shard) AS id FROM (SELECT DISTINCT shard FROM k) ks
  )
  SELECT array_agg(s.id ORDER BY k.ord) INTO v_escrow FROM k JOIN s ON s.shard = k.shard;
  PERFORM 1 FROM ledger_accounts a WHERE a.id = ANY(v_escrow) ORDER BY a.id FOR UPDATE;

  -- The transfers, in winner order, as ledger_transfer writes them.
  WITH w AS (
    SELECT u.ord, u.m, u.amount, u.share, u.esc, u.macct, 'envelope:' || p_envelope || ':' || u.m AS key
      FROM unnest(v_won, v_amounts, v_shares, v_escrow, v_maccts) WITH ORDINALITY AS u(m, amount, share, esc, macct, ord)
  ), ins AS (
    INSERT INTO ledger_transfers (merchant_code, idempotency_key, request_hash, kind, debit_account_id, credit_account_id, amount, status, memo)
    SELECT p_merchant, w.key,
           translate(rtrim(encode(sha256(convert_to(concat_ws('|', 'envelope.grab', 'senvelope', 'm' || w.m, w.amount::text, e.currency, 'post'), 'UTF8')), 'base64'), '='), '+/', '-_'),
           'envelope.grab', w.esc, w.macct, w.amount, 'posted', jsonb_build_object('envelopeId', p_envelope::text, 'share', w.share)
      FROM w ORDER BY w.ord
    ON CONFLICT (merchant_code, idempotency_key) DO NOTHING
    RETURNING id, idempotency_key
  )
  SELECT array_agg(ins.id ORDER BY w.ord) INTO v_transfers FROM w JOIN ins ON ins.idempotency_key = w.key;
  IF COALESCE(cardinality(v_transfers), 0) < n THEN
    RAISE EXCEPTION 'ledger key of a grab of envelope % already used', p_envelope USING ERRCODE = 'LD002';
  END IF;

  -- The member legs (ledger_apply's guard), then the escrow legs summed per shard row.
  WITH upd AS (
    UPDATE ledger_accounts a SET balance = a.balance + u.amount
      FROM unnest(v_maccts, v_amounts) AS u(id, amount)
     WHERE a.id = u.id AND (a.allow_negative OR a.balance + u.amount - a.held >= 0) AND a.held >= 0
    RETURNING a.id, a.balance, a.held
  )
  SELECT array_agg(upd.balance ORDER BY w.ord), array_agg(upd.held ORDER BY w.ord) INTO v_balances, v_helds
    FROM unnest(v_maccts) WITH ORDINALITY AS w(id, ord) JOIN upd ON upd.id = w.id;
  IF COALESCE(cardinality(v_balances), 0) < n THEN
    RAISE EXCEPTION 'insufficient funds on a winner''s account of envelope %', p_envelope USING ERRCODE = 'LD001';
  END IF;
  WITH g AS (
    SELECT u.esc, sum(u.amount)::bigint AS s FROM unnest(v_escrow, v_amounts) AS u(esc, amount) GROUP BY u.esc
  ), upd AS (
    UPDATE ledger_accounts a SET balance = a.balance - g.s FROM g
     WHERE a.id = g.esc AND (a.allow_negative OR a.balance - g.s - a.held >= 0)
    RETURNING a.id, a.balance
  ), ent AS (
    -- balance after each leg: a shard row's final balance plus what the later legs of the batch took.
    INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after)
    SELECT x.transfer, x.account, x.amount, x.after FROM (
      SELECT u.ord, 0 AS leg, u.tr AS transfer, u.macct AS account, u.amount, u.bal AS after
        FROM unnest(v_transfers, v_maccts, v_amounts, v_balances) WITH ORDINALITY AS u(tr, macct, amount, bal, ord)
      UNION ALL
      SELECT u.ord, 1, u.tr, u.esc, -u.amount,
             upd.balance + COALESCE(sum(u.amount) OVER (PARTITION BY u.esc ORDER BY u.ord ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0)
        FROM unnest(v_transfers, v_escrow, v_amounts) WITH ORDINALITY AS u(tr, esc, amount, ord) JOIN upd ON upd.id = u.esc
    ) x ORDER BY x.ord, x.leg
  )
  SELECT count(*) INTO v_rows FROM upd;
  IF v_rows < (SELECT count(DISTINCT x) FROM unnest(v_escrow) AS x) THEN
    RAISE EXCEPTION 'insufficient funds on an escrow row of envelope %', p_envelope USING ERRCODE = 'LD001';
  END IF;

  -- The events: per winner balance.changed (as ledger_announce) then envelope.grabbed, with its own request id.
  WITH w AS (
    SELECT u.ord, u.m, u.amount, u.tr, u.bal, u.held, NULLIF(u.rid, '') AS rid, 'user:' || u.m AS audience
      FROM unnest(v_won, v_amounts, v_transfers, v_balances, v_helds, v_rids) WITH ORDINALITY AS u(m, amount, tr, bal, held, rid, ord)
  ), s AS (
    INSERT INTO audience_seq AS a (audience, seq) SELECT w.audience, 2 FROM w ORDER BY w.audience
      ON CONFLICT (audience) DO UPDATE SET seq = a.seq + EXCLUDED.seq
    RETURNING a.audience, a.seq
  ), o AS (
    INSERT INTO outbox (id, merchant_code, audience, seq, type, v, payload, at, request_id)
    SELECT gen_random_uuid(), p_merchant, w.audience, s.seq - 2 + ev.k, ev.type, 1, ev.payload, clock_timestamp(), w.rid
      FROM w JOIN s ON s.audience = w.audience
      CROSS JOIN LATERAL (VALUES
        (1, 'balance.changed', jsonb_build_object('memberId', w.m, 'currency', e.currency, 'balance', w.bal, 'available', w.bal - w.held,
                                                  'delta', w.amount, 'reason', 'envelope.grab', 'transferId', w.tr::text)),
        (2, 'envelope.grabbed', jsonb_build_object('envelopeId', p_envelope::text, 'amount', w.amount, 'transferId', w.tr::text))) AS ev(k, type, payload)
     ORDER BY w.ord, ev.k
    RETURNING pos
  )
  INSERT INTO outbox_pending (pos) SELECT pos FROM o;

  RETURN QUERY SELECT u.m, 'ok'::text, u.amount, u.share, u.tr, u.bal, u.bal - u.held, 2, NULL::text, NULL::timestamptz
    FROM unnest(v_won, v_amounts, v_shares, v_transfers, v_balances, v_helds) WITH ORDINALITY AS u(m, amount, share, tr, bal, held, ord)
    ORDER BY u.ord;
END $$;
