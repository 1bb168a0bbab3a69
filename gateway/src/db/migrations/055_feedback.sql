-- Player feedback (issue 14, spec sections 5 and 7 `/wps/feedback`): at most 140 characters and up to
-- 3 png or jpg images of at most 5 MB each, answered by an operator (support or administrator).
-- Images are kept in PostgreSQL (bytea), like withdrawal proofs: written in the same transaction as
-- their feedback row (no orphan files, no half-written upload), the same on PGlite and PostgreSQL, on
-- every gateway node without a shared disk, and in the database's backups. The gateway checks each
-- image by its content (signature, structure, dimensions) before it gets here; the columns repeat
-- the limits so nothing else can store more.
CREATE TABLE feedback (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  content text NOT NULL CHECK (char_length(content) BETWEEN 1 AND 140),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered')),
  answer text CHECK (answer IS NULL OR char_length(answer) BETWEEN 1 AND 1000),
  answered_by text,
  answered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'answered') = (answer IS NOT NULL AND answered_at IS NOT NULL))
);
CREATE INDEX feedback_member ON feedback (member_id, id DESC);
CREATE INDEX feedback_merchant_status ON feedback (merchant_code, status, id DESC);

CREATE TABLE feedback_images (
  feedback_id bigint NOT NULL REFERENCES feedback(id),
  n smallint NOT NULL CHECK (n BETWEEN 0 AND 2),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  width int NOT NULL CHECK (width > 0),
  height int NOT NULL CHECK (height > 0),
  size int NOT NULL CHECK (size > 0 AND size <= 5242880),
  data bytea NOT NULL,
  PRIMARY KEY (feedback_id, n)
);
