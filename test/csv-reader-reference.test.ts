/**
 * The CSV reader against its earlier, character-by-character form (kept here as the reference): the same
 * records, row numbers, malformed flags and errors for any text cut into any chunks. The reader now takes
 * runs of ordinary characters at once (the machine-data import's reading cost, docs/decisions/0034).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvEncodingError, CsvTooLargeError, readCsv, type CsvReadOptions, type CsvRecord } from '../src/server/lib/csv';

async function* referenceCsv(source: AsyncIterable<Uint8Array | string>, options: CsvReadOptions = {}): AsyncGenerator<CsvRecord> {
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
    const rec = { row: 0, fields, malformed };
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
        if (c !== '"') field += c;
        else if (i + 1 === text.length && !final) carry = '"';
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
      } else {
        if (afterQuote) malformed = true;
        // A quote inside an unquoted field is kept as it is (lenient, like spreadsheets).
        field += c;
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

async function collect(gen: AsyncGenerator<CsvRecord>) {
  const out: unknown[] = [];
  try {
    for await (const r of gen) out.push(r);
  } catch (err) {
    if (err instanceof CsvTooLargeError) out.push(`too large at ${err.row}`);
    else if (err instanceof CsvEncodingError) out.push(`not UTF-8 at ${err.row}`);
    else throw err;
  }
  return out;
}

const source = (chunks: (string | Uint8Array)[]) =>
  (async function* () {
    yield* chunks;
  })();

const piece = fc.constantFrom('a', 'bc', ',', '"', '""', '\n', '\r', '\r\n', ' ', '王', 'x"y', ',,', '\uFEFF');

describe('CSV reader vs its reference', () => {
  it('reads any text in any chunks as the character-by-character reader did', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 60 }),
        fc.array(fc.nat({ max: 200 }), { maxLength: 6 }),
        fc.boolean(),
        fc.constantFrom<CsvReadOptions>({}, { maxFieldLength: 5 }, { maxFields: 3 }),
        async (pieces, cuts, asBytes, options) => {
          const text = pieces.join('');
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let at = 0;
          for (const p of points) {
            chunks.push(text.slice(at, p));
            at = p;
          }
          chunks.push(text.slice(at));
          const input = () => (asBytes ? chunks.map((c) => Buffer.from(c)) : chunks);
          expect(await collect(readCsv(source(input()), options))).toEqual(await collect(referenceCsv(source(input()), options)));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
