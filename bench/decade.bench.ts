/**
 * Ten years of a 20-bench factory on PostgreSQL (the data generator's `SIZES.decade`: 10,000,000 test records
 * of about 3,800,000 units in 2,000 ranges, 1,000,000 public requests), measured where staff and visitors
 * feel it. The database (BENCH_DECADE_DATABASE_URL, default `trc_decade` on the local server) is made once
 * and kept: the generator writes it through the product's own CSV import services in about half an hour,
 * so a later run measures the same data at once. BENCH_DECADE_SHARE (e.g. 0.01) makes a smaller factory of the
 * same shape in its own database (`trc_decade_<share>`), for a quick check that the bench works.
 *
 * Each figure is the median of BENCH_DECADE_RUNS (5) requests through the real app (app.inject: routing,
 * hooks, validation, serialisation; no network) after one warm-up, with the load average beside it. The
 * Machine Data list's every filter, pair and sort is `BENCH_LIST_DATABASE_URL=<this database> npm run bench --
 * machine-data-list`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase, rowsOf, type Database } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { generateData } from '../src/server/demo/generate';
import { scaledSize, SIZES } from '../src/server/demo/sizes';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { createUser } from '../test/helpers/factories';
import { createEmptyPostgresDatabase } from '../test/helpers/database';
import { archiveOldRecords } from '../src/server/modules/machine-data/record-archive';
import { BENCH_SEED } from './lib/catalogue-fixture';
import type { FigureRow } from './lib/figures-table';
import { percentile } from './lib/stats';

const SHARE = Number(process.env.BENCH_DECADE_SHARE) || 1;
const RUNS = Number(process.env.BENCH_DECADE_RUNS) || 5;
/** The instant the generated decade ends at: fixed, so the same data and the same "last year" every run. */
const NOW = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;

function databaseUrl(): string {
  if (process.env.BENCH_DECADE_DATABASE_URL) return process.env.BENCH_DECADE_DATABASE_URL;
  const name = SHARE === 1 ? 'trc_decade' : `trc_decade_${String(SHARE).replace('.', '_')}`;
  return `postgres://postgres@127.0.0.1:5432/${name}`;
}

async function ensureDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: u.toString() });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
}

const load = () => `load average ${os.loadavg()[0]!.toFixed(1)}`;

/** The decade, generated once into an empty database; returns the records it holds. */
async function seeded(database: Database, log: (l: string) => void): Promise<number> {
  const count = async () => Number(rowsOf<{ n: string }>(await database.db.execute(sql`SELECT count(*) AS n FROM test_records`))[0]!.n);
  const before = await count();
  if (before > 0) {
    log(`the decade is there already: ${before.toLocaleString('en')} records`);
    return before;
  }
  const size = SHARE === 1 ? SIZES.decade : scaledSize(SIZES.decade, SHARE);
  const started = performance.now();
  await generateData(database.db, { size, seed: BENCH_SEED, now: NOW, log: (l) => log(`  ${l}`) });
  await database.db.execute(sql`VACUUM ANALYZE`);
  const n = await count();
  log(`generated ${n.toLocaleString('en')} records in ${((performance.now() - started) / 60_000).toFixed(1)} min; ${load()}`);
  return n;
}

export default async function decade(
  log: (l: string) => void,
  args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  const url = databaseUrl();
  await ensureDatabase(url);
  const database = await openDatabase({ url });
  await migrate(database);
  const records = await seeded(database, log);
  if (args.includes('--seed-only')) return database.close();
  if (args.includes('--archive')) {
    await database.close();
    return archiveBench(url, log, report);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database, logger: false });
  const db = database.db;
  try {
    const staff = await createUser(db, { role: 'staff' });
    const cookie = `${SESSION_COOKIE}=${await createSession(db, staff.id)}`;
    const [some] = rowsOf<{ serial: string; id: string }>(
      await db.execute(
        sql`SELECT serial, id::text FROM test_records WHERE tested_at < ${new Date(NOW - 400 * DAY)} ORDER BY tested_at DESC LIMIT 1`,
      ),
    );
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const year = `from=${day(NOW - 365 * DAY)}&to=${day(NOW - DAY)}`;
    // The quality screens read at most a year (QUALITY_MAX_DAYS): the last one, and the first of the ten.
    const firstYear = `from=${day(NOW - 3650 * DAY)}&to=${day(NOW - 3286 * DAY)}`;
    const figures: [string, string, number][] = [
      ['quality summary, the last year by week', `/api/v1/quality/summary?${year}&interval=week`, 200],
      ['quality summary, the first year by week', `/api/v1/quality/summary?${firstYear}&interval=week`, 200],
      ['failed and never retested, the last year', `/api/v1/quality/open-failures?${year}`, 200],
      ['failed and never retested, the first year', `/api/v1/quality/open-failures?${firstYear}`, 200],
      ["a unit's history", `/api/v1/machine-data/units/${encodeURIComponent(some!.serial)}`, 50],
      ['a record', `/api/v1/machine-data/${some!.id}`, 50],
      ['the dashboard', '/api/v1/dashboard', 50],
      ['Machine Data, first page, newest first', '/api/v1/machine-data?pageSize=25', 50],
      ['Machine Data, first page, fails of the seat test', '/api/v1/machine-data?testType=seat&result=fail&pageSize=25', 50],
    ];
    const rows: string[] = [];
    let missed = 0;
    for (const [what, path, target] of figures) {
      const times: number[] = [];
      for (let i = 0; i <= RUNS; i++) {
        const s = performance.now();
        const res = await app.inject({ url: path, headers: { cookie } });
        if (i > 0) times.push(performance.now() - s);
        if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
      const median = percentile(
        times.sort((a, b) => a - b),
        50,
      );
      if (median >= target) missed++;
      log(`${what}: ${median.toFixed(1)} ms (target < ${target} ms); ${load()}`);
      rows.push(`${what} ${median.toFixed(1)} ms`);
    }
    // What the data costs on disk, and a backup of it.
    const [size] = rowsOf<{ db: string; records: string; indexes: string }>(
      await db.execute(sql`SELECT pg_database_size(current_database())::text AS db,
        pg_total_relation_size('test_records')::text AS records, pg_indexes_size('test_records')::text AS indexes`),
    );
    const gb = (b: string) => (Number(b) / 2 ** 30).toFixed(2);
    const perMillion = (Number(size!.db) / 2 ** 30 / (records / 1_000_000)).toFixed(2);
    log(
      `database ${gb(size!.db)} GiB (test records ${gb(size!.records)} GiB with their samples, of which indexes ${gb(size!.indexes)} GiB): ${perMillion} GiB per million records`,
    );
    let backup = 'not measured (pg_dump not found)';
    try {
      const file = path.join(dataDir, 'decade.dump');
      const s = performance.now();
      execFileSync('pg_dump', ['--format=custom', `--file=${file}`, url], { stdio: 'ignore' });
      backup = `pg_dump --format=custom ${((performance.now() - s) / 1000).toFixed(0)} s, ${(fs.statSync(file).size / 2 ** 30).toFixed(2)} GiB`;
      fs.rmSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    log(`backup: ${backup}; ${load()}`);
    report({
      what: `Ten years of a 20-bench factory (${records.toLocaleString('en')} records), PostgreSQL: staff pages' answers`,
      figure: rows.join('; '),
      target: `quality < 200 ms, the rest < 50 ms — ${missed === 0 ? 'met' : `**${missed} not met**`}`,
    });
    report({
      what: `Ten years (${records.toLocaleString('en')} records): the database on disk, and its backup`,
      figure: `${gb(size!.db)} GiB, ${perMillion} GiB per million records; ${backup}`,
      target: 'printed',
    });
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * `--archive`: the record archive (decision 0072) on a copy of the decade (CREATE DATABASE … TEMPLATE; the decade
 * itself stays as it is): a retention of BENCH_DECADE_RETENTION years (9), and the archive job run for
 * BENCH_DECADE_ARCHIVE_SECONDS (60) from the oldest records, as the server runs it each hour.
 */
async function archiveBench(url: string, log: (l: string) => void, report: (row: FigureRow) => void): Promise<void> {
  const years = Number(process.env.BENCH_DECADE_RETENTION) || 9;
  const seconds = Number(process.env.BENCH_DECADE_ARCHIVE_SECONDS) || 60;
  const server = new URL(url);
  const name = server.pathname.slice(1);
  server.pathname = '/postgres';
  const s0 = performance.now();
  const copy = await createEmptyPostgresDatabase(server.toString(), 'trc_decade_archive', name);
  log(`copied ${name} in ${((performance.now() - s0) / 1000).toFixed(0)} s; ${load()}`);
  const database = await openDatabase({ url: copy.url });
  try {
    await migrate(database);
    await database.db.execute(sql`UPDATE settings SET record_retention_years = ${years}`);
    const started = performance.now();
    const run = await archiveOldRecords(database.db, { now: new Date(NOW), budgetMs: seconds * 1000 });
    const elapsed = (performance.now() - started) / 1000;
    const rate = run.moved / elapsed;
    log(
      `archive, retention ${years} years: ${run.moved.toLocaleString('en')} records moved in ${elapsed.toFixed(1)} s (${Math.round(rate).toLocaleString('en')} records/s${run.more ? ', more left for the next run' : ''}); ${load()}`,
    );
    report({
      what: `The record archive on ten years (a copy of ${name}): retention ${years} years, the job's run of ${seconds} s`,
      figure: `${run.moved.toLocaleString('en')} records moved in ${elapsed.toFixed(1)} s, ${Math.round(rate).toLocaleString('en')} records/s${run.more ? ' (more left for the next hour)' : ''}`,
      target: 'printed',
    });
  } finally {
    await database.close();
    await copy.drop();
  }
}
