-- Editions (docs/decisions/0045-standards-tables.md): a product may name the edition of its standard it is
-- tested to where more than one is kept; one that names none is judged, test by test, by the edition in
-- force on the day of the test. The requirement rows carry their edition and the test days they judge.

-- 1. The edition the product names ('' = the edition in force on each test's day).
ALTER TABLE products ADD COLUMN test_edition text NOT NULL DEFAULT '' CHECK (char_length(test_edition) <= 10);

-- 2. A row per edition: [in_force_from, in_force_to) of the test's time, NULL = unbounded. A product that
-- names an edition has one unbounded set of rows; one that names none has a set per kept edition. Rows stored
-- before are one unbounded set, derived again at the next start (standards_state).
ALTER TABLE product_requirements
  ADD COLUMN edition text NOT NULL DEFAULT '',
  ADD COLUMN in_force_from timestamptz,
  ADD COLUMN in_force_to timestamptz;
ALTER TABLE product_requirements DROP CONSTRAINT product_requirements_pkey;
ALTER TABLE product_requirements ADD PRIMARY KEY (product_id, body_material, test_type, edition);

-- 3. Judging again (0019's function) joins the row whose days hold the test's time.
CREATE OR REPLACE FUNCTION test_records_judge(product_ids uuid[], prefixes text[], widths smallint[], starts bigint[], ends bigint[],
  ids bigint[] DEFAULT NULL)
RETURNS void LANGUAGE sql AS $$
  UPDATE test_records t SET verdict = j.verdict, reasons = j.reasons
    FROM (
      SELECT r.id, test_record_verdict(q.product_id IS NOT NULL, x.reasons) AS verdict, x.reasons
        FROM test_records r
        LEFT JOIN serial_ranges s ON s.id = r.range_id
        LEFT JOIN product_requirements q
          ON q.product_id = r.product_id AND q.body_material = coalesce(s.body_material, '') AND q.test_type = r.test_type
         AND (q.in_force_from IS NULL OR r.tested_at >= q.in_force_from) AND (q.in_force_to IS NULL OR r.tested_at < q.in_force_to)
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
