/**
 * The serial-number grammar (docs/product.md §3), shared by the forms, the server and the public lookup.
 *
 *   serial = prefix digits
 *   prefix = zero or more of A–Z 0–9 - _ / . , not ending in a digit (the digit run is maximal)
 *   digits = 1 to 18 decimal digits; their count is the serial's width, leading zeros count
 *
 * `VB2311-000123` → prefix `VB2311-`, number 123, width 6. A purely numeric serial (`000123`) has an empty
 * prefix: some product lines print no letters, and nothing is gained by refusing them. 18 digits keep every
 * number inside PostgreSQL's bigint (and 10^18 − 1 < 2^63), so numbers are bigints here, never floats.
 *
 * Input is normalised first: Unicode NFKC (full-width characters typed with a Chinese IME become ASCII),
 * upper case, every whitespace character removed (people copy serials with spaces and line breaks).
 */

export const SERIAL_MAX_LENGTH = 64;
export const SERIAL_MAX_WIDTH = 18;
export const SERIAL_PREFIX_MAX_LENGTH = SERIAL_MAX_LENGTH - 1;
/** The largest range one record may hold (docs/product.md §3). */
export const MAX_RANGE_UNITS = 10_000_000;

export interface ParsedSerial {
  prefix: string;
  number: bigint;
  width: number;
}

const SERIAL_RE = /^([A-Z0-9\-_/.]*?)(\d{1,18})$/;
const PREFIX_RE = /^(?:[A-Z0-9\-_/.]*[A-Z\-_/.])?$/;
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

/** Trim, NFKC, upper case, remove inner whitespace. Idempotent. */
export function normaliseSerial(input: string): string {
  // Printable ASCII without spaces (what a scanner or a careful typist sends): NFKC leaves it as it is and
  // there is no whitespace, so upper-casing is the whole work (the public lookup normalises every request).
  if (PRINTABLE_ASCII.test(input)) return input.toUpperCase();
  // Repeated to a fixed point: upper-casing can leave a decomposed form (a few Greek letters), and removing
  // a space can bring a combining mark next to a letter it then composes with. Twice is almost always enough.
  let s = input;
  for (let i = 0; i < 5; i++) {
    const next = s.normalize('NFKC').toUpperCase().normalize('NFKC').replace(/\s+/gu, '');
    if (next === s) break;
    s = next;
  }
  return s;
}

/**
 * Splits a serial (normalising it first) into prefix, number and width; null when it does not follow the
 * grammar: no trailing digits, more than 18 of them, a character outside the prefix alphabet, too long.
 */
export function parseSerial(input: string): ParsedSerial | null {
  const s = normaliseSerial(input);
  if (s.length === 0 || s.length > SERIAL_MAX_LENGTH) return null;
  const m = SERIAL_RE.exec(s);
  if (!m) return null;
  const prefix = m[1] ?? '';
  const digits = m[2] ?? '';
  // The lazy prefix leaves every trailing digit to the digit run, except when there are more than 18:
  // then the prefix would end in a digit, which the grammar forbids (the run is the whole trailing run).
  if (!PREFIX_RE.test(prefix)) return null;
  return { prefix, number: BigInt(digits), width: digits.length };
}

/** The canonical text of a serial; throws if the number does not fit its width or the parts are not valid. */
export function formatSerial(p: ParsedSerial): string {
  if (!isValidParts(p)) throw new RangeError(`Not a valid serial: ${p.prefix}/${String(p.number)}/${p.width}`);
  return p.prefix + p.number.toString().padStart(p.width, '0');
}

export function isValidParts(p: ParsedSerial): boolean {
  return (
    Number.isInteger(p.width) &&
    p.width >= 1 &&
    p.width <= SERIAL_MAX_WIDTH &&
    p.number >= 0n &&
    p.number < 10n ** BigInt(p.width) &&
    p.prefix.length + p.width <= SERIAL_MAX_LENGTH &&
    PREFIX_RE.test(p.prefix)
  );
}

export function isSerial(input: string): boolean {
  return parseSerial(input) !== null;
}

/** Same prefix and width: the two serials belong to one series and may bound a range. */
export function sameSeries(a: ParsedSerial, b: ParsedSerial): boolean {
  return a.prefix === b.prefix && a.width === b.width;
}

/** Why two serials do not bound a range, or how many units they span (end − start + 1). */
export type RangeMeasure =
  | { ok: true; units: bigint; start: ParsedSerial; end: ParsedSerial }
  | { ok: false; reason: 'badStart' | 'badEnd' }
  | { ok: false; reason: 'prefixDiffers' | 'widthDiffers' | 'endBeforeStart' | 'tooMany'; start: ParsedSerial; end: ParsedSerial };

/**
 * The one statement of the range rules: same prefix and width, start <= end, at most MAX_RANGE_UNITS.
 * The route's schema and the form's live Total Units both read it.
 */
export function measureRange(startSerial: string, endSerial: string): RangeMeasure {
  const start = parseSerial(startSerial);
  if (!start) return { ok: false, reason: 'badStart' };
  const end = parseSerial(endSerial);
  if (!end) return { ok: false, reason: 'badEnd' };
  if (start.prefix !== end.prefix) return { ok: false, reason: 'prefixDiffers', start, end };
  if (start.width !== end.width) return { ok: false, reason: 'widthDiffers', start, end };
  if (end.number < start.number) return { ok: false, reason: 'endBeforeStart', start, end };
  const units = end.number - start.number + 1n;
  if (units > BigInt(MAX_RANGE_UNITS)) return { ok: false, reason: 'tooMany', start, end };
  return { ok: true, units, start, end };
}

/** Units from start to end inclusive; null when they do not bound a range. */
export function unitsBetween(start: string, end: string): bigint | null {
  const m = measureRange(start, end);
  return m.ok ? m.units : m.reason === 'tooMany' ? m.end.number - m.start.number + 1n : null;
}

/** The serial `offset` units after `start` in its series, or null past the width (for forms and tests). */
export function serialAfter(start: string, offset: bigint): string | null {
  const a = parseSerial(start);
  if (!a) return null;
  const next = { ...a, number: a.number + offset };
  return isValidParts(next) ? formatSerial(next) : null;
}

/** Human label of a range: `VB-0001 – VB-0100`. */
export function rangeLabel(startSerial: string, endSerial: string): string {
  return `${startSerial} – ${endSerial}`;
}
