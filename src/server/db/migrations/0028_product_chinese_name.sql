-- A product's Chinese name (docs/product.md §3): printed instead of its name on Chinese pages, certificates and
-- emails when set. '' means "none": the English name stands, as for the other optional texts of a product.
-- Not unique, unlike the name: two sizes of one valve may share a Chinese name while their names differ, and
-- the name is what the CSV import and the serial ranges find a product by.
ALTER TABLE products ADD COLUMN name_zh text NOT NULL DEFAULT '' CHECK (char_length(name_zh) <= 120);
