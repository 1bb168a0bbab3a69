-- Vendor rollbacks (a walk-through's finding): a rollback must name the bet's own round (another
-- round's reference refunded the bet and showed that reference in the player's records), and a bet
-- whose round a paying win settled after it can no longer be rolled back (BET_SETTLED): the player kept
-- the win and got the stake back. A lost round (closed by a win of 0) may still be voided. vendor_money as in 025, with those two checks in the rollback branch.
CREATE OR REPLACE FUNCTION vendor_money(p_call text, p_merchant text, p_currency text, p_trial_types int[], p_vendor text,
  p_tx text, p_member bigint, p_round text, p_game text, p_amount bigint, p_ref text, p_token bytea,
  p_shards int, p_errors jsonb,
  OUT o_http int, OUT o_response jsonb, OUT o_events int)
LANGUAGE plpgsql AS $$
DECLARE
  look record;
  bet record;
  v_outcome text;
  v_ev int := 0;
  v_refusal text;
  v_bet_found boolean := false;
  -- The rollup row this call changes (member_bet_hours), if any.
  v_roll boolean := false;
  v_rolled_back boolean := false;
  v_hour timestamptz;
  v_dcount int := 0;
  v_dbets bigint := 0;
  v_dpay bigint := 0;
BEGIN
  o_events := 0;
  IF p_ref IS NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext(p_merchant || ':' || p_vendor || ':' || p_tx));
  ELSE
    PERFORM pg_advisory_xact_lock(k) FROM (
      SELECT DISTINCT hashtext(p_merchant || ':' || p_vendor || ':' || id) AS k FROM unnest(ARRAY[p_tx, p_ref]) AS id ORDER BY 1
    ) keys;
  END IF;
  -- Everything the checks read, in one statement: the player, an earlier call with this id, the
  -- game session of the token, a rollback that came before this bet, and (a win) the round's bet.
  SELECT mb.id AS m_id, mb.status AS m_status, mb.type AS m_type, mb.merchant_code AS m_merchant,
         vt.kind, vt.member_id, vt.round_id, vt.amount, vt.ref_transaction_id, vt.response, vt.http_status,
         gs.member_id AS s_member, gs.expires_at > now() AND gs.revoked_at IS NULL AS s_live, gs.game_code AS s_game,
         (p_call = 'bet' AND EXISTS (SELECT 1 FROM vendor_rollback_marks WHERE merchant_code = p_merchant AND vendor = p_vendor AND bet_transaction_id = p_tx)) AS marked,
         (p_call = 'win' AND EXISTS (SELECT 1 FROM vendor_transactions b WHERE b.round_id = p_round AND b.vendor = p_vendor AND b.merchant_code = p_merchant
                                       AND b.member_id = p_member AND b.kind = 'bet' AND b.status = 'applied')) AS has_bet
    INTO look
    FROM (SELECT 1) one
    LEFT JOIN members mb ON mb.id = p_member
    LEFT JOIN vendor_transactions vt ON vt.merchant_code = p_merchant AND vt.vendor = p_vendor AND vt.transaction_id = p_tx
    LEFT JOIN game_sessions gs ON p_token IS NOT NULL AND gs.token_hash = p_token AND gs.merchant_code = p_merchant AND gs.vendor = p_vendor;
  -- No such player (a win or rollback also needs this merchant's player): nothing is recorded.
  IF look.m_id IS NULL OR (p_call <> 'bet' AND look.m_merchant <> p_merchant) THEN
    o_http := (p_errors->'USER_NOT_FOUND'->>'status')::int;
    o_response := jsonb_build_object('code', 'USER_NOT_FOUND', 'message', p_errors->'USER_NOT_FOUND'->>'message');
    RETURN;
  END IF;
  IF look.kind IS NOT NULL THEN
    IF look.kind = p_call AND look.member_id = p_member AND look.round_id = p_round
       AND (CASE WHEN p_call = 'rollback' THEN look.ref_transaction_id IS NOT DISTINCT FROM p_ref ELSE look.amount = p_amount END) THEN
      o_http := look.http_status;
      o_response := CASE WHEN look.http_status >= 400 THEN look.response ELSE look.response || '{"replayed": true}'::jsonb END;
    ELSE
      o_http := (p_errors->'TRANSACTION_CONFLICT'->>'status')::int;
      o_response := jsonb_build_object('code', 'TRANSACTION_CONFLICT', 'message', p_errors->'TRANSACTION_CONFLICT'->>'message');
    END IF;
    RETURN;
  END IF;

  IF p_call = 'bet' THEN
    -- A live, unrevoked game session of this player, for this game.
    IF look.s_member IS NULL OR look.s_member <> p_member OR NOT look.s_live OR look.s_game <> p_game THEN
      v_refusal := 'GAME_TOKEN_INVALID';
    ELSIF look.m_status <> 'active' THEN
      v_refusal := 'ACCOUNT_DISABLED';
    ELSIF look.m_type = ANY (p_trial_types) THEN
      v_refusal := 'TRIAL_FORBIDDEN';
    ELSIF look.marked THEN
      v_refusal := 'BET_ROLLED_BACK';
    END IF;
  ELSIF p_call = 'win' THEN
    -- A win settles a bet this player placed in this round: an expired or revoked token is fine
    -- (logout, disable or exclusion after the bet must not strand it), another player's is not.
    -- With no accepted bet in the round there is nothing to settle: an account that may not play
    -- real money is told so, any other gets BET_NOT_FOUND.
    IF p_token IS NOT NULL AND (look.s_member IS NULL OR look.s_member <> p_member) THEN
      v_refusal := 'GAME_TOKEN_INVALID';
    ELSIF NOT look.has_bet THEN
      v_refusal := CASE WHEN look.m_status <> 'active' THEN 'ACCOUNT_DISABLED'
                        WHEN look.m_type = ANY (p_trial_types) THEN 'TRIAL_FORBIDDEN'
                        ELSE 'BET_NOT_FOUND' END;
    END IF;
  ELSE
    SELECT kind, member_id, round_id, amount, status, created_at INTO bet FROM vendor_transactions
      WHERE merchant_code = p_merchant AND vendor = p_vendor AND transaction_id = p_ref FOR UPDATE;
    v_bet_found := FOUND;
    -- The bet named must be this player's bet of this round (another round's reference was refunded).
    IF v_bet_found AND (bet.kind <> 'bet' OR bet.member_id <> p_member OR bet.round_id <> p_round) THEN
      v_refusal := 'TRANSACTION_CONFLICT';
    -- A paying win of the round after the bet settled it: refunding the stake too would leave the player
    -- both. (A win of 0 closed a lost round: voiding it returns the stake, nothing was paid. A win before
    -- the bet, in a round of many bets such as fishing, settled earlier bets, not this one.)
    ELSIF v_bet_found AND bet.status = 'applied' AND EXISTS (
      SELECT 1 FROM vendor_transactions w
       WHERE w.round_id = bet.round_id AND w.vendor = p_vendor AND w.merchant_code = p_merchant
         AND w.member_id = p_member AND w.kind = 'win' AND w.status = 'applied' AND w.amount > 0 AND w.created_at >= bet.created_at) THEN
      v_refusal := 'BET_SETTLED';
    END IF;
  END IF;

  IF v_refusal IS NULL THEN
    BEGIN
      IF p_call = 'bet' THEN
        SELECT lt.o_outcome, lt.o_events INTO v_outcome, v_ev FROM ledger_transfer(p_merchant, p_currency, 'vendor:' || p_vendor || ':' || p_tx, 'bet', p_member, NULL, NULL, 'game', p_shards,
          p_amount, false, jsonb_build_object('vendor', p_vendor, 'round', p_round, 'game', p_game, 'ref', p_tx)) lt;
      ELSIF p_call = 'win' AND p_amount > 0 THEN
        SELECT lt.o_outcome, lt.o_events INTO v_outcome, v_ev FROM ledger_transfer(p_merchant, p_currency, 'vendor:' || p_vendor || ':' || p_tx, 'win', NULL, 'game', p_member, NULL, p_shards,
          p_amount, false, jsonb_build_object('vendor', p_vendor, 'round', p_round, 'game', p_game, 'ref', p_tx)) lt;
      ELSIF p_call = 'rollback' THEN
        IF NOT v_bet_found THEN
          -- Before its bet: remember it, so the bet is refused when it arrives.
          INSERT INTO vendor_rollback_marks (merchant_code, vendor, bet_transaction_id, rollback_transaction_id)
            VALUES (p_merchant, p_vendor, p_ref, p_tx) ON CONFLICT DO NOTHING;
        ELSIF bet.status = 'applied' THEN
          -- Always the original amount of the bet.
          SELECT lt.o_outcome, lt.o_events INTO v_outcome, v_ev FROM ledger_transfer(p_merchant, p_currency, 'vendor:' || p_vendor || ':rollback:' || p_ref, 'rollback', NULL, 'game', p_member, NULL, p_shards,
            bet.amount, false, jsonb_build_object('vendor', p_vendor, 'round', p_round, 'ref', p_ref, 'rollback', p_tx)) lt;
          IF v_outcome <> 'mismatch' THEN
            UPDATE vendor_transactions SET status = 'rolled_back' WHERE merchant_code = p_merchant AND vendor = p_vendor AND transaction_id = p_ref;
            v_rolled_back := true;
          END IF;
        END IF;
      END IF;
      IF v_outcome = 'mismatch' THEN
        v_refusal := 'IDEMPOTENCY_MISMATCH';
      ELSE
        o_events := v_ev;
      END IF;
    EXCEPTION WHEN SQLSTATE 'LD001' THEN
      v_refusal := 'INSUFFICIENT_FUNDS';
      o_events := 0;
    END;
  END IF;

  -- The rollup moves with the money: an accepted bet adds one bet and its amount to this hour, a paid
  -- win its amount to this hour, a rollback takes the bet back out of the hour the bet was placed in.
  IF v_refusal IS NULL THEN
    IF p_call = 'bet' THEN
      v_roll := true; v_hour := date_trunc('hour', now(), 'UTC'); v_dcount := 1; v_dbets := p_amount;
    ELSIF p_call = 'win' AND p_amount > 0 THEN
      v_roll := true; v_hour := date_trunc('hour', now(), 'UTC'); v_dpay := p_amount;
    ELSIF v_rolled_back THEN
      -- (bet is read only here: for a bet or a win it was never assigned.)
      v_roll := true; v_hour := date_trunc('hour', bet.created_at, 'UTC'); v_dcount := -1; v_dbets := -bet.amount;
    END IF;
  END IF;

  IF v_refusal IS NOT NULL THEN
    o_http := (p_errors->v_refusal->>'status')::int;
    o_response := jsonb_build_object('code', v_refusal, 'message', p_errors->v_refusal->>'message');
  ELSE
    o_http := 200;
    o_response := jsonb_build_object('transactionId', p_tx, 'currency', p_currency, 'replayed', false,
      'balance', COALESCE((SELECT a.balance - a.held FROM ledger_accounts a WHERE a.member_id = p_member AND a.currency = p_currency), 0));
  END IF;
  -- The call's record and the rollup row in one statement (a CTE that inserts nothing when v_roll is false).
  WITH roll AS (
    INSERT INTO member_bet_hours AS h (member_id, hour, bet_count, valid_bets, payout)
      SELECT p_member, v_hour, v_dcount, v_dbets, v_dpay WHERE v_roll
      ON CONFLICT (member_id, hour) DO UPDATE SET bet_count = h.bet_count + EXCLUDED.bet_count,
        valid_bets = h.valid_bets + EXCLUDED.valid_bets, payout = h.payout + EXCLUDED.payout
  )
  INSERT INTO vendor_transactions (merchant_code, vendor, transaction_id, kind, member_id, round_id, game_code, amount, ref_transaction_id, status, response, http_status)
    VALUES (p_merchant, p_vendor, p_tx, p_call, p_member, p_round, p_game, p_amount, p_ref,
            CASE WHEN v_refusal IS NULL THEN 'applied' ELSE 'refused' END, o_response, o_http);
END $$;

