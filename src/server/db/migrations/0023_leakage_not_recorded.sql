-- A leakage-limited test whose record states no leakage is not "no visible leakage"
-- (docs/decisions/0045-standards-tables.md): where the requirement is a count or a volume (drops/min,
-- bubbles/min, mm³/s), a record without a leakage value is nonconforming with its own reason, bit 1024
-- "leakage not recorded" (src/shared/standards/reasons.ts). Where the requirement is no visible leakage the
-- criterion is an observation, and the bench's result is that observation: nothing changes there.
-- 0010's function with that one term added; the same signature, so every statement that inlines it (the
-- bench API's and the CSV import's INSERT … SELECT, test_records_judge) judges by it at once.
CREATE OR REPLACE FUNCTION test_record_reasons(tp numeric, hs integer, held numeric, lv numeric, lu text,
  unrated boolean, pmin numeric, pmax numeric, hmin integer, lkind text, lmax numeric)
RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (
      CASE WHEN unrated THEN 32 WHEN pmin IS NOT NULL AND tp < pmin THEN 1 ELSE 0 END
    | CASE WHEN pmax IS NOT NULL AND tp > pmax THEN 2 ELSE 0 END
    | CASE WHEN least(hs::numeric, coalesce(held, hs)) < hmin THEN 4 ELSE 0 END
    | CASE WHEN lv IS NULL OR lv = 0 OR lkind = 'any' THEN 0
           WHEN lkind = 'none' THEN 8
           WHEN leakage_kind(lu) IS DISTINCT FROM lkind THEN 16
           WHEN lv * leakage_factor(lu) > lmax THEN 8
           ELSE 0 END
    | CASE WHEN lv IS NULL AND lkind IN ('drops/min', 'bubbles/min', 'mm3/s') THEN 1024 ELSE 0 END
  )::smallint
$$;

-- The records already stored that this changes: no leakage value, and a requirement row that limits it.
SELECT test_records_judge(NULL, NULL, NULL, NULL, NULL, ARRAY(
  SELECT r.id FROM test_records r
    LEFT JOIN serial_ranges s ON s.id = r.range_id
    JOIN product_requirements q
      ON q.product_id = r.product_id AND q.body_material = coalesce(s.body_material, '') AND q.test_type = r.test_type
   WHERE r.leakage_value IS NULL AND q.leak_kind IN ('drops/min', 'bubbles/min', 'mm3/s')));
