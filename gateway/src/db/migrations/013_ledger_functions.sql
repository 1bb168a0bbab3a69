-- The ledger's and the vendor wallet's writes as server-side functions: one round trip per transfer
-- (and per vendor money call) instead of one per statement, so row locks are held for the work
-- itself and not for network round trips, and PostgreSQL keeps the plans. The rules are the same
-- as before (gateway/src/modules/wallet/ledger.ts documents them); ledger.ts and vendor-wallet.ts
-- are thin callers of these.

-- One event in the caller's transaction: the audience's seq rises by one under its row lock (commit
-- order = seq order, no gap on rollback). emitEvent (bus/outbox.ts) calls this too, with its own id and time.
CREATE FUNCTION outbox_emit(p_merchant text, p_audience text, p_type text, p_payload jsonb,
  p_id uuid DEFAULT gen_random_uuid(), p_at timestamptz DEFAULT clock_timestamp()) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
BEGIN
  INSERT INTO audience_seq AS s (audience, seq) VALUES (p_audience, 1)
    ON CONFLICT (audience) DO UPDATE SET seq = s.seq + 1 RETURNING s.seq INTO v_seq;
  INSERT INTO outbox (id, merchant_code, audience, seq, type, v, payload, at)
    VALUES (p_id, p_merchant, p_audience, v_seq, p_type, 1, p_payload, p_at);
  RETURN v_seq;
END $$;

CREATE FUNCTION ledger_member_account(p_merchant text, p_member bigint, p_currency text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  SELECT id INTO v_id FROM ledger_accounts WHERE member_id = p_member AND currency = p_currency;
  IF FOUND THEN RETURN v_id; END IF;
  INSERT INTO ledger_accounts (merchant_code, kind, member_id, currency) VALUES (p_merchant, 'member', p_member, p_currency)
    ON CONFLICT (member_id, currency) WHERE member_id IS NOT NULL DO NOTHING RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    SELECT id INTO v_id FROM ledger_accounts WHERE member_id = p_member AND currency = p_currency;
  END IF;
  RETURN v_id;
END $$;

CREATE FUNCTION ledger_system_account(p_merchant text, p_kind text, p_currency text, p_shard int) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  SELECT id INTO v_id FROM ledger_accounts
    WHERE merchant_code = p_merchant AND kind = p_kind AND currency = p_currency AND shard = p_shard AND member_id IS NULL;
  IF FOUND THEN RETURN v_id; END IF;
  INSERT INTO ledger_accounts (merchant_code, kind, currency, shard, allow_negative) VALUES (p_merchant, p_kind, p_currency, p_shard, true)
    ON CONFLICT (merchant_code, kind, currency, shard) WHERE member_id IS NULL DO NOTHING RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    SELECT id INTO v_id FROM ledger_accounts
      WHERE merchant_code = p_merchant AND kind = p_kind AND currency = p_currency AND shard = p_shard AND member_id IS NULL;
  END IF;
  RETURN v_id;
END $$;

-- A signed change to one account under its guard (a member never below zero, holds never negative),
-- with the leg's entry when p_entry. A refused guard raises LD001 (the caller's transaction, or its
-- savepoint, is rolled back: nothing of the transfer stays).
CREATE FUNCTION ledger_apply(p_transfer bigint, p_account bigint, p_balance bigint, p_held bigint, p_entry boolean,
  OUT o_member bigint, OUT o_balance bigint, OUT o_held bigint)
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ledger_accounts a SET balance = a.balance + p_balance, held = a.held + p_held
    WHERE a.id = p_account AND (a.allow_negative OR a.balance + p_balance - (a.held + p_held) >= 0) AND a.held + p_held >= 0
    RETURNING a.member_id, a.balance, a.held INTO o_member, o_balance, o_held;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'insufficient funds on account %', p_account USING ERRCODE = 'LD001';
  END IF;
  IF p_entry THEN
    INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after) VALUES (p_transfer, p_account, p_balance, o_balance);
  END IF;
END $$;

-- balance.changed for a member account (system accounts announce nothing). Returns the events written.
CREATE FUNCTION ledger_announce(p_merchant text, p_currency text, p_member bigint, p_balance bigint, p_held bigint,
  p_delta bigint, p_reason text, p_transfer bigint) RETURNS int
LANGUAGE plpgsql AS $$
BEGIN
  IF p_member IS NULL THEN RETURN 0; END IF;
  PERFORM outbox_emit(p_merchant, 'user:' || p_member, 'balance.changed', jsonb_build_object(
    'memberId', p_member, 'currency', p_currency, 'balance', p_balance, 'available', p_balance - p_held,
    'delta', p_delta, 'reason', p_reason, 'transferId', p_transfer::text));
  RETURN 1;
END $$;

-- Post both legs, each with its entry, in a fixed lock order so concurrent transfers cannot deadlock:
-- member accounts before system accounts, then by account id. A system account is the shared (hot)
-- row, so it is locked last. Then announce (account rows are locked before audience rows).
CREATE FUNCTION ledger_post_legs(p_merchant text, p_currency text, p_kind text, p_transfer bigint,
  p_debit bigint, p_credit bigint, p_amount bigint, p_from_hold boolean) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
  d record;
  c record;
  v_debit_system boolean;
  v_credit_system boolean;
BEGIN
  SELECT member_id IS NULL INTO v_debit_system FROM ledger_accounts WHERE id = p_debit;
  SELECT member_id IS NULL INTO v_credit_system FROM ledger_accounts WHERE id = p_credit;
  IF (v_debit_system, p_debit) < (v_credit_system, p_credit) THEN
    d := ledger_apply(p_transfer, p_debit, -p_amount, CASE WHEN p_from_hold THEN -p_amount ELSE 0 END, true);
    c := ledger_apply(p_transfer, p_credit, p_amount, 0, true);
  ELSE
    c := ledger_apply(p_transfer, p_credit, p_amount, 0, true);
    d := ledger_apply(p_transfer, p_debit, -p_amount, CASE WHEN p_from_hold THEN -p_amount ELSE 0 END, true);
  END IF;
  RETURN ledger_announce(p_merchant, p_currency, d.o_member, d.o_balance, d.o_held, -p_amount, p_kind, p_transfer)
       + ledger_announce(p_merchant, p_currency, c.o_member, c.o_balance, c.o_held, p_amount, p_kind, p_transfer);
END $$;

-- One transfer in the caller's transaction. The transfer row goes in first: its unique key makes a
-- concurrent duplicate wait for this transaction and then see it as a replay. Each side is a member
-- (p_*_member) or a system account kind (p_*_system) whose row is picked from a hash of the key (p_shards rows).
-- o_outcome: 'ok' | 'replay' | 'mismatch' (same key, other terms: nothing written) | 'same_account'.
CREATE FUNCTION ledger_transfer(p_merchant text, p_currency text, p_key text, p_kind text,
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
    o_events := ledger_post_legs(p_merchant, p_currency, p_kind, o_transfer, v_debit, v_credit, p_amount, false);
  END IF;
END $$;

-- Resolve a hold exactly once: post moves the reserved funds, void releases them. Repeating the same
-- resolution is a replay. o_outcome: 'ok' | 'replay' | 'not_found' | 'conflict' (o_status: the hold's status).
CREATE FUNCTION ledger_resolve_hold(p_merchant text, p_currency text, p_hold bigint, p_outcome text,
  OUT o_outcome text, OUT o_transfer bigint, OUT o_status text, OUT o_amount bigint, OUT o_created_at timestamptz, OUT o_events int)
LANGUAGE plpgsql AS $$
DECLARE
  v_want text := CASE p_outcome WHEN 'post' THEN 'posted' ELSE 'voided' END;
  t record;
  h record;
BEGIN
  o_events := 0;
  UPDATE ledger_transfers SET status = v_want, resolved_at = now() WHERE id = p_hold AND merchant_code = p_merchant AND status = 'pending'
    RETURNING id, kind, debit_account_id, credit_account_id, amount, created_at INTO t;
  IF NOT FOUND THEN
    SELECT id, status, amount, created_at INTO t FROM ledger_transfers WHERE id = p_hold AND merchant_code = p_merchant;
    IF NOT FOUND THEN
      o_outcome := 'not_found';
      RETURN;
    END IF;
    o_outcome := CASE WHEN t.status = v_want THEN 'replay' ELSE 'conflict' END;
    o_transfer := t.id;
    o_status := t.status;
    o_amount := t.amount;
    o_created_at := t.created_at;
    RETURN;
  END IF;
  o_outcome := 'ok';
  o_transfer := t.id;
  o_status := v_want;
  o_amount := t.amount;
  o_created_at := t.created_at;
  IF p_outcome = 'post' THEN
    o_events := ledger_post_legs(p_merchant, p_currency, t.kind, t.id, t.debit_account_id, t.credit_account_id, t.amount, true);
  ELSE
    h := ledger_apply(t.id, t.debit_account_id, 0, -t.amount, false);
    o_events := ledger_announce(p_merchant, p_currency, h.o_member, h.o_balance, h.o_held, 0, t.kind || '.void', t.id);
  END IF;
END $$;
