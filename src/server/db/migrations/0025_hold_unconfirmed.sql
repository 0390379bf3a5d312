-- A minimum hold that no available source confirms is marked where it is shown (docs/decisions/
-- 0045-standards-tables.md): kept with the requirement row so that the record page marks it as the product
-- form's table and the certificate do. Rows are derived again at the next start (standards_state).
ALTER TABLE product_requirements ADD COLUMN hold_unconfirmed boolean NOT NULL DEFAULT false;
