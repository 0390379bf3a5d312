-- The staff dashboard (issue 10): every figure is read from a kept count or an index, never counted over
-- the big tables per view (1,000,000 ranges, 1,000,000 test records, 100,000 requests: each under 50 ms).
-- All counts are kept by statement triggers in the transaction of the change, so a rolled-back import
-- leaves them as they were, and whoever writes (API, CSV import, SQL) keeps them right.

-- 1. Units in all ranges: kept per product beside range_count by the same once-per-statement UPDATE
-- (0003), so it adds no row lock that range writers did not already take. Dashboard total = sum over
-- products (a few thousand rows at most).
ALTER TABLE products ADD COLUMN unit_count bigint NOT NULL DEFAULT 0;
UPDATE products p SET unit_count = s.units
  FROM (SELECT product_id, sum(total_units) AS units FROM serial_ranges GROUP BY product_id) s
 WHERE p.id = s.product_id;

CREATE OR REPLACE FUNCTION serial_ranges_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE products p SET range_count = p.range_count + d.n, unit_count = p.unit_count + d.units
      FROM (SELECT product_id, count(*) AS n, sum(total_units) AS units FROM new_rows GROUP BY product_id) d
     WHERE p.id = d.product_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE products p SET range_count = p.range_count - d.n, unit_count = p.unit_count - d.units
      FROM (SELECT product_id, count(*) AS n, sum(total_units) AS units FROM old_rows GROUP BY product_id) d
     WHERE p.id = d.product_id;
  ELSE
    -- An edit may move a range to another product or change its bounds: net both counts per product.
    UPDATE products p SET range_count = p.range_count + d.n, unit_count = p.unit_count + d.units
      FROM (
        SELECT product_id, sum(n) AS n, sum(units) AS units FROM (
          SELECT product_id, count(*) AS n, sum(total_units) AS units FROM new_rows GROUP BY product_id
          UNION ALL
          SELECT product_id, -count(*) AS n, -sum(total_units) AS units FROM old_rows GROUP BY product_id
        ) u GROUP BY product_id
      ) d
     WHERE p.id = d.product_id AND (d.n <> 0 OR d.units <> 0);
  END IF;
  RETURN NULL;
END
$$;

-- 2. Requests per UTC day. A request is a group of search_requests rows (one per serial, written by one
-- statement); a not-found lookup is a group of source 'lookup' (found lookups are not recorded). Rows are
-- appended per statement and summed when read, never a counter row updated in place: a counter's row lock
-- would serialise every public request until its commit (cf. catalogue_changes in 0006). The background
-- job folds the rows into one per day (compact_search_request_counts) so the read stays a few hundred rows.
CREATE TABLE search_request_counts (
  id bigserial PRIMARY KEY,
  day date NOT NULL,
  requests integer NOT NULL,
  not_found integer NOT NULL
);
-- The 30-day chart reads the last days only.
CREATE INDEX search_request_counts_day_idx ON search_request_counts (day);

INSERT INTO search_request_counts (day, requests, not_found)
SELECT (created_at AT TIME ZONE 'UTC')::date, count(DISTINCT group_id), count(DISTINCT group_id) FILTER (WHERE source = 'lookup')
  FROM search_requests GROUP BY 1;

CREATE FUNCTION search_requests_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO search_request_counts (day, requests, not_found)
  SELECT (created_at AT TIME ZONE 'UTC')::date, sign * count(DISTINCT group_id),
         sign * count(DISTINCT group_id) FILTER (WHERE source = 'lookup')
    FROM changed_rows GROUP BY 1;
  RETURN NULL;
END
$$;
-- No UPDATE trigger: status changes and the retention job never change a row's day, group or source.
CREATE TRIGGER search_requests_count_insert AFTER INSERT ON search_requests
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION search_requests_count();
CREATE TRIGGER search_requests_count_delete AFTER DELETE ON search_requests
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION search_requests_count();

-- Folds the appended rows into one per day, in one statement. Safe beside writers (their new rows are not
-- in this statement's snapshot and stay for the next run) and beside another compaction (rows it deleted
-- first are skipped by the second).
CREATE FUNCTION compact_search_request_counts() RETURNS void LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM search_request_counts RETURNING day, requests, not_found)
  INSERT INTO search_request_counts (day, requests, not_found)
  SELECT day, sum(requests), sum(not_found) FROM gone GROUP BY day HAVING sum(requests) <> 0 OR sum(not_found) <> 0
$$;

-- 3. The last five report requests: newest rows of source 'request' without walking past the lookups.
CREATE INDEX search_requests_report_created_idx ON search_requests (created_at DESC, group_id) WHERE source = 'request';

-- 4. Emails that failed for good: counted on this index (queued ones on mail_outbox_due_idx of 0002).
CREATE INDEX mail_outbox_failed_idx ON mail_outbox (created_at) WHERE status = 'failed';

-- 5. First-pass yield of the last 30 days. A unit's first attempt of each test type, over all its tests,
-- kept per (serial, test type); a unit first-passes when no test type's first attempt failed, and it
-- counts on the day of its first test (docs/decisions: dashboard first-pass yield). The quality screen's
-- own definition (first attempts inside the chosen range) would need the range's records grouped per
-- view; this one is a count over an index of units.
CREATE TABLE test_unit_firsts (
  serial text NOT NULL,
  test_type text NOT NULL,
  first_at timestamptz NOT NULL,
  first_failed boolean NOT NULL,
  PRIMARY KEY (serial, test_type)
);

-- One row per unit: its first test and how many test types failed their first attempt.
CREATE TABLE test_units (
  serial text PRIMARY KEY,
  first_at timestamptz NOT NULL,
  failed_types integer NOT NULL CHECK (failed_types >= 0)
);
-- The dashboard's count of units first tested in a window, and of those that passed, from the index alone.
CREATE INDEX test_units_first_at_idx ON test_units (first_at) INCLUDE (failed_types);

INSERT INTO test_unit_firsts (serial, test_type, first_at, first_failed)
SELECT DISTINCT ON (serial, test_type) serial, test_type, tested_at, result = 'fail'
  FROM test_records ORDER BY serial, test_type, tested_at, (result = 'fail') DESC;
INSERT INTO test_units (serial, first_at, failed_types)
SELECT serial, min(first_at), count(*) FILTER (WHERE first_failed) FROM test_unit_firsts GROUP BY serial;

-- New records: a (serial, type) seen for the first time is inserted; an earlier attempt than the one kept
-- (records may arrive out of order) replaces it; ties at one instant count as a failure first (as the
-- quality analysis does). Retests (later attempts) write nothing. Ordered by key so that two batches
-- lock shared units in the same order.
CREATE FUNCTION test_records_firsts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO test_unit_firsts AS f (serial, test_type, first_at, first_failed)
    SELECT DISTINCT ON (serial, test_type) serial, test_type, tested_at, result = 'fail'
      FROM changed_rows ORDER BY serial, test_type, tested_at, (result = 'fail') DESC
    ON CONFLICT (serial, test_type) DO UPDATE SET first_at = excluded.first_at, first_failed = excluded.first_failed
     WHERE excluded.first_at < f.first_at OR (excluded.first_at = f.first_at AND excluded.first_failed AND NOT f.first_failed);
  ELSE
    -- Deleted records (no route deletes them today; SQL and future tools may): the affected pairs are
    -- derived again from the records left (test_records_series_idx holds serial's parts, serial is unique per parts).
    DELETE FROM test_unit_firsts f USING (SELECT DISTINCT serial, test_type FROM changed_rows) d
     WHERE f.serial = d.serial AND f.test_type = d.test_type;
    INSERT INTO test_unit_firsts (serial, test_type, first_at, first_failed)
    SELECT DISTINCT ON (r.serial, r.test_type) r.serial, r.test_type, r.tested_at, r.result = 'fail'
      FROM test_records r
      JOIN (SELECT DISTINCT prefix, width, serial_no, test_type FROM changed_rows) d
        ON r.prefix = d.prefix AND r.width = d.width AND r.serial_no = d.serial_no AND r.test_type = d.test_type
     ORDER BY r.serial, r.test_type, r.tested_at, (r.result = 'fail') DESC;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER test_records_firsts_insert AFTER INSERT ON test_records
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_firsts();
CREATE TRIGGER test_records_firsts_delete AFTER DELETE ON test_records
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_firsts();

-- test_units follows test_unit_firsts by deltas (failed_types + n, first_at = the earlier): commutative,
-- so two batches of one unit committing in either order leave it right.
CREATE FUNCTION test_unit_firsts_units() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO test_units AS u (serial, first_at, failed_types)
    SELECT serial, min(first_at), count(*) FILTER (WHERE first_failed) FROM new_rows GROUP BY serial ORDER BY serial
    ON CONFLICT (serial) DO UPDATE SET first_at = least(u.first_at, excluded.first_at), failed_types = u.failed_types + excluded.failed_types
     WHERE excluded.first_at < u.first_at OR excluded.failed_types <> 0;
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE test_units u SET first_at = least(u.first_at, d.first_at), failed_types = u.failed_types + d.delta
      FROM (
        SELECT n.serial, min(n.first_at) AS first_at, sum(n.first_failed::int - o.first_failed::int) AS delta
          FROM new_rows n JOIN old_rows o ON o.serial = n.serial AND o.test_type = n.test_type
         GROUP BY n.serial ORDER BY n.serial
      ) d
     WHERE u.serial = d.serial;
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
CREATE TRIGGER test_unit_firsts_units_insert AFTER INSERT ON test_unit_firsts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION test_unit_firsts_units();
CREATE TRIGGER test_unit_firsts_units_update AFTER UPDATE ON test_unit_firsts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION test_unit_firsts_units();
CREATE TRIGGER test_unit_firsts_units_delete AFTER DELETE ON test_unit_firsts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION test_unit_firsts_units();
