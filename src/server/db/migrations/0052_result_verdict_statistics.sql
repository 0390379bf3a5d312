-- The bench's result and the product's verdict go together (most failed tests do not conform, nearly every
-- passed one does), which the planner, reading each column's statistics alone, does not know. At ten years
-- it expected 456 records both failed and nonconforming where there are about 160,000, so the Machine Data
-- list read and sorted them all (320 ms) instead of walking the failures' index for a page
-- (docs/decisions/0073-list-totals-by-cost.md). Their joint most-common values tell it.
CREATE STATISTICS test_records_result_verdict_stats (mcv) ON result, verdict FROM test_records;
ANALYZE test_records;
