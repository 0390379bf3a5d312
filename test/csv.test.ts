import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLine, isFormulaLike, CsvTooLargeError, readCsv } from '../src/server/lib/csv';

async function read(chunks: (string | Uint8Array)[]) {
  const out = [];
  for await (const r of readCsv(
    (async function* () {
      yield* chunks;
    })(),
  ))
    out.push(r);
  return out;
}

describe('CSV reader', () => {
  it('reads quotes, escaped quotes, separators and line breaks in cells, CRLF and LF', async () => {
    const rows = await read(['a,b,c\r\n"x, y","say ""hi""","two\nlines"\n1,,3\n']);
    expect(rows.map((r) => r.fields)).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'two\nlines'],
      ['1', '', '3'],
    ]);
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3]);
    expect(rows.every((r) => !r.malformed)).toBe(true);
  });

  it('skips a BOM and blank lines, and reads the last line without a line end', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const rows = await read([bom, Buffer.from('名稱,b\n\n'), Buffer.from('閥,2')]);
    expect(rows.map((r) => r.fields)).toEqual([
      ['名稱', 'b'],
      ['閥', '2'],
    ]);
    expect((await read(['\uFEFFa\n'])).map((r) => r.fields)).toEqual([['a']]);
  });

  it('is not confused by chunk boundaries anywhere, even inside a multi-byte character or a "" escape', async () => {
    const text = 'h1,h2\r\n"a""b",中文\r\n"x\r\ny",z\n';
    const whole = await read([text]);
    const bytes = Buffer.from(text);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 6 }), async (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), bytes.length];
        const chunks = points.slice(1).map((end, i) => bytes.subarray(points[i]!, end));
        expect(await read(chunks)).toEqual(whole);
      }),
    );
  });

  it('flags broken quoting instead of failing, and stops at an endless field', async () => {
    const rows = await read(['a,b\n"x"y,2\n"open,3\n']);
    expect(rows[1]).toMatchObject({ row: 2, malformed: true });
    expect(rows[2]).toMatchObject({ malformed: true });
    await expect(read([`"${'x'.repeat(70_000)}`])).rejects.toBeInstanceOf(CsvTooLargeError);
  });

  it('writes what it reads back, and defuses spreadsheet formulas', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(
            fc.string({ unit: 'grapheme' }).filter((s) => !isFormulaLike(s)),
            { minLength: 2, maxLength: 4 },
          ),
          { minLength: 1, maxLength: 5 },
        ),
        async (table) => {
          const rows = await read([table.map(csvLine).join('')]);
          expect(rows.map((r) => r.fields)).toEqual(table.filter((r) => !(r.length === 1 && r[0] === '')));
        },
      ),
    );
    expect(csvLine(['=1+1', '-5', '-1.5', '@x'])).toBe("'=1+1,-5,-1.5,'@x\r\n");
    // Full-width forms, which some spreadsheets fold to = + - @.
    expect(csvLine(['＝1+1', '＋1', '－1', '＠x'])).toBe("'＝1+1,'＋1,'－1,'＠x\r\n");
    // A separator followed by a formula: a spreadsheet splitting on ; or tabs would make it a cell.
    expect(csvLine(['a;=HYPERLINK("x")', 'b,+1', 'c\t@SUM(1)', 'd; -2+3'])).toBe(`"'a;=HYPERLINK(""x"")","'b,+1",'c\t@SUM(1),'d; -2+3\r\n`);
    expect(csvLine(['a-b', 'x@example.com', 'VB2311-000123', 'a, b'])).toBe('a-b,x@example.com,VB2311-000123,"a, b"\r\n');
  });

  it('reads back the very cells it wrote, formula-like ones and quotes before them included', async () => {
    const cell = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc
        .tuple(fc.constantFrom('', "'", "''"), fc.constantFrom('=', '+', '-', '@', '\t', '＝', 'a;=', "'"), fc.string({ maxLength: 6 }))
        .map((p) => p.join('')),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(cell, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 5 }), async (table) => {
        const rows = await read([table.map(csvLine).join('')]);
        expect(rows.map((r) => r.fields)).toEqual(table);
      }),
    );
    expect((await read(["'=Valve,'-Flange,'-5,'plain\r\n"]))[0]!.fields).toEqual(['=Valve', '-Flange', "'-5", "'plain"]);
  });
});
