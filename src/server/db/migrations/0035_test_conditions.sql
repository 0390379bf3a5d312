-- Test conditions a record states (docs/decisions/0054-test-conditions.md): the test fluid's temperature in °C
-- with one decimal, and which side of the closure member was pressurised. Both optional: records stored before
-- keep NULL, which the certificate prints as "not stated".
ALTER TABLE test_records
  ADD COLUMN fluid_temperature numeric(4, 1) CHECK (fluid_temperature BETWEEN -60 AND 200),
  ADD COLUMN side text CHECK (side IN ('A', 'B', 'both'));
