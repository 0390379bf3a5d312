-- The keys that sign a certificate's offline proof (docs/decisions/0063-offline-verification.md): Ed25519,
-- published with their ids at /.well-known/jwks.json. One key signs at a time; a rotated-out key is kept
-- and stays published, since certificates it signed keep verifying with it.
CREATE TABLE verification_keys (
  kid text PRIMARY KEY,
  public_x text NOT NULL,
  private_pem text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz
);
-- At most one current key: two instances making the first key at once, or two rotations, cannot both win.
CREATE UNIQUE INDEX verification_keys_one_current ON verification_keys ((true)) WHERE retired_at IS NULL;
