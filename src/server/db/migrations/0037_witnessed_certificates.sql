-- EN 10204 3.2 inspection certificates (docs/decisions/0056-witnessed-certificates.md): a delivery of an order
-- that asks for 3.2 records the purchaser's or a third party's inspector who witnessed its tests
-- ({ name, organisation, witnessedOn, tests, recordedBy, recordedAt }), and its certificates are stored as
-- 'inspection-certificate-3.2'.
ALTER TABLE deliveries ADD COLUMN witness jsonb;

ALTER TABLE reports DROP CONSTRAINT reports_document_type_check;
ALTER TABLE reports ADD CONSTRAINT reports_document_type_check
  CHECK (document_type IN ('test-report-2.2', 'inspection-certificate-3.1', 'inspection-certificate-3.2'));
