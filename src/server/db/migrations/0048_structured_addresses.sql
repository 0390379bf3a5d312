-- The postcode, city and country of the manufacturer and of each customer, beside the address lines the
-- certificate prints (docs/decisions/0067-en10168-certificate-document.md): the EN 10168 document in the
-- embedded data names a company by street, postcode, city and country, and splitting free lines into them
-- would be a guess. Empty until staff fill them in.
ALTER TABLE settings
  ADD COLUMN company_postcode text NOT NULL DEFAULT '' CHECK (char_length(company_postcode) <= 20),
  ADD COLUMN company_city text NOT NULL DEFAULT '' CHECK (char_length(company_city) <= 100),
  ADD COLUMN company_country text NOT NULL DEFAULT '' CHECK (company_country ~ '^([A-Z]{2})?$');

ALTER TABLE customers
  ADD COLUMN postcode text NOT NULL DEFAULT '' CHECK (char_length(postcode) <= 20),
  ADD COLUMN city text NOT NULL DEFAULT '' CHECK (char_length(city) <= 100);
