-- Lists at a year (docs/decisions/0030-lists-at-a-year.md): every sort and filter of the Machine Data list at
-- 1,000,000 records and of the Searches list at 150,000 requests answers its first page from an index.

-- Sort by test type and sort by medium. Both columns hold a handful of values (CHECKs in 0004), so one index
-- serves both: the list reads each (test type, medium) pair's index range in tested-at order and merges the
-- 20 ranges (machine-data.list.ts). One index rather than one per sort column: every full index costs each
-- ingested record an insertion.
CREATE INDEX test_records_type_medium_idx ON test_records (test_type, medium, tested_at, id);

-- Sort by test pressure: the values are arbitrary decimals, so no merge of per-value ranges can stand in.
CREATE INDEX test_records_pressure_idx ON test_records (test_pressure, id);

-- The "nonconforming" filter in tested-at order. It was served by the failed-outcome index (0010), walking
-- every failure to find the product's nonconforming verdicts among them. Partial: only nonconforming
-- records (the rare ones) cost ingestion anything.
CREATE INDEX test_records_nonconforming_idx ON test_records (tested_at, id) WHERE verdict = 'nonconforming';

-- Searches: the serial and (admins only) address substring filters are ILIKE '%text%', which no b-tree
-- serves; trigram GIN indexes do, for any text of three characters or more. pg_trgm is a trusted
-- extension (a database owner may create it) and PGlite ships it (src/server/db/client.ts loads it).
-- A GIN index queues new entries in a pending list that every search reads through until it is merged;
-- by default that list grows to 4 MB (at 150,000 requests it made a search 25-40 ms, against 1-10 ms
-- merged). 256 kB bounds what a search reads and still merges entries in bulk (not-found lookups are
-- written up to a few hundred a second, NotFoundRecorder), where fastupdate off would insert each row's
-- trigrams one by one.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX search_requests_serial_trgm_idx ON search_requests USING gin (serial gin_trgm_ops) WITH (gin_pending_list_limit = 256);
CREATE INDEX search_requests_email_trgm_idx ON search_requests USING gin (recipient_email gin_trgm_ops) WITH (gin_pending_list_limit = 256);

-- A sort walked in its index order with a filter stops once a page is found, which the planner expects to
-- be soon when the filter matches a known share of the rows. Benches, test types and results are not
-- independent (a bench that never fails, a seat bench), and a walk that finds nothing reads the whole
-- table. Multi-column statistics (kept by ANALYZE, nothing per ingested record) give the planner the
-- shares of each combination, so it reads such a filter's own index instead.
CREATE STATISTICS test_records_bench_type_result_stx (mcv) ON machine_id, test_type, result FROM test_records;
CREATE STATISTICS test_records_product_result_stx (mcv) ON product_id, result FROM test_records;
