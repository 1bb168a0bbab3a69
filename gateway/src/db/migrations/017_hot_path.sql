-- Fewer statements per money call. A vendor bet or win ran about thirty statements inside
-- PostgreSQL (each an executor start and end, with its relation locks and plan checks), and that,
-- not the commit, is most of its cost: a plain one-row insert transaction runs about ten times as
-- fast on the same machine. This migration takes out the statements that are not rules:
--
-- 1. Foreign keys whose referenced row is one hot row or a row the same transaction has just
--    written. Every insert into outbox, ledger_transfers and vendor_transactions ran a
--    SELECT ... FOR KEY SHARE on the merchant's single row: concurrent money calls all lock that
--    one row, and PostgreSQL builds a new MultiXact for each new set of lockers. The ledger rows'
--    references to ledger_accounts and ledger_transfers point at rows the same function has just
--    updated or inserted. What the keys guaranteed stays guaranteed: the only writers are the
--    functions of migrations 013, 014 and this one, which take the ids they write from rows they
--    have just read, locked or inserted, and the referenced rows are never deleted (the triggers
--    below refuse it, and a merchant's code never changes). checkLedger() also reports entries or
--    transfers that point at no account or transfer.
-- 2. The outbox_pending trigger: outbox_emit (and emitEvents' batch statement) list the new row
--    in outbox_pending in the same statement as the insert, instead of a statement-level trigger
--    with a transition table that ran its own INSERT ... SELECT per event.
-- 3. In the ledger: the side of each leg (member or system account) comes from the caller instead
--    of two lookups, and a transfer's two entries go in with one INSERT.
-- 4. In vendor_money: a bet or win (one transaction id) takes its advisory lock with a plain call
--    instead of a query over an array, and the lock comes first, then the player, an earlier call
--    with the same id, the token's game session and an earlier rollback of this bet are read in one
--    SELECT instead of four or five statements. Same rules, same answers.

ALTER TABLE outbox DROP CONSTRAINT outbox_merchant_code_fkey;
ALTER TABLE vendor_transactions DROP CONSTRAINT vendor_transactions_merchant_code_fkey;
ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_merchant_code_fkey,
  DROP CONSTRAINT ledger_transfers_debit_account_id_fkey,
  DROP CONSTRAINT ledger_transfers_credit_account_id_fkey;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_transfer_id_fkey,
  DROP CONSTRAINT ledger_entries_account_id_fkey;

-- Merchants, ledger accounts and ledger transfers are never deleted, and a merchant's code never changes.
CREATE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are never deleted or renamed', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER merchants_keep BEFORE DELETE ON merchants FOR EACH ROW EXECUTE FUNCTION refuse_delete();
CREATE TRIGGER merchants_keep_code BEFORE UPDATE OF code ON merchants FOR EACH ROW WHEN (OLD.code IS DISTINCT FROM NEW.code) EXECUTE FUNCTION refuse_delete();
CREATE TRIGGER merchants_no_truncate BEFORE TRUNCATE ON merchants FOR EACH STATEMENT EXECUTE FUNCTION refuse_delete();
CREATE TRIGGER ledger_accounts_keep BEFORE DELETE ON ledger_accounts FOR EACH ROW EXECUTE FUNCTION refuse_delete();
CREATE TRIGGER ledger_accounts_keep_id BEFORE UPDATE OF id ON ledger_accounts FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION refuse_delete();
CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION refuse_delete();
CREATE TRIGGER ledger_transfers_keep BEFORE DELETE ON ledger_transfers FOR EACH ROW EXECUTE FUNCTION refuse_delete();
CREATE TRIGGER ledger_transfers_keep_id BEFORE UPDATE OF id ON ledger_transfers FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION refuse_delete();
CREATE TRIGGER ledger_transfers_no_truncate BEFORE TRUNCATE ON ledger_transfers FOR EACH STATEMENT EXECUTE FUNCTION refuse_delete();

DROP TRIGGER outbox_enqueue ON outbox;
DROP FUNCTION outbox_enqueue();

-- One statement: the audience's next seq (row lock: commit order = seq order), the row, and its
-- entry in the relay's work list.
CREATE OR REPLACE FUNCTION outbox_emit(p_merchant text, p_audience text, p_type text, p_payload jsonb,
  p_id uuid DEFAULT gen_random_uuid(), p_at timestamptz DEFAULT clock_timestamp()) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
BEGIN
  WITH s AS (
    INSERT INTO audience_seq AS a (audience, seq) VALUES (p_audience, 1)
      ON CONFLICT (audience) DO UPDATE SET seq = a.seq + 1 RETURNING a.seq
  ), o AS (
    INSERT INTO outbox (id, merchant_code, audience, seq, type, v, payload, at)
      SELECT p_id, p_merchant, p_audience, s.seq, p_type, 1, p_payload, p_at FROM s RETURNING pos, seq
  ), p AS (
    INSERT INTO outbox_pending (pos) SELECT pos FROM o
  )
  SELECT seq INTO v_seq FROM o;
  RETURN v_seq;
END $$;

-- Both legs (each side's kind known to the caller: p_*_system; NULL, as from ledger_resolve_hold,
-- looks it up), the two entries in one insert, then the announcements. Lock order as before: member accounts before system accounts,
-- then by id.
DROP FUNCTION ledger_post_legs(text, text, text, bigint, bigint, bigint, bigint, boolean);
CREATE FUNCTION ledger_post_legs(p_merchant text, p_currency text, p_kind text, p_transfer bigint,
  p_debit bigint, p_credit bigint, p_amount bigint, p_from_hold boolean,
  p_debit_system boolean DEFAULT NULL, p_credit_system boolean DEFAULT NULL) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
  d record;
  c record;
  v_debit_system boolean := p_debit_system;
  v_credit_system boolean := p_credit_system;
BEGIN
  IF v_debit_system IS NULL THEN
    SELECT member_id IS NULL INTO v_debit_system FROM ledger_accounts WHERE id = p_debit;
  END IF;
  IF v_credit_system IS NULL THEN
    SELECT member_id IS NULL INTO v_credit_system FROM ledger_accounts WHERE id = p_credit;
  END IF;
  IF (v_debit_system, p_debit) < (v_credit_system, p_credit) THEN
    d := ledger_apply(p_transfer, p_debit, -p_amount, CASE WHEN p_from_hold THEN -p_amount ELSE 0 END, false);
    c := ledger_apply(p_transfer, p_credit, p_amount, 0, false);
    INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after)
      VALUES (p_transfer, p_debit, -p_amount, d.o_balance), (p_transfer, p_credit, p_amount, c.o_balance);
  ELSE
    c := ledger_apply(p_transfer, p_credit, p_amount, 0, false);
    d := ledger_apply(p_transfer, p_debit, -p_amount, CASE WHEN p_from_hold THEN -p_amount ELSE 0 END, false);
    INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after)
      VALUES (p_transfer, p_credit, p_amount, c.o_balance), (p_transfer, p_debit, -p_amount, d.o_balance);
  END IF;
  RETURN ledger_announce(p_merchant, p_currency, d.o_member, d.o_balance, d.o_held, -p_amount, p_kind, p_transfer)
       + ledger_announce(p_merchant, p_currency, c.o_member, c.o_balance, c.o_held, p_amount, p_kind, p_transfer);
END $$;

-- As in migration 013, with the sides passed to ledger_post_legs.
CREATE OR REPLACE FUNCTION ledger_transfer(p_merchant text, p_currency text, p_key text, p_kind text,
  p_debit_member bigint, p_debit_system text, p_credit_member bigint, p_credit_system text, p_shards int,
  p_amount bigint, p_pending boolean, p_memo jsonb,
  OUT o_outcome text, OUT o_transfer bigint, OUT o_status text, OUT o_amount bigint, OUT o_created_at timestamptz, OUT o_events int)
LANGUAGE plpgsql AS $$
DECLARE
  -- Which of a system account's rows this transfer uses: from its key, so a retry lands on the same row.
  v_digest bytea := sha256(convert_to(p_key, 'UTF8'));
  v_shard int := (get_byte(v_digest, 0) * 256 + get_byte(v_digest, 1)) % p_shards;
  v_debit bigint;
  v_credit bigint;
  -- What the request was (base64url SHA-256, as the ledger has always stored it), so a retry with
  -- the same key but other terms is refused.
  v_hash text := translate(rtrim(encode(sha256(convert_to(concat_ws('|', p_kind,
    CASE WHEN p_debit_member IS NOT NULL THEN 'm' || p_debit_member ELSE 's' || p_debit_system END,
    CASE WHEN p_credit_member IS NOT NULL THEN 'm' || p_credit_member ELSE 's' || p_credit_system END,
    p_amount::text, p_currency, CASE WHEN p_pending THEN 'hold' ELSE 'post' END), 'UTF8')), 'base64'), '='), '+/', '-_');
  prior record;
  h record;
BEGIN
  o_events := 0;
  v_debit := CASE WHEN p_debit_member IS NOT NULL THEN ledger_member_account(p_merchant, p_debit_member, p_currency)
                  ELSE ledger_system_account(p_merchant, p_debit_system, p_currency, v_shard) END;
  v_credit := CASE WHEN p_credit_member IS NOT NULL THEN ledger_member_account(p_merchant, p_credit_member, p_currency)
                   ELSE ledger_system_account(p_merchant, p_credit_system, p_currency, v_shard) END;
  IF v_debit = v_credit THEN
    o_outcome := 'same_account';
    RETURN;
  END IF;
  INSERT INTO ledger_transfers (merchant_code, idempotency_key, request_hash, kind, debit_account_id, credit_account_id, amount, status, memo)
    VALUES (p_merchant, p_key, v_hash, p_kind, v_debit, v_credit, p_amount, CASE WHEN p_pending THEN 'pending' ELSE 'posted' END, p_memo)
    ON CONFLICT (merchant_code, idempotency_key) DO NOTHING
    RETURNING id, created_at INTO o_transfer, o_created_at;
  IF o_transfer IS NULL THEN
    SELECT id, request_hash, status, amount, created_at INTO prior FROM ledger_transfers WHERE merchant_code = p_merchant AND idempotency_key = p_key;
    IF prior.request_hash <> v_hash THEN
      o_outcome := 'mismatch';
      RETURN;
    END IF;
    o_outcome := 'replay';
    o_transfer := prior.id;
    o_status := prior.status;
    o_amount := prior.amount;
    o_created_at := prior.created_at;
    RETURN;
  END IF;
  o_outcome := 'ok';
  o_amount := p_amount;
  IF p_pending THEN
    o_status := 'pending';
    h := ledger_apply(o_transfer, v_debit, 0, p_amount, false);
    o_events := ledger_announce(p_merchant, p_currency, h.o_member, h.o_balance, h.o_held, 0, p_kind || '.hold', o_transfer);
  ELSE
    o_status := 'posted';
    o_events := ledger_post_legs(p_merchant, p_currency, p_kind, o_transfer, v_debit, v_credit, p_amount, false,
      p_debit_member IS NULL, p_credit_member IS NULL);
  END IF;
END $$;

-- As in migration 014, with the lock and lookups of item 4.
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
  -- game session of the token, and a rollback that came before this bet.
  SELECT mb.id AS m_id, mb.status AS m_status, mb.type AS m_type, mb.merchant_code AS m_merchant,
         vt.kind, vt.member_id, vt.round_id, vt.amount, vt.ref_transaction_id, vt.response, vt.http_status,
         gs.member_id AS s_member, gs.expires_at > now() AS s_live,
         (p_call = 'bet' AND EXISTS (SELECT 1 FROM vendor_rollback_marks WHERE merchant_code = p_merchant AND vendor = p_vendor AND bet_transaction_id = p_tx)) AS marked
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
    IF look.s_member IS NULL OR look.s_member <> p_member OR NOT look.s_live THEN
      v_refusal := 'GAME_TOKEN_INVALID';
    ELSIF look.m_status <> 'active' THEN
      v_refusal := 'ACCOUNT_DISABLED';
    ELSIF look.m_type = ANY (p_trial_types) THEN
      v_refusal := 'TRIAL_FORBIDDEN';
    ELSIF look.marked THEN
      v_refusal := 'BET_ROLLED_BACK';
    END IF;
  ELSIF p_call = 'win' THEN
    -- A win settles a round that began under a live session: an expired token is fine, another player's is not.
    IF p_token IS NOT NULL AND (look.s_member IS NULL OR look.s_member <> p_member) THEN
      v_refusal := 'GAME_TOKEN_INVALID';
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
