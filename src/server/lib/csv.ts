/**
 * CSV in both directions, streaming. The reader is a small RFC 4180 state machine (quoted fields with ""
 * escapes and line breaks, CRLF or LF, a UTF-8 BOM skipped) over decoded chunks, so a 100,000-row upload
 * is never held in memory as text: only the current record is. Written here rather than pulled in as a
 * dependency because the rules we need (row numbers for error messages, bounded field size, leniency
 * about stray quotes) are few and exact.
 */

export interface CsvRecord {
  /** 1-based record number; the header is record 1, as in a spreadsheet without multi-line cells */
  row: number;
  fields: string[];
  /** true when the record broke the quoting rules (text after a closing quote, or an unclosed quote at the end) */
  malformed: boolean;
}

export class CsvTooLargeError extends Error {
  constructor(readonly row: number) {
    super(`CSV record ${row} is too large`);
  }
}

/**
 * The file is not UTF-8 text from record `row` on. Invalid bytes would otherwise become U+FFFD replacement
 * characters and be stored silently (a serial or an operator's name garbled for good). A U+FFFD written in
 * the file itself is refused too: it only ever comes from a conversion that already lost the text.
 */
export class CsvEncodingError extends Error {
  constructor(readonly row: number) {
    super(`CSV record ${row} is not valid UTF-8`);
  }
}

export interface CsvReadOptions {
  /** longest field accepted; a longer one (usually an unclosed quote) stops the read with CsvTooLargeError */
  maxFieldLength?: number;
  maxFields?: number;
}

/**
 * Records of a CSV byte stream; fully empty lines are skipped (spreadsheets leave them at the end). Each
 * cell comes back without the formula guard csvLine adds, so that an exported list imports as itself.
 */
export async function* readCsv(source: AsyncIterable<Uint8Array | string>, options: CsvReadOptions = {}): AsyncGenerator<CsvRecord> {
  const maxField = options.maxFieldLength ?? 65_536;
  const maxFields = options.maxFields ?? 200;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: false });
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let afterQuote = false; // just closed a quoted field: only a separator or a line end may follow
  let malformed = false;
  let pendingCR = false;
  let row = 0;

  const endRecord = (): CsvRecord | null => {
    fields.push(field);
    const rec = { row: 0, fields: fields.map(unguardCell), malformed };
    fields = [];
    field = '';
    afterQuote = false;
    malformed = false;
    if (rec.fields.length === 1 && rec.fields[0] === '' && !rec.malformed) return null;
    rec.row = ++row;
    return rec;
  };

  // A quote that ends a chunk may be the first half of a "" escape: it waits for the next chunk.
  let carry = '';
  const feed = function* (chunk: string, final: boolean): Generator<CsvRecord> {
    const text = carry + chunk;
    carry = '';
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (pendingCR) {
        pendingCR = false;
        if (c === '\n') continue;
      }
      if (inQuotes) {
        if (c !== '"') {
          // The quoted text up to the next quote, at once.
          const q = text.indexOf('"', i + 1);
          const end = q < 0 ? text.length : q;
          field += text.slice(i, end);
          i = end - 1;
        } else if (i + 1 === text.length && !final) carry = '"';
        else if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
          afterQuote = true;
        }
      } else if (c === ',') {
        fields.push(field);
        field = '';
        afterQuote = false;
        if (fields.length > maxFields) throw new CsvTooLargeError(row + 1);
      } else if (c === '\n' || c === '\r') {
        if (c === '\r') pendingCR = true;
        const rec = endRecord();
        if (rec) yield rec;
      } else if (c === '"' && field === '' && !afterQuote) {
        inQuotes = true;
      } else if (afterQuote) {
        malformed = true;
        field += c;
      } else {
        // The unquoted text up to the next separator, line end or quote, at once (a quote inside an
        // unquoted field is then kept as it is by the next step: lenient, like spreadsheets).
        let j = i + 1;
        while (j < text.length) {
          const k = text.charCodeAt(j);
          if (k === 44 || k === 34 || k === 10 || k === 13) break;
          j++;
        }
        field += text.slice(i, j);
        i = j - 1;
      }
      if (field.length > maxField) throw new CsvTooLargeError(row + 1);
    }
  };

  // The records before a broken byte are read as usual; the record holding it is the error's row.
  const feedChecked = function* (text: string, final: boolean): Generator<CsvRecord> {
    const bad = text.indexOf('\uFFFD');
    if (bad < 0) return yield* feed(text, final);
    yield* feed(text.slice(0, bad), false);
    throw new CsvEncodingError(row + 1);
  };

  let first = true;
  for await (const chunk of source) {
    // TextDecoder drops a leading BOM itself; text chunks need it done here.
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text.length > 0) {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    // Text handed in as text was decoded by the caller; only bytes can be invalid UTF-8 here.
    yield* typeof chunk === 'string' ? feed(text, false) : feedChecked(text, false);
  }
  yield* feedChecked(decoder.decode(), true);
  if (inQuotes) malformed = true;
  if (field !== '' || fields.length > 0 || malformed) {
    const rec = endRecord();
    if (rec) yield rec;
  }
}

// What a spreadsheet may run as a formula (CSV injection): a cell that starts with = + - @ (or their
// full-width forms, which some spreadsheets fold to the ASCII ones), a tab or a CR; or a cell that holds
// a separator followed by one of them, since a spreadsheet set to split on ; or tabs would make that part
// a cell of its own. Plain numbers (-5, -1.5) stay as they are.
const FORMULA_START = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\t\r]/;
const FORMULA_AFTER_SEPARATOR = /[,;\t|]\s*["']?[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;

/** True when a spreadsheet could read `s` as a formula; the writer prefixes such cells with a quote. */
export function isFormulaLike(s: string): boolean {
  if (/^-?\d+(\.\d+)?$/.test(s)) return false;
  return FORMULA_START.test(s) || FORMULA_AFTER_SEPARATOR.test(s);
}

/**
 * True when the writer prefixes `s` with a quote: formula-like text, and also text that merely looks like
 * an already guarded cell (quotes before formula-like text, `'=x`), so that the reader's unguardCell takes
 * back exactly the quote the writer added and an export always imports as the same values.
 */
function needsGuard(s: string): boolean {
  for (let i = 0; ; i++) {
    if (isFormulaLike(s.slice(i))) return true;
    if (s[i] !== "'") return false;
  }
}

/** A cell as read: without the quote csvLine put before formula-like text (`'=Valve` is `=Valve`). */
export function unguardCell(cell: string): string {
  return cell.startsWith("'") && needsGuard(cell.slice(1)) ? cell.slice(1) : cell;
}

/** One CSV line (with CRLF, as RFC 4180 and Excel expect); fields with separators, quotes or breaks are quoted. */
export function csvLine(values: readonly (string | number | null | undefined)[]): string {
  return (
    values
      .map((v) => {
        const s = v === null || v === undefined ? '' : String(v);
        const safe = needsGuard(s) ? `'${s}` : s;
        return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
      })
      .join(',') + '\r\n'
  );
}

/** The byte-order mark that makes Excel read a CSV as UTF-8. */
export const UTF8_BOM = '\uFEFF';
