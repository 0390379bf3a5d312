-- Records say where they came from, and their samples and the unit's production date take part in their
-- verdict (docs/decisions/0037-samples-decide-the-hold.md, 0038-record-provenance.md).

-- 1. Staff uploads of test records: who, which file (its name and SHA-256), when. A record sent by a bench
-- through its key has no upload; a record of a CSV upload names it, whichever bench the file named.
CREATE TABLE record_uploads (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- the uploader's account; kept as a label too, so that a deleted account's uploads still say who
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  user_label text NOT NULL CHECK (char_length(user_label) <= 300),
  file_name text NOT NULL CHECK (char_length(file_name) <= 255),
  -- filled once the whole file has been read, in the same transaction as its records
  sha256 bytea CHECK (octet_length(sha256) = 32),
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  record_count integer NOT NULL DEFAULT 0
);
-- The uploads of one account, newest first (the account's history and the audit trail's link).
CREATE INDEX record_uploads_user_idx ON record_uploads (user_id, uploaded_at DESC);

-- NULL: sent by its bench (or uploaded before uploads were kept: those have machine_id NULL).
ALTER TABLE test_records ADD COLUMN upload_id uuid REFERENCES record_uploads (id) ON DELETE RESTRICT;
-- The records of one upload (the audit entry links to them). Partial: bench records, nearly all of them,
-- cost the index nothing.
CREATE INDEX test_records_upload_idx ON test_records (upload_id, tested_at, id) WHERE upload_id IS NOT NULL;

-- 2. Who may import records in a bench's name: admins grant it per bench and per staff account. Admins
-- themselves may import for any enabled bench.
CREATE TABLE machine_import_grants (
  machine_id uuid NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  granted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (machine_id, user_id)
);
CREATE INDEX machine_import_grants_user_idx ON machine_import_grants (user_id);

-- 3. Settings: certificates from bench-sent records only (uploads are then left out of reports and the gate).
ALTER TABLE settings ADD COLUMN bench_records_only boolean NOT NULL DEFAULT false;

-- 4. What the samples say against the record (src/shared/standards/sample-checks.ts, bits 64 not reached,
-- 128 held shorter than stated, 256 a gap in the hold). NULL without samples, and for records stored before
-- this column, which the server checks again in the background on start (record-sample-recheck.ts).
ALTER TABLE test_records ADD COLUMN sample_reasons smallint;
CREATE INDEX test_records_sample_recheck_idx ON test_records (id) WHERE sample_count > 0 AND sample_reasons IS NULL;

-- 5. Every reason of a record: its requirement's (0010) when it has one, its samples', and bit 512 when it
-- was tested before its unit's production date (a day's grace for time zones: a date is a local day, and
-- UTC is at most 14 h behind one). Inlined by the planner like test_record_reasons.
CREATE FUNCTION test_record_all_reasons(assessed boolean, tp numeric, hs integer, held numeric, lv numeric, lu text,
  unrated boolean, pmin numeric, pmax numeric, hmin integer, lkind text, lmax numeric,
  sample_reasons smallint, tested_at timestamptz, production_date date)
RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (
      CASE WHEN assessed THEN test_record_reasons(tp, hs, held, lv, lu, unrated, pmin, pmax, hmin, lkind, lmax) ELSE 0 END
    | coalesce(sample_reasons, 0)
    | CASE WHEN production_date IS NOT NULL
             AND tested_at < (production_date - 1)::timestamp AT TIME ZONE 'UTC' THEN 512 ELSE 0 END
  )::smallint
$$;
-- A record with a reason is judged even where its product has no standard: its samples or its date
-- contradict it whatever the requirement.
CREATE OR REPLACE FUNCTION test_record_verdict(assessed boolean, reasons smallint) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN reasons <> 0 THEN 'nonconforming' WHEN NOT coalesce(assessed, false) THEN 'not-assessed' ELSE 'conforms' END
$$;

-- Judges again the records chosen by `scope` (0010's function, with every reason, and a third scope: ids).
DROP FUNCTION test_records_judge(uuid[], text[], smallint[], bigint[], bigint[]);
CREATE FUNCTION test_records_judge(product_ids uuid[], prefixes text[], widths smallint[], starts bigint[], ends bigint[],
  ids bigint[] DEFAULT NULL)
RETURNS void LANGUAGE sql AS $$
  UPDATE test_records t SET verdict = j.verdict, reasons = j.reasons
    FROM (
      SELECT r.id, test_record_verdict(q.product_id IS NOT NULL, x.reasons) AS verdict, x.reasons
        FROM test_records r
        LEFT JOIN serial_ranges s ON s.id = r.range_id
        LEFT JOIN product_requirements q
          ON q.product_id = r.product_id AND q.body_material = coalesce(s.body_material, '') AND q.test_type = r.test_type
        CROSS JOIN LATERAL (SELECT test_record_all_reasons(q.product_id IS NOT NULL, r.test_pressure, r.holding_seconds,
          r.held_seconds, r.leakage_value, r.leakage_unit, q.unrated, q.pressure_min, q.pressure_max, q.hold_min, q.leak_kind,
          q.leak_max, r.sample_reasons, r.tested_at, s.production_date) AS reasons) x
       WHERE (product_ids IS NOT NULL AND r.product_id = ANY (product_ids))
          OR (ids IS NOT NULL AND r.id = ANY (ids))
          OR (prefixes IS NOT NULL AND r.id IN (
                SELECT r2.id FROM unnest(prefixes, widths, starts, ends) AS a (prefix, width, start_no, end_no)
                  JOIN test_records r2 ON r2.prefix = a.prefix AND r2.width = a.width AND r2.serial_no BETWEEN a.start_no AND a.end_no))
    ) j
   WHERE t.id = j.id AND (t.verdict IS DISTINCT FROM j.verdict OR t.reasons IS DISTINCT FROM j.reasons)
$$;

-- Records already stored are judged again: a production date after the test now counts (sample reasons
-- follow as the background re-check fills them).
SELECT test_records_judge(NULL, NULL, NULL, NULL, NULL, ARRAY(SELECT r.id FROM test_records r
  JOIN serial_ranges s ON s.id = r.range_id WHERE r.tested_at < (s.production_date - 1)::timestamp AT TIME ZONE 'UTC'));
