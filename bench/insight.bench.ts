/**
 * `npm run bench -- insight`: the staff dashboard (each figure under 50 ms) and the quality analysis (each
 * query under 200 ms) at the sizes of docs/product.md §7 on PostgreSQL: 1,000,000 ranges, 1,000,000 test records over
 * a year (2025) and 100,000 search requests, in a scratch database (BENCH_DATABASE_URL, default the local
 * server). Each figure is timed as p50/p99 of BENCH_INSIGHT_RUNS (10) sequential calls after one warm-up;
 * a query slower than 2 s is timed once. Dashboard figures are timed in the server's own functions with
 * "now" at the end of the seeded year (so the 30-day window holds data), and the whole route once more
 * through HTTP inject.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { rowsOf, type Database } from '../src/server/db/client';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { figures } from '../src/server/modules/dashboard/dashboard.service';
import { createUser } from '../test/helpers/factories';
import { openScratch, seed as seedRanges } from './lib/catalogue-fixture';
import { ms, timeMany } from './lib/stats';
import type { FigureRow } from './lib/figures-table';
import { seedQuality } from './quality.bench';

const NOW = new Date('2025-12-31T12:00:00Z');
const RANGES = 1_000_000;

/**
 * The whole fixture: ranges, a year of records, and 100,000 requests (70 % report requests with their mail).
 * Returns the number of records.
 */
async function seedInsight(database: Database, log: (l: string) => void): Promise<number> {
  // The year first: its ranges are numbered over every product, so they must be the only ones then.
  const records = await seedQuality(database, log);
  await seedRanges(database, RANGES, log);
  const db = database.db;
  const started = performance.now();
  // Request i at a fixed point of 2025; i % 10 < 3 a not-found lookup, else a report request whose email went
  // out (sent), failed (i % 50 = 3), was held (i % 20 = 4) or waits (the last 20).
  await db.execute(sql`
    WITH g AS (SELECT i, timestamptz '2025-01-01 00:00Z' + (i::bigint * 31536000 / 100000) * interval '1 second' AS at,
                      CASE WHEN i % 10 < 3 THEN 'lookup' ELSE 'request' END AS source FROM generate_series(0, 99999) i),
    s AS (SELECT g.*, CASE WHEN source = 'lookup' THEN 'not-found' WHEN i >= 99980 THEN 'queued' WHEN i % 50 = 3 THEN 'failed'
                            WHEN i % 20 = 4 THEN 'held' ELSE 'sent' END AS status FROM g),
    mail AS (
      INSERT INTO mail_outbox (kind, recipient, subject, text_body, status, created_at, ref)
      SELECT 'test-report', 'visitor' || i || '@example.com', 'Test report', 'Report', CASE WHEN status = 'sent' THEN 'sent' WHEN status = 'failed' THEN 'failed' ELSE 'queued' END,
             at, jsonb_build_object('i', i)
        FROM s WHERE status IN ('sent', 'failed', 'queued')
      RETURNING id, (ref ->> 'i')::int AS i)
    INSERT INTO search_requests (group_id, source, serial, recipient_email, language, terms_agreed_at, terms_version, status, outbox_id, created_at)
    SELECT gen_random_uuid(), s.source, 'QA01-' || lpad(s.i::text, 7, '0'), CASE WHEN s.source = 'request' THEN 'visitor' || s.i || '@example.com' END,
           'en', CASE WHEN s.source = 'request' THEN s.at END, CASE WHEN s.source = 'request' THEN 1 END, s.status, mail.id, s.at
      FROM s LEFT JOIN mail ON mail.i = s.i`);
  await db.execute(sql`VACUUM ANALYZE search_requests`);
  await db.execute(sql`VACUUM ANALYZE mail_outbox`);
  await db.execute(sql`VACUUM ANALYZE test_units`);
  await db.execute(sql`VACUUM ANALYZE products`);
  log(`seeded 100,000 requests in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return records;
}

interface Timed {
  p50: number;
  p99: number;
  /** timed once (slower than 2 s): p50 and p99 are that one time */
  once: boolean;
}

async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<Timed> {
  const first = performance.now();
  await fn();
  const once = performance.now() - first;
  if (once > 2000) return { p50: once, p99: once, once: true };
  return { ...(await timeMany(runs, fn)), once: false };
}

const shownAs = (t: Timed) => (t.once ? `${ms(t.p50)} (once)` : `p50 ${ms(t.p50)}, p99 ${ms(t.p99)}`);

export default async function insight(
  log: (l: string) => void,
  _args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  const runs = Number(process.env.BENCH_INSIGHT_RUNS) || 10;
  const scratch = await openScratch('postgres');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database: scratch.database, logger: false });
  try {
    const records = await seedInsight(scratch.database, log);
    const db = scratch.database.db;
    const staff = await createUser(db, { role: 'staff' });
    const cookie = `${SESSION_COOKIE}=${await createSession(db, staff.id)}`;
    const get = (url: string) => async () => {
      const res = await app.inject({ url, headers: { cookie } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return res.json() as unknown;
    };

    log('dashboard (server time of each figure):');
    const f = figures(db, { fullPersonalData: false }, NOW);
    const shown: Record<string, unknown> = {};
    const times: Timed[] = [];
    let firstPassTime: Timed | undefined;
    for (const [name, fn] of [
      ['Total Requests Made + requests per day + not-found share (30 days)', f.requests],
      ['Total Count of Products + Serial Numbers (units and ranges)', f.catalogue],
      ['Last test report data received date', f.lastReceivedAt],
      ['Last 5 requests (email, status, time)', f.recentRequests],
      ['Emails queued and failed now', f.mail],
      ['First-pass yield, 30 days', f.firstPass],
    ] as const) {
      const t = await timeIt(runs, async () => (shown[name] = await fn()));
      log(`  ${name}: ${shownAs(t)}`);
      times.push(t);
      if (name === 'First-pass yield, 30 days') firstPassTime = t;
    }
    const req = shown['Total Requests Made + requests per day + not-found share (30 days)'] as {
      total: number;
      windowTotal: number;
      windowNotFound: number;
    };
    log(
      `  (answers: ${req.total} requests, ${req.windowNotFound}/${req.windowTotal} not found in 30 days; catalogue ${JSON.stringify(shown['Total Count of Products + Serial Numbers (units and ranges)'])}; mail ${JSON.stringify(shown['Emails queued and failed now'])}; first pass ${JSON.stringify(shown['First-pass yield, 30 days'])})`,
    );
    const whole = await timeIt(runs, get('/api/v1/dashboard'));
    log(`  whole GET /api/v1/dashboard through HTTP inject: ${shownAs(whole)}`);
    const firstPass = shown['First-pass yield, 30 days'] as { units: number };
    const p50s = times.map((t) => t.p50);
    const p99s = times.map((t) => t.p99);
    const span = (xs: number[]) => `${ms(Math.min(...xs))}–${ms(Math.max(...xs))}`;
    const sizes =
      records === RANGES
        ? `${RANGES.toLocaleString('en')} ranges and records`
        : `${RANGES.toLocaleString('en')} ranges and ${records.toLocaleString('en')} records`;
    report({
      what: `dashboard at ${sizes}, each figure's server time`,
      figure: `p50 ${span(p50s)}, p99 ${span(p99s)} (first-pass yield over 30 days, ${firstPass.units.toLocaleString('en')} units: ${ms(firstPassTime!.p50)} / ${ms(firstPassTime!.p99)}); the whole \`GET /api/v1/dashboard\` p50 ${ms(whole.p50)}, p99 ${ms(whole.p99)}`,
      // Each figure judged by its median, as the other benches judge their targets.
      target: `< 50 ms each — ${Math.max(...p50s) < 50 ? 'met' : '**not met**'}`,
    });

    log('quality analysis (through the routes):');
    const [p] = rowsOf<{ id: string }>(await db.execute(sql`SELECT id FROM products WHERE name = 'Quality Valve 00'`));
    const year = 'from=2025-01-01&to=2025-12-31';
    const month = 'from=2025-12-01&to=2025-12-30';
    const queries: [string, string][] = [
      ['summary, a year by week', `/api/v1/quality/summary?${year}&interval=week`],
      ['summary, 30 days by day', `/api/v1/quality/summary?${month}&interval=day`],
      ['failed and never retested, a year', `/api/v1/quality/open-failures?${year}`],
      ['failed and never retested, 30 days', `/api/v1/quality/open-failures?${month}`],
      ['held requests, a year', `/api/v1/quality/held-requests?${year}`],
      ...(['testPressure', 'holdingSeconds', 'leakage', 'pressureDrop'] as const).flatMap((m): [string, string][] => [
        [`control chart ${m}, a year`, `/api/v1/quality/control-chart?${year}&productId=${p!.id}&testType=seat&measure=${m}`],
        [`control chart ${m}, 30 days`, `/api/v1/quality/control-chart?${month}&productId=${p!.id}&testType=seat&measure=${m}`],
      ]),
    ];
    for (const [name, url] of queries) log(`  ${name}: ${shownAs(await timeIt(runs, get(url)))}`);
  } finally {
    await app.close();
    await scratch.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
