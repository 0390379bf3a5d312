/** The figures table of docs/benchmarks.md as a bench run rewrites it (`npm run bench -- <name> --markdown`). */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cellsOf, FIGURES_HEADER, rewriteFiguresTable } from '../bench/lib/figures-table';

const run = { date: '2026-12-02', load: '1.4', machine: '2 cores, 8 GiB' };
const doc = [
  '# Benchmarks',
  '',
  '| bench | what | figure | target | peer and ratio | date | load | machine |',
  '|---|---|---|---|---|---|---|---|',
  '| public | lookup | 100 req/s | ≥ 50 % | bare 200 req/s | 2026-11-01 | — | 2 cores |',
  '| mail-outbox | old A | 1 msg/s | — | — | 2026-11-01 | — | 2 cores |',
  '| startup | memory | 186 MB | ≤ 200 MB | — | 2026-11-01 | 0.9 | 2 cores |',
  '| mail-outbox | old B | 2 msg/s | — | — | 2026-11-01 | — | 2 cores |',
  '',
  '## The benches',
  '',
  '| other | table |',
  '|---|---|',
  '| mail-outbox | untouched |',
  '',
].join('\n');

const rowsOf = (md: string) =>
  md
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| bench |') && !l.startsWith('| other'))
    .map(cellsOf);

describe('the figures table rewritten from a run', () => {
  it("replaces the bench's rows where the first of them was, keeping every other row and the rest of the page", () => {
    const out = rewriteFiguresTable(
      doc,
      'mail-outbox',
      [{ what: 'mail outbox', figure: 'pooled 245 msg/s', peer: 'unpooled 57 msg/s → **4.3×**' }],
      run,
    );
    expect(rowsOf(out).map((r) => `${r[0]}:${r[1]}`)).toEqual([
      'public:lookup',
      'mail-outbox:mail outbox',
      'startup:memory',
      'mail-outbox:untouched',
    ]);
    expect(out).toContain(
      '| mail-outbox | mail outbox | pooled 245 msg/s | — | unpooled 57 msg/s → **4.3×** | 2026-12-02 | 1.4 | 2 cores, 8 GiB |',
    );
    expect(out.split('## The benches')[1]).toBe(doc.split('## The benches')[1]);
    expect(out.split('| bench |')[0]).toBe(doc.split('| bench |')[0]);
  });

  it('adds the rows of a bench that had none at the end of the table, and writes several rows in their order', () => {
    const out = rewriteFiguresTable(
      doc,
      'labels',
      [
        { what: 'one', figure: '1 s' },
        { what: 'two', figure: '2 s', target: '< 5 s' },
      ],
      run,
    );
    const rows = rowsOf(out).map((r) => r.slice(0, 4).join(':'));
    expect(rows.slice(4, 6)).toEqual(['labels:one:1 s:—', 'labels:two:2 s:< 5 s']);
    expect(out.indexOf('| labels | two')).toBeLessThan(out.indexOf('## The benches'));
  });

  it('keeps a | or a line break inside a figure within its cell', () => {
    const out = rewriteFiguresTable(doc, 'startup', [{ what: 'a | b', figure: 'first\nsecond' }], run);
    const row = rowsOf(out).find((r) => r[0] === 'startup')!;
    expect(row).toHaveLength(FIGURES_HEADER.length);
    expect(row.slice(1, 3)).toEqual(['a \\| b', 'first second']);
  });

  it('is idempotent for the same run, and drops the rows of a bench that reports none', () => {
    const rows = [{ what: 'mail outbox', figure: '245 msg/s' }];
    const once = rewriteFiguresTable(doc, 'mail-outbox', rows, run);
    expect(rewriteFiguresTable(once, 'mail-outbox', rows, run)).toBe(once);
    expect(rowsOf(rewriteFiguresTable(doc, 'mail-outbox', [], run)).filter((r) => r[0] === 'mail-outbox')).toHaveLength(1);
  });

  it('refuses a page without the table rather than writing over it', () => {
    expect(() => rewriteFiguresTable('# Benchmarks\n\nno table\n', 'startup', [], run)).toThrow(/expected one table/);
  });

  it('finds the one table in docs/benchmarks.md, every row with a bench, load and machine', () => {
    const md = fs.readFileSync(new URL('../docs/benchmarks.md', import.meta.url), 'utf8');
    const benches = new Set(fs.readdirSync(new URL('../bench/', import.meta.url)).map((f) => f.replace(/\.bench\.ts$/, '')));
    const rows = md
      .split('\n')
      .filter((l) => l.startsWith('| ') && cellsOf(l).length === FIGURES_HEADER.length && !l.startsWith('| bench |'))
      .map(cellsOf);
    expect(rows.length).toBeGreaterThan(20);
    for (const r of rows) expect(benches.has(r[0]!), r[0]).toBe(true);
    const same = rewriteFiguresTable(md, 'no-such-bench', [], run);
    expect(same).toBe(md);
  });
});
