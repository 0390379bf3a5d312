/**
 * The Machine Data list over BENCH_LIST_RECORDS (1,000,000) test records on PostgreSQL (docs/product.md §7: first page
 * with every filter, every pair of filters and every sort both ways under 50 ms server time). The records are
 * the data generator's (src/server/demo, seed 7: BENCH_LIST_RANGES ranges, one per 50 records by default, of
 * 200 products, BENCH_LIST_BENCHES benches, three by default), written through the CSV import services; then
 * VACUUM ANALYZE. BENCH_LIST_DATABASE_URL instead lists an existing database as it is (the ten-year factory,
 * generated once). Each figure is the median of 5 requests through the real app (app.inject: routing, hooks,
 * validation, serialisation; no network).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase, rowsOf, type Database } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { TEST_RECORD_SORTS } from '../src/shared/contract/machine-data';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { lastReceivedAt } from '../src/server/modules/machine-data/machine-data.service';
import { generateData } from '../src/server/demo/generate';
import { SIZES } from '../src/server/demo/sizes';
import { createUser } from '../test/helpers/factories';
import { BENCH_SEED, openScratch } from './lib/catalogue-fixture';
import { percentile } from './lib/stats';
import type { FigureRow } from './lib/figures-table';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
};

/** A filter of the list: the field it sets (two of one field are no pair), its query and a label. */
interface ListFilter {
  field: string;
  query: string;
  label: string;
}

async function seeded(log: (l: string) => void, n: number): Promise<{ database: Database; records: number; close: () => Promise<void> }> {
  const url = process.env.BENCH_LIST_DATABASE_URL;
  if (url) {
    const database = await openDatabase({ url });
    await migrate(database);
    const [row] = rowsOf<{ n: string }>(await database.db.execute(sql`SELECT count(*) AS n FROM test_records`));
    log(`listing the database of BENCH_LIST_DATABASE_URL as it is: ${Number(row!.n).toLocaleString('en')} records`);
    return { database, records: Number(row!.n), close: () => database.close() };
  }
  const scratch = await openScratch('postgres');
  const started = performance.now();
  // The data generator's factory (src/server/demo): its products and ranges, its benches, 1–2 % of units
  // failing (most on the seat test) and retested, written through the CSV import services.
  const ranges = envInt('BENCH_LIST_RANGES', Math.max(100, Math.round(n / 50)));
  await generateData(scratch.database.db, {
    size: { ...SIZES.bench, products: 200, ranges, records: n, requests: 1, benches: envInt('BENCH_LIST_BENCHES', 3) },
    seed: BENCH_SEED,
    only: ['catalogue', 'records'],
    now: Date.UTC(2026, 10, 1),
  });
  await scratch.database.db.execute(sql`VACUUM ANALYZE`);
  log(
    `seeded ${n.toLocaleString('en')} records in ${ranges.toLocaleString('en')} ranges with the data generator in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { database: scratch.database, records: n, close: () => scratch.drop() };
}

export default async function machineDataList(
  log: (l: string) => void,
  _args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  const data = await seeded(log, envInt('BENCH_LIST_RECORDS', 1_000_000));
  const n = data.records;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database: data.database, logger: false });
  try {
    const db = data.database.db;
    const admin = await createUser(db, { role: 'admin' });
    const cookie = `${SESSION_COOKIE}=${await createSession(db, admin.id)}`;
    // The product with the most records, a serial of it, the first bench, and the newest test's day.
    const [ids] = rowsOf<{ product: string; serial: string; prefix: string; machine: string; newest: string }>(
      await db.execute(sql`WITH top AS (SELECT product_id FROM test_records WHERE product_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1)
        SELECT top.product_id AS product, r.serial, r.prefix, (SELECT id FROM machines ORDER BY name LIMIT 1) AS machine,
          (SELECT to_char(max(tested_at), 'YYYY-MM-DD') FROM test_records) AS newest
        FROM top JOIN LATERAL (SELECT serial, prefix FROM test_records WHERE product_id = top.product_id LIMIT 1) r ON true`),
    );
    const { product, serial, prefix, machine, newest } = ids!;
    const daysBefore = (days: number) => new Date(Date.parse(`${newest}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
    const median = async (url: string) => {
      const t: number[] = [];
      for (let i = 0; i < 5; i++) {
        const s = performance.now();
        const res = await app.inject({ url, headers: { cookie } });
        t.push(performance.now() - s);
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      return percentile(
        t.sort((a, b) => a - b),
        50,
      );
    };
    const filters: ListFilter[] = [
      { field: 'q', query: `q=${encodeURIComponent(prefix)}`, label: 'a series prefix' },
      { field: 'serial', query: `serial=${encodeURIComponent(serial.toLowerCase())}`, label: 'one serial (normalised)' },
      { field: 'productId', query: `productId=${product}`, label: 'the largest product' },
      { field: 'machineId', query: `machineId=${machine}`, label: 'one bench' },
      { field: 'result', query: 'result=fail', label: 'fails' },
      { field: 'result', query: 'result=pass', label: 'passes' },
      { field: 'verdict', query: 'verdict=nonconforming', label: 'nonconforming' },
      { field: 'verdict', query: 'verdict=disagreement', label: 'disagreements' },
      { field: 'testType', query: 'testType=seat', label: 'seat tests' },
      { field: 'testType', query: 'testType=air-seat', label: 'air-seat tests' },
      { field: 'matched', query: 'matched=true', label: 'matched' },
      { field: 'matched', query: 'matched=false', label: 'unmatched' },
      { field: 'tested', query: `testedFrom=${daysBefore(200)}&testedTo=${daysBefore(194)}`, label: 'a week of tests' },
      { field: 'tested', query: `testedFrom=${daysBefore(30)}`, label: 'the last month' },
    ];
    const sorts = TEST_RECORD_SORTS.flatMap((s) => [
      { query: `sort=${s}&order=asc`, label: `by ${s}` },
      { query: `sort=${s}&order=desc`, label: `by ${s} desc` },
    ]);
    const pairs = filters.flatMap((a, i) =>
      filters
        .slice(i + 1)
        .flatMap((b) => (a.field === b.field ? [] : [{ query: `${a.query}&${b.query}`, label: `${a.label} + ${b.label}` }])),
    );
    const filterSorts = filters.flatMap((f) => sorts.map((s) => ({ query: `${f.query}&${s.query}`, label: `${f.label}, ${s.label}` })));
    const groups = [
      { name: 'no filter, every sort both ways', cases: [{ query: '', label: 'newest first' }, ...sorts] },
      { name: 'every filter', cases: filters },
      { name: `every pair of filters (${pairs.length})`, cases: pairs },
      { name: `every filter with every sort both ways (${filterSorts.length})`, cases: filterSorts },
    ];
    let slowest = 0;
    const figures: string[] = [];
    for (const group of groups) {
      const times: { label: string; ms: number }[] = [];
      for (const c of group.cases) times.push({ label: c.label, ms: await median(`/api/v1/machine-data?${c.query}&pageSize=10`) });
      times.sort((a, b) => b.ms - a.ms);
      const top = times.filter((x, i) => i < 3 || x.ms >= 50).map((x) => `${x.label} ${x.ms.toFixed(1)}`);
      const low = times[times.length - 1]!.ms;
      slowest = Math.max(slowest, times[0]!.ms);
      log(
        `${group.name}: ${low.toFixed(1)}–${times[0]!.ms.toFixed(1)} ms (slowest, and all at 50 ms or more: ${top.join('; ')}); load average ${os.loadavg()[0]!.toFixed(1)}`,
      );
      figures.push(`${group.name} ${low.toFixed(1)}–${times[0]!.ms.toFixed(1)} ms`);
    }
    log(
      `slowest first page ${slowest.toFixed(1)} ms (target < 50 ms) ${slowest < 50 ? 'met' : 'NOT met'}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    );
    report({
      what: `Machine Data list, first page (10 rows and the total) at ${n.toLocaleString('en')} records`,
      figure: figures.join('; '),
      target: `< 50 ms — ${slowest < 50 ? 'met' : '**not met**'}`,
    });
    const s = performance.now();
    await lastReceivedAt(db);
    log(
      `lastReceivedAt: ${(performance.now() - s).toFixed(2)} ms; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    );
  } finally {
    await app.close();
    await data.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
