/**
 * CSV imports on the bulk (COPY) path, over HTTP into the real server running as its own process (so its
 * peak RSS is its own: VmHWM, reset before each import):
 *  - PostgreSQL: BENCH_MD_PG_ROWS (1,000,000) test records, with `psql \copy` of the same file into a bare
 *    table in the same run for the ratio; BENCH_CATALOGUE_ROWS (100,000) products and serial ranges;
 *  - PGlite (under a DATA_DIR, as `npm start` runs it): BENCH_MD_PGLITE_ROWS (100,000) test records, and
 *    the same products and ranges.
 * The records file is generated from a seed (test/helpers/machine-data-csv.ts); its serials fall in 10,000
 * ranges over 100 products imported first, 9 of 10 of them inside a range.
 * BENCH_BEFORE_ROOT: a checkout of older code (e.g. `git archive <commit> | tar -x -C dir`, with node_modules
 * linked); when set, the products and ranges imports and the records import (the same file, PostgreSQL) are
 * measured on it too, in the same run, for the before/after.
 * The server runs with the V8 and malloc settings of `npm start` (scripts/start.mjs, decision 0033) and a
 * request deadline long enough for a slow machine (REQUEST_TIMEOUT_MS, 15 minutes).
 * Beside the import, PostgreSQL prints two floors for the same rows: `psql \copy` of the same CSV file into a
 * bare table of text columns, and `psql \copy` of the rows the import stored (every column it wrote, COPY
 * text) into a table of test_records' definition with all its indexes and constraints but none of its
 * triggers (`LIKE test_records INCLUDING ALL`); the load average is printed beside each figure.
 * BENCH_MD_PG_TEMPLATE: a database to import into as it is, copied first (CREATE DATABASE … TEMPLATE), e.g.
 * `trc_decade` for the import into ten years of records; the floors are then left out (they copy every record).
 * Targets (docs/product.md §7): 1,000,000 records on PostgreSQL under 30 s, at most 3x \copy, peak RSS under 300 MB.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmptyPostgresDatabase } from '../test/helpers/database';
import { writeMachineCsv } from '../test/helpers/machine-data-csv';
import { ADMIN, startServer, uploadFile, type ServerProcess } from '../test/helpers/server-process';
import { createUser } from '../test/helpers/factories';
import { openDatabase } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { PRODUCT_HEADER, RANGE_HEADER, writeLines, writeMdCatalogue } from './lib/md-catalogue';
import type { FigureRow } from './lib/figures-table';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en');
const load = () =>
  `load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`;
/** How `npm start` runs the server (scripts/start.mjs), and a request deadline a slow machine cannot miss. */
const SERVER_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', REQUEST_TIMEOUT_MS: '900000' };
const SERVER_FLAGS = ['--max-semi-space-size=4'];
interface Measured {
  seconds: number;
  load: string;
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
  return { seconds, load: load(), peakMb: s.memory().peakMb, baseMb, size: fs.statSync(file).size };
}

const describe = (what: string, rows: number, m: Measured) =>
  `${what}: ${fmt(rows)} rows (${(m.size / 2 ** 20).toFixed(1)} MB) in ${m.seconds.toFixed(1)} s (${m.load}), ${fmt(rows / m.seconds)} rows/s; server RSS ${m.baseMb.toFixed(0)} MB before, peak ${m.peakMb.toFixed(0)} MB`;

/** The catalogue the records match (100 products, 10,000 ranges), then the 100,000-row catalogue imports. */
async function catalogue(log: (l: string) => void, s: ServerProcess, dir: string, rows: number, label = ''): Promise<void> {
  const md = await writeMdCatalogue(dir);
  await importFile(s, '/api/v1/products/import', md.products, md.productRows);
  await importFile(s, '/api/v1/serial-ranges/import', md.ranges, md.rangeRows);

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

function psql(url: string, command: string): number {
  const started = performance.now();
  const res = spawnSync('psql', [url, '-q', '-v', 'ON_ERROR_STOP=1', '-c', command]);
  if (res.status !== 0) throw new Error(res.stderr.toString());
  return (performance.now() - started) / 1000;
}

/** psql \copy of the same file into a bare table of text columns: the floor for loading these bytes. */
function psqlCopy(url: string, file: string): number {
  psql(
    url,
    'CREATE TABLE bare_md (record_id text, serial text, test_type text, medium text, test_pressure text, holding_seconds text, leakage_value text, leakage_unit text, result text, tested_at text, operator text, machine text)',
  );
  return psql(url, `\\copy bare_md FROM '${file}' WITH (FORMAT csv, HEADER true)`);
}

/** The columns the import writes into test_records (the rest are defaults: id, received_at, outcome). */
const STORED_COLUMNS =
  'machine_id, record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure, holding_seconds, leakage_value, leakage_unit, result, tested_at, operator, samples, sample_count, content_hash, range_id, product_id, held_seconds, verdict, reasons';

/**
 * psql \copy of the rows the import stored (as COPY text) into a table of test_records' definition, its
 * indexes and constraints included, without its triggers: the floor for storing these rows where the lists
 * can find them. The rows are written to a file first (not timed), in the CSV file's order (its record ids end
 * in the row's index, machine-data-csv.ts), which the import no longer keeps in test_records' ids: it inserts
 * each batch in test time order (docs/decisions/0034, fourth change).
 */
function psqlCopyIndexed(url: string, dir: string, order: 'file' | 'tested_at'): number {
  const rowsFile = path.join(dir, `stored-records-${order}.copy`);
  const orderBy = order === 'file' ? `substring(record_id FROM '-([0-9]+)$')::int` : 'tested_at';
  psql(url, `\\copy (SELECT ${STORED_COLUMNS} FROM test_records ORDER BY ${orderBy}) TO '${rowsFile}'`);
  psql(url, 'DROP TABLE IF EXISTS indexed_md');
  psql(url, 'CREATE TABLE indexed_md (LIKE test_records INCLUDING ALL)');
  const seconds = psql(url, `\\copy indexed_md (${STORED_COLUMNS}) FROM '${rowsFile}'`);
  fs.rmSync(rowsFile);
  return seconds;
}

async function run(
  log: (l: string) => void,
  report: (row: FigureRow) => void,
  kind: 'postgres' | 'pglite',
  records: number,
  catalogueRows: number,
): Promise<void> {
  if (kind === 'pglite' && process.env.BENCH_MD_PGLITE_ROWS === '0') return;
  log(`### ${kind}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-md-'));
  let scratch: { url: string; drop(): Promise<void> } | undefined;
  let server: ServerProcess | undefined;
  // A database to import into as it is (a copy of it), e.g. the ten-year factory (`npm run bench -- decade`).
  const template = kind === 'postgres' ? process.env.BENCH_MD_PG_TEMPLATE : undefined;
  try {
    if (kind === 'postgres') {
      try {
        scratch = await createEmptyPostgresDatabase(
          process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
          'trc_bench_md',
          template,
        );
        if (template) {
          log(`into a copy of ${template} (BENCH_MD_PG_TEMPLATE) as it is`);
          // Its accounts are its own: the harness's admin is added to the copy to sign in with.
          const copy = await openDatabase({ url: scratch.url });
          try {
            await migrate(copy);
            await createUser(copy.db, { role: 'admin', email: ADMIN.email, password: ADMIN.password, name: ADMIN.name });
          } finally {
            await copy.close();
          }
        }
      } catch (err) {
        log(`skipped: ${(err as Error).message}`);
        return;
      }
    }
    const before = process.env.BENCH_BEFORE_ROOT;
    let beforeRecords: Measured | undefined;
    if (before) {
      const beforeDir = path.join(dir, 'before');
      fs.mkdirSync(beforeDir);
      const beforeDb =
        scratch &&
        (await createEmptyPostgresDatabase(
          process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
          'trc_bench_md',
        ));
      const old = await startServer({
        dataDir: beforeDir,
        databaseUrl: beforeDb?.url,
        appRoot: before,
        env: SERVER_ENV,
        nodeFlags: SERVER_FLAGS,
      });
      try {
        await catalogue(log, old, beforeDir, catalogueRows, 'BEFORE ');
        if (kind === 'postgres') {
          const file = path.join(beforeDir, 'records.csv');
          await writeMachineCsv(file, records, 42);
          beforeRecords = await importFile(old, '/api/v1/machine-data/import', file, records);
          log(describe('BEFORE machine data import', records, beforeRecords));
          fs.rmSync(file);
        }
      } finally {
        await old.stop();
        await beforeDb?.drop();
      }
    }
    server = await startServer({ dataDir: dir, databaseUrl: scratch?.url, env: SERVER_ENV, nodeFlags: SERVER_FLAGS });
    await catalogue(log, server, dir, catalogueRows);
    const file = path.join(dir, 'records.csv');
    await writeMachineCsv(file, records, 42);
    const m = await importFile(server, '/api/v1/machine-data/import', file, records);
    log(describe('machine data import', records, m));
    const imported = `**${m.seconds.toFixed(1)} s** (${fmt(records / m.seconds)} rows/s); server RSS ${m.baseMb.toFixed(0)} MB before, peak ${m.peakMb.toFixed(0)} MB`;
    // The embedded database has no target of its own: product.md §7 sets them for PostgreSQL.
    if (!scratch) report({ what: `CSV import of ${fmt(records)} test records over HTTP, PGlite`, figure: imported });
    if (scratch && template) {
      // The floors below copy every stored record: on a copy of a full database, they would measure its years.
      const met = (ok: boolean) => (ok ? 'met' : '**not met**');
      log(`targets: import < 30 s: ${m.seconds < 30 ? 'met' : 'NOT met'}; peak RSS < 300 MB: ${m.peakMb < 300 ? 'met' : 'NOT met'}`);
      report({
        what: `CSV import of a further ${fmt(records)} test records over HTTP into ${template}, PostgreSQL`,
        figure: imported,
        target: `< 30 s — ${met(m.seconds < 30)}; peak RSS < 300 MB — ${met(m.peakMb < 300)}`,
      });
    } else if (scratch) {
      const bare = psqlCopy(scratch.url, file);
      const bareLoad = load();
      const indexed = psqlCopyIndexed(scratch.url, dir, 'file');
      const indexedLoad = load();
      const sorted = psqlCopyIndexed(scratch.url, dir, 'tested_at');
      const sortedLoad = load();
      log(
        `psql \\copy of the same CSV file into a bare table: ${bare.toFixed(1)} s (${bareLoad}); import / \\copy = ${(m.seconds / bare).toFixed(1)}x (target <= 3x)`,
      );
      log(
        `psql \\copy of the stored rows into test_records' definition with its indexes and constraints, no triggers: ${indexed.toFixed(1)} s (${indexedLoad}); import / \\copy = ${(m.seconds / indexed).toFixed(1)}x`,
      );
      log(
        `the same \\copy with the rows sorted by test time (the order the import inserts each batch in): ${sorted.toFixed(1)} s (${sortedLoad}); import / \\copy = ${(m.seconds / sorted).toFixed(1)}x`,
      );
      if (beforeRecords) {
        log(
          `BEFORE: import / bare \\copy = ${(beforeRecords.seconds / bare).toFixed(1)}x, / indexed \\copy = ${(beforeRecords.seconds / indexed).toFixed(1)}x; peak RSS ${beforeRecords.peakMb.toFixed(0)} MB (${beforeRecords.load})`,
        );
      }
      log(
        `targets: import < 30 s: ${m.seconds < 30 ? 'met' : 'NOT met'} (${m.seconds.toFixed(1)} s, ${m.load}); <= 3x bare \\copy: ${m.seconds <= 3 * bare ? 'met' : 'NOT met'}; peak RSS < 300 MB: ${m.peakMb < 300 ? 'met' : 'NOT met'} (${m.peakMb.toFixed(0)} MB)`,
      );
      const met = (ok: boolean) => (ok ? 'met' : '**not met**');
      report({
        what: `CSV import of ${fmt(records)} test records over HTTP, PostgreSQL`,
        figure: imported,
        target: `< 30 s and ≤ 3× bare \`\\copy\` — ${met(m.seconds < 30 && m.seconds <= 3 * bare)}; peak RSS < 300 MB — ${met(m.peakMb < 300)}`,
        peer:
          `\`psql \\copy\` of the same file into a bare table ${bare.toFixed(1)} s → **${(m.seconds / bare).toFixed(0)}×**; ` +
          `\`\\copy\` of the stored rows into \`test_records\`' definition with its indexes and constraints, no triggers, ${indexed.toFixed(1)} s → **${(m.seconds / indexed).toFixed(1)}×** ` +
          `(${sorted.toFixed(1)} s with the rows sorted by test time)`,
      });
    }
  } finally {
    await server?.stop();
    await scratch?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export default async function machineDataImportBench(
  log: (line: string) => void,
  _args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  log(
    `${os.cpus().length} CPUs, Node ${process.version}, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  const catalogueRows = envInt('BENCH_CATALOGUE_ROWS', 100_000);
  await run(log, report, 'postgres', envInt('BENCH_MD_PG_ROWS', 1_000_000), catalogueRows);
  await run(log, report, 'pglite', envInt('BENCH_MD_PGLITE_ROWS', 100_000), catalogueRows);
}
