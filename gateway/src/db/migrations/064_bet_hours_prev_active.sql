-- The team overview's prior-activity check by a filter on the live rows (issue 11, top agent's overview at
-- 1,000,000 members).
--
-- For the active-member count the overview takes the team's live bet-hour rows (hour >= the watermark
-- agent_rollup_state.folded_to, by the (hour, tree_path) range of migration 045) and counts a member active
-- there only when it had no active hour (valid_bets > 0) in the rollup's part [a, watermark) of the range.
-- That was one member_bet_hours primary-key probe per live active member of the team (3,509 for the top
-- agent in the bench, most of its overview). Now each live row carries prev_active: its member's last
-- active hour before the watermark ('-infinity' when none), so the check is `prev_active >= a` on the row
-- already read.
--
-- Invariant: a member_bet_hours row with hour >= folded_to and prev_active not null holds its member's last
-- active hour before folded_to as member_bet_hours stood at the last fold, or later, with every difference
-- from now in a pending agent_rollup_deltas row of that member with valid_bets <> 0 (the overview probes those
-- members as before, as it corrects the rollup's own count for them). Kept by:
--   - the BEFORE INSERT trigger (member_bet_hours_path): a new row at or after the watermark takes it, with the
--     watermark, in one statement (one snapshot), under a shared advisory transaction lock; an upsert of an
--     existing row skips it (the row keeps its value);
--   - the fold: takes that advisory lock exclusively before the watermark row, so every bet transaction that set
--     prev_active against the old watermark has committed and is in the fold's read; it recomputes prev_active
--     on the rows that stay live for the members with an active hour folded now or a folded late valid-bets
--     change (any, even netting to zero); the others' last active hour before the new watermark is unchanged.
--     A bet holds the shared lock only when it inserts a new member-hour row, and waits only during a fold.
--   - agent_rollup_rebuild: recomputes it on every row it makes live.
-- A null prev_active (rows from before this migration below the watermark, never read by path) makes the
-- overview probe, as before.
ALTER TABLE member_bet_hours ADD COLUMN prev_active timestamptz;

CREATE OR REPLACE FUNCTION member_bet_hours_path() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_w timestamptz;
BEGIN
  SELECT tree_path INTO NEW.tree_path FROM members WHERE id = NEW.member_id;
  -- An upsert of an existing row (the usual bet) keeps that row's prev_active: nothing more to read.
  IF EXISTS (SELECT 1 FROM member_bet_hours WHERE member_id = NEW.member_id AND hour = NEW.hour) THEN RETURN NEW; END IF;
  PERFORM pg_advisory_xact_lock_shared(hashtext('agent_rollup:prev_active'));
  SELECT s.folded_to,
         coalesce((SELECT max(q.hour) FROM member_bet_hours q
                    WHERE q.member_id = NEW.member_id AND q.hour < s.folded_to AND q.valid_bets > 0), '-infinity')
    INTO v_w, NEW.prev_active
    FROM agent_rollup_state s WHERE s.id = 1;
  IF v_w IS NULL OR NEW.hour < v_w THEN NEW.prev_active := NULL; END IF;
  RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION agent_rollup_fold(p_to timestamptz) RETURNS timestamptz LANGUAGE plpgsql AS $$
DECLARE
  v_from timestamptz;
  v_to timestamptz := date_trunc('hour', p_to, 'UTC');
BEGIN
  -- Waits for the bet transactions that set prev_active against the current watermark (see the header).
  PERFORM pg_advisory_xact_lock(hashtext('agent_rollup:prev_active'));
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
  ),
  -- prev_active of the rows still live after this fold (hour >= v_to): recomputed for the members with an
  -- active hour being folded or any late valid-bets change folded now (a change netting to zero included:
  -- a row inserted between the two changes saw the first one), as this fold sees member_bet_hours.
  pa AS (
    SELECT x.member_id, coalesce((SELECT max(q.hour) FROM member_bet_hours q
                                   WHERE q.member_id = x.member_id AND q.hour < v_to AND q.valid_bets > 0), '-infinity') AS p
      FROM (SELECT member_id FROM d WHERE valid_bets <> 0
            UNION
            SELECT member_id FROM member_bet_hours WHERE hour >= v_from AND hour < v_to AND valid_bets > 0) x
  ),
  pa_set AS (
    UPDATE member_bet_hours h SET prev_active = pa.p FROM pa
     WHERE h.member_id = pa.member_id AND h.hour >= v_to AND h.prev_active IS DISTINCT FROM pa.p
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
DECLARE
  v_to timestamptz;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('agent_rollup:prev_active'));
  PERFORM 1 FROM agent_rollup_state WHERE id = 1 FOR UPDATE;
  -- One big fold of all history: its aggregates fit in memory instead of spilling (this transaction only).
  PERFORM set_config('work_mem', '256MB', true);
  DELETE FROM agent_team_hours;
  DELETE FROM agent_active_hours;
  DELETE FROM agent_rollup_deltas;
  UPDATE agent_rollup_state SET folded_to = '1970-01-01T00:00:00Z';
  v_to := agent_rollup_fold(p_to);
  LOCK TABLE member_bet_hours IN SHARE ROW EXCLUSIVE MODE;
  UPDATE member_bet_hours h SET tree_path = m.tree_path FROM members m
   WHERE m.id = h.member_id AND h.hour >= v_to AND h.tree_path IS DISTINCT FROM m.tree_path;
  UPDATE member_bet_hours h
     SET prev_active = coalesce((SELECT max(q.hour) FROM member_bet_hours q
                                  WHERE q.member_id = h.member_id AND q.hour < v_to AND q.valid_bets > 0), '-infinity')
   WHERE h.hour >= v_to;
  RETURN v_to;
END $$;

-- Backfill: the live rows.
UPDATE member_bet_hours h
   SET prev_active = coalesce((SELECT max(q.hour) FROM member_bet_hours q
                                WHERE q.member_id = h.member_id AND q.hour < s.folded_to AND q.valid_bets > 0), '-infinity')
  FROM agent_rollup_state s
 WHERE s.id = 1 AND h.hour >= s.folded_to;

-- Downline pages (team-tree.ts downlinePage): the page's columns in the (parent_id, id) index, so a page of
-- direct downlines is one index-only range in id order (no heap row per downline, scattered over the table at
-- 1,000,000 members). Replaces members_parent_id (migration 029), same key.
CREATE INDEX members_parent_page ON members (parent_id, id) INCLUDE (account, nickname, type, status, created_at);
DROP INDEX members_parent_id;
