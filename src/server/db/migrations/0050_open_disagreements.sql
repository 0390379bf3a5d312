-- The dashboard's units waiting on a disagreement (a bench pass the product's standard rejects, with no later
-- test of its type) were counted over every disagreement ever stored, each probed for a later test: at ten
-- years (8,458,346 records) that read took most of the dashboard's 572 ms, and it grows with the years kept.
-- Kept here instead: the records that may still be open disagreements (docs/decisions/0071-open-disagreements.md).
--
-- The set only has to hold every open disagreement; the reader checks each row again (still a disagreement, no
-- later test), so rows that a later test closed are harmless until the background work prunes them. That is
-- why no insert has to look for older disagreements of its unit, and why two writers storing records of one
-- unit at once cannot leave a wrong count: each adds only its own disagreements. Pruning and the writers that
-- can turn a kept row back into a candidate (a record judged again, a retest deleted) exclude each other with an
-- advisory lock: writers share it, the pruning takes it alone, so it never drops a row a writer has just re-opened.
CREATE TABLE open_disagreements (
  record_id bigint PRIMARY KEY REFERENCES test_records (id) ON DELETE CASCADE
);

INSERT INTO open_disagreements (record_id)
SELECT d.id FROM test_records d
 WHERE d.result = 'pass' AND d.verdict = 'nonconforming'
   AND NOT EXISTS (SELECT 1 FROM test_records l
                    WHERE l.prefix = d.prefix AND l.width = d.width AND l.serial_no = d.serial_no
                      AND l.test_type = d.test_type AND (l.tested_at, l.id) > (d.tested_at, d.id));

-- Stored or judged again as a disagreement: added. Deleted: the latest record left of each of its unit's test
-- types may be an open disagreement again (a deleted retest re-opens the one before it).
CREATE FUNCTION test_records_open_disagreements() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_advisory_xact_lock_shared(7347050);
  END IF;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO open_disagreements (record_id)
    SELECT l.id
      FROM (SELECT DISTINCT prefix, width, serial_no, test_type FROM changed_rows WHERE serial_no IS NOT NULL) d
     CROSS JOIN LATERAL (
           SELECT r.id, r.result, r.verdict FROM test_records r
            WHERE r.prefix = d.prefix AND r.width = d.width AND r.serial_no = d.serial_no AND r.test_type = d.test_type
            ORDER BY r.tested_at DESC, r.id DESC LIMIT 1) l
     WHERE l.result = 'pass' AND l.verdict = 'nonconforming'
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO open_disagreements (record_id)
    SELECT id FROM changed_rows WHERE result = 'pass' AND verdict = 'nonconforming'
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER test_records_open_disagreements_insert AFTER INSERT ON test_records
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_open_disagreements();
CREATE TRIGGER test_records_open_disagreements_update AFTER UPDATE ON test_records
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_open_disagreements();
CREATE TRIGGER test_records_open_disagreements_delete AFTER DELETE ON test_records
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_open_disagreements();
