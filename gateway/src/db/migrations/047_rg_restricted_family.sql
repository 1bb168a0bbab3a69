-- Responsible gaming, second part (issue 13): restricted persons, family exclusion, operator TOTP replay.

-- 1. What a member is matched on against the restricted-persons list: the normalized full name
--    (rgNameKey in rg/restricted.ts: accents and punctuation dropped, lower case, words sorted) and
--    the birth date. Written at registration; NULL when registration did not collect them.
ALTER TABLE members ADD COLUMN rg_name_key text;
ALTER TABLE members ADD COLUMN birth_date date;
CREATE INDEX members_rg_identity ON members (merchant_code, rg_name_key, birth_date) WHERE rg_name_key IS NOT NULL;

-- 2. The restricted-persons list an operator imports (per merchant; an import replaces the list).
--    category: government official, armed forces or police, licensee employee, national exclusion list.
CREATE TABLE rg_restricted_imports (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  imported_by text NOT NULL,
  row_count int NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- set by the re-check job (rg.restricted.recheck) when it has gone through the members
  checked_at timestamptz,
  matched int
);
CREATE TABLE rg_restricted_persons (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  import_id bigint NOT NULL REFERENCES rg_restricted_imports(id),
  full_name text NOT NULL,
  name_key text NOT NULL,
  birth_date date NOT NULL,
  category text NOT NULL CHECK (category IN ('government_official', 'armed_forces_police', 'licensee_employee', 'national_exclusion')),
  id_number text
);
CREATE INDEX rg_restricted_persons_match ON rg_restricted_persons (merchant_code, name_key, birth_date);

-- 3. Members found on the list (by the re-check job): each excluded, listed for the operators.
CREATE TABLE rg_restricted_matches (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  member_id bigint NOT NULL REFERENCES members(id),
  import_id bigint NOT NULL REFERENCES rg_restricted_imports(id),
  category text NOT NULL,
  exclusion_id bigint,
  matched_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (member_id, import_id)
);
CREATE INDEX rg_restricted_matches_merchant ON rg_restricted_matches (merchant_code, id DESC);

-- 4. Exclusions of a restricted person (kind 'restricted'): open-ended, lifted only by an operator.
ALTER TABLE rg_exclusions DROP CONSTRAINT IF EXISTS rg_exclusions_kind_check;
ALTER TABLE rg_exclusions ADD CONSTRAINT rg_exclusions_kind_check CHECK (kind IN ('self', 'cooling', 'family', 'operator', 'restricted'));

-- 5. Family exclusion requests: a spouse, parent or adult child asks (public form, or support on the
--    phone); an operator with the risk role approves (an exclusion of the chosen duration) or rejects.
CREATE TABLE rg_family_requests (
  id bigserial PRIMARY KEY,
  merchant_code text NOT NULL REFERENCES merchants(code),
  -- the player as the requester named them, and the member it resolved to (NULL: no such account)
  player_account text NOT NULL,
  member_id bigint REFERENCES members(id),
  requester_name text NOT NULL,
  relationship text NOT NULL CHECK (relationship IN ('spouse', 'parent', 'adult_child')),
  requester_contact text NOT NULL,
  reason text NOT NULL,
  source text NOT NULL CHECK (source IN ('public', 'support')),
  created_by text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  decided_by text,
  decided_at timestamptz,
  decision_note text,
  duration text,
  exclusion_id bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rg_family_requests_merchant ON rg_family_requests (merchant_code, status, id DESC);

-- 6. Operator authenticator codes are single-use: the last accepted time step (30 s) per operator;
--    a code of that step or an earlier one is refused.
ALTER TABLE operators ADD COLUMN totp_last_step bigint;
