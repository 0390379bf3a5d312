-- Products and serial-number ranges (PRODUCT.md §3).
-- btree_gist and citext were created in 0001.

CREATE TABLE products (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- citext: the unique index below then ignores case, and sorting by name ignores it too.
  name citext NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
  fluid text NOT NULL CHECK (fluid IN ('water', 'steam', 'oil', 'gas', 'air', 'chemical')),
  connection text NOT NULL DEFAULT '' CHECK (char_length(connection) <= 120),
  application text NOT NULL DEFAULT '' CHECK (char_length(application) <= 120),
  application_medium text NOT NULL DEFAULT '' CHECK (char_length(application_medium) <= 120),
  pressure_fc numeric(9, 3) CHECK (pressure_fc >= 0),
  pressure_wcb numeric(9, 3) CHECK (pressure_wcb >= 0),
  pressure_sus numeric(9, 3) CHECK (pressure_sus >= 0),
  temperature_max numeric(7, 2) NOT NULL,
  temperature_min numeric(7, 2) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- Kept by the triggers below: "N ranges use this product" and list totals without counting a million rows.
  range_count integer NOT NULL DEFAULT 0,
  CONSTRAINT products_pressure_required CHECK (num_nonnulls(pressure_fc, pressure_wcb, pressure_sus) > 0),
  CONSTRAINT products_temperature_order CHECK (temperature_min <= temperature_max)
);
CREATE UNIQUE INDEX products_name_key ON products (name);
CREATE INDEX products_created_at_idx ON products (created_at, id);
CREATE INDEX products_updated_at_idx ON products (updated_at, id);

-- A serial is prefix + a run of `width` digits (src/shared/serial.ts); a range is start_no..end_no of one
-- series (prefix, width). The text forms are derived, never stored twice.
CREATE TABLE serial_ranges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE RESTRICT,
  prefix text NOT NULL CHECK (char_length(prefix) <= 63),
  width smallint NOT NULL CHECK (width BETWEEN 1 AND 18),
  start_no bigint NOT NULL CHECK (start_no >= 0),
  end_no bigint NOT NULL,
  total_units bigint GENERATED ALWAYS AS (end_no - start_no + 1) STORED,
  production_date date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT serial_ranges_order CHECK (end_no >= start_no AND end_no - start_no < 10000000),
  CONSTRAINT serial_ranges_fits_width CHECK (end_no < (10::numeric ^ width)),
  -- The guarantee that ranges never overlap, also between concurrent transactions.
  CONSTRAINT serial_ranges_no_overlap EXCLUDE USING gist (
    prefix WITH =,
    width WITH =,
    int8range(start_no, end_no, '[]') WITH &&
  )
);

-- The lookup of one serial: the last range of its series starting at or below the number, then its end is
-- checked (src/server/modules/serials/serials.repo.ts). Unique because ranges of a series do not overlap;
-- it also serves "sort by starting serial".
CREATE UNIQUE INDEX serial_ranges_series_start_idx ON serial_ranges (prefix, width, start_no);
CREATE INDEX serial_ranges_series_end_idx ON serial_ranges (prefix, width, end_no);
-- The product filter, "how many ranges use this product" and "sort by product name".
CREATE INDEX serial_ranges_product_idx ON serial_ranges (product_id, prefix, width, start_no);
-- First pages of the list sorted by the other columns; id breaks ties so pages are stable.
CREATE INDEX serial_ranges_total_units_idx ON serial_ranges (total_units, id);
CREATE INDEX serial_ranges_production_date_idx ON serial_ranges (production_date, id);
CREATE INDEX serial_ranges_created_at_idx ON serial_ranges (created_at, id);
CREATE INDEX serial_ranges_updated_at_idx ON serial_ranges (updated_at, id);

-- products.range_count follows inserts, deletes and product changes of ranges, once per statement (an
-- import of 1,000 rows costs one UPDATE, not 1,000).
CREATE FUNCTION serial_ranges_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE products p SET range_count = p.range_count + d.n
      FROM (SELECT product_id, count(*) AS n FROM new_rows GROUP BY product_id) d WHERE p.id = d.product_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE products p SET range_count = p.range_count - d.n
      FROM (SELECT product_id, count(*) AS n FROM old_rows GROUP BY product_id) d WHERE p.id = d.product_id;
  ELSE
    UPDATE products p SET range_count = p.range_count + d.n
      FROM (
        SELECT product_id, sum(n) AS n FROM (
          SELECT product_id, count(*) AS n FROM new_rows GROUP BY product_id
          UNION ALL
          SELECT product_id, -count(*) AS n FROM old_rows GROUP BY product_id
        ) u GROUP BY product_id
      ) d
      WHERE p.id = d.product_id AND d.n <> 0;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER serial_ranges_count_insert AFTER INSERT ON serial_ranges
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION serial_ranges_count();
CREATE TRIGGER serial_ranges_count_delete AFTER DELETE ON serial_ranges
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION serial_ranges_count();
CREATE TRIGGER serial_ranges_count_update AFTER UPDATE ON serial_ranges
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION serial_ranges_count();
