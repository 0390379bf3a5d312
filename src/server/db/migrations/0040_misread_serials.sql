-- A serial misread from a worn nameplate (docs/decisions/0060-misread-serials.md): the public lookup's
-- near miss compares a range's prefix with look-alike letters written as digits (O 0, I 1, S 5, B 8) and
-- without separators, an index step per reading as for the separators alone (0013).
CREATE INDEX serial_ranges_prefix_read_alike_idx ON serial_ranges (translate(prefix, 'OISB-_/.', '0158'), width, start_no);
