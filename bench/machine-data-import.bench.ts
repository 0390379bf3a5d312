/**
 * CSV imports on the bulk (COPY) path, over HTTP into the real server running as its own process (so its
 * peak RSS is its own: VmHWM, reset before each import):
 *  - PostgreSQL: BENCH_MD_PG_ROWS (1,000,000) test records, with `psql \copy` of the same file into a bare
 *    table in the same run for the ratio; BENCH_CATALOGUE_ROWS (100,000) products and serial ranges;
 *  - PGlite (under a DATA_DIR, as `npm start` runs it): BENCH_MD_PGLITE_ROWS (100,000) test records, and
 *    the same products and ranges.
 * The records file is generated from a seed (test/helpers/machine-data-csv.ts); its serials fall in 10,000
 * ranges over 100 products imported first, 9 of 10 of them inside a range.
 * BENCH_BEFORE_ROOT: a checkout of the code before the bulk path (e.g. a git worktree at a06e5db); when set,
 * the products and ranges imports are measured on it too, in the same run, for the before/after.
 * Targets (docs/product.md §7): 1,000,000 records on PostgreSQL under 30 s, at most 3x \copy, peak RSS under 300 MB.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmptyPostgresDatabase } from '../test/helpers/database';
import { MD_RANGES_PER_SERIES, MD_SERIES, writeMachineCsv } from '../test/helpers/machine-data-csv';
import { startServer, uploadFile, type ServerProcess } from '../test/helpers/server-process';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en');
const PRODUCT_HEADER =
  'name,fluid,connection,application,applicationMedium,pressureFc,pressureWcb,pressureSus,temperatureMax,temperatureMin\r\n';
const RANGE_HEADER = 'product,startSerial,endSerial,totalUnits,productionDate\r\n';

async function writeLines(file: string, header: string, rows: number, line: (i: number) => string): Promise<number> {
  const out = fs.createWriteStream(file);
  out.write(header);
  let buf = '';
  for (let i = 0; i < rows; i++) {
    buf += line(i);
    if (buf.length > 1 << 16) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = '';
    }
  }
  out.write(buf);
  await new Promise<void>((r) => out.end(() => r()));
  return fs.statSync(file).size;
}

interface Measured {
  seconds: number;
  peakMb: number;
  baseMb: number;
  size: number;
}

async function importFile(s: ServerProcess, route: string, file: string, rows: number): Promise<Measured> {
  global.gc?.();
  s.resetPeak();
  const baseMb = s.memory().rssMb;
  const started = performance.now();
  const res = await uploadFile(`${s.url}${route}`, s.cookie, file);
  const seconds = (performance.now() - started) / 1000;
  const data = (JSON.parse(res.body) as { data?: { stored: number } }).data;
  if (res.status !== 200 || data?.stored !== rows) throw new Error(`${route}: ${res.status} ${res.body.slice(0, 400)}`);
  return { seconds, peakMb: s.memory().peakMb, baseMb, size: fs.statSync(file).size };
}

const describe = (what: string, rows: number, m: Measured) =>
  `${what}: ${fmt(rows)} rows (${(m.size / 2 ** 20).toFixed(1)} MB) in ${m.seconds.toFixed(1)} s, ${fmt(rows / m.seconds)} rows/s; server RSS ${m.baseMb.toFixed(0)} MB before, peak ${m.peakMb.toFixed(0)} MB`;

/** The catalogue the records match (100 products, 10,000 ranges), then the 100,000-row catalogue imports. */
async function catalogue(log: (l: string) => void, s: ServerProcess, dir: string, rows: number, label = ''): Promise<void> {
  const products = path.join(dir, 'md-products.csv');
  await writeLines(products, PRODUCT_HEADER, 100, (i) => `MD Product ${String(i).padStart(3, '0')},water,,,,1.6,,,120,-10\r\n`);
  await importFile(s, '/api/v1/products/import', products, 100);
  const ranges = path.join(dir, 'md-ranges.csv');
  const total = MD_SERIES * MD_RANGES_PER_SERIES;
  await writeLines(ranges, RANGE_HEADER, total, (g) => {
    const prefix = `MD${String(g % MD_SERIES).padStart(2, '0')}-`;
    const start = Math.floor(g / MD_SERIES) * 2000;
    return `MD Product ${String(g % 100).padStart(3, '0')},${prefix}${String(start).padStart(8, '0')},${prefix}${String(start + 999).padStart(8, '0')},1000,2024-01-01\r\n`;
  });
  await importFile(s, '/api/v1/serial-ranges/import', ranges, total);

  const manyProducts = path.join(dir, 'products.csv');
  await writeLines(
    manyProducts,
    PRODUCT_HEADER,
    rows,
    (i) => `"Bench Valve ${i}, DN${50 + (i % 5) * 25}",${['water', 'steam', 'oil'][i % 3]},Flange,Waterworks,Water,1.6,2.5,,120,-10\r\n`,
  );
  log(describe(`${label}products import`, rows, await importFile(s, '/api/v1/products/import', manyProducts, rows)));
  const manyRanges = path.join(dir, 'ranges.csv');
  await writeLines(
    manyRanges,
    RANGE_HEADER,
    rows,
    (i) =>
      `MD Product ${String(i % 100).padStart(3, '0')},IMP-${String(i * 10).padStart(9, '0')},IMP-${String(i * 10 + 9).padStart(9, '0')},10,2024-01-${String(1 + (i % 28)).padStart(2, '0')}\r\n`,
  );
  log(describe(`${label}serial ranges import`, rows, await importFile(s, '/api/v1/serial-ranges/import', manyRanges, rows)));
}

/** psql \copy of the same file into a bare table of text columns: the floor for loading these bytes. */
function psqlCopy(url: string, file: string): number {
  const create = spawnSync('psql', [
    url,
    '-q',
    '-c',
    'CREATE TABLE bare_md (record_id text, serial text, test_type text, medium text, test_pressure text, holding_seconds text, leakage_value text, leakage_unit text, result text, tested_at text, operator text, machine text)',
  ]);
  if (create.status !== 0) throw new Error(create.stderr.toString());
  const started = performance.now();
  const res = spawnSync('psql', [url, '-q', '-c', `\\copy bare_md FROM '${file}' WITH (FORMAT csv, HEADER true)`]);
  const seconds = (performance.now() - started) / 1000;
  if (res.status !== 0) throw new Error(res.stderr.toString());
  return seconds;
}

async function run(log: (l: string) => void, kind: 'postgres' | 'pglite', records: number, catalogueRows: number): Promise<void> {
  log(`### ${kind}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-md-'));
  let scratch: { url: string; drop(): Promise<void> } | undefined;
  let server: ServerProcess | undefined;
  try {
    if (kind === 'postgres') {
      try {
        scratch = await createEmptyPostgresDatabase(
          process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
          'trc_bench_md',
        );
      } catch (err) {
        log(`skipped: ${(err as Error).message}`);
        return;
      }
    }
    const before = process.env.BENCH_BEFORE_ROOT;
    if (before) {
      const beforeDir = path.join(dir, 'before');
      fs.mkdirSync(beforeDir);
      const beforeDb =
        scratch &&
        (await createEmptyPostgresDatabase(
          process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
          'trc_bench_md',
        ));
      const old = await startServer({ dataDir: beforeDir, databaseUrl: beforeDb?.url, appRoot: before });
      try {
        await catalogue(log, old, beforeDir, catalogueRows, 'BEFORE ');
      } finally {
        await old.stop();
        await beforeDb?.drop();
      }
    }
    server = await startServer({ dataDir: dir, databaseUrl: scratch?.url });
    await catalogue(log, server, dir, catalogueRows);
    const file = path.join(dir, 'records.csv');
    await writeMachineCsv(file, records, 42);
    const m = await importFile(server, '/api/v1/machine-data/import', file, records);
    log(describe('machine data import', records, m));
    if (scratch) {
      const copy = psqlCopy(scratch.url, file);
      log(
        `psql \\copy of the same file into a bare table: ${copy.toFixed(1)} s; import/\\copy = ${(m.seconds / copy).toFixed(1)}x (target <= 3x); targets < 30 s, peak < 300 MB`,
      );
    }
  } finally {
    await server?.stop();
    await scratch?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export default async function machineDataImportBench(log: (line: string) => void): Promise<void> {
  log(
    `${os.cpus().length} CPUs, Node ${process.version}, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  const catalogueRows = envInt('BENCH_CATALOGUE_ROWS', 100_000);
  await run(log, 'postgres', envInt('BENCH_MD_PG_ROWS', 1_000_000), catalogueRows);
  await run(log, 'pglite', envInt('BENCH_MD_PGLITE_ROWS', 100_000), catalogueRows);
}
