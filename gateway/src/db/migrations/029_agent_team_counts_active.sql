-- Team overview without scanning the team (issue 11): the last two per-member parts of the overview.
--
-- 1. agent_team_counts: per agent and member type, the number of its descendants of that type (team) and
--    of its direct downlines of that type (direct). Kept by a trigger on members in the same transaction
--    as the member's creation, a change of type (set as agent) or a move (a change of parent_id: the
--    moved member's whole team leaves its former ancestors and joins the new ones), so it is exact at
--    every moment. Per type, because "agent" depends on the merchant's agent types (config): team size
--    is the sum over the types, the agent count the sum over the agent types. The rows of all the
--    ancestors are updated in one statement in (agent_id, type) order (no deadlock between two such
--    statements); a registration takes a row lock on its uplines' rows until it commits.
--
-- 2. agent_active_hours: distinct active members over any range of whole hours from per-agent rows.
--    A member's active hours (member_bet_hours.valid_bets > 0) form a chain h1 < h2 < ...; each hk is
--    counted in (agent, hour = hk, prev_hour = h(k-1)) for every ancestor (prev_hour '-infinity' for the
--    first). The members active in [a, b) are exactly those with a chain entry hour in [a, b) and
--    prev_hour < a (their first active hour in the range), so
--      distinct active members in [a, b) = sum(n) WHERE hour >= a AND hour < b AND prev_hour < a.
--    Kept by agent_rollup_fold (replaced below) in the same statement as agent_team_hours, exactly
--    once: for every member with a new active hour in [watermark, to) or a late change to an already
--    folded hour (the bet-hours deltas of migration 028), the chain from its earliest such hour c0 is
--    recomputed twice from member_bet_hours: as the last fold saw it (for a folded hour: current
--    valid_bets minus the pending deltas of that hour, which are exactly the changes committed since
--    that fold) and as it is now (up to the new watermark); the difference (-1 for entries that are
--    gone, +1 for new ones) goes to all the ancestors. Entries before c0 are the same in both. A
--    rollback that makes a folded hour inactive, or a bet row written into an old hour, therefore
--    moves the member's following entry too (its prev_hour changes), and the count stays exact.
--    Not covered, as for agent_team_hours: a member moved to another upline keeps its past activity with
--    its former ancestors until agent_rollup_rebuild.

CREATE TABLE agent_team_counts (
  agent_id bigint NOT NULL,
  type int NOT NULL,
  team int NOT NULL DEFAULT 0,
  direct int NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, type)
);

-- Add p_sign times the team of p_self (its own rows per type, plus itself of type p_type) to every
-- ancestor in p_path (p_self left out), and p_sign to the direct count of p_parent.
CREATE FUNCTION agent_team_counts_apply(p_path text, p_self bigint, p_parent bigint, p_type int, p_sign int)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_parent IS NULL THEN RETURN; END IF;
  WITH sub AS (
    SELECT type AS ty, team AS n, 0 AS dn FROM agent_team_counts WHERE agent_id = p_self AND team <> 0
    UNION ALL SELECT p_type, 1, 1
  ), anc AS (
    SELECT x::bigint AS agent_id FROM unnest(string_to_array(p_path, '.')) AS x WHERE x <> p_self::text
  )
  INSERT INTO agent_team_counts AS t (agent_id, type, team, direct)
  SELECT anc.agent_id, sub.ty, p_sign * sum(sub.n), p_sign * sum(CASE WHEN anc.agent_id = p_parent THEN sub.dn ELSE 0 END)
    FROM anc CROSS JOIN sub GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (agent_id, type) DO UPDATE SET team = t.team + EXCLUDED.team, direct = t.direct + EXCLUDED.direct;
END $$;

CREATE FUNCTION agent_team_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM agent_team_counts_apply(OLD.tree_path, OLD.id, OLD.parent_id, OLD.type, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM agent_team_counts_apply(NEW.tree_path, NEW.id, NEW.parent_id, NEW.type, 1);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER agent_team_counts_insert AFTER INSERT ON members
  FOR EACH ROW EXECUTE FUNCTION agent_team_counts_changed();
-- Only the moved member itself (its parent_id changes); its descendants' tree_path rewrites do not fire this.
CREATE TRIGGER agent_team_counts_update AFTER UPDATE OF parent_id, type ON members
  FOR EACH ROW WHEN (OLD.parent_id IS DISTINCT FROM NEW.parent_id OR OLD.type <> NEW.type) EXECUTE FUNCTION agent_team_counts_changed();
CREATE TRIGGER agent_team_counts_delete AFTER DELETE ON members
  FOR EACH ROW EXECUTE FUNCTION agent_team_counts_changed();

-- Recompute from members (the backfill below; a bulk load with the triggers off).
CREATE FUNCTION agent_team_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE members IN SHARE MODE;
  DELETE FROM agent_team_counts;
  INSERT INTO agent_team_counts (agent_id, type, team, direct)
  SELECT x::bigint, m.type, count(*), count(*) FILTER (WHERE x::bigint = m.parent_id)
    FROM members m CROSS JOIN LATERAL unnest(string_to_array(m.tree_path, '.')) AS x
   WHERE x <> m.id::text
   GROUP BY 1, 2;
END $$;
SELECT agent_team_counts_rebuild();

CREATE TABLE agent_active_hours (
  agent_id bigint NOT NULL,
  hour timestamptz NOT NULL,
  prev_hour timestamptz NOT NULL,
  n int NOT NULL,
  -- n in the index: the overview's sum is an index-only range scan.
  PRIMARY KEY (agent_id, hour, prev_hour) INCLUDE (n)
);

CREATE OR REPLACE FUNCTION agent_rollup_fold(p_to timestamptz) RETURNS timestamptz LANGUAGE plpgsql AS $$
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
  ),
  -- Active members: the late changes to valid bets of folded hours (all before v_from) ...
  chg AS (SELECT member_id, hour, sum(valid_bets) AS dvb FROM d GROUP BY 1, 2 HAVING sum(valid_bets) <> 0),
  -- ... and the members with an active hour being folded: each from its earliest such hour c0.
  aff AS (
    SELECT member_id, min(hour) AS c0 FROM (
      SELECT member_id, hour FROM chg
      UNION ALL
      SELECT member_id, hour FROM member_bet_hours WHERE hour >= v_from AND hour < v_to AND valid_bets > 0
    ) x GROUP BY 1
  ),
  -- The last active hour before c0 (unchanged, so the same then and now).
  p0 AS (
    SELECT a.member_id, a.c0, coalesce((SELECT max(h.hour) FROM member_bet_hours h
                                          WHERE h.member_id = a.member_id AND h.hour < a.c0 AND h.valid_bets > 0), '-infinity') AS p
      FROM aff a
  ),
  hrs AS (
    SELECT h.member_id, h.hour, h.valid_bets > 0 AS now_active,
           (h.hour < v_from AND h.valid_bets - coalesce(c.dvb, 0) > 0) AS was_active
      FROM p0 JOIN member_bet_hours h ON h.member_id = p0.member_id AND h.hour >= p0.c0 AND h.hour < v_to
      LEFT JOIN chg c ON c.member_id = h.member_id AND c.hour = h.hour
  ),
  ent AS (
    SELECT e.member_id, e.hour, coalesce(e.prev, p0.p) AS prev, e.s
      FROM (
        SELECT member_id, hour, lag(hour) OVER (PARTITION BY member_id ORDER BY hour) AS prev, 1 AS s FROM hrs WHERE now_active
        UNION ALL
        SELECT member_id, hour, lag(hour) OVER (PARTITION BY member_id ORDER BY hour) AS prev, -1 AS s FROM hrs WHERE was_active
      ) e JOIN p0 ON p0.member_id = e.member_id
  ),
  diff AS (SELECT member_id, hour, prev, sum(s) AS n FROM ent GROUP BY 1, 2, 3 HAVING sum(s) <> 0),
  act AS (
    INSERT INTO agent_active_hours AS t (agent_id, hour, prev_hour, n)
    SELECT a.anc::bigint, f.hour, f.prev, sum(f.n)::int
      FROM diff f JOIN members m ON m.id = f.member_id
      CROSS JOIN LATERAL unnest(string_to_array(m.tree_path, '.')) AS a(anc)
     WHERE a.anc <> m.id::text
     GROUP BY 1, 2, 3
    ON CONFLICT (agent_id, hour, prev_hour) DO UPDATE SET n = t.n + EXCLUDED.n
    RETURNING 1
  )
  INSERT INTO agent_team_hours AS t (agent_id, hour, bet_count, valid_bets, payout, deposits, withdrawals, new_members)
  SELECT agent_id, hour, bc, vb, po, dep, wd, nm FROM up
  ON CONFLICT (agent_id, hour) DO UPDATE SET bet_count = t.bet_count + EXCLUDED.bet_count, valid_bets = t.valid_bets + EXCLUDED.valid_bets,
    payout = t.payout + EXCLUDED.payout, deposits = t.deposits + EXCLUDED.deposits, withdrawals = t.withdrawals + EXCLUDED.withdrawals,
    new_members = t.new_members + EXCLUDED.new_members;
  UPDATE agent_rollup_state SET folded_to = v_to WHERE id = 1;
  RETURN v_to;
END $$;

CREATE OR REPLACE FUNCTION agent_rollup_rebuild(p_to timestamptz) RETURNS timestamptz LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM agent_rollup_state WHERE id = 1 FOR UPDATE;
  -- One big fold of all history: its aggregates fit in memory instead of spilling (this transaction only).
  PERFORM set_config('work_mem', '256MB', true);
  DELETE FROM agent_team_hours;
  DELETE FROM agent_active_hours;
  DELETE FROM agent_rollup_deltas;
  UPDATE agent_rollup_state SET folded_to = '1970-01-01T00:00:00Z';
  RETURN agent_rollup_fold(p_to);
END $$;

-- Backfill the active chains of everything already folded.
SELECT agent_rollup_rebuild((SELECT folded_to FROM agent_rollup_state WHERE id = 1));

-- Downline pages (children of a parent in id order, LIMIT): one ordered index range instead of sorting
-- all of a big agent's direct downlines. Replaces the plain parent_id index.
CREATE INDEX members_parent_id ON members (parent_id, id);
DROP INDEX members_parent;
