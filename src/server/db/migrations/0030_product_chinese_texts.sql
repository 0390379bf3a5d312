-- A product's connection, application and medium in Chinese (docs/product.md §3), as its Chinese name (0028):
-- printed instead of the English text on Chinese pages and certificates when set; '' means "none", and the
-- English text stands.
ALTER TABLE products
  ADD COLUMN connection_zh text NOT NULL DEFAULT '' CHECK (char_length(connection_zh) <= 120),
  ADD COLUMN application_zh text NOT NULL DEFAULT '' CHECK (char_length(application_zh) <= 120),
  ADD COLUMN application_medium_zh text NOT NULL DEFAULT '' CHECK (char_length(application_medium_zh) <= 120);
