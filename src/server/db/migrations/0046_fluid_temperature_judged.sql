-- The test fluid's temperature is judged where the product's standard sets a range for it
-- (docs/decisions/0054-test-conditions.md, docs/standards-sources.md): the requirement row of a test type
-- carries the range, and a record stating a temperature outside it does not conform (bit 8192 of
-- src/shared/standards/reasons.ts). A record that states no temperature is not judged on it.

-- 1. The range of the row's test type, in °C, both ends included; NULL where the standard sets none.
ALTER TABLE product_requirements
  ADD COLUMN fluid_temp_min numeric(4, 1),
  ADD COLUMN fluid_temp_max numeric(4, 1);

-- 2. Every reason of a record (0031's function) with the fluid temperature's.
DROP FUNCTION test_record_all_reasons(boolean, numeric, integer, numeric, numeric, text, boolean, numeric, numeric, integer,
  text, numeric, smallint, timestamptz, date, smallint);
CREATE FUNCTION test_record_all_reasons(assessed boolean, tp numeric, hs integer, held numeric, lv numeric, lu text,
  unrated boolean, pmin numeric, pmax numeric, hmin integer, lkind text, lmax numeric,
  sample_reasons smallint, tested_at timestamptz, production_date date, instrument_reasons smallint,
  fluid_temperature numeric, tmin numeric, tmax numeric)
RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (
      CASE WHEN assessed THEN test_record_reasons(tp, hs, held, lv, lu, unrated, pmin, pmax, hmin, lkind, lmax) ELSE 0 END
    | coalesce(sample_reasons, 0)
    | coalesce(instrument_reasons, 0)
    | CASE WHEN production_date IS NOT NULL
             AND tested_at < (production_date - 1)::timestamp AT TIME ZONE 'UTC' THEN 512 ELSE 0 END
    | CASE WHEN assessed AND fluid_temperature IS NOT NULL
             AND (fluid_temperature < tmin OR fluid_temperature > tmax) THEN 8192 ELSE 0 END
  )::smallint
$$;

-- 3. Judging again (0031's function) reads the record's temperature and the row's range.
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
          q.leak_max, r.sample_reasons, r.tested_at, s.production_date, r.instrument_reasons, r.fluid_temperature,
          q.fluid_temp_min, q.fluid_temp_max) AS reasons) x
       WHERE (product_ids IS NOT NULL AND r.product_id = ANY (product_ids))
          OR (ids IS NOT NULL AND r.id = ANY (ids))
          OR (prefixes IS NOT NULL AND r.id IN (
                SELECT r2.id FROM unnest(prefixes, widths, starts, ends) AS a (prefix, width, start_no, end_no)
                  JOIN test_records r2 ON r2.prefix = a.prefix AND r2.width = a.width AND r2.serial_no BETWEEN a.start_no AND a.end_no))
    ) j
   WHERE t.id = j.id AND (t.verdict IS DISTINCT FROM j.verdict OR t.reasons IS DISTINCT FROM j.reasons)
$$;
