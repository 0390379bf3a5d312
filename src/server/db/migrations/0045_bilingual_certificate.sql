-- A certificate's third rendering: both languages' labels side by side under the same number
-- (docs/decisions/0055-one-number-per-certificate.md). A visitor's request keeps the language of its email
-- and the page, and names the rendering it asked for.
ALTER TABLE reports DROP CONSTRAINT IF EXISTS reports_language_check;
ALTER TABLE reports ADD CONSTRAINT reports_language_check CHECK (language IN ('en', 'zh', 'bilingual'));
