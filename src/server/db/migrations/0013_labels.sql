-- Near-miss serials (docs/decisions/0023-nameplate-labels-and-near-miss.md): a public lookup that finds
-- nothing looks for a serial spelt the same but for its separators ("BF300 000002" → "BF300-000002"). This
-- index finds a range by its prefix without separators, its width and its start, as the exact lookup's
-- index does by the prefix itself.
CREATE INDEX serial_ranges_prefix_letters_idx ON serial_ranges (translate(prefix, '-_/.', ''), width, start_no);
