-- The grab claims exactly one share. 060/063 claimed with `UPDATE ... FROM (SELECT idx ... LIMIT 1 FOR
-- UPDATE SKIP LOCKED) f WHERE s.idx = f.idx`: a join whose subquery the planner may run again (a rescan
-- of the inner side, or the recheck of a row changed concurrently), and with SKIP LOCKED a second run
-- picks another free share, so one statement could claim two shares for one player. The second
-- claim hits the unique (envelope_id, member_id) index: seen once in CI's 2,000-grab storm as a
-- player's only grab answered ENVELOPE_ALREADY_GRABBED. The share is now picked by a scalar subquery
-- (`s.idx = (SELECT ...)`, evaluated once per statement), the usual form of a SKIP LOCKED claim.
-- Everything else is 063 unchanged.
CREATE OR REPLACE FUNCTION red_envelope_grab(p_merchant text, p_envelope bigint, p_member bigint, p_shards int, p_request_id text,
  OUT o_outcome text, OUT o_amount bigint, OUT o_share int, OUT o_transfer bigint, OUT o_balance bigint, OUT o_available bigint,
  OUT o_events int, OUT o_rg_kind text, OUT o_rg_until timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  e record;
  t record;
  v_start int;
  v_wait int;
BEGIN
  o_events := 0;
  IF p_request_id IS NOT NULL THEN
    PERFORM set_config('portal.request_id', p_request_id, true);
  END IF;
  SELECT id, currency, status, share_count, expires_at <= now() AS past,
         (audience_kind = 'all' OR EXISTS (SELECT 1 FROM red_envelope_targets rt WHERE rt.envelope_id = p_envelope AND rt.member_id = p_member)) AS targeted,
         EXISTS (SELECT 1 FROM red_envelope_shares s WHERE s.envelope_id = p_envelope AND s.member_id = p_member) AS grabbed
    INTO e FROM red_envelopes WHERE id = p_envelope AND merchant_code = p_merchant;
  IF NOT FOUND THEN
    o_outcome := 'not_found';
    RETURN;
  END IF;
  SELECT x.kind, x.ends_at INTO o_rg_kind, o_rg_until FROM rg_exclusions x
    WHERE x.member_id = p_member AND x.ended_at IS NULL AND x.starts_at <= now() AND (x.ends_at IS NULL OR x.ends_at > now())
    ORDER BY x.ends_at DESC NULLS FIRST LIMIT 1;
  IF FOUND THEN
    o_outcome := 'rg_excluded';
    RETURN;
  END IF;
  IF NOT e.targeted THEN
    o_outcome := 'not_eligible';
    RETURN;
  END IF;
  IF e.grabbed THEN
    o_outcome := 'already_grabbed';
    RETURN;
  END IF;
  IF e.status <> 'open' OR e.past THEN
    o_outcome := 'expired';
    RETURN;
  END IF;

  v_start := CASE WHEN e.share_count > 1 THEN floor(random() * e.share_count)::int ELSE 0 END;
  LOOP
    UPDATE red_envelope_shares s SET member_id = p_member, claimed_at = now()
      WHERE s.envelope_id = p_envelope
        AND s.idx = (SELECT idx FROM red_envelope_shares WHERE envelope_id = p_envelope AND idx >= v_start AND member_id IS NULL AND refunded_at IS NULL
                     ORDER BY idx LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING s.idx, s.amount INTO o_share, o_amount;
    EXIT WHEN FOUND;
    IF v_start > 0 THEN
      UPDATE red_envelope_shares s SET member_id = p_member, claimed_at = now()
        WHERE s.envelope_id = p_envelope
          AND s.idx = (SELECT idx FROM red_envelope_shares WHERE envelope_id = p_envelope AND idx < v_start AND member_id IS NULL AND refunded_at IS NULL
                       ORDER BY idx LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING s.idx, s.amount INTO o_share, o_amount;
      EXIT WHEN FOUND;
    END IF;
    -- Nothing free to skip to. A share that looks free (this statement's snapshot) is held by a grab
    -- still running (or the expiry): none at all means the envelope is empty.
    SELECT idx INTO v_wait FROM red_envelope_shares WHERE envelope_id = p_envelope AND member_id IS NULL AND refunded_at IS NULL ORDER BY idx LIMIT 1;
    IF NOT FOUND THEN
      o_outcome := 'empty';
      RETURN;
    END IF;
    -- Wait for its holder to finish, holding nothing: the row lock is taken in a subtransaction that
    -- is rolled back straight away (a deliberate error), which releases it. Then try again: the share
    -- is taken (the holder committed) or free (it rolled back).
    BEGIN
      PERFORM 1 FROM red_envelope_shares WHERE envelope_id = p_envelope AND idx = v_wait FOR UPDATE;
      RAISE EXCEPTION USING ERRCODE = 'LD0W0';
    EXCEPTION WHEN SQLSTATE 'LD0W0' THEN
      NULL;
    END;
    v_start := 0;
  END LOOP;

  SELECT lt.o_outcome, lt.o_transfer, lt.o_events INTO t FROM ledger_transfer(p_merchant, e.currency, 'envelope:' || p_envelope || ':' || p_member, 'envelope.grab',
    NULL, 'envelope', p_member, NULL, p_shards, o_amount, false, jsonb_build_object('envelopeId', p_envelope::text, 'share', o_share)) lt;
  IF t.o_outcome = 'mismatch' THEN
    RAISE EXCEPTION 'ledger key envelope:%:% already used with other terms', p_envelope, p_member USING ERRCODE = 'LD002';
  END IF;
  o_transfer := t.o_transfer;
  PERFORM outbox_emit(p_merchant, 'user:' || p_member, 'envelope.grabbed',
    jsonb_build_object('envelopeId', p_envelope::text, 'amount', o_amount, 'transferId', o_transfer::text));
  o_events := t.o_events + 1;
  SELECT a.balance, a.balance - a.held INTO o_balance, o_available FROM ledger_accounts a WHERE a.member_id = p_member AND a.currency = e.currency;
  o_outcome := 'ok';
END $$;
