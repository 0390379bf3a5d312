/**
 * Quality analysis (docs/product.md §7: each figure under 200 ms for a year of 1,000,000 records) on PostgreSQL: a
 * scratch database (BENCH_DATABASE_URL, default the local server) seeded in bulk SQL from a deterministic
 * formula (no randomness: the same records every run), then each figure's query run through the real
 * routes, timed as p50/p99 of BENCH_QUALITY_RUNS (10) sequential requests after one warm-up.
 *
 * The summary and the never-retested list read the outcomes kept as records arrive (migration 0012); the
 * seeding's statements pay for keeping them as an ingest would.
 *
 * The year (2025): 20 products, 3 benches; 450,000 units each tested shell then seat (900,000 first
 * attempts); 10 % of attempts fail and are retested an hour later (passing), 1 % fail and are never
 * retested; 10,000 functional tests fill the rest. One record in ten carries 60 pressure samples. And 5,000
 * held report requests over the year, for the held-requests list. The held-units worklist asks the release gate
 * about every unit tested in 30 days and in the year.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { rowsOf, type Database } from '../src/server/db/client';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { encodeSamples } from '../src/server/modules/machine-data/record-codec';
import { createUser } from '../test/helpers/factories';
import { openScratch } from './lib/catalogue-fixture';
import { ms, timeMany } from './lib/stats';
import type { FigureRow } from './lib/figures-table';

/** BENCH_QUALITY_UNITS shrinks the year for a quick check that the bench works (the records scale with it). */
export const QUALITY_UNITS = Number(process.env.BENCH_QUALITY_UNITS) || 450_000;
const FIRST = QUALITY_UNITS * 2;

/** Eight sample curves (rise, hold with a drop of 0.00–0.07 MPa), assigned to records by their number. */
function curves(): Buffer[] {
  return Array.from({ length: 8 }, (_, v) =>
    encodeSamples(Array.from({ length: 60 }, (_, i) => ({ t: i, p: i < 5 ? (i / 5) * 2.4 : 2.4 - (v * 0.01 * (i - 5)) / 55 })))!,
  );
}

/** Seeds the year of records; returns the number stored. */
export async function seedQuality(database: Database, log: (l: string) => void): Promise<number> {
  const db = database.db;
  const started = performance.now();
  await db.execute(sql`INSERT INTO products (name, fluid, pressure_wcb, temperature_max, temperature_min)
    SELECT 'Quality Valve ' || lpad(g::text, 2, '0'), 'water', 1.6, 120, -10 FROM generate_series(0, 19) g`);
  // One range per product: units u with u % 20 = product (series QA-<pp>-, 7 digits).
  await db.execute(sql`INSERT INTO serial_ranges (product_id, prefix, width, start_no, end_no, production_date)
    SELECT id, 'QA' || lpad(rn::text, 2, '0') || '-', 7, 0, 9999999, date '2025-01-01'
      FROM (SELECT id, (row_number() OVER (ORDER BY name))::int - 1 AS rn FROM products) p`);
  await db.execute(sql`INSERT INTO machines (name, key_prefix, key_hash)
    SELECT 'Quality Bench ' || g, 'trc_bench_' || g, sha256(('quality-bench-' || g)::bytea) FROM generate_series(0, 2) g`);
  const c = curves();
  const yearSeconds = 365 * 86_400;
  // Attempt i (< FIRST): unit i / 2, shell or seat; h is a fixed scramble of i deciding its outcome.
  const chunk = 250_000;
  for (let from = 0; from < FIRST; from += chunk) {
    const to = Math.min(FIRST, from + chunk) - 1;
    await db.execute(sql`
      WITH m AS (SELECT array_agg(id ORDER BY name) AS ids FROM machines),
      g AS (SELECT i, (i::bigint * 2654435761) % 1000 AS h, i / 2 AS u FROM generate_series(${from}::int, ${to}::int) i)
      INSERT INTO test_records (machine_id, record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure,
        holding_seconds, leakage_value, leakage_unit, result, tested_at, samples, sample_count, content_hash, range_id, product_id)
      SELECT m.ids[1 + (g.u % 3)], 'Q' || g.i, 'QA' || lpad((g.u % 20)::text, 2, '0') || '-' || lpad((g.u / 20)::text, 7, '0'),
             'QA' || lpad((g.u % 20)::text, 2, '0') || '-', 7, g.u / 20,
             CASE WHEN g.i % 2 = 0 THEN 'shell' ELSE 'seat' END, 'water',
             CASE WHEN g.i % 2 = 0 THEN 2.4 ELSE 1.76 END + ((g.h % 41) - 20) * 0.002,
             60 + (g.h % 7), CASE WHEN g.i % 2 = 1 THEN (g.h % 13) * 0.1 END, CASE WHEN g.i % 2 = 1 THEN 'ml/min' END,
             CASE WHEN g.h < 110 THEN 'fail' ELSE 'pass' END,
             timestamptz '2025-01-01 00:00Z' + (g.i::bigint * ${yearSeconds} / ${FIRST}) * interval '1 second',
             CASE WHEN g.i % 10 = 0 THEN (${sql.raw(`ARRAY[${c.map((b) => `'\\x${b.toString('hex')}'::bytea`).join(',')}]`)})[1 + g.h % 8] END,
             CASE WHEN g.i % 10 = 0 THEN 60 ELSE 0 END,
             sha256(('q' || g.i)::bytea), r.id, r.product_id
        FROM g CROSS JOIN m
        JOIN serial_ranges r ON r.prefix = 'QA' || lpad((g.u % 20)::text, 2, '0') || '-'`);
  }
  // Retests: every failed first attempt with h < 100 (10 %) passes an hour later; 100 <= h < 110 stays failed.
  await db.execute(sql`
    INSERT INTO test_records (machine_id, record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure,
      holding_seconds, leakage_value, leakage_unit, result, tested_at, sample_count, content_hash, range_id, product_id)
    SELECT machine_id, record_id || '-R', serial, prefix, width, serial_no, test_type, medium, test_pressure, holding_seconds,
           leakage_value, leakage_unit, 'pass', tested_at + interval '1 hour', 0, sha256((record_id || '-R')::bytea), range_id, product_id
      FROM test_records WHERE result = 'fail' AND (substring(record_id from 2)::bigint * 2654435761) % 1000 < 100`);
  await db.execute(sql`
    INSERT INTO test_records (machine_id, record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure,
      holding_seconds, result, tested_at, sample_count, content_hash, range_id, product_id)
    SELECT machine_id, 'F' || g, serial, prefix, width, serial_no, 'functional', 'air', 0.6, 30, 'pass',
           tested_at + interval '2 hours', 0, sha256(('F' || g)::bytea), range_id, product_id
      FROM (SELECT row_number() OVER (ORDER BY id) AS g, * FROM test_records WHERE id % 90 = 0) s
     WHERE g <= ${Math.round((QUALITY_UNITS * 1_000_000) / 450_000)} - (SELECT count(*) FROM test_records)`);
  await db.execute(sql`VACUUM ANALYZE test_records`);
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM test_records`));
  log(`seeded ${row!.n.toLocaleString('en')} records in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return row!.n;
}

/**
 * 5,000 held report requests spread over the year (the share the insight bench's 100,000 requests hold), each
 * for a unit of the year: the held-requests list reads the tests of each unit it shows.
 */
async function seedHeldRequests(database: Database): Promise<void> {
  await database.db.execute(sql`
    INSERT INTO search_requests (group_id, source, serial, recipient_email, language, terms_agreed_at, terms_version, status, created_at)
    SELECT gen_random_uuid(), 'request', 'QA' || lpad((g.u % 20)::text, 2, '0') || '-' || lpad((g.u / 20)::text, 7, '0'),
           'visitor' || g.i || '@example.com', 'en', g.at, 1, 'held', g.at
      FROM (SELECT i, (i::bigint * 89) % ${QUALITY_UNITS} AS u,
                   timestamptz '2025-01-01 00:00Z' + (i::bigint * 31536000 / 5000) * interval '1 second' AS at
              FROM generate_series(0, 4999) i) g`);
  await database.db.execute(sql`VACUUM ANALYZE search_requests`);
}

export default async function quality(
  log: (l: string) => void,
  _args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  const runs = Number(process.env.BENCH_QUALITY_RUNS) || 10;
  const scratch = await openScratch('postgres');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database: scratch.database, logger: false });
  try {
    const records = await seedQuality(scratch.database, log);
    await seedHeldRequests(scratch.database);
    const db = scratch.database.db;
    const staff = await createUser(db, { role: 'staff' });
    const cookie = `${SESSION_COOKIE}=${await createSession(db, staff.id)}`;
    const [p] = rowsOf<{ id: string }>(await db.execute(sql`SELECT id FROM products ORDER BY name LIMIT 1`));
    const year = 'from=2025-01-01&to=2025-12-31';
    const month = 'from=2025-12-01&to=2025-12-30';
    const figures: [string, string][] = [
      ['summary (yields by product/bench/type/week, Pareto, retest rate), a year', `/api/v1/quality/summary?${year}&interval=week`],
      ['summary, 30 days by day', `/api/v1/quality/summary?${month}&interval=day`],
      ['failed and never retested, first page and total, a year', `/api/v1/quality/open-failures?${year}`],
      ['failed and never retested, first page and total, 30 days', `/api/v1/quality/open-failures?${month}`],
      ...(['testPressure', 'holdingSeconds', 'leakage', 'pressureDrop'] as const).flatMap((m): [string, string][] => [
        [
          `control chart ${m}, one product × seat, a year`,
          `/api/v1/quality/control-chart?${year}&productId=${p!.id}&testType=seat&measure=${m}`,
        ],
        [
          `control chart ${m}, one product × seat, 30 days`,
          `/api/v1/quality/control-chart?${month}&productId=${p!.id}&testType=seat&measure=${m}`,
        ],
      ]),
      ['held report requests, first page and total, a year', `/api/v1/quality/held-requests?${year}`],
      ['held units, first page and total, 30 days', `/api/v1/held-units?${month}`],
      ['held units, first page and total, a year', `/api/v1/held-units?${year}`],
    ];
    const times = new Map<string, { p50: number; p99: number }>();
    for (const [name, url] of figures) {
      const get = async () => {
        const res = await app.inject({ url, headers: { cookie } });
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      };
      await get();
      const t = await timeMany(runs, get);
      times.set(name, t);
      const target = name.startsWith('control chart') ? '' : ` (target < 200 ms) ${t.p50 < 200 ? 'met' : 'NOT met'}`;
      log(`${name}: p50 ${ms(t.p50)}, p99 ${ms(t.p99)}${target}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
    }
    reportRows(report, records, times);
    await ingestCost(scratch.database, log);
  } finally {
    await app.close();
    await scratch.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The figures table's three rows, from the times above (by their names); each judged by its p50. */
function reportRows(report: (row: FigureRow) => void, records: number, times: Map<string, { p50: number; p99: number }>): void {
  const t = (name: string) => times.get(name)!;
  const met = (...p50s: number[]) => `< 200 ms — ${Math.max(...p50s) < 200 ? 'met' : '**not met**'}`;
  const summary = t('summary (yields by product/bench/type/week, Pareto, retest rate), a year');
  const summaryMonth = t('summary, 30 days by day');
  report({
    what: `quality summary, a year of ${records.toLocaleString('en')} records, PostgreSQL`,
    figure: `p50 ${ms(summary.p50)}, p99 ${ms(summary.p99)}; 30 days ${ms(summaryMonth.p50)}`,
    target: met(summary.p50, summaryMonth.p50),
  });
  const openYear = t('failed and never retested, first page and total, a year');
  const openMonth = t('failed and never retested, first page and total, 30 days');
  report({
    what: 'never-retested list, a year / 30 days',
    figure: `p50 ${ms(openYear.p50)} / ${ms(openMonth.p50)}`,
    target: met(openYear.p50, openMonth.p50),
  });
  const charts = (span: string) =>
    [...times].filter(([name]) => name.startsWith('control chart') && name.endsWith(span)).map(([, x]) => x.p50);
  const [year, month] = [charts('a year'), charts('30 days')];
  const spread = (xs: number[]) => `${ms(Math.min(...xs))}–${ms(Math.max(...xs))}`;
  const held = t('held report requests, first page and total, a year');
  const heldMonth = t('held units, first page and total, 30 days');
  const heldYear = t('held units, first page and total, a year');
  report({
    what: 'held units (the release gate over every unit tested), 30 days / a year',
    figure: `p50 ${ms(heldMonth.p50)} / ${ms(heldYear.p50)}, p99 ${ms(heldMonth.p99)} / ${ms(heldYear.p99)}`,
    target: met(heldMonth.p50, heldYear.p50),
  });
  report({
    what: 'control charts, a year / 30 days; held report requests',
    figure: `${spread(year)} / ${spread(month)}; held requests ${ms(held.p50)}`,
    target: met(...year, ...month, held.p50),
  });
}

/**
 * What keeping the outcomes costs an insert: 5,000-record INSERTs of new units, and of retests of known units
 * (the path that reads their records), with the kept-outcome trigger and without it, median of 3 each.
 */
async function ingestCost(database: Database, log: (l: string) => void): Promise<void> {
  const db = database.db;
  let batch = 0;
  const insert = async (retest: boolean) => {
    batch++;
    const s = performance.now();
    await db.execute(sql`
      INSERT INTO test_records (machine_id, record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure,
        holding_seconds, result, tested_at, sample_count, content_hash)
      SELECT NULL, 'COST-' || ${batch} || '-' || g, 'QC-' || lpad(n::text, 7, '0'), 'QC-', 7, n, 'shell', 'water', 2.4, 60,
             CASE WHEN g % 10 = 0 THEN 'fail' ELSE 'pass' END, timestamptz '2025-06-01 08:00Z' + g * interval '1 second', 0,
             sha256(('cost-' || ${batch} || '-' || g)::bytea)
        FROM generate_series(1, 5000) g, LATERAL (SELECT CASE WHEN ${retest} THEN g ELSE ${batch} * 5000 + g END AS n) x`);
    return performance.now() - s;
  };
  const median = async (retest: boolean) => {
    const t = [await insert(retest), await insert(retest), await insert(retest)].sort((a, b) => a - b);
    return t[1]!;
  };
  await insert(false);
  const withNew = await median(false);
  const withRetest = await median(true);
  await db.execute(sql`ALTER TABLE test_records DISABLE TRIGGER test_records_quality_insert`);
  const withoutNew = await median(false);
  const withoutRetest = await median(true);
  await db.execute(sql`ALTER TABLE test_records ENABLE TRIGGER test_records_quality_insert`);
  const per = (a: number, b: number) => `${(((a - b) / 5000) * 1000).toFixed(1)} µs a record`;
  log(
    `5,000-record INSERT, new units: ${ms(withNew)} with the kept outcomes, ${ms(withoutNew)} without (${per(withNew, withoutNew)}); ` +
      `retests of known units: ${ms(withRetest)} vs ${ms(withoutRetest)} (${per(withRetest, withoutRetest)}); load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
  );
}
