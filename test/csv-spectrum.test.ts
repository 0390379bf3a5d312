/**
 * The CSV reader against csv-spectrum, a shared set of small CSV files with the records each should give
 * (quoted separators, "" escapes, quoted line breaks with LF and CRLF, empty quoted fields, UTF-8). Each
 * file is read whole and also one byte at a time, so that no case depends on where a chunk ends.
 *
 * Left out: `location_coordinates`. Its expected JSON does not describe its CSV: the phone number differs
 * (2095257564 in the CSV, 1234567890 in the JSON) and the JSON is one object rather than a list of rows.
 * The file also holds U+FFFD replacement characters, which the reader refuses on purpose (CsvEncodingError:
 * the text was already lost in an earlier conversion).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../src/server/lib/csv';

const root = path.dirname(createRequire(import.meta.url).resolve('csv-spectrum/package.json'));
const LEFT_OUT = new Set(['location_coordinates']);
const cases = fs
  .readdirSync(path.join(root, 'csvs'))
  .filter((f) => f.endsWith('.csv'))
  .map((f) => path.basename(f, '.csv'));

async function* whole(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

async function* byteByByte(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
}

async function asObjects(source: AsyncIterable<Uint8Array>): Promise<Record<string, string>[]> {
  const rows: string[][] = [];
  for await (const rec of readCsv(source)) {
    expect(rec.malformed).toBe(false);
    rows.push(rec.fields);
  }
  const [header, ...body] = rows;
  return body.map((fields) => Object.fromEntries(header!.map((name, i) => [name, fields[i]!])));
}

describe('CSV reader on csv-spectrum', () => {
  it('has the cases it expects (the set did not change under us)', () => {
    expect(cases.length).toBe(12);
    for (const name of LEFT_OUT) expect(cases).toContain(name);
  });

  for (const name of cases.filter((c) => !LEFT_OUT.has(c))) {
    it(`reads ${name}`, async () => {
      const csv = new Uint8Array(fs.readFileSync(path.join(root, 'csvs', `${name}.csv`)));
      const expected = JSON.parse(fs.readFileSync(path.join(root, 'json', `${name}.json`), 'utf8')) as unknown;
      expect(await asObjects(whole(csv))).toEqual(expected);
      expect(await asObjects(byteByByte(csv))).toEqual(expected);
    });
  }
});
