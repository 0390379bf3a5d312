-- Whether a product's valve is designed to seal against pressure from either direction
-- (docs/decisions/0054-test-conditions.md, docs/standards-sources.md: API 598 applies the closure test
-- "successively to each side of the closed valve" for such valves, ISO 5208 repeats it "for the other valve
-- port"). The release gate then asks for a conforming closure record on side A and on side B of each unit
-- (src/server/modules/reports/closure-sides.ts). Default no: every product kept so far is judged as before.
ALTER TABLE products ADD COLUMN bidirectional boolean NOT NULL DEFAULT false;
