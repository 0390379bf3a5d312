-- The public Test Report Center (issue 9): search requests, the proof-of-work secret and used challenges,
-- and a catalogue version that lets every instance drop its cached lookup answers when a range changes.

-- One row per serial a visitor asked about (PRODUCT.md §3 "Search request"). A report request for several
-- serials writes one row per serial sharing group_id (the id the visitor is given); a lookup that found
-- nothing is recorded too (source 'lookup', no address). Rows whose report went out by email follow that
-- email through outbox_id (src/server/modules/searches/search-mail-outcome.ts).
CREATE TABLE search_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  group_id uuid NOT NULL,
  source text NOT NULL CHECK (source IN ('lookup', 'request')),
  serial text NOT NULL CHECK (char_length(serial) <= 256),
  recipient_email text CHECK (char_length(recipient_email) <= 254),
  language text NOT NULL CHECK (language IN ('en', 'zh')),
  terms_agreed_at timestamptz,
  terms_version integer,
  -- held: found but no report may go out (release gate, or no test data yet); the visitor is not told why
  status text NOT NULL CHECK (status IN ('not-found', 'held', 'queued', 'sent', 'failed')),
  -- the issued report (reports.id of 0005, an unguessable text id); no foreign key, so that this record
  -- does not depend on how long reports are kept
  report_id text CHECK (char_length(report_id) <= 64),
  outbox_id uuid REFERENCES mail_outbox (id) ON DELETE SET NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  sent_at timestamptz,
  client_ip text,
  user_agent text CHECK (char_length(user_agent) <= 512),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT search_requests_request_has_address CHECK (source = 'lookup' OR recipient_email IS NOT NULL)
);
-- The staff list, newest first, and its status filter.
CREATE INDEX search_requests_created_at_idx ON search_requests (created_at DESC, id);
CREATE INDEX search_requests_status_idx ON search_requests (status, created_at DESC);
-- The outcome handler finds the rows of an email by its outbox id.
CREATE INDEX search_requests_outbox_idx ON search_requests (outbox_id) WHERE outbox_id IS NOT NULL;
CREATE INDEX search_requests_group_idx ON search_requests (group_id);
CREATE INDEX search_requests_serial_idx ON search_requests (serial, created_at DESC);

-- The HMAC key that signs proof-of-work challenges: made once by the first instance that needs it
-- (INSERT … ON CONFLICT DO NOTHING) and read by every instance, so a challenge made by one instance is
-- accepted by another.
CREATE TABLE pow_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Challenges already used, until they expire: the primary key makes "use once" one atomic INSERT … ON
-- CONFLICT DO NOTHING, so of 50 simultaneous replays exactly one is accepted, on any instance.
CREATE TABLE pow_used (
  id text PRIMARY KEY CHECK (char_length(id) <= 128),
  expires_at timestamptz NOT NULL
);
CREATE INDEX pow_used_expires_idx ON pow_used (expires_at);

-- A row per statement that writes products or serial ranges. Each instance keeps a bounded cache of
-- public lookup answers and re-reads (count, max id) of this table at most once a second; when it differs,
-- the cache is emptied. So a change made through any instance (or in SQL) reaches every cache within that
-- second, for one tiny query per instance per second instead of one per lookup. An append, not a counter
-- row: a counter's row lock would serialise every catalogue writer until commit (and could deadlock with
-- the product range_count updates); inserts never wait for each other, and a row becomes visible only when
-- its change commits, so no cache can be filled from data older than the version it was tagged with.
-- (count, max) rather than max alone: transactions commit out of id order.
CREATE TABLE catalogue_changes (
  id bigserial PRIMARY KEY,
  changed_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO catalogue_changes DEFAULT VALUES;
  RETURN NULL;
END $$;

-- Per statement, not per row: an import of 20,000 ranges adds one row.
CREATE TRIGGER serial_ranges_catalogue_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON serial_ranges
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed();
CREATE TRIGGER products_catalogue_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed();
