-- The top agent's team overview: its active-member count from its ~24-a-day agent_team_hours rows instead of
-- its agent_active_hours entries (issue 11, 1,000,000 members).
--
-- agent_active_hours (migration 029) holds, per agent, one entry (hour, prev_hour, n) per distinct pair of a
-- member's active hour and its previous active hour; the members active in [a, b) are sum(n) over the
-- entries with hour in [a, b) and prev_hour < a. For the bench's top agent (500,654 members, 7 days) that
-- is one index range of ~78,000 entries, 66,000 of them counted (EXPLAIN: ~35 ms of a ~80 ms overview, with
-- ~34,000 buffer hits, one per change of visibility-map page between consecutive entries), and it grows
-- with the history (an hour's entries have one prev_hour per earlier active hour).
--
-- Each agent_team_hours row (agent, hour) now also carries:
--   active_members: sum(n) of the agent's entries at that hour (its team's members active at that hour);
--   active_next:    sum(n) of the agent's entries whose prev_hour is that hour (of those, the members with a
--                   later active hour already folded).
-- Every entry has hour < the watermark w. So when b = w: the entries with hour in [a, b) and prev_hour >= a
-- are exactly the entries with prev_hour in [a, b) (prev_hour < hour < w), and
--   active in [a, w) = sum(active_members) - sum(active_next) over the agent's rows with hour in [a, w).
-- A range ending before the watermark keeps reading agent_active_hours (entries with prev_hour in [a, b)
-- may have their hour after b). Kept by the fold in the same statement from the same differences it adds
-- to agent_active_hours (so both move together, exactly once); agent_rollup_rebuild deletes and refolds
-- agent_team_hours as before.
ALTER TABLE agent_team_hours ADD COLUMN active_members integer NOT NULL DEFAULT 0,
                             ADD COLUMN active_next integer NOT NULL DEFAULT 0;

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
  actd AS (
    SELECT a.anc::bigint AS agent_id, f.hour, f.prev, sum(f.n)::int AS n
      FROM diff f JOIN members m ON m.id = f.member_id
      CROSS JOIN LATERAL unnest(string_to_array(m.tree_path, '.')) AS a(anc)
     WHERE a.anc <> m.id::text
     GROUP BY 1, 2, 3
  ),
  act AS (
    INSERT INTO agent_active_hours AS t (agent_id, hour, prev_hour, n)
    SELECT agent_id, hour, prev, n FROM actd
    ON CONFLICT (agent_id, hour, prev_hour) DO UPDATE SET n = t.n + EXCLUDED.n
    RETURNING 1
  ),
  -- The same differences as per-agent hour totals (migration 066): entries at the hour, entries whose
  -- prev_hour is the hour.
  up2 AS (
    SELECT agent_id, hour, sum(bc) AS bc, sum(vb) AS vb, sum(po) AS po, sum(dep) AS dep, sum(wd) AS wd, sum(nm)::int AS nm,
           sum(am)::int AS am, sum(an)::int AS an
      FROM (SELECT agent_id, hour, bc, vb, po, dep, wd, nm, 0 AS am, 0 AS an FROM up
            UNION ALL
            SELECT agent_id, hour, 0, 0, 0, 0, 0, 0, n, 0 FROM actd
            UNION ALL
            SELECT agent_id, prev, 0, 0, 0, 0, 0, 0, 0, n FROM actd WHERE prev > '-infinity') x
     GROUP BY 1, 2
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
  INSERT INTO agent_team_hours AS t (agent_id, hour, bet_count, valid_bets, payout, deposits, withdrawals, new_members, active_members, active_next)
  SELECT agent_id, hour, bc, vb, po, dep, wd, nm, am, an FROM up2
  ON CONFLICT (agent_id, hour) DO UPDATE SET bet_count = t.bet_count + EXCLUDED.bet_count, valid_bets = t.valid_bets + EXCLUDED.valid_bets,
    payout = t.payout + EXCLUDED.payout, deposits = t.deposits + EXCLUDED.deposits, withdrawals = t.withdrawals + EXCLUDED.withdrawals,
    new_members = t.new_members + EXCLUDED.new_members,
    active_members = t.active_members + EXCLUDED.active_members, active_next = t.active_next + EXCLUDED.active_next;
  UPDATE agent_rollup_state SET folded_to = v_to WHERE id = 1;
  RETURN v_to;
END $$;

-- Backfill from agent_active_hours (an upsert: a moved member's late change can give an (agent, hour) an
-- entry without a row).
SET LOCAL work_mem = '256MB';
INSERT INTO agent_team_hours AS t (agent_id, hour, active_members, active_next)
SELECT agent_id, hour, sum(am)::int, sum(an)::int
  FROM (SELECT agent_id, hour, n AS am, 0 AS an FROM agent_active_hours
        UNION ALL
        SELECT agent_id, prev_hour, 0, n FROM agent_active_hours WHERE prev_hour > '-infinity') x
 GROUP BY 1, 2
ON CONFLICT (agent_id, hour) DO UPDATE SET active_members = EXCLUDED.active_members, active_next = EXCLUDED.active_next;
