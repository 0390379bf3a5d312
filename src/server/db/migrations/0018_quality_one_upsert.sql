-- The kept-quality trigger with one upsert of the day counts and one sum of units tested once (issue 21;
-- docs/decisions/0034, fourth change). 0017 wrote the sum of units tested once twice (an insert of such
-- units only; the claimed units of a mixed insert) and the upsert of quality_day_counts four times. Here each
-- path gathers its figures into one array of quality_count rows, and one upsert adds them at the end.
-- Behaviour is 0017's, with one saving: an insert whose units are all new, some tested more than once, no
-- longer subtracts the claimed keys from its units (there is no unit seen before).

-- A row of the kept sums (quality_day_counts), as the figure functions return them.
CREATE TYPE quality_count AS (
  first_day date, last_day date, dim text, key text, units bigint, first_pass bigint, final_pass bigint,
  retested bigint, tests bigint, failures bigint
);

-- The figures of units that `recs` holds one record each of, and that have no other record: a unit's figures
-- are its one record's (one test, passed first and finally unless it failed, no retest), summed per day,
-- dimension and key without quality_figures' per-unit levels (0016's sum of an insert of such units).
CREATE FUNCTION quality_single_test_counts(recs quality_record[]) RETURNS SETOF quality_count
LANGUAGE sql STABLE AS $$
  SELECT g.d, g.d, v.dim, v.key, sum(g.n)::bigint, sum(g.passed)::bigint, sum(g.passed)::bigint, 0::bigint,
         sum(g.n)::bigint, sum(g.failed)::bigint
    FROM (SELECT (tested_at AT TIME ZONE 'UTC')::date AS d, product_id, machine_id, test_type, count(*) AS n,
                 count(*) FILTER (WHERE outcome <> 'fail') AS passed, count(*) FILTER (WHERE outcome = 'fail') AS failed
            FROM unnest(recs) GROUP BY 1, 2, 3, 4) g
   CROSS JOIN LATERAL (VALUES ('total', ''), ('product', coalesce(g.product_id::text, '')),
                              ('period', to_char(g.d::timestamp, 'YYYY-MM-DD')), ('testType', g.test_type),
                              ('machine', coalesce(g.machine_id::text, ''))) AS v (dim, key)
   GROUP BY g.d, v.dim, v.key
$$;

-- quality_figures (0012) of `recs` as quality_count rows, negated when `factor` is -1 (a unit's figures before
-- the statement, taken away).
CREATE FUNCTION quality_counts(recs quality_record[], factor integer) RETURNS SETOF quality_count
LANGUAGE sql STABLE AS $$
  SELECT first_day, last_day, dim, key, factor * units, factor * first_pass, factor * final_pass, factor * retested,
         factor * tests, factor * failures
    FROM quality_figures(recs)
$$;

CREATE OR REPLACE FUNCTION test_records_quality() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p text[]; w smallint[]; n bigint[];
  cur quality_record[];
  before quality_record[];
  fresh bigint;
  fp text[]; fw smallint[]; fn bigint[];
  -- Records of claimed units: those tested once in this statement, and those tested more than once.
  once quality_record[];
  many quality_record[];
  delta quality_count[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A unit seen for the first time gets its row here, with the days of this statement's records (right when
    -- these are all its records; corrected below otherwise). A claimed unit's records are all in new_rows:
    -- no other transaction can have stored one without the unit's row, and one storing one now waits for
    -- this row's key. So the claimed units' figures come from new_rows alone, without reading test_records
    -- or locking anything more; only the units seen before take the general path below.
    WITH claimed AS (
      INSERT INTO quality_units (prefix, width, serial_no, first_day, last_day)
      SELECT prefix, width, serial_no, (min(tested_at) AT TIME ZONE 'UTC')::date, (max(tested_at) AT TIME ZONE 'UTC')::date
        FROM new_rows GROUP BY prefix, width, serial_no ORDER BY 1, 2, 3
      ON CONFLICT DO NOTHING
      RETURNING prefix, width, serial_no
    )
    SELECT count(*), array_agg(prefix), array_agg(width), array_agg(serial_no) INTO fresh, fp, fw, fn FROM claimed;
    IF fresh = (SELECT count(*) FROM new_rows) THEN
      -- Every unit new and tested once in this statement (a bench sending each unit's test as it is done).
      SELECT array_agg(ROW(x.id, x.prefix, x.width, x.serial_no, x.product_id, x.machine_id, x.test_type, x.tested_at, x.outcome)::quality_record)
        INTO once FROM new_rows x;
    ELSE
      SELECT array_agg(prefix), array_agg(width), array_agg(serial_no) INTO p, w, n
        FROM (SELECT DISTINCT prefix, width, serial_no FROM new_rows) d;
      IF fresh > 0 THEN
        -- Some units new: the claimed ones' records are split into those tested once and more than once, as
        -- above; the general path takes the others only (docs/decisions/0034, third change), and none when
        -- every unit is new. By EXECUTE, planned with this call's counts (0016's plans note).
        EXECUTE $q$SELECT array_agg(r) FILTER (WHERE k = 1), array_agg(r) FILTER (WHERE k > 1)
          FROM (SELECT ROW(x.id, x.prefix, x.width, x.serial_no, x.product_id, x.machine_id, x.test_type, x.tested_at, x.outcome)::quality_record AS r,
                       count(*) OVER (PARTITION BY x.prefix, x.width, x.serial_no) AS k
                  FROM new_rows x JOIN unnest($1, $2, $3) AS f (prefix, width, serial_no)
                    ON x.prefix = f.prefix AND x.width = f.width AND x.serial_no = f.serial_no) t$q$
          INTO once, many USING fp, fw, fn;
        IF fresh = cardinality(p) THEN
          p := NULL;
        ELSE
          EXECUTE $q$SELECT array_agg(prefix), array_agg(width), array_agg(serial_no)
            FROM (SELECT prefix, width, serial_no FROM unnest($1, $2, $3) AS a (prefix, width, serial_no)
                  EXCEPT SELECT prefix, width, serial_no FROM unnest($4, $5, $6) AS f (prefix, width, serial_no)) d$q$
            INTO p, w, n USING p, w, n, fp, fw, fn;
        END IF;
      END IF;
    END IF;
    IF once IS NOT NULL THEN
      delta := ARRAY(SELECT c FROM quality_single_test_counts(once) c);
      INSERT INTO quality_open_failures (id, tested_at, prefix, width, serial_no)
      SELECT id, tested_at, prefix, width, serial_no FROM unnest(once) WHERE outcome = 'fail';
    END IF;
    IF many IS NOT NULL THEN
      delta := delta || ARRAY(SELECT c FROM quality_counts(many, 1) c);
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(prefix), array_agg(width), array_agg(serial_no) INTO p, w, n
      FROM (SELECT DISTINCT prefix, width, serial_no FROM old_rows) d;
  ELSE
    EXECUTE $q$SELECT array_agg(prefix), array_agg(width), array_agg(serial_no)
      FROM (
        SELECT DISTINCT unnest(ARRAY[o.prefix, x.prefix]) AS prefix, unnest(ARRAY[o.width, x.width]) AS width,
               unnest(ARRAY[o.serial_no, x.serial_no]) AS serial_no
          FROM old_rows o JOIN new_rows x ON x.id = o.id
         WHERE (o.prefix, o.width, o.serial_no, o.tested_at, o.outcome, o.test_type) IS DISTINCT FROM
               (x.prefix, x.width, x.serial_no, x.tested_at, x.outcome, x.test_type)
            OR o.product_id IS DISTINCT FROM x.product_id OR o.machine_id IS DISTINCT FROM x.machine_id
      ) d$q$ INTO p, w, n;
  END IF;

  -- The general path: the units of p are derived again from their records, and the kept sums move by
  -- (after - before). The units are locked first (in key order), and their records read after the lock, so
  -- that two transactions adding tests of one unit cannot each derive it without the other's tests.
  IF p IS NOT NULL THEN
    PERFORM 1 FROM quality_units q JOIN unnest(p, w, n) AS a (prefix, width, serial_no)
        ON q.prefix = a.prefix AND q.width = a.width AND q.serial_no = a.serial_no
      ORDER BY q.prefix, q.width, q.serial_no FOR UPDATE OF q;

    SELECT array_agg(ROW(r.id, r.prefix, r.width, r.serial_no, r.product_id, r.machine_id, r.test_type, r.tested_at, r.outcome)::quality_record)
      INTO cur
      FROM unnest(p, w, n) AS a (prefix, width, serial_no)
      JOIN test_records r ON r.prefix = a.prefix AND r.width = a.width AND r.serial_no = a.serial_no;
    -- The same units as they were before this statement.
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(c) INTO before FROM unnest(cur) c WHERE c.id NOT IN (SELECT id FROM new_rows);
    ELSIF TG_OP = 'DELETE' THEN
      SELECT cur || array_agg(ROW(o.id, o.prefix, o.width, o.serial_no, o.product_id, o.machine_id, o.test_type, o.tested_at, o.outcome)::quality_record)
        INTO before FROM old_rows o;
    ELSE
      EXECUTE $q$SELECT coalesce((SELECT array_agg(c) FROM unnest($1) c WHERE c.id NOT IN (SELECT id FROM new_rows)), '{}')
             || array_agg(ROW(o.id, o.prefix, o.width, o.serial_no, o.product_id, o.machine_id, o.test_type, o.tested_at, o.outcome)::quality_record)
        FROM old_rows o JOIN unnest($2, $3, $4) AS a (prefix, width, serial_no)
          ON o.prefix = a.prefix AND o.width = a.width AND o.serial_no = a.serial_no$q$
        INTO before USING cur, p, w, n;
    END IF;
    delta := delta || ARRAY(SELECT c FROM quality_counts(cur, 1) c) || ARRAY(SELECT c FROM quality_counts(before, -1) c);
    DELETE FROM quality_open_failures o USING unnest(p, w, n) AS a (prefix, width, serial_no)
     WHERE o.prefix = a.prefix AND o.width = a.width AND o.serial_no = a.serial_no;
  END IF;

  IF delta IS NULL THEN
    RETURN NULL;
  END IF;
  -- One upsert of every path's figures. A key can come from several of them (a day of the claimed units and
  -- of the units seen before, after and before), so they are summed per key first; a key whose sums cancel
  -- (a unit's figures unchanged by an edit) is left alone.
  INSERT INTO quality_day_counts AS c (first_day, last_day, dim, key, units, first_pass, final_pass, retested, tests, failures)
  SELECT first_day, last_day, dim, key, sum(units), sum(first_pass), sum(final_pass), sum(retested), sum(tests), sum(failures)
    FROM unnest(delta)
   GROUP BY first_day, last_day, dim, key
  HAVING sum(units) <> 0 OR sum(first_pass) <> 0 OR sum(final_pass) <> 0 OR sum(retested) <> 0 OR sum(tests) <> 0 OR sum(failures) <> 0
   ORDER BY first_day, last_day, dim, key
  ON CONFLICT (first_day, last_day, dim, key) DO UPDATE SET units = c.units + excluded.units,
     first_pass = c.first_pass + excluded.first_pass, final_pass = c.final_pass + excluded.final_pass,
     retested = c.retested + excluded.retested, tests = c.tests + excluded.tests, failures = c.failures + excluded.failures;

  -- The never-retested list: the last record of each unit and test type, where it failed (the records of
  -- units tested once were added above).
  IF many IS NOT NULL OR cur IS NOT NULL THEN
    INSERT INTO quality_open_failures (id, tested_at, prefix, width, serial_no)
    SELECT id, tested_at, prefix, width, serial_no FROM (
      SELECT DISTINCT ON (prefix, width, serial_no, test_type) * FROM unnest(many || cur)
       ORDER BY prefix, width, serial_no, test_type, tested_at DESC, id DESC) l
     WHERE outcome = 'fail';
  END IF;

  IF p IS NOT NULL THEN
    UPDATE quality_units q SET first_day = s.first_day, last_day = s.last_day
      FROM (SELECT prefix, width, serial_no, (min(tested_at) AT TIME ZONE 'UTC')::date AS first_day,
                   (max(tested_at) AT TIME ZONE 'UTC')::date AS last_day
              FROM unnest(cur) GROUP BY prefix, width, serial_no) s
     WHERE q.prefix = s.prefix AND q.width = s.width AND q.serial_no = s.serial_no
       AND (q.first_day, q.last_day) IS DISTINCT FROM (s.first_day, s.last_day);
    -- Units left without records leave (only a delete or an edit of the unit can do that).
    IF TG_OP <> 'INSERT' THEN
      DELETE FROM quality_units q USING unnest(p, w, n) AS a (prefix, width, serial_no)
       WHERE q.prefix = a.prefix AND q.width = a.width AND q.serial_no = a.serial_no
         AND NOT EXISTS (SELECT 1 FROM test_records r WHERE r.prefix = a.prefix AND r.width = a.width AND r.serial_no = a.serial_no);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
