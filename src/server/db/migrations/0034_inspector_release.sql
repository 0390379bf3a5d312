-- Authorised inspectors and the release of a serial range (docs/decisions/0052): an EN 10204 3.1
-- certificate is validated by the manufacturer's authorised inspection representative, independent of
-- manufacturing. Admins mark the staff who are; one of them releases a range after reviewing its gate, and
-- the certificates of its units name that inspector and the time of release.

-- 1. Who is an authorised inspector, and the title printed beside the name.
ALTER TABLE users
  ADD COLUMN inspector boolean NOT NULL DEFAULT false,
  ADD COLUMN inspector_title text NOT NULL DEFAULT '' CHECK (char_length(inspector_title) <= 120);

-- 2. The statement of the inspectors' independence from manufacturing, printed under the validation.
ALTER TABLE settings
  ADD COLUMN inspector_statement_en text NOT NULL DEFAULT '',
  ADD COLUMN inspector_statement_zh text NOT NULL DEFAULT '';

-- 3. A range is released once: the primary key makes a second release, or twenty at once, store one row.
-- The inspector's name and title are kept as they were at the release, so a later change of the account
-- does not change what certificates of the range say. source 'settings': a range that existed before
-- inspectors were kept; its certificates stay validated by the name in Settings, as they were.
CREATE TABLE range_releases (
  range_id uuid PRIMARY KEY REFERENCES serial_ranges (id) ON DELETE CASCADE,
  source text NOT NULL DEFAULT 'inspector' CHECK (source IN ('inspector', 'settings')),
  released_by uuid REFERENCES users (id) ON DELETE SET NULL,
  inspector_name text NOT NULL DEFAULT '',
  inspector_title text NOT NULL DEFAULT '',
  released_at timestamptz NOT NULL DEFAULT now(),
  -- what the gate showed the inspector: units with no test data, held by their tests, passing
  units_no_data bigint NOT NULL DEFAULT 0,
  units_held bigint NOT NULL DEFAULT 0,
  units_passed bigint NOT NULL DEFAULT 0
);

INSERT INTO range_releases (range_id, source) SELECT id, 'settings' FROM serial_ranges;
