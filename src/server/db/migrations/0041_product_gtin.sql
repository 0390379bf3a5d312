-- A product's GTIN (docs/decisions/0062-gs1-digital-link.md), what its units' GS1 Digital Link carries after
-- /01/. Optional: a product sold without a GS1 number keeps the /id/<serial> link. Kept as GTIN-14 (a GTIN-8,
-- -12 or -13 left-padded with zeros, as the contract normalises it), so that one item typed in two lengths
-- is one value; the check says so to anything that writes the table without the contract.
ALTER TABLE products ADD COLUMN gtin text CHECK (gtin ~ '^[0-9]{14}$');

-- One GTIN names one trade item: two products with it would make a unit's link ambiguous. Partial, as the
-- many products without a GTIN need no entry.
CREATE UNIQUE INDEX products_gtin_key ON products (gtin) WHERE gtin IS NOT NULL;
