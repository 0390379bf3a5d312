-- A purchase order's item may list the buyer's tag numbers (docs/product.md "Orders and deliveries"). When it
-- does, a delivered unit of that item carries one of them; an item without tags takes any tag.
-- An array on the item rather than a table of its own: the order's items are written whole, in one request
-- whose schema refuses a tag twice within the order (ignoring case), and nothing looks a unit up by the
-- item's tags. The cardinality check bounds the row (the API allows the quantity's worth, up to 500).
ALTER TABLE purchase_order_items ADD COLUMN tags text[] NOT NULL DEFAULT '{}' CHECK (cardinality(tags) <= 500);
