-- A red envelope drop scheduled on a promotion (issue 14, "an operator or a promotion drops an envelope").
-- An operator attaches it (total, count, smallest share, how long it stays open, when it drops); at
-- run_at the job queue (job promo.envelope.drop, key <promotion>:<drop id>) drops ONE envelope to the
-- promotion's participants (the 'promotion' segment of migration 063), funded as an operator drop is,
-- in the job's transaction: the envelope's request id is promo-drop:<id>, so a second run finds it.
--   status  scheduled -> dropped (envelope_id set) | cancelled (by an operator, before it ran)
--           | failed (nothing to drop: e.g. the promotion had no participant we may market to; failure says why)
CREATE TABLE promotion_envelope_drops (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  promotion_id bigint NOT NULL REFERENCES promotions(id),
  total_amount bigint NOT NULL CHECK (total_amount > 0),
  share_count int NOT NULL CHECK (share_count > 0),
  min_share bigint NOT NULL CHECK (min_share > 0 AND min_share * share_count <= total_amount),
  expires_in_minutes int NOT NULL CHECK (expires_in_minutes > 0),
  message_en text,
  message_ty text,
  run_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'dropped', 'cancelled', 'failed')),
  envelope_id bigint REFERENCES red_envelopes(id),
  failure text,
  created_by text NOT NULL,
  created_by_id bigint NOT NULL,
  cancelled_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'dropped') = (envelope_id IS NOT NULL))
);
CREATE INDEX promotion_envelope_drops_merchant ON promotion_envelope_drops (merchant_code, id);
