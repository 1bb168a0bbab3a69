-- A red envelope grab as ONE server-side function, called once per grab outside an explicit
-- transaction: one round trip instead of seven (begin, checks, claim, ledger transfer, event,
-- balance, commit), so a share row and the escrow row are locked for the work itself and not for
-- network round trips (issue 14: 10,000 grabs within a second). The rules are the ones
-- red-envelopes-service.ts enforced statement by statement before:
--   * the checks, in this order: no such envelope of this merchant (not_found), the player excluded
--     (responsible gaming: rg_excluded, with the exclusion's kind and end), not in the audience
--     (not_eligible), already grabbed (already_grabbed), closed or past its end (expired);
--   * one free share claimed with FOR UPDATE SKIP LOCKED from a random start, so simultaneous grabs
--     take distinct rows without queueing on one another; when nothing is free to skip to, the
--     first free share is waited for (a grab still running may roll back and leave it free) and
--     only when none is left is the envelope empty (empty);
--   * the unique index on (envelope, member) refuses a second share of the same player even when
--     both grabs run at once: the second raises unique_violation (23505), which the caller maps
--     to ENVELOPE_ALREADY_GRABBED (no savepoint here: a subtransaction per grab costs more);
--   * escrow -> player through ledger_transfer (migrations 013 and 017: keyed envelope:<id>:<member>,
--     both entries, balance.changed in the outbox), then envelope.grabbed through outbox_emit, after
--     the transfer (lock order: account rows before audience rows).
-- o_outcome: 'ok' | 'not_found' | 'rg_excluded' | 'not_eligible' | 'already_grabbed' | 'expired'
-- | 'empty'. The ledger key already used with other terms raises LD002 (nothing of the grab stays).
-- p_request_id: the HTTP request's id for the outbox rows (migration 034), or NULL.
CREATE FUNCTION red_envelope_grab(p_merchant text, p_envelope bigint, p_member bigint, p_shards int, p_request_id text,
  OUT o_outcome text, OUT o_amount bigint, OUT o_share int, OUT o_transfer bigint, OUT o_balance bigint, OUT o_available bigint,
  OUT o_events int, OUT o_rg_kind text, OUT o_rg_until timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  e record;
  t record;
  v_start int;
BEGIN
  o_events := 0;
  -- Outside db.tx nothing sets the request id with BEGIN: the outbox rows written below (its column
  -- default, migration 034) read it from this transaction-local setting.
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
  -- As rg-service.ts activeExclusion: the exclusion in force now (the one ending last).
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
  UPDATE red_envelope_shares s SET member_id = p_member, claimed_at = now()
    FROM (SELECT idx FROM red_envelope_shares WHERE envelope_id = p_envelope AND idx >= v_start AND member_id IS NULL AND refunded_at IS NULL
          ORDER BY idx LIMIT 1 FOR UPDATE SKIP LOCKED) f
    WHERE s.envelope_id = p_envelope AND s.idx = f.idx RETURNING s.idx, s.amount INTO o_share, o_amount;
  IF NOT FOUND AND v_start > 0 THEN
    UPDATE red_envelope_shares s SET member_id = p_member, claimed_at = now()
      FROM (SELECT idx FROM red_envelope_shares WHERE envelope_id = p_envelope AND member_id IS NULL AND refunded_at IS NULL
            ORDER BY idx LIMIT 1 FOR UPDATE SKIP LOCKED) f
      WHERE s.envelope_id = p_envelope AND s.idx = f.idx RETURNING s.idx, s.amount INTO o_share, o_amount;
  END IF;
  IF NOT FOUND THEN
    -- Every free share is held by a grab still running (or the expiry): wait for the first one; a
    -- share its holder took (or returned) no longer matches when the lock is granted, and the next
    -- free one is tried.
    UPDATE red_envelope_shares s SET member_id = p_member, claimed_at = now()
      FROM (SELECT idx FROM red_envelope_shares WHERE envelope_id = p_envelope AND member_id IS NULL AND refunded_at IS NULL
            ORDER BY idx LIMIT 1 FOR UPDATE) f
      WHERE s.envelope_id = p_envelope AND s.idx = f.idx AND s.member_id IS NULL AND s.refunded_at IS NULL
      RETURNING s.idx, s.amount INTO o_share, o_amount;
  END IF;
  IF NOT FOUND THEN
    o_outcome := 'empty';
    RETURN;
  END IF;

  SELECT lt.o_outcome, lt.o_transfer, lt.o_events INTO t FROM ledger_transfer(p_merchant, e.currency, 'envelope:' || p_envelope || ':' || p_member, 'envelope.grab',
    NULL, 'envelope', p_member, NULL, p_shards, o_amount, false, jsonb_build_object('envelopeId', p_envelope::text, 'share', o_share)) lt;
  IF t.o_outcome = 'mismatch' THEN
    -- Nothing may stay of this grab: the claim is undone by raising (the statement's transaction ends).
    RAISE EXCEPTION 'ledger key envelope:%:% already used with other terms', p_envelope, p_member USING ERRCODE = 'LD002';
  END IF;
  o_transfer := t.o_transfer;
  PERFORM outbox_emit(p_merchant, 'user:' || p_member, 'envelope.grabbed',
    jsonb_build_object('envelopeId', p_envelope::text, 'amount', o_amount, 'transferId', o_transfer::text));
  o_events := t.o_events + 1;
  SELECT a.balance, a.balance - a.held INTO o_balance, o_available FROM ledger_accounts a WHERE a.member_id = p_member AND a.currency = e.currency;
  o_outcome := 'ok';
END $$;
