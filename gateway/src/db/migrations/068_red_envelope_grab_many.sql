-- Many grabs of ONE envelope in one statement and one commit (issue 14: 10,000 grabs within a second).
-- red_envelope_grab (067) costs one transaction, hence one WAL flush, per grab. The gateway now
-- collects the grabs of an envelope that arrive while one of its statements is in flight and sends
-- them together here (red-envelopes-service.ts). Each grab keeps everything it had alone: the same
-- checks in the same order, one share, its own ledger transfer (key envelope:<id>:<member>), its own
-- request id on its events (balance.changed and envelope.grabbed), and the same outputs, one row per
-- distinct member (o_member says whose).
--
-- Locking, so that no cycle can form with another batch (another node, or a second batch in flight
-- on this one), with red_envelope_grab, or with the expiry:
--   * phase 1 checks each member, then locks as many free shares as members passed, with FOR UPDATE
--     SKIP LOCKED in one index scan, and gives them out one by one in member id order. It never waits
--     for a share: members left without one while some share looks free (held by a grab still running,
--     or by the expiry) get 'busy', and the gateway runs those grabs again alone through
--     red_envelope_grab, which waits holding nothing (063); when none looks free they get 'empty'.
--     Giving a share can wait on the unique (envelope, member) index when the same member's grab runs
--     in another transaction. Members are given shares in id order in every batch (two batches with the
--     same two players wait in the same order), and phase 1 holds only share rows, which nobody waits
--     for while holding anything, so such a wait cannot close a cycle. If the other grab committed, the
--     unique_violation (23505, red_envelope_shares_member) aborts this whole statement: nothing of the
--     batch stays and the gateway runs each of its grabs alone.
--   * phase 2 locks the ledger rows up front in the ledger's one order (member accounts by id, then
--     system accounts by id, as ledger_post_legs and every other transfer take them): the winners'
--     accounts, then the escrow shard rows their keys fall on. Then one ledger_transfer per winner
--     (members in id order) finds every row it updates already held.
-- o_outcome: as red_envelope_grab, plus 'busy' (run it again alone). The ledger key already used with
-- other terms raises LD002 (the whole batch rolls back; the gateway runs its grabs alone).
CREATE FUNCTION red_envelope_grab_many(p_merchant text, p_envelope bigint, p_members bigint[], p_shards int, p_request_ids text[])
RETURNS TABLE (o_member bigint, o_outcome text, o_amount bigint, o_share int, o_transfer bigint, o_balance bigint, o_available bigint,
  o_events int, o_rg_kind text, o_rg_until timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  e record;
  c record;
  t record;
  v_start int;
  v_want bigint[] := '{}';
  v_want_rids text[] := '{}';
  v_idx int[];
  n int;
  v_won bigint[] := '{}';
  v_rids text[] := '{}';
  v_shares int[] := '{}';
  v_amounts bigint[] := '{}';
  i int;
BEGIN
  SELECT id, currency, status, share_count, audience_kind, expires_at <= now() AS past
    INTO e FROM red_envelopes WHERE id = p_envelope AND merchant_code = p_merchant;
  IF NOT FOUND THEN
    RETURN QUERY SELECT DISTINCT u.m, 'not_found'::text, NULL::bigint, NULL::int, NULL::bigint, NULL::bigint, NULL::bigint, 0, NULL::text, NULL::timestamptz
      FROM unnest(p_members) AS u(m);
    RETURN;
  END IF;

  -- Phase 1: the checks of each distinct member (the first request id given for it), in 067's order.
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

  -- The claim: as many free shares as members who passed, locked SKIP LOCKED from a random start (one
  -- index scan for the whole batch, wrapping round once), taken into an array by a plain aggregate
  -- (run once: no join a recheck could run again, see 067), then given to the members in id order.
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
  -- One row at a time, members in id order: the order of the unique index waits (see the top).
  FOR i IN 1 .. n LOOP
    UPDATE red_envelope_shares s SET member_id = v_want[i], claimed_at = now()
      WHERE s.envelope_id = p_envelope AND s.idx = v_idx[i]
      RETURNING s.amount INTO o_amount;
    v_won := v_won || v_want[i];
    v_rids := v_rids || v_want_rids[i];
    v_shares := v_shares || v_idx[i];
    v_amounts := v_amounts || o_amount;
  END LOOP;
  -- The members left without a share: a share that looks free is held by a running grab (busy: the
  -- gateway waits for it alone, holding nothing), none at all means the envelope is empty.
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

  -- Phase 2: the ledger rows in the ledger's order (member accounts by id, then system accounts by id).
  -- (A winner without an account yet gets it now, as ledger_transfer would.)
  PERFORM ledger_member_account(p_merchant, w.m, e.currency) FROM unnest(v_won) AS w(m)
    WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.member_id = w.m AND a.currency = e.currency);
  PERFORM 1 FROM ledger_accounts a WHERE a.member_id = ANY(v_won) AND a.currency = e.currency ORDER BY a.id FOR UPDATE;
  PERFORM 1 FROM ledger_accounts a WHERE a.id IN (
      SELECT DISTINCT ledger_system_account(p_merchant, 'envelope', e.currency,
        (get_byte(d.h, 0) * 256 + get_byte(d.h, 1)) % p_shards)
      FROM (SELECT sha256(convert_to('envelope:' || p_envelope || ':' || w.m, 'UTF8')) AS h FROM unnest(v_won) AS w(m)) d)
    ORDER BY a.id FOR UPDATE;

  FOR i IN 1 .. cardinality(v_won) LOOP
    o_member := v_won[i];
    o_share := v_shares[i];
    o_amount := v_amounts[i];
    o_rg_kind := NULL; o_rg_until := NULL;
    -- This grab's request id on its own events ('' is no id: the outbox column default reads NULL).
    PERFORM set_config('portal.request_id', COALESCE(v_rids[i], ''), true);
    SELECT lt.o_outcome, lt.o_transfer, lt.o_events INTO t FROM ledger_transfer(p_merchant, e.currency, 'envelope:' || p_envelope || ':' || o_member, 'envelope.grab',
      NULL, 'envelope', o_member, NULL, p_shards, o_amount, false, jsonb_build_object('envelopeId', p_envelope::text, 'share', o_share)) lt;
    IF t.o_outcome = 'mismatch' THEN
      RAISE EXCEPTION 'ledger key envelope:%:% already used with other terms', p_envelope, o_member USING ERRCODE = 'LD002';
    END IF;
    o_transfer := t.o_transfer;
    PERFORM outbox_emit(p_merchant, 'user:' || o_member, 'envelope.grabbed',
      jsonb_build_object('envelopeId', p_envelope::text, 'amount', o_amount, 'transferId', o_transfer::text));
    o_events := t.o_events + 1;
    SELECT a.balance, a.balance - a.held INTO o_balance, o_available FROM ledger_accounts a WHERE a.member_id = o_member AND a.currency = e.currency;
    o_outcome := 'ok';
    RETURN NEXT;
  END LOOP;
END $$;
