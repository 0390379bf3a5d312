-- Ingestion of batches of new units (issue 21; docs/decisions/0035-ingestion-kept-outcomes.md): the two statement
-- triggers that keep counts per unit do less for an insert whose units are all new, and every other insert,
-- update and delete takes the paths of 0010 and 0015 unchanged.

-- 1. First-pass pairs (0009, 0010). The batch's units are first claimed in test_units (ON CONFLICT DO NOTHING,
-- in key order). A unit claimed here had no row, hence no pair and no record: a test_units row exists while the
-- unit has a pair (0009's cascade adds it with the first pair and removes it with the last), and a transaction
-- storing a record of the unit now waits on the claimed key. Its figures are final from this statement's records
-- alone, and its pairs are inserted plainly, without 0010's upsert and without the cascade of
-- test_unit_firsts_units (which would add them to test_units a second time): the setting
-- trc.unit_firsts_counted is 'on' for that one statement and the cascade's WHEN skips it. Pairs of known units
-- then take 0010's upsert (which finds the claimed units' pairs identical and leaves them), with the cascade.
-- Writers of a unit meet on its test_units key before touching its pairs, so the claim adds no lock-order cycle.
--
-- Plans. PL/pgSQL plans a static statement once per session and keeps the plan, made with the row counts of the
-- transition tables at its first call: a join between two of them (or two CTEs over one) planned for a batch of
-- one row stays a nested loop, and a later batch of 41,000 rows then compares 41,000 x 41,000 pairs (two minutes
-- on PostgreSQL, found by test/machine-data-import.test.ts after smaller imports on the same connection). Such
-- statements here run by EXECUTE, planned at each call with that call's counts (a fraction of a millisecond per
-- statement, not per row); statements that read one transition table, or join one to an indexed table, stay
-- static, as an index lookup per row is right at any size.
CREATE OR REPLACE FUNCTION test_records_firsts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pairs integer;
  claimed integer;
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
    SELECT (SELECT count(*) FROM firsts), (SELECT count(*) FROM added)$q$ INTO pairs, claimed;
    PERFORM set_config('trc.unit_firsts_counted', '', true);
    IF claimed = pairs THEN
      RETURN NULL;
    END IF;
    INSERT INTO test_unit_firsts AS f (serial, test_type, first_at, first_failed)
    SELECT DISTINCT ON (serial, test_type) serial, test_type, tested_at, outcome = 'fail'
      FROM changed_rows ORDER BY serial, test_type, tested_at, (outcome = 'fail') DESC
    ON CONFLICT (serial, test_type) DO UPDATE SET first_at = excluded.first_at, first_failed = excluded.first_failed
     WHERE excluded.first_at < f.first_at OR (excluded.first_at = f.first_at AND excluded.first_failed AND NOT f.first_failed);
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
-- 0009's cascade, its update branch (a join of both transition tables) by EXECUTE, as the plans note above says.
CREATE OR REPLACE FUNCTION test_unit_firsts_units() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO test_units AS u (serial, first_at, failed_types)
    SELECT serial, min(first_at), count(*) FILTER (WHERE first_failed) FROM new_rows GROUP BY serial ORDER BY serial
    ON CONFLICT (serial) DO UPDATE SET first_at = least(u.first_at, excluded.first_at), failed_types = u.failed_types + excluded.failed_types
     WHERE excluded.first_at < u.first_at OR excluded.failed_types <> 0;
  ELSIF TG_OP = 'UPDATE' THEN
    EXECUTE $q$UPDATE test_units u SET first_at = least(u.first_at, d.first_at), failed_types = u.failed_types + d.delta
      FROM (
        SELECT n.serial, min(n.first_at) AS first_at, sum(n.first_failed::int - o.first_failed::int) AS delta
          FROM new_rows n JOIN old_rows o ON o.serial = n.serial AND o.test_type = n.test_type
         GROUP BY n.serial ORDER BY n.serial
      ) d
     WHERE u.serial = d.serial$q$;
  ELSE
    UPDATE test_units u SET failed_types = u.failed_types - d.failed
      FROM (SELECT serial, count(*) FILTER (WHERE first_failed) AS failed FROM old_rows GROUP BY serial) d
     WHERE u.serial = d.serial AND d.failed <> 0;
    -- The unit's first test may have been among the deleted; a unit without tests leaves.
    UPDATE test_units u SET first_at = m.first_at
      FROM (SELECT d.serial, min(f.first_at) AS first_at FROM (SELECT DISTINCT serial FROM old_rows) d
              JOIN test_unit_firsts f ON f.serial = d.serial GROUP BY d.serial) m
     WHERE u.serial = m.serial AND u.first_at <> m.first_at;
    DELETE FROM test_units u USING (SELECT DISTINCT serial FROM old_rows) d
     WHERE u.serial = d.serial AND NOT EXISTS (SELECT 1 FROM test_unit_firsts f WHERE f.serial = d.serial);
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER test_unit_firsts_units_insert ON test_unit_firsts;
CREATE TRIGGER test_unit_firsts_units_insert AFTER INSERT ON test_unit_firsts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  WHEN (current_setting('trc.unit_firsts_counted', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION test_unit_firsts_units();

-- 2. Kept quality outcomes (0012, 0015). The fast path of 0015 (every unit new and tested once) is found from
-- the claim of the units in quality_units alone: as many units claimed as records inserted means every unit
-- was new and had one record. Its sums are grouped once per (day, product, bench, test type), a few rows, and
-- the five dimensions are spread over those rather than over every record. The units' list (p, w, n) is only
-- built for the other paths, which are 0015's.
CREATE OR REPLACE FUNCTION test_records_quality() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p text[]; w smallint[]; n bigint[];
  cur quality_record[];
  before quality_record[];
  fresh bigint;
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
      RETURNING 1
    )
    SELECT count(*) INTO fresh FROM claimed;
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
    -- Every unit new, some tested more than once: their figures from new_rows by quality_figures (0015).
    IF fresh = cardinality(p) THEN
      SELECT array_agg(ROW(x.id, x.prefix, x.width, x.serial_no, x.product_id, x.machine_id, x.test_type, x.tested_at, x.outcome)::quality_record)
        INTO cur FROM new_rows x;
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
      RETURN NULL;
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
