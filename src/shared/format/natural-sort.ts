/**
 * Natural order for names that carry numbers: "DN25 …" before "DN200 …", "PN10" before "PN100". Lists sort
 * on the server with the same key in SQL (naturalSortSql in src/server/db/natural-sort.ts), exports and
 * client-side lists with compareNatural; both pad every run of digits to a fixed width and compare
 * case-insensitively (docs/decisions/0024-polish-dates-vocabulary-sorting.md).
 */

/** Digit runs are padded to this width; longer runs keep their last digits (no name carries such numbers). */
export const NATURAL_DIGITS = 12;

/** The text a name sorts by: lower-cased, every digit run left-padded with zeros to NATURAL_DIGITS. */
export function naturalSortKey(name: string): string {
  return name.toLowerCase().replace(/\d+/g, (run) => run.padStart(NATURAL_DIGITS, '0').slice(-NATURAL_DIGITS));
}

/** Array.sort comparator in natural order (ties broken by the plain text, so the order is total). */
export function compareNatural(a: string, b: string): number {
  const ka = naturalSortKey(a);
  const kb = naturalSortKey(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
