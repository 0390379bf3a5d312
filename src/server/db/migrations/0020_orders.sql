-- Customers, their purchase orders and the deliveries that ship them (docs/product.md, "Orders and
-- deliveries"; docs/decisions/0043-orders-and-deliveries.md). citext was created in 0001.

CREATE TABLE customers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- citext: sorting and searching by name ignore case, as products' names do.
  name citext NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  -- citext: the unique index below then refuses `tpc` beside `TPC` (the API upper-cases it anyway).
  code citext NOT NULL CHECK (char_length(code) BETWEEN 1 AND 20),
  address text NOT NULL DEFAULT '' CHECK (char_length(address) <= 500),
  country text NOT NULL DEFAULT '' CHECK (country ~ '^([A-Z]{2})?$'),
  language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'zh')),
  -- The buyer's mail domains (`example.com`): who may open the buyer's delivery links later.
  email_domains text[] NOT NULL DEFAULT '{}' CHECK (cardinality(email_domains) <= 20),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- A code names one customer, whatever its case.
CREATE UNIQUE INDEX customers_code_key ON customers (code);
-- First pages of the list sorted by name, country or creation; id breaks ties so pages are stable.
CREATE INDEX customers_name_idx ON customers (name, id);
CREATE INDEX customers_country_idx ON customers (country, id);
CREATE INDEX customers_created_at_idx ON customers (created_at, id);

CREATE TABLE customer_contacts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- A contact exists only as part of its customer: deleting the customer deletes them.
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  position smallint NOT NULL DEFAULT 0,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  email citext NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
  language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'zh')),
  receives_certificates boolean NOT NULL DEFAULT true,
  -- One address once per customer (citext: ignoring case); its index also serves "the contacts of a customer".
  CONSTRAINT customer_contacts_email_key UNIQUE (customer_id, email)
);
-- The list's search by a contact's address.
CREATE INDEX customer_contacts_email_idx ON customer_contacts (email);

CREATE TABLE purchase_orders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- RESTRICT: a customer with orders is not deleted (the API answers 409 first, with the count).
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE RESTRICT,
  number text NOT NULL CHECK (char_length(number) BETWEEN 1 AND 60),
  date date NOT NULL,
  document_type text NOT NULL CHECK (document_type IN ('2.2', '3.1', '3.2')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- A buyer's PO number is unique for that buyer, ignoring case; two buyers may use the same number. The
-- index also serves the customer filter and "how many orders has this customer".
CREATE UNIQUE INDEX purchase_orders_number_key ON purchase_orders (customer_id, lower(number));
-- First pages of the list sorted by number, date or creation.
CREATE INDEX purchase_orders_number_idx ON purchase_orders (lower(number), id);
CREATE INDEX purchase_orders_date_idx ON purchase_orders (date, id);
CREATE INDEX purchase_orders_created_at_idx ON purchase_orders (created_at, id);

CREATE TABLE purchase_order_items (
  purchase_order_id uuid NOT NULL REFERENCES purchase_orders (id) ON DELETE CASCADE,
  line integer NOT NULL CHECK (line BETWEEN 1 AND 99999),
  -- RESTRICT: a product ordered by a buyer stays.
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE RESTRICT,
  quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 1000000),
  -- Units of this line in open or released deliveries, kept in the transaction that adds or frees them: the
  -- quantity rule and the order page read it instead of counting units.
  shipped integer NOT NULL DEFAULT 0 CHECK (shipped >= 0),
  buyer_item_code text NOT NULL DEFAULT '' CHECK (char_length(buyer_item_code) <= 200),
  description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 200),
  PRIMARY KEY (purchase_order_id, line),
  -- The last guard of the quantity rule (the API checks it first and names both figures).
  CONSTRAINT purchase_order_items_shipped_max CHECK (shipped <= quantity)
);
-- "Is this product ordered anywhere" (a product delete) without a full scan.
CREATE INDEX purchase_order_items_product_idx ON purchase_order_items (product_id);

CREATE TABLE deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- RESTRICT: an order with deliveries is not deleted (the API answers 409 first).
  purchase_order_id uuid NOT NULL REFERENCES purchase_orders (id) ON DELETE RESTRICT,
  number text NOT NULL CHECK (char_length(number) BETWEEN 1 AND 60),
  date date NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'released', 'cancelled')),
  cancel_reason text CHECK (char_length(cancel_reason) <= 500),
  released_at timestamptz,
  -- Units of the delivery, kept in the transaction that adds or removes them: the list shows it per row
  -- without counting a million units.
  unit_count integer NOT NULL DEFAULT 0 CHECK (unit_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- A cancelled delivery says why.
  CONSTRAINT deliveries_cancel_reason CHECK (status <> 'cancelled' OR cancel_reason IS NOT NULL)
);
-- A delivery number names one delivery, ignoring case; also the list's sort by number.
CREATE UNIQUE INDEX deliveries_number_key ON deliveries (lower(number));
-- The PO filter, "how many deliveries has this order", and the PO delete's check.
CREATE INDEX deliveries_purchase_order_idx ON deliveries (purchase_order_id, created_at, id);
-- First pages of the list sorted by date, status or creation.
CREATE INDEX deliveries_date_idx ON deliveries (date, id);
CREATE INDEX deliveries_status_idx ON deliveries (status, created_at, id);
CREATE INDEX deliveries_created_at_idx ON deliveries (created_at, id);

-- One shipped unit. The serial is kept parsed, as test_records keep it (src/shared/serial.ts), so that the
-- lookups by series and number use the same index shape as the rest of the catalogue.
CREATE TABLE delivery_units (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
  -- The delivery's order, copied here so that the unique index on tags below can be per order (an index
  -- cannot reach through deliveries); the foreign key to the order's line keeps it consistent.
  purchase_order_id uuid NOT NULL,
  line integer NOT NULL,
  serial text NOT NULL CHECK (char_length(serial) BETWEEN 1 AND 64),
  prefix text NOT NULL CHECK (char_length(prefix) <= 63),
  width smallint NOT NULL CHECK (width BETWEEN 1 AND 18),
  serial_no bigint NOT NULL CHECK (serial_no >= 0),
  tag text NOT NULL DEFAULT '' CHECK (char_length(tag) <= 60),
  -- false once the delivery is cancelled: the unit stays on record but frees its serial and its tag.
  active boolean NOT NULL DEFAULT true,
  -- A unit ships a line of its own delivery's order; RESTRICT: a line with units is not removed.
  CONSTRAINT delivery_units_item_fk FOREIGN KEY (purchase_order_id, line)
    REFERENCES purchase_order_items (purchase_order_id, line) ON DELETE RESTRICT
);
-- A serial is in one open or released delivery only, also between concurrent transactions; a cancelled
-- delivery's units are outside the index, so their serials may ship again.
CREATE UNIQUE INDEX delivery_units_serial_key ON delivery_units (prefix, width, serial_no) WHERE active;
-- A buyer's tag number names one unit within the order (ignoring case); units without a tag are many.
CREATE UNIQUE INDEX delivery_units_tag_key ON delivery_units (purchase_order_id, lower(tag)) WHERE active AND tag <> '';
-- The units of a delivery in the order they were added (the delivery page, the gate, a cancel).
CREATE INDEX delivery_units_delivery_idx ON delivery_units (delivery_id, id);
-- The foreign key's referencing side: a line's removal checks it without a full scan.
CREATE INDEX delivery_units_item_idx ON delivery_units (purchase_order_id, line);
