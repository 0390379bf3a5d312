/**
 * `npm run bench`: runs every bench/*.bench.ts (or those named on the command line, e.g.
 * `npm run bench -- startup catalogue`) and prints each figure; flags after the names (`npm run bench -- load
 * --duration 60`) reach each bench as its second argument. A bench default-exports
 * `async (log, args, report) => void`; it prints its own figures and, where a peer exists, the ratio from the
 * same run, and reports the rows it stands for in docs/benchmarks.md through `report`. With `--markdown`,
 * each bench that succeeds and reported rows has them written into that table (bench/lib/figures-table.ts),
 * with the date, the load average as it ended and the machine's size.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rewriteFiguresTable, type FigureRow } from './lib/figures-table';

/** `args`: the command line's flags (`--duration 60`…): everything from the first argument starting with `--`. */
type Bench = (log: (line: string) => void, args: string[], report: (row: FigureRow) => void) => Promise<void>;

const dir = path.dirname(fileURLToPath(import.meta.url));
const FIGURES = path.join(dir, '..', 'docs', 'benchmarks.md');
const argv = process.argv.slice(2);
const firstFlag = argv.findIndex((a) => a.startsWith('--'));
const wanted = firstFlag < 0 ? argv : argv.slice(0, firstFlag);
const markdown = argv.includes('--markdown');
const flags = (firstFlag < 0 ? [] : argv.slice(firstFlag)).filter((a) => a !== '--markdown');
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

const machine = () => `${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`;

let failed = 0;
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, '');
  console.log(`\n## ${name}`);
  const started = performance.now();
  const rows: FigureRow[] = [];
  try {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: Bench };
    await mod.default(
      (line) => console.log(`  ${line}`),
      flags,
      (row) => rows.push(row),
    );
    const load = os.loadavg()[0]!.toFixed(1);
    console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s, load average ${load})`);
    if (markdown && rows.length === 0) console.log(`  (reports no rows for docs/benchmarks.md: the table is left as it was)`);
    if (markdown && rows.length > 0) {
      const run = { date: new Date().toISOString().slice(0, 10), load, machine: machine() };
      fs.writeFileSync(FIGURES, rewriteFiguresTable(fs.readFileSync(FIGURES, 'utf8'), name, rows, run));
      console.log(`  (${rows.length} row${rows.length === 1 ? '' : 's'} written to docs/benchmarks.md)`);
    }
  } catch (err) {
    failed++;
    console.log(`  FAILED: ${(err as Error).stack ?? String(err)}`);
  }
}
process.exit(failed ? 1 : 0);
