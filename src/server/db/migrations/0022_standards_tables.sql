-- The standards as an inspector reads their tables (docs/decisions/0045-standards-tables.md): how each
-- factor test's pressure follows from the rating, a leakage that the record does not state, and the
-- standards data a product's requirement rows were derived from.

-- 1. How a requirement row's pressure was reached: factor × rated = exact, and the rule that rounded it up
-- (ASME B16.34: to the next 1 bar), so that the record page shows the same derivation as the product form.
ALTER TABLE product_requirements
  ADD COLUMN pressure_factor numeric(6, 3),
  ADD COLUMN pressure_rated numeric(9, 3),
  ADD COLUMN pressure_exact numeric(9, 3),
  ADD COLUMN pressure_rounding text NOT NULL DEFAULT '' CHECK (pressure_rounding IN ('', 'asme-b16.34'));

-- 2. Which standards data the stored requirement rows follow: a digest of the data files
-- (src/shared/standards), compared at start; when it differs, every product's rows are derived again and
-- the records of those whose rows changed are judged again (src/server/modules/standards/standards-version.ts).
-- One row; '' until the first start after this migration, so that rows stored before it are derived again.
CREATE TABLE standards_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  data_version text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO standards_state (data_version) VALUES ('');
