/**
 * GTIN, the GS1 Global Trade Item Number of a product (docs/decisions/0062-gs1-digital-link.md): 8, 12, 13
 * or 14 digits whose last is the GS1 mod-10 check digit. Kept and compared as GTIN-14 (left-padded with
 * zeros), the form a GS1 Digital Link carries after `/01/`: the same item typed as GTIN-13 or GTIN-14 is
 * then one value, for the unique index and for a link's comparison alike.
 */

/** The lengths GS1 assigns: GTIN-8, GTIN-12 (UPC-A), GTIN-13 (EAN-13) and GTIN-14. */
export const GTIN_LENGTHS = [8, 12, 13, 14] as const;

/**
 * The GS1 mod-10 check digit of `digits` (the GTIN without its last digit): from the right, weights 3, 1,
 * 3, 1, …; the check digit brings the sum up to a multiple of ten. Leading zeros weigh nothing, which is why
 * a GTIN keeps its check digit when padded to 14 digits.
 */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

export type GtinProblem = 'digits' | 'checkDigit';

/**
 * A GTIN as typed (spaces between the digit groups printed under a barcode are allowed) → its GTIN-14, or
 * the problem: not 8, 12, 13 or 14 digits (all zeros is no GTIN either), or a wrong check digit.
 */
export function parseGtin(text: string): { gtin: string } | { problem: GtinProblem } {
  const digits = text.replace(/[ \u00a0]+/g, '');
  if (!/^\d+$/.test(digits) || !(GTIN_LENGTHS as readonly number[]).includes(digits.length) || /^0+$/.test(digits))
    return { problem: 'digits' };
  if (gs1CheckDigit(digits.slice(0, -1)) !== Number(digits.slice(-1))) return { problem: 'checkDigit' };
  return { gtin: digits.padStart(14, '0') };
}

/** The GTIN-14 of `text`, or null when it is no valid GTIN. */
export function normaliseGtin(text: string): string | null {
  const parsed = parseGtin(text);
  return 'gtin' in parsed ? parsed.gtin : null;
}
