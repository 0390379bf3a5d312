/**
 * A product's pressure class as Table 1 of API 598 and ISO 5208 reads it: an ASME class ("CL150", "Class 600",
 * "900#", "1500LB") or a PN ("PN40"). The product stores the text as typed, upper-cased without spaces
 * (src/shared/contract/products.ts); anything else (JIS "10K", blank) is not read, and the tables' usual
 * column applies.
 */
export type PressureRating = { system: 'class'; value: number } | { system: 'pn'; value: number };

/** The ASME classes a bare number is taken for ("150" is Class 150; "16" is not read). */
const ASME_CLASSES = new Set([75, 125, 150, 250, 300, 400, 600, 800, 900, 1500, 2500, 4500]);

export function readPressureClass(text: string | null | undefined): PressureRating | null {
  const s = (text ?? '').toUpperCase().replace(/\s+/g, '');
  const pn = /^PN(\d{1,4})$/.exec(s);
  if (pn) return { system: 'pn', value: Number(pn[1]) };
  const cl = /^(?:CL|CLASS|ANSI|ASME)(\d{2,4})(?:#|LB|LBS)?$/.exec(s) ?? /^(\d{2,4})(?:#|LB|LBS)$/.exec(s);
  if (cl) return { system: 'class', value: Number(cl[1]) };
  const bare = /^(\d{2,4})$/.exec(s);
  if (bare && ASME_CLASSES.has(Number(bare[1]))) return { system: 'class', value: Number(bare[1]) };
  return null;
}

/**
 * Table 1's higher column: above Class 1500 / PN 250 up to DN 100 (NPS 4), above Class 600 / PN 100 beyond
 * it (API 598 by class, ISO 5208 by class and PN; docs/standards-sources.md). Null: the class is not read.
 */
export function inHigherClassColumn(rating: PressureRating | null, dn: number): boolean | null {
  if (!rating) return null;
  const small = dn <= 100;
  if (rating.system === 'class') return rating.value > (small ? 1500 : 600);
  return rating.value > (small ? 250 : 100);
}
