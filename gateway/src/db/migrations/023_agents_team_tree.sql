-- The agent team tree (issue 11): every member carries its materialized path of ids from its top
-- upline down to itself ('1.57.2031'), text COLLATE "C" under a btree. A subtree is one index range
-- (tree_path > 'p.' AND tree_path < 'p/', '/' being the character after '.'), an is-descendant check
-- is two primary-key reads and a string compare. Chosen over ltree and a closure table by
-- `npm run bench -- --tree` (README "Team tree"): as fast or faster on the reads, no extension to
-- install on PostgreSQL or load into PGlite, one index instead of a table with a row per ancestor.
ALTER TABLE members ADD COLUMN tree_path text COLLATE "C";

-- Backfill: parents before children, from the roots down.
WITH RECURSIVE t(id, path) AS (
  SELECT id, id::text FROM members WHERE parent_id IS NULL
  UNION ALL
  SELECT m.id, t.path || '.' || m.id FROM members m JOIN t ON m.parent_id = t.id
)
UPDATE members SET tree_path = t.path FROM t WHERE members.id = t.id;

ALTER TABLE members ALTER COLUMN tree_path SET NOT NULL;
CREATE INDEX members_tree_path ON members (tree_path);

-- Kept by the database itself, whatever path creates the member (registration with an invitation code,
-- dev creation with parentAccount, seeds, operator tools to come): the path is never written by hand.
-- An upline must belong to the same merchant, or one merchant's agent would see another's players.
CREATE FUNCTION members_tree_path_set() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  up_path text;
  up_merchant text;
BEGIN
  IF NEW.parent_id IS NULL THEN
    NEW.tree_path := NEW.id::text;
    RETURN NEW;
  END IF;
  SELECT tree_path, merchant_code INTO up_path, up_merchant FROM members WHERE id = NEW.parent_id;
  IF up_path IS NULL THEN
    RAISE EXCEPTION 'upline % does not exist', NEW.parent_id USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF up_merchant <> NEW.merchant_code THEN
    RAISE EXCEPTION 'upline % belongs to another merchant', NEW.parent_id USING ERRCODE = 'check_violation';
  END IF;
  -- A move under one's own team would make a cycle.
  IF TG_OP = 'UPDATE' AND (up_path = OLD.tree_path OR (up_path > OLD.tree_path || '.' AND up_path < OLD.tree_path || '/')) THEN
    RAISE EXCEPTION 'member % cannot move under its own team', NEW.id USING ERRCODE = 'check_violation';
  END IF;
  NEW.tree_path := up_path || '.' || NEW.id;
  RETURN NEW;
END $$;

CREATE TRIGGER members_tree_path_insert BEFORE INSERT ON members
  FOR EACH ROW EXECUTE FUNCTION members_tree_path_set();
CREATE TRIGGER members_tree_path_move BEFORE UPDATE OF parent_id ON members
  FOR EACH ROW WHEN (OLD.parent_id IS DISTINCT FROM NEW.parent_id) EXECUTE FUNCTION members_tree_path_set();

-- A member that changes upline takes its whole team along: every descendant's path gets the new prefix.
CREATE FUNCTION members_tree_path_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE members SET tree_path = NEW.tree_path || substr(tree_path, length(OLD.tree_path) + 1)
   WHERE tree_path > OLD.tree_path || '.' AND tree_path < OLD.tree_path || '/';
  RETURN NULL;
END $$;

CREATE TRIGGER members_tree_path_moved AFTER UPDATE OF parent_id ON members
  FOR EACH ROW WHEN (OLD.tree_path IS DISTINCT FROM NEW.tree_path) EXECUTE FUNCTION members_tree_path_moved();

-- The path is derived, never set directly: an UPDATE that changes it without a move is refused
-- (the descendants' rewrite above runs with parent_id unchanged, so it is told apart by depth).
CREATE FUNCTION members_tree_path_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'members.tree_path is maintained by the database' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER members_tree_path_guard BEFORE UPDATE OF tree_path ON members
  FOR EACH ROW WHEN (OLD.parent_id IS NOT DISTINCT FROM NEW.parent_id AND OLD.tree_path IS DISTINCT FROM NEW.tree_path)
  EXECUTE FUNCTION members_tree_path_guard();
