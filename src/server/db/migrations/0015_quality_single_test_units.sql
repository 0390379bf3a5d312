-- The kept quality outcomes (0012), cheaper for the commonest insert: a batch whose units are all new and
-- each tested once in it. Their figures are summed straight from the inserted rows; every other insert,
-- update and delete takes 0012's path unchanged (docs/decisions/0035-ingestion-kept-outcomes.md).
CREATE OR REPLACE FUNCTION test_records_quality() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p text[]; w smallint[]; n bigint[];
  cur quality_record[];
  before quality_record[];
  all_fresh boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(prefix), array_agg(width), array_agg(serial_no) INTO p, w, n
      FROM (SELECT DISTINCT prefix, width, serial_no FROM new_rows) d;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(prefix), array_agg(width), array_agg(serial_no) INTO p, w, n
      FROM (SELECT DISTINCT prefix, width, serial_no FROM old_rows) d;
  ELSE
    SELECT array_agg(prefix), array_agg(width), array_agg(serial_no) INTO p, w, n
      FROM (
        SELECT DISTINCT unnest(ARRAY[o.prefix, x.prefix]) AS prefix, unnest(ARRAY[o.width, x.width]) AS width,
               unnest(ARRAY[o.serial_no, x.serial_no]) AS serial_no
          FROM old_rows o JOIN new_rows x ON x.id = o.id
         WHERE (o.prefix, o.width, o.serial_no, o.tested_at, o.outcome, o.test_type) IS DISTINCT FROM
               (x.prefix, x.width, x.serial_no, x.tested_at, x.outcome, x.test_type)
            OR o.product_id IS DISTINCT FROM x.product_id OR o.machine_id IS DISTINCT FROM x.machine_id
      ) d;
  END IF;
  IF p IS NULL THEN
    RETURN NULL;
  END IF;

  -- A unit seen for the first time gets its row here, with the days of this statement's records (right when
  -- these are all its records; corrected below otherwise). When every unit of an insert is new (a bench's
  -- batch of new units, the common case), its records are all in new_rows: no other transaction can have
  -- stored one without the unit's row, and one storing one now waits for this row's key. Their figures are
  -- then added from new_rows alone, without reading test_records or locking anything more.
  IF TG_OP = 'INSERT' THEN
    WITH fresh AS (
      INSERT INTO quality_units (prefix, width, serial_no, first_day, last_day)
      SELECT prefix, width, serial_no, (min(tested_at) AT TIME ZONE 'UTC')::date, (max(tested_at) AT TIME ZONE 'UTC')::date
        FROM new_rows GROUP BY prefix, width, serial_no ORDER BY 1, 2, 3
      ON CONFLICT DO NOTHING
      RETURNING 1
    )
    SELECT count(*) = cardinality(p) INTO all_fresh FROM fresh;
    -- Every unit new and tested once in this statement (a bench sending each unit's test as it is done):
    -- a unit's figures are its one record's (one test, passed first and finally unless it failed, no retest),
    -- summed here per day, dimension and key straight from new_rows, without quality_figures' per-unit levels
    -- (which cost a 5,000-record batch about as much as storing it; docs/decisions/0035).
    IF all_fresh AND (SELECT count(*) FROM new_rows) = cardinality(p) THEN
      INSERT INTO quality_day_counts AS c (first_day, last_day, dim, key, units, first_pass, final_pass, retested, tests, failures)
      SELECT d, d, v.dim, v.key, count(*), count(*) FILTER (WHERE x.outcome <> 'fail'), count(*) FILTER (WHERE x.outcome <> 'fail'),
             0, count(*), count(*) FILTER (WHERE x.outcome = 'fail')
        FROM (SELECT (tested_at AT TIME ZONE 'UTC')::date AS d, * FROM new_rows) x
       CROSS JOIN LATERAL (VALUES ('total', ''), ('product', coalesce(x.product_id::text, '')),
                                  ('period', to_char(x.tested_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')), ('testType', x.test_type),
                                  ('machine', coalesce(x.machine_id::text, ''))) AS v (dim, key)
       GROUP BY d, v.dim, v.key
       ORDER BY d, v.dim, v.key
      ON CONFLICT (first_day, last_day, dim, key) DO UPDATE SET units = c.units + excluded.units,
         first_pass = c.first_pass + excluded.first_pass, final_pass = c.final_pass + excluded.final_pass,
         retested = c.retested + excluded.retested, tests = c.tests + excluded.tests, failures = c.failures + excluded.failures;
      INSERT INTO quality_open_failures (id, tested_at, prefix, width, serial_no)
      SELECT id, tested_at, prefix, width, serial_no FROM new_rows WHERE outcome = 'fail';
      RETURN NULL;
    END IF;
    IF all_fresh THEN
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
    SELECT coalesce((SELECT array_agg(c) FROM unnest(cur) c WHERE c.id NOT IN (SELECT id FROM new_rows)), '{}')
           || array_agg(ROW(o.id, o.prefix, o.width, o.serial_no, o.product_id, o.machine_id, o.test_type, o.tested_at, o.outcome)::quality_record)
      INTO before
      FROM old_rows o JOIN unnest(p, w, n) AS a (prefix, width, serial_no)
        ON o.prefix = a.prefix AND o.width = a.width AND o.serial_no = a.serial_no;
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
