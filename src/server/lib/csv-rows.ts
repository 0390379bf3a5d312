/**
 * Reading small CSV files (customers, a delivery's serials, a range's per-serial heats) into memory: the header picks the
 * columns by name (any order, any case), each data row becomes an object of its known columns. The files
 * are bounded (a few thousand rows), so the whole file is checked before anything is stored.
 */
import { CsvEncodingError, CsvTooLargeError, readCsv } from './csv';

export interface CsvRowFailure {
  /** the file's row (the header is row 1) */
  row: number;
  field: string;
  key: string;
  params?: Record<string, string | number>;
}

export interface CsvRows {
  rows: { row: number; input: Record<string, string> }[];
  failures: CsvRowFailure[];
}

/** `keys` is the prefix of the messages (`<keys>.missingColumns`, `.malformed`, `.extraValues`, `.tooManyRows`, `.empty`, `.notUtf8`). */
export async function readCsvRows(
  source: AsyncIterable<Uint8Array>,
  spec: { keys: string; columns: readonly string[]; required: readonly string[]; maxRows: number },
): Promise<CsvRows> {
  const k = (name: string) => `${spec.keys}.${name}`;
  const rows: CsvRows['rows'] = [];
  const failures: CsvRowFailure[] = [];
  let header: (string | null)[] | null = null;
  let lastRow = 1;
  try {
    for await (const rec of readCsv(source, { maxFieldLength: 4096, maxFields: 50 })) {
      lastRow = rec.row;
      if (!header) {
        header = rec.fields.map((h) => spec.columns.find((c) => c.toLowerCase() === h.trim().toLowerCase()) ?? null);
        const missing = spec.required.filter((c) => !header!.includes(c));
        if (missing.length > 0) {
          failures.push({ row: rec.row, field: '', key: k('missingColumns'), params: { columns: missing.join(', ') } });
          return { rows, failures };
        }
        continue;
      }
      if (rows.length + failures.length >= spec.maxRows) {
        failures.push({ row: rec.row, field: '', key: k('tooManyRows'), params: { max: spec.maxRows } });
        return { rows, failures };
      }
      if (rec.malformed) {
        failures.push({ row: rec.row, field: '', key: k('malformed') });
        continue;
      }
      const input: Record<string, string> = {};
      let extra = false;
      rec.fields.forEach((v, i) => {
        const col = header![i];
        if (col) input[col] = v;
        else if (i >= header!.length && v.trim() !== '') extra = true;
      });
      if (extra) failures.push({ row: rec.row, field: '', key: k('extraValues') });
      else rows.push({ row: rec.row, input });
    }
  } catch (err) {
    if (err instanceof CsvEncodingError) failures.push({ row: err.row, field: '', key: k('notUtf8') });
    else if (err instanceof CsvTooLargeError) failures.push({ row: err.row, field: '', key: k('malformed') });
    else throw err;
    return { rows, failures };
  }
  if (!header || (rows.length === 0 && failures.length === 0)) failures.push({ row: lastRow, field: '', key: k('empty') });
  return { rows, failures };
}
