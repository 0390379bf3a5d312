-- API 6D and ASME B16.34 are standards a product can be tested to (docs/decisions/0045-standards-tables.md;
-- their figures are src/shared/standards/api-6d.ts and asme-b16-34.ts).
ALTER TABLE products DROP CONSTRAINT products_test_standard_known;
ALTER TABLE products ADD CONSTRAINT products_test_standard_known
  CHECK (test_standard IN ('', 'api-598', 'en-12266-1', 'iso-5208', 'api-6d', 'asme-b16.34'));
