-- What the archive holds, kept by the archive job as it moves records (one row): Settings shows it on every
-- visit, and counting test_records_archive would read every archived record each time (millions at ten years).
CREATE TABLE record_archive_summary (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  records bigint NOT NULL DEFAULT 0,
  newest_tested_at timestamptz,
  last_archived_at timestamptz
);
INSERT INTO record_archive_summary (records, newest_tested_at, last_archived_at)
  SELECT count(*), max(tested_at), max(archived_at) FROM test_records_archive;
