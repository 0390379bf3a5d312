-- Materials, the parts of a product, heats with their mill certificates, and which heat each part of a unit
-- came from (docs/decisions/0053-materials-and-heats.md). A 3.1 or 3.2 certificate is held at the release gate
-- while a pressure-retaining part of the unit has no heat, or its heat is on hold.

-- 1. The material catalogue: a specification and grade, and the product rating column its pressures follow.
CREATE TABLE materials (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  specification text NOT NULL CHECK (char_length(specification) BETWEEN 1 AND 60),
  grade text NOT NULL CHECK (char_length(grade) BETWEEN 1 AND 40),
  -- the product's rated pressure this material reads: pressure_fc, pressure_wcb or pressure_sus
  rating_basis text NOT NULL CHECK (rating_basis IN ('fc', 'wcb', 'sus')),
  -- its ASME B16.34 material group (1.1, 2.2, …) or EN 1092-1 material group (3E0, 14E0, …); '' = not stated
  material_group text NOT NULL DEFAULT '' CHECK (char_length(material_group) <= 20),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX materials_name_key ON materials (lower(specification), lower(grade));

-- 2. The parts a product names, each with its material.
CREATE TABLE product_parts (
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  part text NOT NULL CHECK (part IN ('body', 'bonnet', 'closure', 'stem', 'seat', 'bolting')),
  material_id uuid NOT NULL REFERENCES materials (id) ON DELETE RESTRICT,
  PRIMARY KEY (product_id, part)
);
CREATE INDEX product_parts_material_idx ON product_parts (material_id);

-- 3. Heats (casts, lots) with the supplier's certificate. Held by hand ('hold') until released.
CREATE TABLE heats (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  number text NOT NULL CHECK (char_length(number) BETWEEN 1 AND 40),
  material_id uuid NOT NULL REFERENCES materials (id) ON DELETE RESTRICT,
  supplier text NOT NULL DEFAULT '' CHECK (char_length(supplier) <= 120),
  certificate_number text NOT NULL DEFAULT '' CHECK (char_length(certificate_number) <= 80),
  certificate_type text NOT NULL CHECK (certificate_type IN ('3.1', '3.2')),
  certificate_date date,
  status text NOT NULL DEFAULT 'released' CHECK (status IN ('released', 'hold')),
  hold_note text NOT NULL DEFAULT '' CHECK (char_length(hold_note) <= 500),
  -- what its mill certificate reports (cast analysis, Rm, Rp0.2, A), and the values outside the material's
  -- cited limits (src/shared/standards/material-limits.ts): a heat with any is on hold
  properties jsonb NOT NULL DEFAULT '{"chemistry": {}, "tensileStrength": null, "yieldStrength": null, "elongation": null}',
  findings jsonb NOT NULL DEFAULT '[]',
  -- the supplier's certificate as uploaded (a PDF, at most 20 MB), kept in heat_certificate_chunks
  file_sha256 bytea CHECK (file_sha256 IS NULL OR length(file_sha256) = 32),
  file_bytes integer CHECK (file_bytes IS NULL OR file_bytes BETWEEN 1 AND 20971520),
  file_name text CHECK (file_name IS NULL OR char_length(file_name) <= 255),
  file_uploaded_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (material_id, number)
);
CREATE INDEX heats_number_idx ON heats (lower(number));

-- The certificate's bytes in 1 MB pieces: written and read a piece at a time, so a 20 MB file never sits
-- whole in the server's memory, and backups (pg_dump, the embedded backup) carry it with the database.
CREATE TABLE heat_certificate_chunks (
  heat_id uuid NOT NULL REFERENCES heats (id) ON DELETE CASCADE,
  seq integer NOT NULL CHECK (seq >= 0),
  bytes bytea NOT NULL,
  PRIMARY KEY (heat_id, seq)
);

-- 4. The heat of each part of a range's units, and per-serial exceptions for batches made from several heats.
CREATE TABLE range_heats (
  range_id uuid NOT NULL REFERENCES serial_ranges (id) ON DELETE CASCADE,
  part text NOT NULL CHECK (part IN ('body', 'bonnet', 'closure', 'stem', 'seat', 'bolting')),
  heat_id uuid NOT NULL REFERENCES heats (id) ON DELETE RESTRICT,
  PRIMARY KEY (range_id, part)
);
CREATE INDEX range_heats_heat_idx ON range_heats (heat_id);

CREATE TABLE unit_heats (
  prefix text NOT NULL,
  width smallint NOT NULL,
  serial_no bigint NOT NULL,
  part text NOT NULL CHECK (part IN ('body', 'bonnet', 'closure', 'stem', 'seat', 'bolting')),
  heat_id uuid NOT NULL REFERENCES heats (id) ON DELETE RESTRICT,
  PRIMARY KEY (prefix, width, serial_no, part)
);
CREATE INDEX unit_heats_heat_idx ON unit_heats (heat_id);

-- 5. Which heat each part of one unit came from: its own exception, else its range's. The certificate's
-- reuse key reads it (reports.repo.ts), so a heat assigned, changed or held gives the unit a new certificate.
CREATE FUNCTION unit_heat_parts(p_prefix text, p_width smallint, p_serial bigint)
RETURNS TABLE (part text, heat_id uuid) LANGUAGE sql STABLE AS $$
  SELECT coalesce(u.part, r.part), coalesce(u.heat_id, r.heat_id)
    FROM (SELECT rh.part, rh.heat_id FROM serial_ranges s JOIN range_heats rh ON rh.range_id = s.id
           WHERE s.prefix = p_prefix AND s.width = p_width AND s.start_no <= p_serial AND s.end_no >= p_serial) r
    FULL JOIN (SELECT uh.part, uh.heat_id FROM unit_heats uh
                WHERE uh.prefix = p_prefix AND uh.width = p_width AND uh.serial_no = p_serial) u ON u.part = r.part
$$;

-- 6. What a unit's certificate prints of its materials, as one value for its reuse key: the product's parts
-- and materials, the unit's heats and their materials, each with the time it last changed. NULL when the
-- unit traces nothing, so the keys of certificates stored before materials were kept stay as they were.
CREATE FUNCTION unit_trace_version(p_prefix text, p_width smallint, p_serial bigint, p_product uuid)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT md5(string_agg(line, ',' ORDER BY line)) FROM (
    SELECT 'p:' || pp.part || ':' || pp.material_id || ':' || extract(epoch FROM m.updated_at) AS line
      FROM product_parts pp JOIN materials m ON m.id = pp.material_id WHERE pp.product_id = p_product
    UNION ALL
    SELECT 'h:' || u.part || ':' || h.id || ':' || extract(epoch FROM h.updated_at) || ':' || extract(epoch FROM m.updated_at)
      FROM unit_heat_parts(p_prefix, p_width, p_serial) u JOIN heats h ON h.id = u.heat_id JOIN materials m ON m.id = h.material_id
  ) x
$$;
