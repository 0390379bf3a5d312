/**
 * The Machine Data list over BENCH_LIST_RECORDS (1,000,000) test records on PostgreSQL (docs/product.md §7: first page
 * with each filter under 50 ms server time). Records are seeded in SQL with generate_series over two benches,
 * 1,000 ranges of 10 products (90% matched), 2% fails; then VACUUM ANALYZE. Each figure is the median of 5
 * requests through the real app (app.inject: routing, hooks, validation, serialisation; no network).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { lastReceivedAt } from '../src/server/modules/machine-data/machine-data.service';
import { createUser } from '../test/helpers/factories';
import { openScratch } from './lib/catalogue-fixture';
import { percentile } from './lib/stats';
import type { FigureRow } from './lib/figures-table';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
};

export default async function machineDataList(
  log: (l: string) => void,
  _args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  const n = envInt('BENCH_LIST_RECORDS', 1_000_000);
  const scratch = await openScratch('postgres');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database: scratch.database, logger: false });
  try {
    const db = scratch.database.db;
    const started = performance.now();
    await db.execute(sql`INSERT INTO products (name, fluid, pressure_fc, temperature_max, temperature_min)
      SELECT 'List Valve ' || g, 'water', 1.6, 120, -10 FROM generate_series(0, 9) g`);
    // Range g covers LB-g*1000 .. LB-g*1000+899: numbers ending 900..999 of each thousand stay unmatched.
    await db.execute(sql`INSERT INTO serial_ranges (product_id, prefix, width, start_no, end_no, production_date)
      SELECT p.id, 'LB-', 9, g::bigint * 1000, g::bigint * 1000 + 899, date '2024-01-01'
      FROM generate_series(0, 999) g JOIN (SELECT id, row_number() OVER (ORDER BY name) - 1 AS rn FROM products) p ON p.rn = g % 10`);
    await db.execute(sql`INSERT INTO machines (name, key_prefix, key_hash)
      SELECT 'List Bench ' || g, 'trc_live_xxxx', sha256(g::text::bytea) FROM generate_series(1, 2) g`);
    const chunk = 250_000;
    for (let from = 0; from < n; from += chunk) {
      const to = Math.min(n, from + chunk) - 1;
      await db.execute(sql`INSERT INTO test_records (machine_id, record_id, serial, prefix, width, serial_no, test_type, medium,
          test_pressure, holding_seconds, result, tested_at, operator, sample_count, content_hash, received_at, range_id, product_id)
        SELECT m.id, 'R' || g, 'LB-' || lpad((g % 1000000)::text, 9, '0'), 'LB-', 9, g % 1000000,
          (ARRAY['shell','seat','backseat','air-seat','functional'])[1 + g % 5], 'water', 2.4, 60,
          CASE WHEN g % 50 = 0 THEN 'fail' ELSE 'pass' END, timestamptz '2025-01-01' + g * interval '10 s', 'Chen', 0,
          sha256(g::text::bytea), timestamptz '2025-01-01' + g * interval '10 s', h.id, h.product_id
        FROM generate_series(${from}::int, ${to}::int) g
        JOIN (SELECT id, row_number() OVER (ORDER BY name) - 1 AS rn FROM machines) m ON m.rn = g % 2
        LEFT JOIN serial_ranges h ON h.prefix = 'LB-' AND h.width = 9 AND h.start_no = (g % 1000000) / 1000 * 1000
          AND (g % 1000000) % 1000 < 900`);
    }
    await db.execute(sql`VACUUM ANALYZE`);
    log(`seeded ${n.toLocaleString('en')} records in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const admin = await createUser(db, { role: 'admin' });
    const cookie = `${SESSION_COOKIE}=${await createSession(db, admin.id)}`;
    const ids = (await db.execute(
      sql`SELECT (SELECT id FROM products ORDER BY name LIMIT 1) AS product, (SELECT id FROM machines ORDER BY name LIMIT 1) AS machine`,
    )) as unknown as { rows: { product: string; machine: string }[] };
    const { product, machine } = ids.rows[0]!;
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
    const cases: [string, string][] = [
      ['', 'no filter, newest first'],
      ['sort=receivedAt&order=desc', 'by received-at'],
      ['sort=serial', 'by serial'],
      ['serial=lb-000123456', 'one serial (normalised)'],
      ['q=LB-', 'a series prefix'],
      [`productId=${product}`, 'one product (10% of records)'],
      ['matched=true', 'matched'],
      ['matched=false', 'unmatched (10%)'],
      ['result=fail', 'fails (2%)'],
      ['result=pass', 'passes'],
      ['testType=seat', 'one test type (20%)'],
      [`machineId=${machine}`, 'one bench (50%)'],
      ['testedFrom=2025-02-01&testedTo=2025-02-07', 'a week of tests'],
      [`productId=${product}&result=fail&testedFrom=2025-01-15`, 'product + fail + from'],
      [`productId=${product}&result=fail&testedFrom=2025-02-01&testedTo=2025-03-31`, 'product + fail + date range'],
      ['testType=seat&result=fail', 'seat + fail'],
      [`machineId=${machine}&result=fail`, 'bench + fail'],
      ['verdict=nonconforming', 'nonconforming'],
      ['verdict=disagreement', 'disagreements'],
      ['sort=testType', 'by test type'],
      ['sort=result&order=desc', 'by result'],
      ['sort=recordId', 'by record id'],
      ['sort=testPressure', 'by test pressure'],
      ['sort=testType&order=desc', 'by test type desc'],
      ['sort=medium', 'by medium'],
      ['sort=result', 'by result asc (fails first)'],
      ['sort=recordId&order=desc', 'by record id desc'],
      ['sort=testPressure&order=desc', 'by test pressure desc'],
    ];
    // Filter + sort pairs, shown apart in the figures table; the week by record id apart again, as the one
    // that reads and sorts its range instead of walking an index (docs/decisions/0030, 7).
    const pairs: [string, string][] = [
      [`productId=${product}&sort=testType`, 'product, by test type'],
      ['result=fail&sort=recordId', 'fails, by record id'],
      ['testType=seat&sort=testPressure', 'seat, by test pressure'],
      [`machineId=${machine}&sort=result&order=desc`, 'bench, by result'],
      ['verdict=nonconforming&sort=medium', 'nonconforming, by medium'],
    ];
    const weekByRecordId: [string, string] = ['testedFrom=2025-02-01&testedTo=2025-02-07&sort=recordId', 'a week, by record id'];
    const parts: string[] = [];
    let slowest = 0;
    const timeAll = async (list: [string, string][]) => {
      const times: number[] = [];
      for (const [q, label] of list) {
        const t = await median(`/api/v1/machine-data?${q}&pageSize=10`);
        slowest = Math.max(slowest, t);
        parts.push(`${label} ${t.toFixed(1)}`);
        times.push(t);
      }
      return times;
    };
    const single = await timeAll(cases);
    const paired = await timeAll(pairs);
    const [week] = await timeAll([weekByRecordId]);
    log(`first page (10 rows, with total), median ms: ${parts.join('; ')}`);
    log(
      `slowest first page ${slowest.toFixed(1)} ms (target < 50 ms) ${slowest < 50 ? 'met' : 'NOT met'}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    );
    const spread = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)} ms`;
    report({
      what: `Machine Data list, first page at ${n.toLocaleString('en')} records, every filter and every sort both ways`,
      figure: `${spread(single)}; filter + sort pairs ${spread(paired)}; a week sorted by record id ${week!.toFixed(1)} ms`,
      target: `< 50 ms — ${slowest < 50 ? 'met' : '**not met**'}`,
    });
    const s = performance.now();
    await lastReceivedAt(db);
    log(
      `lastReceivedAt: ${(performance.now() - s).toFixed(2)} ms; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    );
  } finally {
    await app.close();
    await scratch.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
