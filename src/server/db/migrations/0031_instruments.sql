-- The measuring instruments of the test benches and their calibrations (docs/decisions/0050): a record names
-- the instrument that measured it, and where Settings require calibrated instruments a record measured by an
-- instrument out of calibration, or by none the bench has, does not conform.

-- 1. A bench's instruments, by the id the bench itself uses for them.
CREATE TABLE instruments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  machine_id uuid NOT NULL REFERENCES machines (id) ON DELETE CASCADE,
  instrument_id text NOT NULL CHECK (char_length(instrument_id) BETWEEN 1 AND 60),
  kind text NOT NULL CHECK (kind IN ('gauge', 'transducer')),
  range_max numeric(9, 3) NOT NULL CHECK (range_max > 0),
  accuracy numeric(5, 2) NOT NULL CHECK (accuracy > 0 AND accuracy <= 10),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (machine_id, instrument_id)
);

-- 2. Calibrations are added, never changed: a recalibration does not rewrite what an earlier test was measured
-- with. Each covers [calibrated_on, due_on], both days included.
CREATE TABLE instrument_calibrations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  instrument uuid NOT NULL REFERENCES instruments (id) ON DELETE CASCADE,
  certificate text NOT NULL CHECK (char_length(certificate) BETWEEN 1 AND 120),
  calibrated_on date NOT NULL,
  due_on date NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  recorded_by text NOT NULL DEFAULT '',
  CHECK (due_on > calibrated_on),
  UNIQUE (instrument, calibrated_on)
);

-- 3. What a record says of its instrument, and the instrument reasons found when it was stored (bits 2048 and
-- 4096 of src/shared/standards/reasons.ts; computed by the server, src/shared/standards/calibration.ts).
ALTER TABLE test_records
  ADD COLUMN instrument_id text CHECK (char_length(instrument_id) BETWEEN 1 AND 60),
  ADD COLUMN instrument_reasons smallint NOT NULL DEFAULT 0;
-- Only records held for their instrument are looked at again when an instrument or a calibration is added: a
-- small partial index, which costs the records that conform nothing on the way in.
CREATE INDEX test_records_instrument_held_idx ON test_records (machine_id, instrument_id) WHERE instrument_reasons <> 0;

ALTER TABLE settings ADD COLUMN require_calibrated_instruments boolean NOT NULL DEFAULT false;

-- 4. Every reason of a record (0019's function) with its instrument reasons.
DROP FUNCTION test_record_all_reasons(boolean, numeric, integer, numeric, numeric, text, boolean, numeric, numeric, integer,
  text, numeric, smallint, timestamptz, date);
CREATE FUNCTION test_record_all_reasons(assessed boolean, tp numeric, hs integer, held numeric, lv numeric, lu text,
  unrated boolean, pmin numeric, pmax numeric, hmin integer, lkind text, lmax numeric,
  sample_reasons smallint, tested_at timestamptz, production_date date, instrument_reasons smallint)
RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (
      CASE WHEN assessed THEN test_record_reasons(tp, hs, held, lv, lu, unrated, pmin, pmax, hmin, lkind, lmax) ELSE 0 END
    | coalesce(sample_reasons, 0)
    | coalesce(instrument_reasons, 0)
    | CASE WHEN production_date IS NOT NULL
             AND tested_at < (production_date - 1)::timestamp AT TIME ZONE 'UTC' THEN 512 ELSE 0 END
  )::smallint
$$;

-- 5. Judging again (0027's function) keeps the instrument reasons.
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
          q.leak_max, r.sample_reasons, r.tested_at, s.production_date, r.instrument_reasons) AS reasons) x
       WHERE (product_ids IS NOT NULL AND r.product_id = ANY (product_ids))
          OR (ids IS NOT NULL AND r.id = ANY (ids))
          OR (prefixes IS NOT NULL AND r.id IN (
                SELECT r2.id FROM unnest(prefixes, widths, starts, ends) AS a (prefix, width, start_no, end_no)
                  JOIN test_records r2 ON r2.prefix = a.prefix AND r2.width = a.width AND r2.serial_no BETWEEN a.start_no AND a.end_no))
    ) j
   WHERE t.id = j.id AND (t.verdict IS DISTINCT FROM j.verdict OR t.reasons IS DISTINCT FROM j.reasons)
$$;
