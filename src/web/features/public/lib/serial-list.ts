/**
 * What a visitor types or pastes into the serial field: one serial, or up to 20 of them one a line or
 * separated by commas (a delivery note copied from a spreadsheet), each normalised as everywhere else
 * (src/shared/serial.ts). Repeats are dropped, so pasting the same line twice is not "too many".
 *
 * The split and the limit are the report request's (splitSerials and MAX_SERIALS_PER_REQUEST in the public
 * contract), restated here because importing that module brings zod (26 KB) into the first load;
 * test/search-page-logic.test.ts checks that both sides agree.
 */
import { normaliseSerial, parseSerial } from '../../../../shared/serial';

export const MAX_SERIALS = 20;

export function splitSerials(text: string): string[] {
  return text
    .split(/[\n\r,;，；]+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export interface SerialList {
  /** normalised serials that follow the grammar, in the order typed */
  serials: string[];
  /** normalised entries that cannot be a serial (not found, without asking the server) */
  invalid: string[];
  /** more than MAX_SERIALS distinct entries */
  tooMany: boolean;
}

export function parseSerialList(input: string): SerialList {
  const seen = new Set<string>();
  const serials: string[] = [];
  const invalid: string[] = [];
  for (const piece of splitSerials(input)) {
    const s = normaliseSerial(piece);
    if (s === '' || seen.has(s)) continue;
    seen.add(s);
    (parseSerial(s) ? serials : invalid).push(s);
  }
  return { serials, invalid, tooMany: seen.size > MAX_SERIALS };
}
