-- Site settings, issued test reports, and the product's test standard (PRODUCT.md §3 Test report,
-- Verification, Settings; issue 9).

-- One row: every instance reads the same settings (never files on one machine's disk).
CREATE TABLE settings (
  -- The primary key can only be true: a second row cannot exist.
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  company_name text NOT NULL DEFAULT 'Test Report Center' CHECK (char_length(company_name) BETWEEN 1 AND 200),
  company_address text NOT NULL DEFAULT '' CHECK (char_length(company_address) <= 500),
  -- Empty texts mean "the product's default wording" (src/shared/i18n/*/reports.json), in each language.
  terms_en text NOT NULL DEFAULT '' CHECK (char_length(terms_en) <= 20000),
  terms_zh text NOT NULL DEFAULT '' CHECK (char_length(terms_zh) <= 20000),
  -- Increments whenever either terms text changes: a report request records the version agreed to.
  terms_version integer NOT NULL DEFAULT 1 CHECK (terms_version >= 1),
  statement_en text NOT NULL DEFAULT '' CHECK (char_length(statement_en) <= 2000),
  statement_zh text NOT NULL DEFAULT '' CHECK (char_length(statement_zh) <= 2000),
  footer_en text NOT NULL DEFAULT '' CHECK (char_length(footer_en) <= 2000),
  footer_zh text NOT NULL DEFAULT '' CHECK (char_length(footer_zh) <= 2000),
  document_type text NOT NULL DEFAULT 'test-report-2.2'
    CHECK (document_type IN ('test-report-2.2', 'inspection-certificate-3.1')),
  inspector_name text NOT NULL DEFAULT '' CHECK (char_length(inspector_name) <= 120),
  -- The logo as checked bytes (PNG or JPEG by its magic bytes, at most 1 MB), with its type and hash (the
  -- hash versions the public logo URL so that browsers may cache it for good).
  logo bytea CHECK (logo IS NULL OR octet_length(logo) <= 1048576),
  logo_type text CHECK (logo_type IN ('image/png', 'image/jpeg')),
  logo_sha256 text,
  -- The signing certificate and its private key (PEM). Generated self-signed on first use, or uploaded as
  -- PKCS#12 by an admin. The key is read only by the signer; no answer and no audit entry ever holds it.
  cert_source text CHECK (cert_source IN ('generated', 'uploaded')),
  cert_pem text,
  key_pem text,
  cert_fingerprint text,
  -- Increments on every change that shows on a report (texts, logo, certificate): part of the key under
  -- which an issued report is reused, so a new logo or statement gives a new report.
  revision integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT settings_logo CHECK ((logo IS NULL) = (logo_type IS NULL)),
  CONSTRAINT settings_cert CHECK ((cert_pem IS NULL) = (key_pem IS NULL) AND (cert_pem IS NULL) = (cert_source IS NULL))
);
INSERT INTO settings DEFAULT VALUES;
-- Logos are PNG/JPEG, already compressed.
ALTER TABLE settings ALTER COLUMN logo SET STORAGE EXTERNAL;

-- Every issued report, kept so that it can be verified and served again, also after the data changed.
CREATE TABLE reports (
  -- 128 random bits in base64url: the id in links and the QR code, unguessable.
  id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{22}$'),
  -- Short code a person can type (Crockford base32, 50 random bits). Unique: it finds one report.
  code text NOT NULL CHECK (code ~ '^[0-9A-HJKMNP-TV-Z]{10}$'),
  -- TR-<year>-<six digits>, from report_counters (sequential per year, no gaps: taken in the issuing
  -- transaction).
  number text NOT NULL,
  serial text NOT NULL CHECK (char_length(serial) BETWEEN 1 AND 64),
  product_id uuid,
  -- As printed: the product may be renamed or deleted later; verification shows what the report says.
  product_name text NOT NULL,
  document_type text NOT NULL CHECK (document_type IN ('test-report-2.2', 'inspection-certificate-3.1')),
  language text NOT NULL CHECK (language IN ('en', 'zh')),
  -- SHA-256 over the unit's test records (ids and content hashes): "newer test data exists" compares it.
  data_version text NOT NULL,
  -- data_version plus what else shows on the report (product, range, settings revision): the reuse key.
  source_version text NOT NULL,
  sha256 bytea NOT NULL CHECK (octet_length(sha256) = 32),
  bytes bytea NOT NULL,
  size integer NOT NULL CHECK (size > 0),
  issued_at timestamptz NOT NULL DEFAULT now(),
  certificate_fingerprint text NOT NULL,
  -- Findings for staff, e.g. a bench "pass" whose samples show a shorter hold: [{ testType, code }].
  flags jsonb NOT NULL DEFAULT '[]'
);
-- PDFs are compressed streams already: skip pglz's attempt on every insert.
ALTER TABLE reports ALTER COLUMN bytes SET STORAGE EXTERNAL;
CREATE UNIQUE INDEX reports_code_key ON reports (code);
CREATE UNIQUE INDEX reports_number_key ON reports (number);
-- One stored report per (serial, language, what it shows): the same request issued 50 times at once, or on
-- two instances, stores one report; the loser reads the winner's.
CREATE UNIQUE INDEX reports_reuse_key ON reports (serial, language, source_version);
-- A dropped file is checked by its hash.
CREATE INDEX reports_sha256_idx ON reports (sha256);

-- The last report number of each year. The row lock taken by the UPDATE … RETURNING is held until the
-- issuing transaction commits, so numbers are sequential without gaps across instances.
CREATE TABLE report_counters (
  year integer PRIMARY KEY CHECK (year BETWEEN 2000 AND 9999),
  last integer NOT NULL CHECK (last >= 0)
);

-- The standard a product is tested to (API 598, EN 12266-1, ISO 5208, API 6D, MSS SP-61 or free text),
-- printed beside each test on its reports. Optional: '' means none given.
ALTER TABLE products ADD COLUMN test_standard text NOT NULL DEFAULT '' CHECK (char_length(test_standard) <= 120);
