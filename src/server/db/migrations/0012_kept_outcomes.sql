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

-- 1. One row per unit (its serial's parts): the days of its first and last test, and its part of every
-- figure as [{d: dim, k: key, u: units, fp: first pass, fin: final pass, re: retested, t: tests, f: failures}]
-- (the period's key is the day of the unit's first test; '' stands for no product / no bench / total).
CREATE TABLE quality_units (
  prefix text NOT NULL,
  width smallint NOT NULL,
  serial_no bigint NOT NULL,
  -- NULL only inside the refreshing statement (a row taken to lock a unit not seen before)
  first_day date,
  last_day date,
  figures jsonb NOT NULL DEFAULT '[]',
  PRIMARY KEY (prefix, width, serial_no)
);
-- Units whose tests span a midnight: the only ones that can straddle a range's edge (ranges are UTC days).
CREATE INDEX quality_units_span_idx ON quality_units USING gist (daterange(first_day, last_day, '[]')) WHERE first_day < last_day;

-- 2. The kept sums per (first day, last day) of the units and figure. Updated in place (a few dozen rows
-- per ingested batch, in key order so that concurrent batches lock them in the same order).
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

-- Derives again, from their records, the kept rows of the given units, and moves the kept sums by the
-- difference. The units are locked first (in key order), and their records read after the lock, so that two
-- transactions adding tests of one unit cannot each derive it without the other's tests.
CREATE FUNCTION quality_units_refresh(prefixes text[], widths smallint[], nos bigint[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  before jsonb;
BEGIN
  INSERT INTO quality_units (prefix, width, serial_no)
  SELECT DISTINCT prefix, width, serial_no FROM unnest(prefixes, widths, nos) AS a (prefix, width, serial_no) ORDER BY 1, 2, 3
  ON CONFLICT DO NOTHING;
  SELECT coalesce(jsonb_agg(jsonb_build_object('f', l.first_day, 'l', l.last_day, 'x', l.figures)) FILTER (WHERE l.first_day IS NOT NULL), '[]')
    INTO before
    FROM (SELECT q.first_day, q.last_day, q.figures FROM quality_units q
            JOIN (SELECT DISTINCT * FROM unnest(prefixes, widths, nos) AS a (prefix, width, serial_no)) a
              ON q.prefix = a.prefix AND q.width = a.width AND q.serial_no = a.serial_no
           ORDER BY q.prefix, q.width, q.serial_no FOR UPDATE OF q) l;

  DELETE FROM quality_open_failures o
   USING (SELECT DISTINCT * FROM unnest(prefixes, widths, nos) AS a (prefix, width, serial_no)) a
   WHERE o.prefix = a.prefix AND o.width = a.width AND o.serial_no = a.serial_no;

  -- The same grouping as the summary's (quality.repo.ts), per unit over all its records.
  WITH a AS (SELECT DISTINCT * FROM unnest(prefixes, widths, nos) AS a (prefix, width, serial_no)),
  r AS MATERIALIZED (
    SELECT r.id, r.prefix, r.width, r.serial_no, r.product_id, r.machine_id, r.test_type, r.tested_at, r.outcome
      FROM a JOIN test_records r ON r.prefix = a.prefix AND r.width = a.width AND r.serial_no = a.serial_no
  ),
  opened AS (
    INSERT INTO quality_open_failures (id, tested_at, prefix, width, serial_no)
    SELECT id, tested_at, prefix, width, serial_no FROM (
      SELECT DISTINCT ON (prefix, width, serial_no, test_type) * FROM r
       ORDER BY prefix, width, serial_no, test_type, tested_at DESC, id DESC) l
     WHERE outcome = 'fail'
  ),
  b AS (
    SELECT prefix, width, serial_no, product_id, machine_id, test_type, count(*) AS n, count(*) FILTER (WHERE outcome = 'fail') AS nfail,
           min(tested_at) AS min_at, max(tested_at) AS max_at,
           min(tested_at) FILTER (WHERE outcome = 'fail') AS min_fail, max(tested_at) FILTER (WHERE outcome = 'fail') AS max_fail
      FROM r GROUP BY prefix, width, serial_no, product_id, machine_id, test_type
  ),
  ut AS (
    SELECT prefix, width, serial_no, product_id, test_type, sum(n) AS n, sum(nfail) AS nfail, min(min_at) AS first_at,
           coalesce(min(min_fail) = min(min_at), false) AS first_failed, coalesce(max(max_fail) = max(max_at), false) AS last_failed
      FROM b GROUP BY prefix, width, serial_no, product_id, test_type
  ),
  u AS (
    SELECT prefix, width, serial_no, product_id, min(first_at) AS first_at, bool_and(NOT first_failed) AS fp,
           bool_and(NOT last_failed) AS fin, bool_or(n > 1) AS re, sum(n) AS n, sum(nfail) AS nfail
      FROM ut GROUP BY prefix, width, serial_no, product_id
  ),
  um AS (
    SELECT prefix, width, serial_no, machine_id, bool_and(coalesce(min_fail <> min_at, true)) AS fp,
           bool_and(coalesce(max_fail <> max_at, true)) AS fin, bool_or(n > 1) AS re, sum(n) AS n, sum(nfail) AS nfail
      FROM b GROUP BY prefix, width, serial_no, machine_id
  ),
  fig AS (
    SELECT prefix, width, serial_no, 'total' AS d, '' AS k, count(*) AS u, count(*) FILTER (WHERE fp) AS fp,
           count(*) FILTER (WHERE fin) AS fin, count(*) FILTER (WHERE re) AS re, sum(n) AS t, sum(nfail) AS f
      FROM u GROUP BY prefix, width, serial_no
    UNION ALL
    SELECT prefix, width, serial_no, 'product', coalesce(product_id::text, ''), count(*), count(*) FILTER (WHERE fp),
           count(*) FILTER (WHERE fin), count(*) FILTER (WHERE re), sum(n), sum(nfail)
      FROM u GROUP BY prefix, width, serial_no, product_id
    UNION ALL
    SELECT prefix, width, serial_no, 'period', to_char(first_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), count(*), count(*) FILTER (WHERE fp),
           count(*) FILTER (WHERE fin), count(*) FILTER (WHERE re), sum(n), sum(nfail)
      FROM u GROUP BY prefix, width, serial_no, 5
    UNION ALL
    SELECT prefix, width, serial_no, 'testType', test_type, count(*), count(*) FILTER (WHERE NOT first_failed),
           count(*) FILTER (WHERE NOT last_failed), count(*) FILTER (WHERE n > 1), sum(n), sum(nfail)
      FROM ut GROUP BY prefix, width, serial_no, test_type
    UNION ALL
    SELECT prefix, width, serial_no, 'machine', coalesce(machine_id::text, ''), count(*), count(*) FILTER (WHERE fp),
           count(*) FILTER (WHERE fin), count(*) FILTER (WHERE re), sum(n), sum(nfail)
      FROM um GROUP BY prefix, width, serial_no, machine_id
  ),
  packed AS (
    SELECT s.prefix, s.width, s.serial_no, s.first_day, s.last_day, f.figures
      FROM (SELECT prefix, width, serial_no, (min(tested_at) AT TIME ZONE 'UTC')::date AS first_day,
                   (max(tested_at) AT TIME ZONE 'UTC')::date AS last_day
              FROM r GROUP BY prefix, width, serial_no) s
      JOIN (SELECT prefix, width, serial_no,
                   jsonb_agg(jsonb_build_object('d', d, 'k', k, 'u', u, 'fp', fp, 'fin', fin, 're', re, 't', t, 'f', f)) AS figures
              FROM fig GROUP BY prefix, width, serial_no) f
        ON f.prefix = s.prefix AND f.width = s.width AND f.serial_no = s.serial_no
  )
  UPDATE quality_units q SET first_day = p.first_day, last_day = p.last_day, figures = coalesce(p.figures, '[]')
    FROM a LEFT JOIN packed p ON p.prefix = a.prefix AND p.width = a.width AND p.serial_no = a.serial_no
   WHERE q.prefix = a.prefix AND q.width = a.width AND q.serial_no = a.serial_no;

  -- The kept sums move by (after - before), one upsert in key order.
  INSERT INTO quality_day_counts AS c (first_day, last_day, dim, key, units, first_pass, final_pass, retested, tests, failures)
  SELECT f, l, d, k, sum(u), sum(fp), sum(fin), sum(re), sum(t), sum(fl)
    FROM (
      SELECT b.f, b.l, x.d, x.k, -x.u AS u, -x.fp AS fp, -x.fin AS fin, -x.re AS re, -x.t AS t, -x.f AS fl
        FROM jsonb_to_recordset(before) AS b (f date, l date, x jsonb),
             jsonb_to_recordset(b.x) AS x (d text, k text, u int, fp int, fin int, re int, t int, f int)
      UNION ALL
      SELECT q.first_day, q.last_day, x.d, x.k, x.u, x.fp, x.fin, x.re, x.t, x.f
        FROM quality_units q
        JOIN (SELECT DISTINCT * FROM unnest(prefixes, widths, nos) AS a (prefix, width, serial_no)) a
          ON q.prefix = a.prefix AND q.width = a.width AND q.serial_no = a.serial_no,
             jsonb_to_recordset(q.figures) AS x (d text, k text, u int, fp int, fin int, re int, t int, f int)
       WHERE q.first_day IS NOT NULL
    ) delta
   GROUP BY f, l, d, k
  HAVING sum(u) <> 0 OR sum(fp) <> 0 OR sum(fin) <> 0 OR sum(re) <> 0 OR sum(t) <> 0 OR sum(fl) <> 0
   ORDER BY f, l, d, k
  ON CONFLICT (first_day, last_day, dim, key) DO UPDATE SET units = c.units + excluded.units,
     first_pass = c.first_pass + excluded.first_pass, final_pass = c.final_pass + excluded.final_pass,
     retested = c.retested + excluded.retested, tests = c.tests + excluded.tests, failures = c.failures + excluded.failures;

  -- Units left without records leave (their figures are already taken out above).
  DELETE FROM quality_units q
   USING (SELECT DISTINCT * FROM unnest(prefixes, widths, nos) AS a (prefix, width, serial_no)) a
   WHERE q.prefix = a.prefix AND q.width = a.width AND q.serial_no = a.serial_no AND q.first_day IS NULL;
END
$$;

-- Once per statement: the units of the inserted or deleted records, and of updated records whose unit,
-- time, outcome, product, bench or test type changed (re-matching and re-judgement update the last three).
CREATE FUNCTION test_records_quality() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p text[]; w smallint[]; n bigint[];
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
        SELECT o.prefix, o.width, o.serial_no FROM old_rows o JOIN new_rows x ON x.id = o.id
         WHERE (o.prefix, o.width, o.serial_no, o.tested_at, o.outcome, o.test_type) IS DISTINCT FROM
               (x.prefix, x.width, x.serial_no, x.tested_at, x.outcome, x.test_type)
            OR o.product_id IS DISTINCT FROM x.product_id OR o.machine_id IS DISTINCT FROM x.machine_id
        UNION
        SELECT x.prefix, x.width, x.serial_no FROM old_rows o JOIN new_rows x ON x.id = o.id
         WHERE (o.prefix, o.width, o.serial_no, o.tested_at, o.outcome, o.test_type) IS DISTINCT FROM
               (x.prefix, x.width, x.serial_no, x.tested_at, x.outcome, x.test_type)
            OR o.product_id IS DISTINCT FROM x.product_id OR o.machine_id IS DISTINCT FROM x.machine_id
      ) d;
  END IF;
  IF p IS NOT NULL THEN
    PERFORM quality_units_refresh(p, w, n);
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
SELECT quality_units_refresh(array_agg(prefix), array_agg(width), array_agg(serial_no))
  FROM (SELECT DISTINCT prefix, width, serial_no FROM test_records) d
HAVING count(*) > 0;
