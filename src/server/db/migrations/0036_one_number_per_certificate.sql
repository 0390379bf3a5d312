-- One certificate, one number (docs/decisions/0055-one-number-per-certificate.md). A unit's certificate is
-- what its source version says (its data, product, range, settings, signing certificate, order and heats);
-- its English and Chinese renderings are two copies of that one document and carry its one number and issue
-- date. The number is taken once per (serial, source version), in the issuing transaction, and kept here
-- even while the first rendering is being drawn, so that a rendering in the other language finds it.
CREATE TABLE report_certificates (
  serial text NOT NULL,
  source_version text NOT NULL,
  number text NOT NULL,
  issued_at timestamptz NOT NULL,
  PRIMARY KEY (serial, source_version)
);
CREATE UNIQUE INDEX report_certificates_number_key ON report_certificates (number);

-- Reports already stored keep their numbers; a certificate stored in one language gives its number to a
-- later rendering in the other.
INSERT INTO report_certificates (serial, source_version, number, issued_at)
SELECT DISTINCT ON (serial, source_version) serial, source_version, number, issued_at
  FROM reports ORDER BY serial, source_version, issued_at, number;

-- A number now names one rendering per language.
DROP INDEX reports_number_key;
CREATE UNIQUE INDEX reports_number_key ON reports (number, language);
