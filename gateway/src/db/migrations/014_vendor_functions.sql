-- A vendor money call (bet, win, rollback) as one server-side function run in its own transaction:
-- one round trip per call. The rules are the seamless wallet's (gateway/src/modules/provider/vendor-wallet.ts):
--   * every call takes an advisory lock on its transaction id, and a rollback also on the bet it
--     names (both in hash order, so two rollbacks cannot deadlock): a concurrent duplicate waits,
--     then replays, and a bet and its rollback cannot cross;
--   * a replay gets the stored answer, refusals included; the same id with another kind, player,
--     round or amount (rollback: another bet) is refused;
--   * checks (session, player standing, trial, earlier rollback) refuse;
--   * the money moves on the ledger (ledger_transfer) inside a block that is rolled back alone when
--     a guard refuses it (insufficient funds);
--   * the call is recorded last, once, with its answer (the player's available balance, or the
--     refusal), in the same transaction as the money: one row version, one set of key checks.
-- p_errors: { CODE: { status, message } } for the refusal codes (from the contracts' error catalogue).
-- o_http: 200 or the refusal's status; o_response: the stored answer; o_events: outbox rows written.
CREATE FUNCTION vendor_money(p_call text, p_merchant text, p_currency text, p_trial_types int[], p_vendor text,
  p_tx text, p_member bigint, p_round text, p_game text, p_amount bigint, p_ref text, p_token bytea,
  p_shards int, p_errors jsonb,
  OUT o_http int, OUT o_response jsonb, OUT o_events int)
LANGUAGE plpgsql AS $$
DECLARE
  m record;
  prior record;
  s record;
  bet record;
  v_outcome text;
  v_ev int := 0;
  v_refusal text;
  v_bet_found boolean := false;
BEGIN
  o_events := 0;
  SELECT id, status, type, merchant_code INTO m FROM members WHERE id = p_member;
  -- No such player (a win or rollback also needs this merchant's player): nothing is recorded.
  IF NOT FOUND OR (p_call <> 'bet' AND m.merchant_code <> p_merchant) THEN
    o_http := (p_errors->'USER_NOT_FOUND'->>'status')::int;
    o_response := jsonb_build_object('code', 'USER_NOT_FOUND', 'message', p_errors->'USER_NOT_FOUND'->>'message');
    RETURN;
  END IF;

  PERFORM pg_advisory_xact_lock(k) FROM (
    SELECT DISTINCT hashtext(p_merchant || ':' || p_vendor || ':' || id) AS k FROM unnest(ARRAY[p_tx, p_ref]) AS id WHERE id IS NOT NULL ORDER BY 1
  ) keys;
  SELECT kind, member_id, round_id, amount, ref_transaction_id, response, http_status INTO prior
    FROM vendor_transactions WHERE merchant_code = p_merchant AND vendor = p_vendor AND transaction_id = p_tx;
  IF FOUND THEN
    IF prior.kind = p_call AND prior.member_id = p_member AND prior.round_id = p_round
       AND (CASE WHEN p_call = 'rollback' THEN prior.ref_transaction_id IS NOT DISTINCT FROM p_ref ELSE prior.amount = p_amount END) THEN
      o_http := prior.http_status;
      o_response := CASE WHEN prior.http_status >= 400 THEN prior.response ELSE prior.response || '{"replayed": true}'::jsonb END;
    ELSE
      o_http := (p_errors->'TRANSACTION_CONFLICT'->>'status')::int;
      o_response := jsonb_build_object('code', 'TRANSACTION_CONFLICT', 'message', p_errors->'TRANSACTION_CONFLICT'->>'message');
    END IF;
    RETURN;
  END IF;

  IF p_call = 'bet' THEN
    SELECT member_id, expires_at > now() AS live INTO s FROM game_sessions WHERE token_hash = p_token AND merchant_code = p_merchant AND vendor = p_vendor;
    IF NOT FOUND OR s.member_id <> p_member OR NOT s.live THEN
      v_refusal := 'GAME_TOKEN_INVALID';
    ELSIF m.status <> 'active' THEN
      v_refusal := 'ACCOUNT_DISABLED';
    ELSIF m.type = ANY (p_trial_types) THEN
      v_refusal := 'TRIAL_FORBIDDEN';
    ELSIF EXISTS (SELECT 1 FROM vendor_rollback_marks WHERE merchant_code = p_merchant AND vendor = p_vendor AND bet_transaction_id = p_tx) THEN
      v_refusal := 'BET_ROLLED_BACK';
    END IF;
  ELSIF p_call = 'win' THEN
    -- A win settles a round that began under a live session: an expired token is fine, another player's is not.
    IF p_token IS NOT NULL THEN
      SELECT member_id INTO s FROM game_sessions WHERE token_hash = p_token AND merchant_code = p_merchant AND vendor = p_vendor;
      IF NOT FOUND OR s.member_id <> p_member THEN
        v_refusal := 'GAME_TOKEN_INVALID';
      END IF;
    END IF;
  ELSE
    SELECT kind, member_id, amount, status INTO bet FROM vendor_transactions
      WHERE merchant_code = p_merchant AND vendor = p_vendor AND transaction_id = p_ref FOR UPDATE;
    v_bet_found := FOUND;
    IF v_bet_found AND (bet.kind <> 'bet' OR bet.member_id <> p_member) THEN
      v_refusal := 'TRANSACTION_CONFLICT';
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

  IF v_refusal IS NOT NULL THEN
    o_http := (p_errors->v_refusal->>'status')::int;
    o_response := jsonb_build_object('code', v_refusal, 'message', p_errors->v_refusal->>'message');
  ELSE
    o_http := 200;
    o_response := jsonb_build_object('transactionId', p_tx, 'currency', p_currency, 'replayed', false,
      'balance', COALESCE((SELECT a.balance - a.held FROM ledger_accounts a WHERE a.member_id = p_member AND a.currency = p_currency), 0));
  END IF;
  INSERT INTO vendor_transactions (merchant_code, vendor, transaction_id, kind, member_id, round_id, game_code, amount, ref_transaction_id, status, response, http_status)
    VALUES (p_merchant, p_vendor, p_tx, p_call, p_member, p_round, p_game, p_amount, p_ref,
            CASE WHEN v_refusal IS NULL THEN 'applied' ELSE 'refused' END, o_response, o_http);
END $$;
