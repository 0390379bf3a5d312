-- The stamp as it was when an inspector released a range (docs/decisions/0058-inspector-stamp.md): images kept
-- by their SHA-256 and never changed, and each release naming the one it was made with. A stamp replaced or
-- removed later, or an account deleted, leaves the certificates of earlier releases as they were released.
CREATE TABLE stamp_images (
  sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  image bytea NOT NULL,
  type text NOT NULL CHECK (type IN ('image/png', 'image/jpeg')),
  created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE range_releases ADD COLUMN stamp_sha256 text REFERENCES stamp_images (sha256);

-- Releases made before: their inspector's stamp of today, which their certificates have printed so far.
INSERT INTO stamp_images (sha256, image, type) SELECT sha256, image, type FROM inspector_stamps ON CONFLICT DO NOTHING;
UPDATE range_releases r SET stamp_sha256 = s.sha256
  FROM inspector_stamps s WHERE r.source = 'inspector' AND r.released_by = s.user_id;
