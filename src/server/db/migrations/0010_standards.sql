-- Standards and judgement (docs/decisions/0018-standards-and-judgement.md): what a product is tested to,
-- which rating its units carry, the requirement derived from the standard's tables, and the product's own
-- verdict on every test record beside the bench's.

-- 1. What the requirement depends on. All optional: a product without a standard keeps the bench's verdict.
ALTER TABLE products
  ADD COLUMN valve_type text CHECK (valve_type IN ('gate', 'globe', 'check', 'ball', 'butterfly', 'plug')),
  -- DN in millimetres (NPS is shown beside it, derived).
  ADD COLUMN nominal_size integer CHECK (nominal_size BETWEEN 1 AND 4000),
  ADD COLUMN pressure_class text NOT NULL DEFAULT '' CHECK (char_length(pressure_class) <= 20),
  ADD COLUMN seat_type text CHECK (seat_type IN ('soft', 'metal')),
  ADD COLUMN leakage_rate text CHECK (leakage_rate IN ('A', 'B', 'C', 'D', 'E', 'F', 'G'));
-- The free-text standard becomes one of the three the product can judge by; text naming one of them maps
-- to it, anything else (API 6D, MSS SP-61, …) to none, since no tables of those are kept.
UPDATE products SET test_standard = CASE
  WHEN upper(regexp_replace(test_standard, '[^A-Za-z0-9]', '', 'g')) LIKE 'API598%' THEN 'api-598'
  WHEN upper(regexp_replace(test_standard, '[^A-Za-z0-9]', '', 'g')) LIKE 'EN122661%' THEN 'en-12266-1'
  WHEN upper(regexp_replace(test_standard, '[^A-Za-z0-9]', '', 'g')) LIKE 'ISO5208%' THEN 'iso-5208'
  ELSE '' END;
ALTER TABLE products ADD CONSTRAINT products_test_standard_known CHECK (test_standard IN ('', 'api-598', 'en-12266-1', 'iso-5208'));

-- Which of the product's three ratings (Pressure FC / WCB / SUS) the units of a range carry. NULL for
-- ranges made before: their product's only rating, if it has exactly one (src/shared/standards/requirement.ts).
ALTER TABLE serial_ranges ADD COLUMN body_material text CHECK (body_material IN ('fc', 'wcb', 'sus'));

-- 2. The requirement of each (product, body material, test type), derived in TypeScript from the standard's
-- tables (src/shared/standards) whenever a product is written, and kept here so that judging a million
-- records is one join, not a million calls. body_material '' is a range that names none.
CREATE TABLE product_requirements (
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  body_material text NOT NULL CHECK (body_material IN ('', 'fc', 'wcb', 'sus')),
  test_type text NOT NULL CHECK (test_type IN ('shell', 'seat', 'backseat', 'air-seat', 'functional')),
  -- the standard requires this test of the valve type (the release gate waits for it)
  required boolean NOT NULL,
  -- no rated pressure for this body material: the pressure cannot be judged, so the record cannot conform
  unrated boolean NOT NULL DEFAULT false,
  -- MPa; both NULL = no pressure requirement
  pressure_min numeric(9, 3),
  pressure_max numeric(9, 3),
  hold_min integer NOT NULL DEFAULT 0 CHECK (hold_min >= 0),
  -- 'none' = no visible leakage; a unit = at most leak_max of it; 'any' = leakage not judged
  leak_kind text NOT NULL CHECK (leak_kind IN ('none', 'drops/min', 'bubbles/min', 'mm3/s', 'any')),
  leak_max numeric(14, 4),
  PRIMARY KEY (product_id, body_material, test_type)
);

-- 3. Leakage units a bench may send, as a kind and a factor to it. Units of one kind compare; drops and
-- bubbles do not convert to volumes (API 598 gives no exact factor), so they compare only with themselves.
CREATE FUNCTION leakage_kind(unit text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE replace(replace(lower(regexp_replace(coalesce(unit, ''), '\s', '', 'g')), '³', '3'), 'per', '/')
    WHEN 'drops/min' THEN 'drops/min' WHEN 'drop/min' THEN 'drops/min'
    WHEN 'bubbles/min' THEN 'bubbles/min' WHEN 'bubble/min' THEN 'bubbles/min'
    WHEN 'mm3/s' THEN 'mm3/s' WHEN 'mm3/min' THEN 'mm3/s' WHEN 'ml/min' THEN 'mm3/s' WHEN 'cm3/min' THEN 'mm3/s'
    WHEN 'cc/min' THEN 'mm3/s' WHEN 'ml/s' THEN 'mm3/s' WHEN 'cm3/s' THEN 'mm3/s' WHEN 'l/min' THEN 'mm3/s'
    WHEN 'l/h' THEN 'mm3/s' WHEN 'm3/h' THEN 'mm3/s'
  END
$$;
CREATE FUNCTION leakage_factor(unit text) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE replace(replace(lower(regexp_replace(coalesce(unit, ''), '\s', '', 'g')), '³', '3'), 'per', '/')
    WHEN 'mm3/min' THEN 1 / 60.0 WHEN 'ml/min' THEN 1000 / 60.0 WHEN 'cm3/min' THEN 1000 / 60.0
    WHEN 'cc/min' THEN 1000 / 60.0 WHEN 'ml/s' THEN 1000 WHEN 'cm3/s' THEN 1000 WHEN 'l/min' THEN 1000000 / 60.0
    WHEN 'l/h' THEN 1000000 / 3600.0 WHEN 'm3/h' THEN 1000000000 / 3600.0
    ELSE 1
  END
$$;

-- 4. The product's verdict on each record. held_seconds: how long the samples stayed at the test pressure
-- (NULL without samples), computed from the samples when the record is stored (src/server/modules/
-- machine-data/record-hold.ts); the hold judged is the shorter of it and the stated holding time.
ALTER TABLE test_records
  ADD COLUMN held_seconds numeric(12, 3),
  ADD COLUMN verdict text NOT NULL DEFAULT 'not-assessed' CHECK (verdict IN ('conforms', 'nonconforming', 'not-assessed')),
  -- bits: 1 pressure below the required, 2 above the required band, 4 held shorter than the minimum,
  -- 8 leakage above the allowed, 16 leakage in a unit that cannot be compared, 32 no rating for the body
  -- material (src/shared/standards/reasons.ts names them)
  ADD COLUMN reasons smallint NOT NULL DEFAULT 0;
-- What the release gate and the quality figures count: a test fails when the bench failed it or the product
-- finds it nonconforming. Generated, so no writer can forget it.
ALTER TABLE test_records ADD COLUMN outcome text GENERATED ALWAYS AS (
  CASE WHEN result = 'fail' OR verdict = 'nonconforming' THEN 'fail' ELSE 'pass' END) STORED;

-- The reasons of one record against one requirement row (all NULL when there is none). Inlined by the
-- planner into the statements below, so judging costs no call per row.
CREATE FUNCTION test_record_reasons(tp numeric, hs integer, held numeric, lv numeric, lu text,
  unrated boolean, pmin numeric, pmax numeric, hmin integer, lkind text, lmax numeric)
RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (
      CASE WHEN unrated THEN 32 WHEN pmin IS NOT NULL AND tp < pmin THEN 1 ELSE 0 END
    | CASE WHEN pmax IS NOT NULL AND tp > pmax THEN 2 ELSE 0 END
    | CASE WHEN least(hs::numeric, coalesce(held, hs)) < hmin THEN 4 ELSE 0 END
    | CASE WHEN lv IS NULL OR lv = 0 OR lkind = 'any' THEN 0
           WHEN lkind = 'none' THEN 8
           WHEN leakage_kind(lu) IS DISTINCT FROM lkind THEN 16
           WHEN lv * leakage_factor(lu) > lmax THEN 8
           ELSE 0 END
  )::smallint
$$;
CREATE FUNCTION test_record_verdict(assessed boolean, reasons smallint) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN NOT coalesce(assessed, false) THEN 'not-assessed' WHEN reasons <> 0 THEN 'nonconforming' ELSE 'conforms' END
$$;

-- Judges again the records chosen by `scope`: of the given products, or of the given spans of a series.
-- One UPDATE; rows whose verdict does not change are not written.
CREATE FUNCTION test_records_judge(product_ids uuid[], prefixes text[], widths smallint[], starts bigint[], ends bigint[])
RETURNS void LANGUAGE sql AS $$
  UPDATE test_records t SET verdict = j.verdict, reasons = j.reasons
    FROM (
      SELECT r.id, test_record_verdict(q.product_id IS NOT NULL, x.reasons) AS verdict, coalesce(x.reasons, 0)::smallint AS reasons
        FROM test_records r
        LEFT JOIN serial_ranges s ON s.id = r.range_id
        LEFT JOIN product_requirements q
          ON q.product_id = r.product_id AND q.body_material = coalesce(s.body_material, '') AND q.test_type = r.test_type
        CROSS JOIN LATERAL (SELECT CASE WHEN q.product_id IS NULL THEN 0::smallint ELSE test_record_reasons(r.test_pressure,
          r.holding_seconds, r.held_seconds, r.leakage_value, r.leakage_unit, q.unrated, q.pressure_min, q.pressure_max,
          q.hold_min, q.leak_kind, q.leak_max) END AS reasons) x
       WHERE (product_ids IS NOT NULL AND r.product_id = ANY (product_ids))
          OR (prefixes IS NOT NULL AND r.id IN (
                SELECT r2.id FROM unnest(prefixes, widths, starts, ends) AS a (prefix, width, start_no, end_no)
                  JOIN test_records r2 ON r2.prefix = a.prefix AND r2.width = a.width AND r2.serial_no BETWEEN a.start_no AND a.end_no))
    ) j
   WHERE t.id = j.id AND (t.verdict IS DISTINCT FROM j.verdict OR t.reasons IS DISTINCT FROM j.reasons)
$$;

-- Ranges: after re-matching (0004), the records of the changed spans are judged again (a range's product
-- or body material decides their requirement). Replaces 0004's function with the same re-match plus that.
CREATE OR REPLACE FUNCTION serial_ranges_rematch() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p text[]; w smallint[]; s bigint[]; e bigint[];
BEGIN
  PERFORM pg_advisory_xact_lock(7347008);
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(prefix), array_agg(width), array_agg(start_no), array_agg(end_no) INTO p, w, s, e FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(prefix), array_agg(width), array_agg(start_no), array_agg(end_no) INTO p, w, s, e FROM old_rows;
  ELSE
    SELECT array_agg(prefix), array_agg(width), array_agg(start_no), array_agg(end_no) INTO p, w, s, e
      FROM (SELECT prefix, width, start_no, end_no FROM old_rows UNION SELECT prefix, width, start_no, end_no FROM new_rows) u;
  END IF;
  PERFORM test_records_rematch(p, w, s, e);
  PERFORM test_records_judge(NULL, p, w, s, e);
  RETURN NULL;
END
$$;

-- 5. First-pass yield (0009) counts the outcome, not the bench's result: a bench pass the product finds
-- nonconforming is a failed first attempt. Re-judgement changes outcomes, so updates are followed too.
DROP TRIGGER test_records_firsts_insert ON test_records;
DROP TRIGGER test_records_firsts_delete ON test_records;
CREATE OR REPLACE FUNCTION test_records_firsts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO test_unit_firsts AS f (serial, test_type, first_at, first_failed)
    SELECT DISTINCT ON (serial, test_type) serial, test_type, tested_at, outcome = 'fail'
      FROM changed_rows ORDER BY serial, test_type, tested_at, (outcome = 'fail') DESC
    ON CONFLICT (serial, test_type) DO UPDATE SET first_at = excluded.first_at, first_failed = excluded.first_failed
     WHERE excluded.first_at < f.first_at OR (excluded.first_at = f.first_at AND excluded.first_failed AND NOT f.first_failed);
  ELSIF TG_OP = 'UPDATE' THEN
    -- Re-judged records whose outcome changed: their pairs are derived again from the records (all still
    -- there, so an upsert that overwrites is enough).
    INSERT INTO test_unit_firsts AS f (serial, test_type, first_at, first_failed)
    SELECT DISTINCT ON (r.serial, r.test_type) r.serial, r.test_type, r.tested_at, r.outcome = 'fail'
      FROM test_records r
      JOIN (SELECT DISTINCT n.prefix, n.width, n.serial_no, n.test_type
              FROM changed_rows n JOIN old_rows o ON o.id = n.id WHERE o.outcome <> n.outcome) d
        ON r.prefix = d.prefix AND r.width = d.width AND r.serial_no = d.serial_no AND r.test_type = d.test_type
     ORDER BY r.serial, r.test_type, r.tested_at, (r.outcome = 'fail') DESC
    ON CONFLICT (serial, test_type) DO UPDATE SET first_at = excluded.first_at, first_failed = excluded.first_failed
     WHERE f.first_at <> excluded.first_at OR f.first_failed <> excluded.first_failed;
  ELSE
    -- Deleted records: the affected pairs are derived again from the records left (as 0009).
    DELETE FROM test_unit_firsts f USING (SELECT DISTINCT serial, test_type FROM changed_rows) d
     WHERE f.serial = d.serial AND f.test_type = d.test_type;
    INSERT INTO test_unit_firsts (serial, test_type, first_at, first_failed)
    SELECT DISTINCT ON (r.serial, r.test_type) r.serial, r.test_type, r.tested_at, r.outcome = 'fail'
      FROM test_records r
      JOIN (SELECT DISTINCT prefix, width, serial_no, test_type FROM changed_rows) d
        ON r.prefix = d.prefix AND r.width = d.width AND r.serial_no = d.serial_no AND r.test_type = d.test_type
     ORDER BY r.serial, r.test_type, r.tested_at, (r.outcome = 'fail') DESC;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER test_records_firsts_insert AFTER INSERT ON test_records
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_firsts();
CREATE TRIGGER test_records_firsts_delete AFTER DELETE ON test_records
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_firsts();
CREATE TRIGGER test_records_firsts_update AFTER UPDATE ON test_records
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_firsts();

-- 6. Reading the judgement. Failures by outcome, in tested-at order (the quality screens and the gate's
-- never-retested list), and disagreements (a bench pass the product finds nonconforming): both rare, so
-- partial indexes cost ingestion nothing for the common conforming pass.
CREATE INDEX test_records_outcome_fail_idx ON test_records (tested_at, id) WHERE outcome = 'fail';
CREATE INDEX test_records_disagree_idx ON test_records (prefix, width, serial_no, test_type, tested_at)
  WHERE result = 'pass' AND verdict = 'nonconforming';

-- 7. Reports have versions: a report whose unit's data or judgement changed is superseded by the next one
-- issued for the unit (set when that one is stored).
ALTER TABLE reports ADD COLUMN superseded_by text REFERENCES reports (id) ON DELETE SET NULL;
ALTER TABLE reports ADD COLUMN superseded_reason text;

-- 8. Whom a visitor asks when a report is not available (the public page and the "not available" email).
ALTER TABLE settings ADD COLUMN contact text NOT NULL DEFAULT '' CHECK (char_length(contact) <= 200);
