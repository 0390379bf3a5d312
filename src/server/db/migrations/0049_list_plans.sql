-- The Machine Data list sorted by test pressure, with the test type in the index (docs/decisions/0030-lists-at-a-year.md).
-- Pressures follow the test type (an air-seat test at 0.4-0.7 MPa, a seat test at 1.1 times the rating, a
-- shell at 1.5 times), so walking (test_pressure, id) for the seat tests read every air-seat record first:
-- 77,000 rows, 260 ms, at 1,000,000 records. With the test type first, one test type is one range of the
-- index, and every test type's sorted by pressure is a merge of five ranges (machine-data.list.ts, sortParts).
-- It replaces the pressure index, so ingestion maintains as many full indexes as before.
CREATE INDEX test_records_type_pressure_idx ON test_records (test_type, test_pressure, id);
DROP INDEX test_records_pressure_idx;

-- The test type and the medium go together (an air-seat test is made with air, a shell test with water), which
-- the planner, reading each column's statistics alone, does not know: it expected 71,000 air-seat tests made
-- with water among 1,000,000 records, where there are none, and walked the whole tested-at index looking for
-- ten of them (340 ms) while merging the list sorted by test type. Their joint most-common values tell it.
CREATE STATISTICS test_records_type_medium_stats (mcv) ON test_type, medium FROM test_records;
ANALYZE test_records;
