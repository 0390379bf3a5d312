-- The dashboard's units waiting on a disagreement (a bench pass the product's standard rejects, with no later
-- test of its type) were counted over every disagreement ever stored, each probed for a later test: at ten
-- years (9,984,802 records) that read took 500-840 ms of the dashboard, and it grows with the years kept.
-- Kept here instead, with the unit, test type and time of each (docs/decisions/0071-open-disagreements.md).
--
-- A record stored or judged again as a disagreement is added; a record stored later for the same unit and test
-- type closes it; a record judged again as conforming leaves; a deleted record takes its row with it, and the
-- latest record left of its unit and type is added if it is a disagreement (a deleted retest re-opens the one
-- before it). Two writers storing a disagreement and its retest in one moment, each unseen by the other, can
-- leave a closed row behind (neither sees the other's row): the background work prunes such rows, so the count
-- is right again within minutes.
-- The pruning and the writers that can turn a row back into an open one (a re-judgement, a delete) exclude
-- each other with an advisory lock that writers share and the pruning takes alone.
CREATE TABLE open_disagreements (
  record_id bigint PRIMARY KEY REFERENCES test_records (id) ON DELETE CASCADE,
  prefix text NOT NULL,
  width smallint NOT NULL,
  serial_no bigint NOT NULL,
  test_type text NOT NULL,
  tested_at timestamptz NOT NULL
);
CREATE INDEX open_disagreements_unit_idx ON open_disagreements (prefix, width, serial_no, test_type, tested_at);

INSERT INTO open_disagreements (record_id, prefix, width, serial_no, test_type, tested_at)
SELECT d.id, d.prefix, d.width, d.serial_no, d.test_type, d.tested_at FROM test_records d
 WHERE d.result = 'pass' AND d.verdict = 'nonconforming'
   AND NOT EXISTS (SELECT 1 FROM test_records l
                    WHERE l.prefix = d.prefix AND l.width = d.width AND l.serial_no = d.serial_no
                      AND l.test_type = d.test_type AND (l.tested_at, l.id) > (d.tested_at, d.id));

CREATE FUNCTION test_records_open_disagreements() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_advisory_xact_lock_shared(7347050);
  END IF;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO open_disagreements (record_id, prefix, width, serial_no, test_type, tested_at)
    SELECT l.id, d.prefix, d.width, d.serial_no, d.test_type, l.tested_at
      FROM (SELECT DISTINCT prefix, width, serial_no, test_type FROM changed_rows) d
     CROSS JOIN LATERAL (
           SELECT r.id, r.result, r.verdict, r.tested_at FROM test_records r
            WHERE r.prefix = d.prefix AND r.width = d.width AND r.serial_no = d.serial_no AND r.test_type = d.test_type
            ORDER BY r.tested_at DESC, r.id DESC LIMIT 1) l
     WHERE l.result = 'pass' AND l.verdict = 'nonconforming'
    ON CONFLICT DO NOTHING;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM open_disagreements o USING changed_rows n
     WHERE o.record_id = n.id AND NOT (n.result = 'pass' AND n.verdict = 'nonconforming');
  ELSE
    -- Closed by a later test of its unit and type (the kept rows are few: a hash of them against the batch).
    DELETE FROM open_disagreements o USING changed_rows n
     WHERE o.prefix = n.prefix AND o.width = n.width AND o.serial_no = n.serial_no AND o.test_type = n.test_type
       AND (o.tested_at, o.record_id) < (n.tested_at, n.id);
  END IF;
  INSERT INTO open_disagreements (record_id, prefix, width, serial_no, test_type, tested_at)
  SELECT n.id, n.prefix, n.width, n.serial_no, n.test_type, n.tested_at FROM changed_rows n
   WHERE n.result = 'pass' AND n.verdict = 'nonconforming'
     AND NOT EXISTS (SELECT 1 FROM test_records l
                      WHERE l.prefix = n.prefix AND l.width = n.width AND l.serial_no = n.serial_no
                        AND l.test_type = n.test_type AND (l.tested_at, l.id) > (n.tested_at, n.id))
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER test_records_open_disagreements_insert AFTER INSERT ON test_records
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_open_disagreements();
CREATE TRIGGER test_records_open_disagreements_update AFTER UPDATE ON test_records
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_open_disagreements();
CREATE TRIGGER test_records_open_disagreements_delete AFTER DELETE ON test_records
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION test_records_open_disagreements();
