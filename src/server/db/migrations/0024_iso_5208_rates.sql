-- ISO 5208's rates AA, CC and EE can be chosen (docs/decisions/0045-standards-tables.md): the product's
-- leakage rate takes any of the standard's ten. Which of them a standard defines (EN 12266-1: A to G) is the
-- product input's rule (src/shared/contract/products.ts), not the column's.
ALTER TABLE products DROP CONSTRAINT products_leakage_rate_check;
ALTER TABLE products ADD CONSTRAINT products_leakage_rate_check
  CHECK (leakage_rate IN ('A', 'AA', 'B', 'C', 'CC', 'D', 'E', 'EE', 'F', 'G'));
