-- Searches for staff (issue 10): how long a visitor's personal data (address and IP) is kept, and the
-- indexes the Searches screen and the retention job read.

-- Days a search request keeps its recipient address and client IP; the retention job (background.ts)
-- clears them afterwards. One year by default; at least a day (0 would erase requests still in flight),
-- at most ten years.
ALTER TABLE settings ADD COLUMN search_retention_days integer NOT NULL DEFAULT 365
  CHECK (search_retention_days BETWEEN 1 AND 3650);

-- When the retention job cleared a request's address and IP. A report request must name an address (0006's
-- CHECK) until then; afterwards its row says when the address went, instead of pretending it never had one.
ALTER TABLE search_requests ADD COLUMN personal_data_erased_at timestamptz;
ALTER TABLE search_requests DROP CONSTRAINT search_requests_request_has_address;
ALTER TABLE search_requests ADD CONSTRAINT search_requests_request_has_address
  CHECK (source = 'lookup' OR recipient_email IS NOT NULL OR personal_data_erased_at IS NOT NULL);

-- The retention job's one UPDATE finds only rows that still hold personal data: once cleared, a row leaves
-- this index, so the hourly run costs an index probe when there is nothing to do.
CREATE INDEX search_requests_personal_idx ON search_requests (created_at)
  WHERE recipient_email IS NOT NULL OR client_ip IS NOT NULL;

-- The Searches screen's email filter (staff name a whole address; addresses are stored lower-cased).
-- With it that filter is an index probe (under 2 ms for a page at 300,000 rows on PGlite); an admin's
-- substring filter still reads the table (about 0.45 s there).
CREATE INDEX search_requests_email_idx ON search_requests (recipient_email, created_at DESC)
  WHERE recipient_email IS NOT NULL;

-- A request's delivery history: every report email of its group (the first and each resend), found by the
-- group id the mail carries in ref. Only report mail is indexed.
CREATE INDEX mail_outbox_search_group_idx ON mail_outbox ((ref ->> 'searchRequestGroupId'), created_at)
  WHERE kind = 'test-report';

-- The retention job clears the addresses of finished report emails too (the outbox keeps its rows).
CREATE INDEX mail_outbox_report_retention_idx ON mail_outbox (created_at)
  WHERE kind = 'test-report' AND recipient <> '';
