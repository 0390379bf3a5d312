-- Records older than a retention the operator sets move out of test_records into test_records_archive
-- (docs/decisions/0072-record-archive.md). NULL keeps every record where it is (the default): a maker keeps
-- records for ten years at least, and only the operator knows how long beyond.
ALTER TABLE settings ADD COLUMN record_retention_years smallint
  CHECK (record_retention_years IS NULL OR record_retention_years BETWEEN 1 AND 100);

-- The same columns in the same order (a moved row is inserted as test_records returns it), plain: no
-- identity, no generated column (outcome keeps the value it had), no trigger, none of the list's indexes.
-- archived_at last. A later migration that adds a column to test_records adds it here too
-- (test/record-archive.test.ts compares the two).
CREATE TABLE test_records_archive (LIKE test_records INCLUDING DEFAULTS);
ALTER TABLE test_records_archive ADD COLUMN archived_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE test_records_archive ADD PRIMARY KEY (id);
-- A unit's archived records: whether a serial has any (the public lookup answers with its stored certificate).
CREATE INDEX test_records_archive_series_idx ON test_records_archive (prefix, width, serial_no, tested_at);
