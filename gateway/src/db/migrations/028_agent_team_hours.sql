-- Per-agent team rollup (issue 11, team overview speed). For every agent (every member that has a
-- team), the sums of its team (strict descendants) per UTC hour, so a team overview over a week reads
-- ~168 rows of its own instead of probing every member of a 500,000-member team:
--   bet_count, valid_bets, payout   member_bet_hours of the team's members for that hour;
--   deposits                        deposits that reached 'paid' in the hour (updated_at);
--   withdrawals                     withdrawals paid out in the hour (paid_at, every paid status);
--   new_members                     members of the team registered in the hour (created_at).
-- It is filled by folding, never on the hot path: agent_rollup_fold(p_to) adds every source row of the
-- hours [watermark, p_to) to all the ancestors of its member (string_to_array(tree_path)) and moves the
-- watermark, in one transaction that holds the watermark row: each hour is folded exactly once whatever
-- runs it (the job 'agents.team-rollup' on every node, a restart, the migration's backfill).
-- A change to an hour already folded (a rollback of an old bet changes its bet's hour, a deposit or a
-- member written with an old timestamp) is caught by the triggers below: when the row's hour is before
-- the watermark they append the difference to agent_rollup_deltas, read under a share lock of the
-- watermark row, and the next fold adds the deltas to the ancestors. The triggers only fire for hours
-- before the current clock hour (WHEN clause on member_bet_hours): a bet in the current hour never does.
-- The fold runs GRACE after an hour ends (the job passes now() - 5 min): a write whose transaction
-- commits more than that after it ran would be missed (no transaction of this code stays open that long).
-- Not covered: a member that moves to another upline (members_tree_path_move, an operator action)
-- keeps its past figures with its former ancestors; agent_rollup_rebuild() recomputes everything.

CREATE TABLE agent_team_hours (
  agent_id bigint NOT NULL,
  hour timestamptz NOT NULL,
  bet_count bigint NOT NULL DEFAULT 0,
  valid_bets bigint NOT NULL DEFAULT 0,
  payout bigint NOT NULL DEFAULT 0,
  deposits bigint NOT NULL DEFAULT 0,
  withdrawals bigint NOT NULL DEFAULT 0,
  new_members int NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, hour)
);

-- One row: every hour before folded_to is in agent_team_hours.
CREATE TABLE agent_rollup_state (
  id int PRIMARY KEY CHECK (id = 1),
  folded_to timestamptz NOT NULL CHECK (date_trunc('hour', folded_to, 'UTC') = folded_to)
);

CREATE TABLE agent_rollup_deltas (
  id bigserial PRIMARY KEY,
  member_id bigint NOT NULL,
  hour timestamptz NOT NULL,
  bet_count bigint NOT NULL DEFAULT 0,
  valid_bets bigint NOT NULL DEFAULT 0,
  payout bigint NOT NULL DEFAULT 0,
  deposits bigint NOT NULL DEFAULT 0,
  withdrawals bigint NOT NULL DEFAULT 0,
  new_members int NOT NULL DEFAULT 0
);

-- What the fold reads by time (and the live tail of the overview).
CREATE INDEX member_bet_hours_hour ON member_bet_hours (hour);
CREATE INDEX deposits_paid_at ON deposits (updated_at) WHERE status = 'paid';
CREATE INDEX withdrawals_paid_at ON withdrawals (paid_at) WHERE paid_at IS NOT NULL;
CREATE INDEX members_created_at ON members (created_at);

-- Fold every source row of [folded_to, p_to) plus the pending deltas into the ancestors; returns the new watermark.
CREATE FUNCTION agent_rollup_fold(p_to timestamptz) RETURNS timestamptz LANGUAGE plpgsql AS $$
DECLARE
  v_from timestamptz;
  v_to timestamptz := date_trunc('hour', p_to, 'UTC');
BEGIN
  SELECT folded_to INTO v_from FROM agent_rollup_state WHERE id = 1 FOR UPDATE;
  IF v_from IS NULL THEN
    INSERT INTO agent_rollup_state (id, folded_to) VALUES (1, v_to) ON CONFLICT (id) DO NOTHING;
    SELECT folded_to INTO v_from FROM agent_rollup_state WHERE id = 1 FOR UPDATE;
  END IF;
  IF v_to < v_from THEN v_to := v_from; END IF;
  WITH d AS (DELETE FROM agent_rollup_deltas RETURNING *),
  src AS (
    SELECT member_id, hour, bet_count::bigint AS bc, valid_bets AS vb, payout AS po, 0::bigint AS dep, 0::bigint AS wd, 0 AS nm
      FROM member_bet_hours WHERE hour >= v_from AND hour < v_to
    UNION ALL
    SELECT member_id, date_trunc('hour', updated_at, 'UTC'), 0, 0, 0, amount, 0, 0
      FROM deposits WHERE status = 'paid' AND updated_at >= v_from AND updated_at < v_to
    UNION ALL
    SELECT member_id, date_trunc('hour', paid_at, 'UTC'), 0, 0, 0, 0, amount, 0
      FROM withdrawals WHERE paid_at >= v_from AND paid_at < v_to
       AND status IN ('paid', 'received', 'partially_received', 'not_received', 'auto_received')
    UNION ALL
    SELECT id, date_trunc('hour', created_at, 'UTC'), 0, 0, 0, 0, 0, 1
      FROM members WHERE created_at >= v_from AND created_at < v_to
    UNION ALL
    SELECT member_id, hour, bet_count, valid_bets, payout, deposits, withdrawals, new_members FROM d
  ),
  up AS (
    SELECT a.anc::bigint AS agent_id, s.hour, sum(s.bc) AS bc, sum(s.vb) AS vb, sum(s.po) AS po, sum(s.dep) AS dep, sum(s.wd) AS wd, sum(s.nm)::int AS nm
      FROM src s JOIN members m ON m.id = s.member_id
      CROSS JOIN LATERAL unnest(string_to_array(m.tree_path, '.')) WITH ORDINALITY AS a(anc, ord)
     WHERE a.anc <> m.id::text
     GROUP BY 1, 2
  )
  INSERT INTO agent_team_hours AS t (agent_id, hour, bet_count, valid_bets, payout, deposits, withdrawals, new_members)
  SELECT agent_id, hour, bc, vb, po, dep, wd, nm FROM up
  ON CONFLICT (agent_id, hour) DO UPDATE SET bet_count = t.bet_count + EXCLUDED.bet_count, valid_bets = t.valid_bets + EXCLUDED.valid_bets,
    payout = t.payout + EXCLUDED.payout, deposits = t.deposits + EXCLUDED.deposits, withdrawals = t.withdrawals + EXCLUDED.withdrawals,
    new_members = t.new_members + EXCLUDED.new_members;
  UPDATE agent_rollup_state SET folded_to = v_to WHERE id = 1;
  RETURN v_to;
END $$;

-- Recompute from scratch (after members moved between uplines): everything before p_to.
CREATE FUNCTION agent_rollup_rebuild(p_to timestamptz) RETURNS timestamptz LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM agent_rollup_state WHERE id = 1 FOR UPDATE;
  DELETE FROM agent_team_hours;
  DELETE FROM agent_rollup_deltas;
  UPDATE agent_rollup_state SET folded_to = '1970-01-01T00:00:00Z';
  RETURN agent_rollup_fold(p_to);
END $$;

-- A change to a folded hour becomes a delta (see the header). The share lock waits for a fold in
-- progress, so the change is either in that fold's read or after its watermark.
CREATE FUNCTION agent_rollup_delta(p_member bigint, p_hour timestamptz, p_bc bigint, p_vb bigint, p_po bigint, p_dep bigint, p_wd bigint, p_nm int)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_bc = 0 AND p_vb = 0 AND p_po = 0 AND p_dep = 0 AND p_wd = 0 AND p_nm = 0 THEN RETURN; END IF;
  IF EXISTS (SELECT 1 FROM agent_rollup_state WHERE id = 1 AND folded_to > p_hour FOR SHARE) THEN
    INSERT INTO agent_rollup_deltas (member_id, hour, bet_count, valid_bets, payout, deposits, withdrawals, new_members)
      VALUES (p_member, date_trunc('hour', p_hour, 'UTC'), p_bc, p_vb, p_po, p_dep, p_wd, p_nm);
  END IF;
END $$;

CREATE FUNCTION agent_rollup_bet_hours_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM agent_rollup_delta(NEW.member_id, NEW.hour, NEW.bet_count, NEW.valid_bets, NEW.payout, 0, 0, 0);
  ELSE
    PERFORM agent_rollup_delta(NEW.member_id, NEW.hour, (NEW.bet_count - OLD.bet_count)::bigint, NEW.valid_bets - OLD.valid_bets, NEW.payout - OLD.payout, 0, 0, 0);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER agent_rollup_bet_hours AFTER INSERT OR UPDATE ON member_bet_hours
  FOR EACH ROW WHEN (NEW.hour < date_trunc('hour', clock_timestamp(), 'UTC')) EXECUTE FUNCTION agent_rollup_bet_hours_changed();

CREATE FUNCTION agent_rollup_cashier_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'deposits' THEN
    IF NEW.status = 'paid' AND (TG_OP = 'INSERT' OR OLD.status <> 'paid') THEN
      PERFORM agent_rollup_delta(NEW.member_id, NEW.updated_at, 0, 0, 0, NEW.amount, 0, 0);
    END IF;
  ELSIF TG_TABLE_NAME = 'withdrawals' THEN
    IF NEW.paid_at IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.paid_at IS NULL) THEN
      PERFORM agent_rollup_delta(NEW.member_id, NEW.paid_at, 0, 0, 0, 0, NEW.amount, 0);
    END IF;
  ELSIF TG_TABLE_NAME = 'members' THEN
    PERFORM agent_rollup_delta(NEW.id, NEW.created_at, 0, 0, 0, 0, 0, 1);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER agent_rollup_deposits AFTER INSERT OR UPDATE OF status ON deposits
  FOR EACH ROW EXECUTE FUNCTION agent_rollup_cashier_changed();
CREATE TRIGGER agent_rollup_withdrawals AFTER INSERT OR UPDATE OF paid_at ON withdrawals
  FOR EACH ROW EXECUTE FUNCTION agent_rollup_cashier_changed();
CREATE TRIGGER agent_rollup_members AFTER INSERT ON members
  FOR EACH ROW WHEN (NEW.created_at < date_trunc('hour', clock_timestamp(), 'UTC')) EXECUTE FUNCTION agent_rollup_cashier_changed();

-- Backfill: everything before the current hour.
INSERT INTO agent_rollup_state (id, folded_to) VALUES (1, '1970-01-01T00:00:00Z');
SELECT agent_rollup_fold(date_trunc('hour', now(), 'UTC'));
