-- An authorised inspector's stamp (docs/decisions/0058-inspector-stamp.md): the image printed beside their
-- name on the certificates of the ranges they release. One per account, removed with it; kept apart from
-- users so that reading an account never reads its image.
CREATE TABLE inspector_stamps (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  image bytea NOT NULL,
  type text NOT NULL CHECK (type IN ('image/png', 'image/jpeg')),
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
