-- Releasing a delivery: every unit's certificate naming the order, and one link for the buyer
-- (docs/product.md "Orders and deliveries"; docs/decisions/0044-delivery-release.md).

-- 1. A release runs in the background: 'releasing' until every unit has its certificate. The server that
-- stops halfway resumes it at its next start from the units without one.
ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_status_check
  CHECK (status IN ('open', 'releasing', 'released', 'cancelled'));
-- Who asked for the release (an account's label, kept if the account goes), and the language the
-- certificates are issued in (the customer's, fixed when the release starts).
ALTER TABLE deliveries ADD COLUMN released_by text CHECK (char_length(released_by) <= 300);
ALTER TABLE deliveries ADD COLUMN release_language text CHECK (release_language IN ('en', 'zh'));
-- Units whose certificate is stored, kept in the transaction that stores each: the progress the delivery page shows.
ALTER TABLE deliveries ADD COLUMN issued_count integer NOT NULL DEFAULT 0 CHECK (issued_count >= 0);
-- Why the last release stopped (a unit held after its gate passed, say): shown on the delivery page.
ALTER TABLE deliveries ADD COLUMN release_error text CHECK (char_length(release_error) <= 2000);
-- The background worker's queue: few rows, found without a scan.
CREATE INDEX deliveries_releasing_idx ON deliveries (updated_at) WHERE status = 'releasing';

-- 2. A certificate issued for a delivery names the order: it belongs to the delivery's unit. The unit keeps its
-- newest certificate (the link and the ZIP serve it); a correction stores a new one and moves this pointer.
ALTER TABLE reports ADD COLUMN delivery_unit_id bigint REFERENCES delivery_units (id) ON DELETE RESTRICT;
-- Every version of a unit's certificates (the link's index lists the superseded ones too).
CREATE INDEX reports_delivery_unit_idx ON reports (delivery_unit_id, issued_at) WHERE delivery_unit_id IS NOT NULL;
ALTER TABLE delivery_units ADD COLUMN report_id text REFERENCES reports (id) ON DELETE RESTRICT;
-- The units still to be issued by a release.
CREATE INDEX delivery_units_unissued_idx ON delivery_units (delivery_id, id) WHERE report_id IS NULL AND active;

-- 3. The buyer's links to a delivery. Only the SHA-256 of the token is kept: a reader of the database or a
-- backup cannot open a delivery with what is stored. A delivery may have several links (the release's, each
-- re-sent one); revoking ends them all.
CREATE TABLE delivery_links (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  delivery_id uuid NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
  token_sha256 bytea NOT NULL CHECK (octet_length(token_sha256) = 32),
  -- 'release', 'staff' (re-sent by staff) or 'request' (a contact asked on /search)
  source text NOT NULL CHECK (source IN ('release', 'staff', 'request')),
  -- who it was sent to, comma-separated (the contacts' addresses), for the delivery page's history
  sent_to text NOT NULL DEFAULT '' CHECK (char_length(sent_to) <= 4000),
  created_by text CHECK (char_length(created_by) <= 300),
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE UNIQUE INDEX delivery_links_token_key ON delivery_links (token_sha256);
CREATE INDEX delivery_links_delivery_idx ON delivery_links (delivery_id, created_at);
