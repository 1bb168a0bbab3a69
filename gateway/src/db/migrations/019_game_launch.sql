-- Finding 5 and 8 of issue 10 (security hardening).
--
-- Game launch: the launch URL no longer carries the vendor's game token. It carries a one-time
-- launch code (game_launches, only its hash kept) that lives LAUNCH_CODE_MS (60 s) and is bound to
-- the member, the member's portal session, the vendor and the game. The vendor's authenticate call
-- trades it, once (DELETE ... RETURNING: a second or concurrent use finds nothing), for the game
-- session token it then uses for balance and bet calls. A game session remembers the portal
-- session that launched it and is revoked with it (revoked_at): logout, password change, operator
-- disable and exclusion (revokeGameSessions in gateway/src/modules/provider/game-sessions.ts).
--
-- vendor_money, as in migration 017, with:
--   * a bet needs a live game session that is not revoked and was launched for the bet's game;
--   * a win needs an accepted bet of the same player in the same round (BET_NOT_FOUND otherwise,
--     or ACCOUNT_DISABLED / TRIAL_FORBIDDEN for an account that may not play real money). A win
--     (or rollback) of a bet placed before the account was disabled or the session revoked still
--     settles: the bet's money is already with the house and must come back or be paid.
--   Still one statement of lookups (the round's bet by the vendor_transactions_round index).

CREATE TABLE game_launches (
  code_hash bytea PRIMARY KEY,
  merchant_code text NOT NULL,
  member_id bigint NOT NULL,
  vendor text NOT NULL,
  game_code text NOT NULL,
  -- The portal session that launched the game (sessions.token_hash).
  session_hash bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX game_launches_member ON game_launches (member_id);
CREATE INDEX game_launches_session ON game_launches (session_hash);

ALTER TABLE game_sessions ADD COLUMN session_hash bytea, ADD COLUMN revoked_at timestamptz;
CREATE INDEX game_sessions_session ON game_sessions (session_hash);
-- Sessions opened before this migration came from reusable launch URLs: end them.
UPDATE game_sessions SET revoked_at = now() WHERE revoked_at IS NULL;

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
