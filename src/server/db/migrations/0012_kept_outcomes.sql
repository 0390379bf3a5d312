-- Kept outcomes for the quality analysis (docs/decisions/0025-kept-quality-outcomes.md): a year of
-- 1,000,000 records answers the summary and the never-retested list from kept figures, not by grouping
-- every record per view. Kept by a statement trigger on test_records in the transaction of the change, so
-- edits, deletes, imports, re-judgement and rollbacks keep them exact, whoever writes.
--
-- The summary's figures (src/server/modules/quality/quality.repo.ts) are sums over units, and a unit's
-- part of them depends only on its own records inside the chosen range. A unit whose records all lie
-- inside the range therefore adds what it adds over all its records: that part is kept per unit and summed
-- per (first day, last day) of the unit. The range's figures are the kept sums of the units it contains,
-- plus the few units that straddle one of its two edges, grouped from their records in the range.

-- 1. One row per unit (its serial's parts): the days of its first and last test. Read to find the units
-- that straddle a range's edge, and locked to keep two transactions from deriving one unit at once.
CREATE TABLE quality_units (
  prefix text NOT NULL,
  width smallint NOT NULL,
  serial_no bigint NOT NULL,
  first_day date NOT NULL,
  last_day date NOT NULL,
  PRIMARY KEY (prefix, width, serial_no)
);
-- Units whose tests span a midnight: the only ones that can straddle a range's edge (ranges are UTC days).
CREATE INDEX quality_units_span_idx ON quality_units USING gist (daterange(first_day, last_day, '[]')) WHERE first_day < last_day;

-- 2. The kept sums of the units' figures per (first day, last day) of the units, dimension and key ('' for
-- the total, no product and no bench; the period's key is the day of the unit's first test). Updated in place
-- (a few dozen rows per ingested batch, in key order so that concurrent batches lock them in the same order).
CREATE TABLE quality_day_counts (
  first_day date NOT NULL,
  last_day date NOT NULL,
  dim text NOT NULL CHECK (dim IN ('total', 'product', 'machine', 'testType', 'period')),
  key text NOT NULL,
  units integer NOT NULL,
  first_pass integer NOT NULL,
  final_pass integer NOT NULL,
  retested integer NOT NULL,
  tests integer NOT NULL,
  failures integer NOT NULL,
  PRIMARY KEY (first_day, last_day, dim, key)
);

-- 3. The never-retested list: the last test of each unit and test type, when it failed (by outcome).
CREATE TABLE quality_open_failures (
  -- test_records.id
  id bigint PRIMARY KEY,
  tested_at timestamptz NOT NULL,
  prefix text NOT NULL,
  width smallint NOT NULL,
  serial_no bigint NOT NULL
);
CREATE INDEX quality_open_failures_tested_at_idx ON quality_open_failures (tested_at, id);
CREATE INDEX quality_open_failures_unit_idx ON quality_open_failures (prefix, width, serial_no);

-- What the figures read of a record.
CREATE TYPE quality_record AS (
  id bigint, prefix text, width smallint, serial_no bigint, product_id uuid, machine_id uuid, test_type text,
  tested_at timestamptz, outcome text
);

-- The figures of the units of `recs` (which hold every record of each unit), summed per (first day, last
-- day, dimension, key): the summary's grouping (src/server/modules/quality/quality.repo.ts) per unit. The
-- unit's first and last instant ride along each level (window in b), so no step joins two derived sets.
CREATE FUNCTION quality_figures(recs quality_record[])
RETURNS TABLE (first_day date, last_day date, dim text, key text, units bigint, first_pass bigint, final_pass bigint,
               retested bigint, tests bigint, failures bigint)
LANGUAGE sql STABLE AS $$
  WITH b AS MATERIALIZED (
    SELECT prefix, width, serial_no, product_id, machine_id, test_type, n, nfail, min_at, max_at, min_fail, max_fail,
           min(min_at) OVER w AS uf, max(max_at) OVER w AS ul
      FROM (
        SELECT prefix, width, serial_no, product_id, machine_id, test_type, count(*) AS n, count(*) FILTER (WHERE outcome = 'fail') AS nfail,
               min(tested_at) AS min_at, max(tested_at) AS max_at,
               min(tested_at) FILTER (WHERE outcome = 'fail') AS min_fail, max(tested_at) FILTER (WHERE outcome = 'fail') AS max_fail
          FROM unnest(recs) GROUP BY prefix, width, serial_no, product_id, machine_id, test_type
      ) g
    WINDOW w AS (PARTITION BY prefix, width, serial_no)
  ),
  ut AS MATERIALIZED (
    SELECT prefix, width, serial_no, product_id, test_type, min(uf) AS uf, min(ul) AS ul, sum(n) AS n, sum(nfail) AS nfail,
           min(min_at) AS first_at,
           coalesce(min(min_fail) = min(min_at), false) AS first_failed, coalesce(max(max_fail) = max(max_at), false) AS last_failed
      FROM b GROUP BY prefix, width, serial_no, product_id, test_type
  ),
  u AS MATERIALIZED (
    SELECT prefix, width, serial_no, product_id, min(uf) AS uf, min(ul) AS ul, min(first_at) AS first_at,
           bool_and(NOT first_failed) AS fp, bool_and(NOT last_failed) AS fin, bool_or(n > 1) AS re, sum(n) AS n, sum(nfail) AS nfail
      FROM ut GROUP BY prefix, width, serial_no, product_id
  ),
  um AS (
    SELECT min(uf) AS uf, min(ul) AS ul, machine_id, bool_and(coalesce(min_fail <> min_at, true)) AS fp,
           bool_and(coalesce(max_fail <> max_at, true)) AS fin, bool_or(n > 1) AS re, sum(n) AS n, sum(nfail) AS nfail
      FROM b GROUP BY prefix, width, serial_no, machine_id
  ),
  fig AS (
    -- u is per unit and product: the summary's units (a unit under two products at once counts under each)
    SELECT uf, ul, 'total' AS d, '' AS k, 1 AS u, fp::int AS fp, fin::int AS fin, re::int AS re, n AS t, nfail AS f FROM u
    UNION ALL
    SELECT uf, ul, 'product', coalesce(product_id::text, ''), 1, fp::int, fin::int, re::int, n, nfail FROM u
    UNION ALL
    SELECT uf, ul, 'period', to_char(first_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 1, fp::int, fin::int, re::int, n, nfail FROM u
    UNION ALL
    SELECT uf, ul, 'testType', test_type, 1, (NOT first_failed)::int, (NOT last_failed)::int, (n > 1)::int, n, nfail FROM ut
    UNION ALL
    SELECT uf, ul, 'machine', coalesce(machine_id::text, ''), 1, fp::int, fin::int, re::int, n, nfail FROM um
  )
  SELECT (uf AT TIME ZONE 'UTC')::date, (ul AT TIME ZONE 'UTC')::date, d, k, sum(u)::bigint, sum(fp)::bigint, sum(fin)::bigint,
         sum(re)::bigint, sum(t)::bigint, sum(f)::bigint
    FROM fig GROUP BY 1, 2, 3, 4
$$;

-- Once per statement on test_records: the units of the inserted or deleted records, and of updated records
-- whose unit, time, outcome, product, bench or test type changed (re-matching and re-judgement update the
-- last three), are derived again from their records, and the kept sums move by (after - before). The units
-- are locked first (in key order), and their records read after the lock, so that two transactions adding
-- tests of one unit cannot each derive it without the other's tests.
CREATE FUNCTION test_records_quality() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER test_records_quality_insert AFTER INSERT ON test_records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_quality();
CREATE TRIGGER test_records_quality_update AFTER UPDATE ON test_records
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_quality();
CREATE TRIGGER test_records_quality_delete AFTER DELETE ON test_records
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_quality();

-- The records already stored, all at once.
INSERT INTO quality_units (prefix, width, serial_no, first_day, last_day)
SELECT prefix, width, serial_no, (min(tested_at) AT TIME ZONE 'UTC')::date, (max(tested_at) AT TIME ZONE 'UTC')::date
  FROM test_records GROUP BY prefix, width, serial_no;
INSERT INTO quality_day_counts (first_day, last_day, dim, key, units, first_pass, final_pass, retested, tests, failures)
SELECT f.* FROM (SELECT array_agg(ROW(id, prefix, width, serial_no, product_id, machine_id, test_type, tested_at, outcome)::quality_record) AS recs
                   FROM test_records) a, quality_figures(a.recs) f;
INSERT INTO quality_open_failures (id, tested_at, prefix, width, serial_no)
SELECT id, tested_at, prefix, width, serial_no FROM (
  SELECT DISTINCT ON (prefix, width, serial_no, test_type) id, tested_at, prefix, width, serial_no, outcome FROM test_records
   ORDER BY prefix, width, serial_no, test_type, tested_at DESC, id DESC) l
 WHERE outcome = 'fail';

-- 4. The Machine Data list at a million records: the "fail" filter with a test type, a product or a bench
-- (the bench's or product's failures in tested-at order, and their count up to the list's limit from the index
-- alone). Partial like test_records_fail_idx (0004): only the rare failing rows pay for them at ingestion.
CREATE INDEX test_records_fail_type_idx ON test_records (test_type, tested_at, id) WHERE result = 'fail';
CREATE INDEX test_records_fail_product_idx ON test_records (product_id, tested_at, id) WHERE result = 'fail';
CREATE INDEX test_records_fail_machine_idx ON test_records (machine_id, tested_at, id) WHERE result = 'fail';
