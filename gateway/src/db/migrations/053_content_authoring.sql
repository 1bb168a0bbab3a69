-- Operator-authored content (issue 14): announcements edited as one item in EN and TY, drafts,
-- uploaded banner images, news articles, marketing messages to players.

-- An announcement's language rows share group_id (the item's id as the console shows it).
ALTER TABLE announcements ADD COLUMN group_id bigint;
ALTER TABLE announcements ADD COLUMN published boolean NOT NULL DEFAULT true;
-- Existing rows: a TY row belongs to the nearest earlier EN row of the same merchant, kind and execution (the seed writes EN then TY).
UPDATE announcements SET group_id = id WHERE language = 'EN';
UPDATE announcements t SET group_id = (
  SELECT max(e.id) FROM announcements e
  WHERE e.merchant_code = t.merchant_code AND e.kind = t.kind AND e.language = 'EN' AND e.id < t.id
    AND e.execution IS NOT DISTINCT FROM t.execution)
WHERE t.language <> 'EN';
UPDATE announcements SET group_id = id WHERE group_id IS NULL;
CREATE INDEX announcements_group ON announcements (merchant_code, group_id);

-- Uploaded images (banners, article covers): checked by their bytes, served publicly by id.
CREATE TABLE content_images (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp')),
  data bytea NOT NULL,
  bytes int NOT NULL,
  sha256 text NOT NULL,
  created_by bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE banners ADD COLUMN title_ty text NOT NULL DEFAULT '';
ALTER TABLE banners ADD COLUMN image_id bigint REFERENCES content_images(id);

-- Blog and news: one row per article, EN and TY side by side.
CREATE TABLE articles (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  title_en text NOT NULL,
  summary_en text NOT NULL DEFAULT '',
  body_en text NOT NULL,
  title_ty text NOT NULL DEFAULT '',
  summary_ty text NOT NULL DEFAULT '',
  body_ty text NOT NULL DEFAULT '',
  cover_image_id bigint REFERENCES content_images(id),
  published boolean NOT NULL DEFAULT false,
  published_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX articles_published ON articles (merchant_code, published_at DESC) WHERE published;

-- Marketing messages: one campaign row, one message per recipient (texts per language).
CREATE TABLE message_campaigns (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  segment text NOT NULL,
  texts jsonb NOT NULL,
  recipients int NOT NULL,
  skipped_excluded int NOT NULL,
  operator_id bigint NOT NULL,
  operator_username text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE messages ADD COLUMN texts jsonb;
ALTER TABLE messages ADD COLUMN campaign_id bigint REFERENCES message_campaigns(id);
