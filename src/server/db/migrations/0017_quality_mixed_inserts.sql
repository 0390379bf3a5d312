-- Imports of units whose tests fall into several statements (issue 21; docs/decisions/0034, third change).
-- 0016's two statement triggers took their general path for a whole insert as soon as one of its units had
-- been seen before. An insert that claims some units and finds others now treats the claimed units as 0016
-- treats an insert of new units only (all their records are in this statement) and takes the general path
-- for the units seen before only:
--  1. first-pass pairs: the claimed units' pairs are inserted by the claim as in 0016; the upsert of 0010
--     runs over the other units' records only (it found the claimed units' pairs identical and left them);
--  2. kept quality outcomes: the claimed units' figures are added from new_rows (those tested once in the
--     statement summed as 0016 sums an insert of such units only, the others by quality_figures), and the
--     general path reads back from test_records, and subtracts the figures before the statement of, the
--     units seen before only. An insert of new units only, some tested more than once, takes the same branch
--     (with no unit seen before) instead of 0015's, which had all its records go through quality_figures.
-- Every other insert, update and delete is unchanged.
CREATE OR REPLACE FUNCTION test_records_firsts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pairs integer;
  claimed integer;
  claimed_units text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM set_config('trc.unit_firsts_counted', 'on', true);
    EXECUTE $q$WITH firsts AS MATERIALIZED (
      SELECT DISTINCT ON (serial, test_type) serial, test_type, tested_at AS first_at, outcome = 'fail' AS first_failed
        FROM changed_rows ORDER BY serial, test_type, tested_at, (outcome = 'fail') DESC
    ), fresh AS (
      INSERT INTO test_units (serial, first_at, failed_types)
      SELECT serial, min(first_at), count(*) FILTER (WHERE first_failed) FROM firsts GROUP BY serial ORDER BY serial
      ON CONFLICT DO NOTHING
      RETURNING serial
    ), added AS (
      INSERT INTO test_unit_firsts (serial, test_type, first_at, first_failed)
      SELECT f.serial, f.test_type, f.first_at, f.first_failed FROM firsts f JOIN fresh u ON u.serial = f.serial
       ORDER BY f.serial, f.test_type
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM firsts), (SELECT count(*) FROM added), (SELECT array_agg(serial) FROM fresh)$q$
      INTO pairs, claimed, claimed_units;
    PERFORM set_config('trc.unit_firsts_counted', '', true);
    IF claimed = pairs THEN
      RETURN NULL;
    END IF;
    -- The units seen before: the units claimed above have all their pairs already (0017). `= ANY` of an array
    -- given to EXECUTE is planned as a constant, which PostgreSQL hashes (14 and later): one probe a row.
    EXECUTE $q$INSERT INTO test_unit_firsts AS f (serial, test_type, first_at, first_failed)
    SELECT DISTINCT ON (serial, test_type) serial, test_type, tested_at, outcome = 'fail'
      FROM changed_rows WHERE NOT (serial = ANY($1)) ORDER BY serial, test_type, tested_at, (outcome = 'fail') DESC
    ON CONFLICT (serial, test_type) DO UPDATE SET first_at = excluded.first_at, first_failed = excluded.first_failed
     WHERE excluded.first_at < f.first_at OR (excluded.first_at = f.first_at AND excluded.first_failed AND NOT f.first_failed)$q$
      USING coalesce(claimed_units, '{}');
  ELSIF TG_OP = 'UPDATE' THEN
    -- Re-judged records whose outcome changed: their pairs are derived again from the records (all still
    -- there, so an upsert that overwrites is enough).
    EXECUTE $q$INSERT INTO test_unit_firsts AS f (serial, test_type, first_at, first_failed)
    SELECT DISTINCT ON (r.serial, r.test_type) r.serial, r.test_type, r.tested_at, r.outcome = 'fail'
      FROM test_records r
      JOIN (SELECT DISTINCT n.prefix, n.width, n.serial_no, n.test_type
              FROM changed_rows n JOIN old_rows o ON o.id = n.id WHERE o.outcome <> n.outcome) d
        ON r.prefix = d.prefix AND r.width = d.width AND r.serial_no = d.serial_no AND r.test_type = d.test_type
     ORDER BY r.serial, r.test_type, r.tested_at, (r.outcome = 'fail') DESC
    ON CONFLICT (serial, test_type) DO UPDATE SET first_at = excluded.first_at, first_failed = excluded.first_failed
     WHERE f.first_at <> excluded.first_at OR f.first_failed <> excluded.first_failed$q$;
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

CREATE OR REPLACE FUNCTION test_records_quality() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p text[]; w smallint[]; n bigint[];
  cur quality_record[];
  before quality_record[];
  fresh bigint;
  fp text[]; fw smallint[]; fn bigint[];
  once quality_record[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A unit seen for the first time gets its row here, with the days of this statement's records (right when
    -- these are all its records; corrected below otherwise). When every unit of an insert is new (a bench's
    -- batch of new units, the common case), its records are all in new_rows: no other transaction can have
    -- stored one without the unit's row, and one storing one now waits for this row's key. Their figures are
    -- then added from new_rows alone, without reading test_records or locking anything more.
    WITH claimed AS (
      INSERT INTO quality_units (prefix, width, serial_no, first_day, last_day)
      SELECT prefix, width, serial_no, (min(tested_at) AT TIME ZONE 'UTC')::date, (max(tested_at) AT TIME ZONE 'UTC')::date
        FROM new_rows GROUP BY prefix, width, serial_no ORDER BY 1, 2, 3
      ON CONFLICT DO NOTHING
      RETURNING prefix, width, serial_no
    )
    SELECT count(*), array_agg(prefix), array_agg(width), array_agg(serial_no) INTO fresh, fp, fw, fn FROM claimed;
    -- Every unit new and tested once in this statement (a bench sending each unit's test as it is done):
    -- a unit's figures are its one record's (one test, passed first and finally unless it failed, no retest),
    -- summed per day, dimension and key from new_rows, without quality_figures' per-unit levels.
    IF fresh = (SELECT count(*) FROM new_rows) THEN
      INSERT INTO quality_day_counts AS c (first_day, last_day, dim, key, units, first_pass, final_pass, retested, tests, failures)
      SELECT g.d, g.d, v.dim, v.key, sum(g.n), sum(g.passed), sum(g.passed), 0, sum(g.n), sum(g.failed)
        FROM (SELECT (tested_at AT TIME ZONE 'UTC')::date AS d, product_id, machine_id, test_type, count(*) AS n,
                     count(*) FILTER (WHERE outcome <> 'fail') AS passed, count(*) FILTER (WHERE outcome = 'fail') AS failed
                FROM new_rows GROUP BY 1, 2, 3, 4) g
       CROSS JOIN LATERAL (VALUES ('total', ''), ('product', coalesce(g.product_id::text, '')),
                                  ('period', to_char(g.d::timestamp, 'YYYY-MM-DD')), ('testType', g.test_type),
                                  ('machine', coalesce(g.machine_id::text, ''))) AS v (dim, key)
       GROUP BY g.d, v.dim, v.key
       ORDER BY g.d, v.dim, v.key
      ON CONFLICT (first_day, last_day, dim, key) DO UPDATE SET units = c.units + excluded.units,
         first_pass = c.first_pass + excluded.first_pass, final_pass = c.final_pass + excluded.final_pass,
         retested = c.retested + excluded.retested, tests = c.tests + excluded.tests, failures = c.failures + excluded.failures;
      INSERT INTO quality_open_failures (id, tested_at, prefix, width, serial_no)
      SELECT id, tested_at, prefix, width, serial_no FROM new_rows WHERE outcome = 'fail';
      RETURN NULL;
    END IF;
    SELECT array_agg(prefix), array_agg(width), array_agg(serial_no) INTO p, w, n
      FROM (SELECT DISTINCT prefix, width, serial_no FROM new_rows) d;
    -- Some units new (the claimed ones), others seen before (an import whose units' tests fall into several
    -- statements), or every unit new and some tested more than once: the new ones' records are all in
    -- new_rows, as above, so their figures are added from new_rows, and the general path below reads
    -- test_records for the units seen before only, not for every unit of the statement (docs/decisions/0034,
    -- third change; it replaces 0015's branch for an insert of new units only, which had every record go
    -- through quality_figures). A join of new_rows to the claimed keys: by EXECUTE,
    -- planned with this call's counts (0016's plans note).
    IF fresh > 0 THEN
      -- The claimed units tested once in this statement (most of an import's) are summed per day, dimension
      -- and key as 0016 sums an insert of such units only; those tested more than once go through quality_figures.
      EXECUTE $q$SELECT array_agg(r) FILTER (WHERE k = 1), array_agg(r) FILTER (WHERE k > 1)
        FROM (SELECT ROW(x.id, x.prefix, x.width, x.serial_no, x.product_id, x.machine_id, x.test_type, x.tested_at, x.outcome)::quality_record AS r,
                     count(*) OVER (PARTITION BY x.prefix, x.width, x.serial_no) AS k
                FROM new_rows x JOIN unnest($1, $2, $3) AS f (prefix, width, serial_no)
                  ON x.prefix = f.prefix AND x.width = f.width AND x.serial_no = f.serial_no) t$q$
        INTO once, cur USING fp, fw, fn;
      INSERT INTO quality_day_counts AS c (first_day, last_day, dim, key, units, first_pass, final_pass, retested, tests, failures)
      SELECT g.d, g.d, v.dim, v.key, sum(g.n), sum(g.passed), sum(g.passed), 0, sum(g.n), sum(g.failed)
        FROM (SELECT (tested_at AT TIME ZONE 'UTC')::date AS d, product_id, machine_id, test_type, count(*) AS n,
                     count(*) FILTER (WHERE outcome <> 'fail') AS passed, count(*) FILTER (WHERE outcome = 'fail') AS failed
                FROM unnest(once) GROUP BY 1, 2, 3, 4) g
       CROSS JOIN LATERAL (VALUES ('total', ''), ('product', coalesce(g.product_id::text, '')),
                                  ('period', to_char(g.d::timestamp, 'YYYY-MM-DD')), ('testType', g.test_type),
                                  ('machine', coalesce(g.machine_id::text, ''))) AS v (dim, key)
       GROUP BY g.d, v.dim, v.key
       ORDER BY g.d, v.dim, v.key
      ON CONFLICT (first_day, last_day, dim, key) DO UPDATE SET units = c.units + excluded.units,
         first_pass = c.first_pass + excluded.first_pass, final_pass = c.final_pass + excluded.final_pass,
         retested = c.retested + excluded.retested, tests = c.tests + excluded.tests, failures = c.failures + excluded.failures;
      INSERT INTO quality_open_failures (id, tested_at, prefix, width, serial_no)
      SELECT id, tested_at, prefix, width, serial_no FROM unnest(once) WHERE outcome = 'fail';
      INSERT INTO quality_day_counts AS c (first_day, last_day, dim, key, units, first_pass, final_pass, retested, tests, failures)
      SELECT * FROM quality_figures(cur) ORDER BY first_day, last_day, dim, key
      ON CONFLICT (first_day, last_day, dim, key) DO UPDATE SET units = c.units + excluded.units,
         first_pass = c.first_pass + excluded.first_pass, final_pass = c.final_pass + excluded.final_pass,
         retested = c.retested + excluded.retested, tests = c.tests + excluded.tests, failures = c.failures + excluded.failures;
      INSERT INTO quality_open_failures (id, tested_at, prefix, width, serial_no)
      SELECT id, tested_at, prefix, width, serial_no FROM (
        SELECT DISTINCT ON (prefix, width, serial_no, test_type) * FROM unnest(cur)
         ORDER BY prefix, width, serial_no, test_type, tested_at DESC, id DESC) l
       WHERE outcome = 'fail';
      EXECUTE $q$SELECT array_agg(prefix), array_agg(width), array_agg(serial_no)
        FROM (SELECT prefix, width, serial_no FROM unnest($1, $2, $3) AS a (prefix, width, serial_no)
              EXCEPT SELECT prefix, width, serial_no FROM unnest($4, $5, $6) AS f (prefix, width, serial_no)) d$q$
        INTO p, w, n USING p, w, n, fp, fw, fn;
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
  IF p IS NULL THEN
    RETURN NULL;
  END IF;

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

  INSERT INTO quality_day_counts AS c (first_day, last_day, dim, key, units, first_pass, final_pass, retested, tests, failures)
  SELECT first_day, last_day, dim, key, sum(units), sum(first_pass), sum(final_pass), sum(retested), sum(tests), sum(failures)
    FROM (
      SELECT * FROM quality_figures(cur)
      UNION ALL
      SELECT first_day, last_day, dim, key, -units, -first_pass, -final_pass, -retested, -tests, -failures FROM quality_figures(before)
    ) delta
   GROUP BY first_day, last_day, dim, key
  HAVING sum(units) <> 0 OR sum(first_pass) <> 0 OR sum(final_pass) <> 0 OR sum(retested) <> 0 OR sum(tests) <> 0 OR sum(failures) <> 0
   ORDER BY first_day, last_day, dim, key
  ON CONFLICT (first_day, last_day, dim, key) DO UPDATE SET units = c.units + excluded.units,
     first_pass = c.first_pass + excluded.first_pass, final_pass = c.final_pass + excluded.final_pass,
     retested = c.retested + excluded.retested, tests = c.tests + excluded.tests, failures = c.failures + excluded.failures;

  DELETE FROM quality_open_failures o USING unnest(p, w, n) AS a (prefix, width, serial_no)
   WHERE o.prefix = a.prefix AND o.width = a.width AND o.serial_no = a.serial_no;
  INSERT INTO quality_open_failures (id, tested_at, prefix, width, serial_no)
  SELECT id, tested_at, prefix, width, serial_no FROM (
    SELECT DISTINCT ON (prefix, width, serial_no, test_type) * FROM unnest(cur)
     ORDER BY prefix, width, serial_no, test_type, tested_at DESC, id DESC) l
   WHERE outcome = 'fail';

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
  RETURN NULL;
END
$$;
