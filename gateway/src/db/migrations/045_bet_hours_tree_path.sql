-- The team overview's live tail by one index range (issue 11, team overview speed at 1,000,000 members).
--
-- The overview reads whole folded hours from the per-agent rollup (migrations 028/029); the hours since
-- the rollup's watermark (agent_rollup_state.folded_to: the current hour, and the previous one for the
-- few minutes until the job folds it) are read from member_bet_hours. Before this migration those rows
-- were found by hour and each was probed in members for team membership (a primary-key read per row:
-- ~7,000 an hour in the 1,000,000-member bench, 0.7 s of a 1 s overview). Now each row carries its
-- member's tree_path and the index (hour, tree_path) gives a team's rows of an hour as one contiguous
-- range: `hour = h AND tree_path > 'p.' AND tree_path < 'p/'`, whatever the team's size.
--
-- Invariant: every member_bet_hours row with hour >= folded_to holds its member's current tree_path.
--   - a new row takes it from members (BEFORE INSERT trigger: one primary-key read of a row vendor_money
--     has just read; the upsert of an existing row does not change it);
--   - a move (members.parent_id changes, an operator action) rewrites the prefix on the rows of the moved
--     team at hours >= folded_to, in the move's transaction, after locking member_bet_hours in SHARE ROW
--     EXCLUSIVE mode: a bet transaction that inserted a row with the old path has committed before the
--     rewrite reads, and one that starts after waits for the move to commit and then reads the new path
--     (the trigger's own statement). Bets are held only for the length of a move.
--   - rows below the watermark are never read by path (the fold reads by hour and joins members); they
--     may keep an older path, or none (the backfill below fills the live rows only). The watermark only
--     moves forward (agent_rollup_rebuild resets and refolds it inside one transaction).
ALTER TABLE member_bet_hours ADD COLUMN tree_path text COLLATE "C";

CREATE FUNCTION member_bet_hours_path() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT tree_path INTO NEW.tree_path FROM members WHERE id = NEW.member_id;
  RETURN NEW;
END $$;
CREATE TRIGGER member_bet_hours_path BEFORE INSERT ON member_bet_hours
  FOR EACH ROW EXECUTE FUNCTION member_bet_hours_path();

CREATE FUNCTION member_bet_hours_path_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE member_bet_hours IN SHARE ROW EXCLUSIVE MODE;
  UPDATE member_bet_hours h SET tree_path = NEW.tree_path || substr(h.tree_path, length(OLD.tree_path) + 1)
   WHERE h.hour >= (SELECT folded_to FROM agent_rollup_state WHERE id = 1)
     AND (h.tree_path = OLD.tree_path OR (h.tree_path > OLD.tree_path || '.' AND h.tree_path < OLD.tree_path || '/'));
  RETURN NULL;
END $$;
-- Only the moved member itself (its parent_id changes); its descendants' path rewrites do not fire it.
CREATE TRIGGER members_bet_hours_path_moved AFTER UPDATE OF parent_id ON members
  FOR EACH ROW WHEN (OLD.tree_path IS DISTINCT FROM NEW.tree_path) EXECUTE FUNCTION member_bet_hours_path_moved();

-- Backfill: the live rows (the ones read by path).
UPDATE member_bet_hours h SET tree_path = m.tree_path FROM members m
 WHERE m.id = h.member_id AND h.hour >= coalesce((SELECT folded_to FROM agent_rollup_state WHERE id = 1), '-infinity');

-- Replaces member_bet_hours (hour): the fold's hour ranges use its first column.
CREATE INDEX member_bet_hours_hour_path ON member_bet_hours (hour, tree_path);
DROP INDEX member_bet_hours_hour;

-- A rebuild may set the watermark back (tests, an operator's recompute): the rows it makes live again take
-- their members' current path (rows below an earlier watermark may have missed a move).
CREATE OR REPLACE FUNCTION agent_rollup_rebuild(p_to timestamptz) RETURNS timestamptz LANGUAGE plpgsql AS $$
DECLARE
  v_to timestamptz;
BEGIN
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
  RETURN v_to;
END $$;
