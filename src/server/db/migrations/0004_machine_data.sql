-- Test benches, their API keys, and the test records they send (PRODUCT.md §3 Machine data, issue 8).

CREATE TABLE machines (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- citext: "Bench 1" and "bench 1" are one name for people choosing a bench in a filter.
  name citext NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
  -- The visible start of the key (`trc_live_ab12`), so that an admin can tell which key a bench holds
  -- without the key itself ever being stored.
  key_prefix text NOT NULL CHECK (char_length(key_prefix) <= 40),
  -- SHA-256 of the whole key (docs/decisions/0008-bench-keys.md). Unique: the key is looked up by it on
  -- every bench request, and two benches can never share a key.
  key_hash bytea NOT NULL CHECK (octet_length(key_hash) = 32),
  disabled_at timestamptz,
  last_used_at timestamptz,
  -- Kept by the statement triggers on test_records below (once per inserted batch, not per row), so "how many
  -- records it sent" is read, not counted, and the list's unfiltered total is a sum over a few benches.
  record_count bigint NOT NULL DEFAULT 0 CHECK (record_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX machines_name_key ON machines (name);
CREATE UNIQUE INDEX machines_key_hash_key ON machines (key_hash);

-- One test of one unit. Samples are stored compactly in the row (see `samples`), never one row per point.
CREATE TABLE test_records (
  -- bigint identity, not uuid: records are staff-only (unguessable ids buy nothing), and a sequential key
  -- keeps the primary-key index append-only under a million-row ingestion.
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The bench that sent it; NULL for records uploaded as CSV by staff. A bench with records is disabled,
  -- never deleted (the records would lose where they came from). No foreign key: its check is a lookup per
  -- row (15% of a 5,000-row insert), while every row of a batch names the same bench. Instead an ingesting
  -- transaction holds the bench row FOR KEY SHARE (as the FK would) and deleting takes it FOR UPDATE and
  -- then looks for records (src/server/modules/machines/machines.service.ts), so neither can miss the other.
  machine_id uuid,
  -- The bench's own id of the record: the idempotency key (see the unique index below).
  record_id text NOT NULL CHECK (char_length(record_id) BETWEEN 1 AND 100),
  -- The normalised serial (src/shared/serial.ts) and its parts: (prefix, width, serial_no) is how a record
  -- finds the range holding it, by the same index step as the public lookup.
  serial text NOT NULL CHECK (char_length(serial) BETWEEN 1 AND 64),
  prefix text NOT NULL CHECK (char_length(prefix) <= 63),
  width smallint NOT NULL CHECK (width BETWEEN 1 AND 18),
  serial_no bigint NOT NULL CHECK (serial_no >= 0),
  test_type text NOT NULL CHECK (test_type IN ('shell', 'seat', 'backseat', 'air-seat', 'functional')),
  medium text NOT NULL CHECK (medium IN ('water', 'air', 'nitrogen', 'oil')),
  test_pressure numeric(9, 3) NOT NULL CHECK (test_pressure >= 0),
  holding_seconds integer NOT NULL CHECK (holding_seconds >= 0),
  leakage_value numeric(14, 4) CHECK (leakage_value >= 0),
  leakage_unit text CHECK (char_length(leakage_unit) <= 20),
  result text NOT NULL CHECK (result IN ('pass', 'fail')),
  tested_at timestamptz NOT NULL,
  operator text NOT NULL DEFAULT '' CHECK (char_length(operator) <= 120),
  -- Pressure samples as little-endian float64 pairs (t0, p0, t1, p1, ...): 16 bytes a point, 160 KB at the
  -- 10,000-point limit, exact (float32 would not give back what the bench sent), and one value to read for
  -- a chart. A row per point would cost ~40 bytes of overhead each and 10,000 index entries per test.
  samples bytea CHECK (samples IS NULL OR octet_length(samples) % 16 = 0),
  sample_count integer NOT NULL DEFAULT 0 CHECK (sample_count BETWEEN 0 AND 10000),
  -- SHA-256 of the record's content as stored (src/server/modules/machine-data/record-hash.ts): a resent
  -- record with the same id and hash is a duplicate; the same id with another hash is a conflict (409).
  content_hash bytea NOT NULL CHECK (octet_length(content_hash) = 32),
  received_at timestamptz NOT NULL DEFAULT now(),
  -- The range covering the serial and its product, or NULL (unmatched). Set at insert (the writer looks the
  -- range up in the same statement) and re-set by the statement triggers on serial_ranges below when ranges
  -- are added, edited or deleted. Stored rather than derived at query time because the list filters and
  -- sorts by product and by matched/unmatched over a million records: a stored product_id is one index
  -- range scan (first page well under 50 ms), a derived one is a per-row range lookup before the sort.
  -- No foreign keys on these two: the triggers keep them right, and FK checks would cost a lookup per
  -- ingested row; product_id is non-NULL exactly when range_id is.
  range_id uuid,
  product_id uuid,
  CONSTRAINT test_records_matched CHECK ((range_id IS NULL) = (product_id IS NULL)),
  CONSTRAINT test_records_leakage CHECK (leakage_unit IS NULL OR leakage_value IS NOT NULL),
  CONSTRAINT test_records_samples CHECK ((samples IS NULL AND sample_count = 0) OR octet_length(samples) = sample_count * 16)
);
-- Samples are float bytes that pglz cannot shrink: skip the compression attempt on every insert.
ALTER TABLE test_records ALTER COLUMN samples SET STORAGE EXTERNAL;

-- Idempotency: a record is stored once per (bench, record id); a resent batch hits this and stores nothing.
-- NULLS NOT DISTINCT: CSV-uploaded records (no bench) are unique by record id among themselves too.
CREATE UNIQUE INDEX test_records_machine_record_key ON test_records (machine_id, record_id) NULLS NOT DISTINCT;
-- The default list order (newest test first) and the tested-at range filter; id breaks ties for paging.
CREATE INDEX test_records_tested_at_idx ON test_records (tested_at, id);
-- "Sort by received" and the dashboard's "Last test report data received date" (one index step from the end).
CREATE INDEX test_records_received_at_idx ON test_records (received_at, id);
-- A unit's history and the serial filter (same serial = same series and number), "sort by serial", and the
-- re-matching of the records a range covers when ranges change.
CREATE INDEX test_records_series_idx ON test_records (prefix, width, serial_no, tested_at);
-- The product filter in tested-at order, and the unmatched filter (product_id IS NULL uses it too).
CREATE INDEX test_records_product_idx ON test_records (product_id, tested_at, id);
-- The bench filter in tested-at order.
CREATE INDEX test_records_machine_idx ON test_records (machine_id, tested_at, id);
-- The "fail" filter in tested-at order: fails are the rare result, so without it the first page of fails
-- would walk most of the table. Partial: the common "pass" rows cost ingestion nothing here, and a "pass"
-- filter finds its page at once on test_records_tested_at_idx. No test-type index for the same reason:
-- five evenly spread values fill a page within a few dozen rows of that walk, while every index costs
-- each ingested row an insertion (PRODUCT.md §7: 20,000 records/s).
CREATE INDEX test_records_fail_idx ON test_records (tested_at, id) WHERE result = 'fail';

-- Re-matches, in one statement, every record whose serial falls inside any of the given spans of a series:
-- each such record gets the range now holding its serial (or none). Used by the triggers below with the
-- ranges before and after a change, and callable by a bulk loader that inserted records without matching.
-- The holding range is found as the public lookup finds it: the last range of the series starting at or
-- below the number (one index step), then its end is checked.
CREATE FUNCTION test_records_rematch(prefixes text[], widths smallint[], starts bigint[], ends bigint[])
RETURNS void LANGUAGE sql AS $$
  UPDATE test_records t
     SET range_id = m.range_id, product_id = m.product_id
    FROM (
      SELECT DISTINCT r.id, h.id AS range_id, h.product_id
        FROM unnest(prefixes, widths, starts, ends) AS a (prefix, width, start_no, end_no)
        JOIN test_records r
          ON r.prefix = a.prefix AND r.width = a.width AND r.serial_no BETWEEN a.start_no AND a.end_no
        LEFT JOIN LATERAL (
          SELECT s.id, s.product_id, s.end_no FROM serial_ranges s
           WHERE s.prefix = r.prefix AND s.width = r.width AND s.start_no <= r.serial_no
           ORDER BY s.start_no DESC LIMIT 1
        ) h0 ON true
        LEFT JOIN LATERAL (SELECT h0.id, h0.product_id WHERE h0.end_no >= r.serial_no) h ON true
    ) m
   WHERE t.id = m.id
     AND (t.range_id IS DISTINCT FROM m.range_id OR t.product_id IS DISTINCT FROM m.product_id)
$$;

-- Records join a range when it is added, follow it when it is edited (product or bounds), and become
-- unmatched when it is edited away or deleted: once per statement with the transition tables, so a CSV
-- import of 1,000 ranges costs one UPDATE, not a job per record.
-- The advisory lock closes a race: a batch inserting records while another transaction adds the range that
-- covers them would see neither the other's rows (the batch's lookup misses the uncommitted range, the
-- trigger's UPDATE misses the uncommitted records), leaving them unmatched for good. Writers of records hold
-- this lock shared for their transaction (machine-data.repo.ts MATCH_LOCK), the trigger takes it exclusive:
-- it then waits for batches in flight and sees their records, and later batches wait and see the range.
CREATE FUNCTION serial_ranges_rematch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7347008);
  IF TG_OP = 'INSERT' THEN
    PERFORM test_records_rematch(array_agg(prefix), array_agg(width), array_agg(start_no), array_agg(end_no))
      FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM test_records_rematch(array_agg(prefix), array_agg(width), array_agg(start_no), array_agg(end_no))
      FROM old_rows;
  ELSE
    PERFORM test_records_rematch(array_agg(prefix), array_agg(width), array_agg(start_no), array_agg(end_no))
      FROM (SELECT prefix, width, start_no, end_no FROM old_rows
            UNION SELECT prefix, width, start_no, end_no FROM new_rows) u;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER serial_ranges_rematch_insert AFTER INSERT ON serial_ranges
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION serial_ranges_rematch();
CREATE TRIGGER serial_ranges_rematch_delete AFTER DELETE ON serial_ranges
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION serial_ranges_rematch();
CREATE TRIGGER serial_ranges_rematch_update AFTER UPDATE ON serial_ranges
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION serial_ranges_rematch();

-- Records without a bench (CSV uploads), counted like machines.record_count; one row. With it the list's
-- unfiltered total is read from a handful of rows instead of counting a million.
CREATE TABLE test_record_totals (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  uploaded bigint NOT NULL DEFAULT 0 CHECK (uploaded >= 0)
);
INSERT INTO test_record_totals DEFAULT VALUES;

-- Counters follow inserts and deletes of records once per statement, whoever writes them (the bench API,
-- a CSV import's INSERT … SELECT, a COPY): nobody has to remember to bump them.
CREATE FUNCTION test_records_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  UPDATE machines m SET record_count = m.record_count + sign * d.n
    FROM (SELECT machine_id, count(*) AS n FROM changed_rows WHERE machine_id IS NOT NULL GROUP BY machine_id) d
   WHERE m.id = d.machine_id;
  UPDATE test_record_totals SET uploaded = uploaded + sign * d.n
    FROM (SELECT count(*) AS n FROM changed_rows WHERE machine_id IS NULL) d
   WHERE d.n > 0;
  RETURN NULL;
END
$$;
CREATE TRIGGER test_records_count_insert AFTER INSERT ON test_records
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_count();
CREATE TRIGGER test_records_count_delete AFTER DELETE ON test_records
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_count();
