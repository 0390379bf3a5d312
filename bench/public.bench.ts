/**
 * The public Test Report Center under load (docs/product.md §7), on PostgreSQL with BENCH_RANGES
 * (1,000,000) ranges, the real app listening on 127.0.0.1 and load from a child process:
 *  - POST /api/v1/public/lookup vs a bare Fastify route, req/s, ratio and p99, with its cache of recent
 *    answers (1,000 serials cycled: a busy day's working set) and with the cache off (every lookup a
 *    database round trip); 80% of serials inside a range, 20% not found (each of those is recorded);
 *  - the lookup at a fixed 1,000 req/s: p50/p99;
 *  - POST /api/v1/public/report-requests: each with its own valid proof-of-work, one serial whose report
 *    is stored already (reuse), one outbox email with the PDF per request: req/s and p99.
 * The rate limits are raised for the run (their counters still run on every request). BENCH_SECONDS (5) a
 * measurement; BENCH_ROUNDS (3) rounds of the bare route and the cached lookup, the median ratio reported.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createChallenge } from 'altcha-lib/v1';
import { eq, sql } from 'drizzle-orm';
import { formatSerial } from '../src/shared/serial';
import { rowsOf } from '../src/server/db/client';
import { powSecrets } from '../src/server/db/schema/index';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { LOOKUP_CACHE } from '../src/server/modules/public/lookup.service';
import { PUBLIC_LIMITS } from '../src/server/modules/public/public-limits';
import { copyOfDatabase, insideOf, missOf, openScratch, rangesOf, seed, startWorld, type World } from './lib/catalogue-fixture';
import { load, ms } from './lib/stats';
import type { FigureRow } from './lib/figures-table';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
};

/** 4 of 5 inside a range, 1 of 5 in the gap after it (as the catalogue bench). */
function sampleSerials(ranges: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const g = Math.floor(Math.random() * ranges);
    return i % 5 === 4 ? missOf(g, i) : insideOf(g, Math.floor(Math.random() * 100));
  });
}

function raiseLimits(): void {
  for (const rule of Object.values(PUBLIC_LIMITS)) rule.max = 1_000_000_000;
}

async function startApp(database: World['database'], cache: boolean): Promise<World> {
  LOOKUP_CACHE.maxEntries = cache ? 20_000 : 0;
  return startWorld(database);
}

async function lookups(
  log: (l: string) => void,
  report: (row: FigureRow) => void,
  w: World,
  noCache: World,
  ranges: number,
  seconds: number,
): Promise<void> {
  const bodies = sampleSerials(ranges, 1000).map((serial) => JSON.stringify({ serial }));
  const lookupUrl = (x: World) => `${x.appUrl}/api/v1/public/lookup`;
  // Warm-up as long as a measurement: a first run pays for JIT compilation and the first database reads
  // (one second of warm-up measured the lookup at 900 µs of CPU per request, warm it is about 190 µs).
  for (const url of [`${w.bareUrl}/bare`, lookupUrl(w), lookupUrl(noCache), `${w.appUrl}/api/v1/bench/noop`]) {
    await load({ url, bodies, seconds, concurrency: 32 });
  }
  // And every serial of the working set asked once, whatever the machine's speed: on a loaded machine the
  // timed warm-up may not reach all 1,000, and "with its cache" would then measure database round trips.
  for (const payload of bodies) {
    await w.app.inject({ method: 'POST', url: '/api/v1/public/lookup', payload, headers: { 'content-type': 'application/json' } });
  }
  // Server CPU per request (this process hosts the apps; PostgreSQL is another process): a figure that
  // holds on a busy machine, where req/s swings with what else runs. Throughput on free cores follows it.
  const measured = async (url: string) => {
    const before = process.cpuUsage();
    const r = await load({ url, bodies, seconds, concurrency: 32 });
    const cpu = process.cpuUsage(before);
    return { ...r, cpuUs: (cpu.user + cpu.system) / Math.max(1, r.requests) };
  };
  // The ratio that the target names, in BENCH_ROUNDS rounds of the bare route and the cached lookup back to
  // back: on two cores the load client shares the machine with the server, and one pair of 5 s runs moved
  // the ratio by several points from run to run (docs/decisions/0028). The round with the median ratio is
  // reported, each round printed.
  const rounds: { bare: Awaited<ReturnType<typeof measured>>; cached: Awaited<ReturnType<typeof measured>> }[] = [];
  for (let i = 0; i < envInt('BENCH_ROUNDS', 3); i++) {
    const round = { bare: await measured(`${w.bareUrl}/bare`), cached: await measured(lookupUrl(w)) };
    rounds.push(round);
    log(
      `  round ${i + 1}: bare ${round.bare.rps.toFixed(0)} req/s, lookup with cache ${round.cached.rps.toFixed(0)} req/s = ${((100 * round.cached.rps) / round.bare.rps).toFixed(0)}% (load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
  }
  rounds.sort((a, b) => a.cached.rps / a.bare.rps - b.cached.rps / b.bare.rps);
  const { bare, cached } = rounds[Math.floor(rounds.length / 2)]!;
  const direct = await measured(lookupUrl(noCache));
  // The app's own pipeline (hooks, zod, envelope) without any lookup: what a cache hit cannot go below.
  const noop = await measured(`${w.appUrl}/api/v1/bench/noop`);
  const pct = (x: number) => `${((100 * x) / bare.rps).toFixed(0)}%`;
  log(`(load average ${os.loadavg()[0]!.toFixed(1)} after the measured runs)`);
  const cpuPct = (x: { cpuUs: number }) => `${((100 * bare.cpuUs) / x.cpuUs).toFixed(0)}%`;
  log(`bare Fastify: ${bare.rps.toFixed(0)} req/s, p99 ${ms(bare.p99)}, server CPU ${bare.cpuUs.toFixed(0)} µs/request`);
  log(
    `public lookup, cache of recent answers (median of ${rounds.length} rounds): ${cached.rps.toFixed(0)} req/s = ${pct(cached.rps)} of bare (target >= 50%), p99 ${ms(cached.p99)}, errors ${cached.errors}; server CPU ${cached.cpuUs.toFixed(0)} µs/request (bare's is ${cpuPct(cached)} of it)`,
  );
  log(
    `public lookup, cache off (database every time): ${direct.rps.toFixed(0)} req/s = ${pct(direct.rps)} of bare, p99 ${ms(direct.p99)}, errors ${direct.errors}; server CPU ${direct.cpuUs.toFixed(0)} µs/request (bare's is ${cpuPct(direct)} of it; PostgreSQL's own CPU not included)`,
  );
  log(
    `the app's pipeline alone (catalogue bench's no-op route): ${noop.rps.toFixed(0)} req/s = ${pct(noop.rps)} of bare, server CPU ${noop.cpuUs.toFixed(0)} µs/request (bare's is ${cpuPct(noop)} of it)`,
  );
  const steady = await load({ url: lookupUrl(w), bodies, seconds, rate: 1000 });
  log(
    `public lookup at 1,000 req/s (cache on): p50 ${ms(steady.p50)}, p99 ${ms(steady.p99)} (target < 20 ms), achieved ${steady.rps.toFixed(0)} req/s, errors ${steady.errors}`,
  );
  const steadyDirect = await load({ url: lookupUrl(noCache), bodies, seconds, rate: 1000 });
  log(
    `public lookup at 1,000 req/s (cache off): p50 ${ms(steadyDirect.p50)}, p99 ${ms(steadyDirect.p99)}, achieved ${steadyDirect.rps.toFixed(0)} req/s, errors ${steadyDirect.errors}`,
  );
  // The identification link's linkset (docs/decisions/0061), built from the same cached answers.
  const linksets = sampleSerials(ranges, 1000).map((serial) => `/id/${serial}?linkType=linkset`);
  await load({ url: w.appUrl, bodies: linksets, seconds, concurrency: 32, get: true });
  const linksetCpu = await (async () => {
    const before = process.cpuUsage();
    const r = await load({ url: w.appUrl, bodies: linksets, seconds, concurrency: 32, get: true });
    const cpu = process.cpuUsage(before);
    return { ...r, cpuUs: (cpu.user + cpu.system) / Math.max(1, r.requests) };
  })();
  const linksetSteady = await load({ url: w.appUrl, bodies: linksets, seconds, rate: 1000, get: true });
  log(
    `linkset /id/<serial>?linkType=linkset: server CPU ${linksetCpu.cpuUs.toFixed(0)} µs/request (target < 5 ms), ${linksetCpu.rps.toFixed(0)} req/s, errors ${linksetCpu.errors}; at 1,000 req/s p50 ${ms(linksetSteady.p50)}, p99 ${ms(linksetSteady.p99)} (target < 20 ms), errors ${linksetSteady.errors}`,
  );
  const count = ranges.toLocaleString('en');
  report({
    what: `identification link's linkset \`/id/<serial>?linkType=linkset\`, ${count} ranges, PostgreSQL`,
    figure: `server CPU ${(linksetCpu.cpuUs / 1000).toFixed(2)} ms a request (${linksetCpu.rps.toFixed(0)} req/s); at a fixed 1,000 req/s p50 ${ms(linksetSteady.p50)}, **p99 ${ms(linksetSteady.p99)}**`,
    target: `< 5 ms server time, p99 < 20 ms — ${linksetCpu.cpuUs < 5000 && linksetSteady.p99 < 20 && linksetCpu.errors + linksetSteady.errors === 0 ? 'met' : '**not met**'}`,
  });
  const ratio = cached.rps / bare.rps;
  report({
    what: `public lookup with its cache, ${count} ranges, PostgreSQL`,
    figure: `${cached.rps.toFixed(0)} req/s (rounds ${rounds.map((r) => `${((100 * r.cached.rps) / r.bare.rps).toFixed(0)}`).join(' / ')} % of bare); server CPU ${cached.cpuUs.toFixed(0)} µs a request (bare ${bare.cpuUs.toFixed(0)} µs); cache off ${pct(direct.rps)} of bare; the app's no-op route ${pct(noop.rps)}`,
    target: `≥ 50 % of a bare Fastify route — ${ratio >= 0.5 ? 'met' : '**not met**'}`,
    peer: `bare Fastify route, same run: ${bare.rps.toFixed(0)} req/s → **${(100 * ratio).toFixed(0)} %**`,
  });
  report({
    what: `public lookup at a fixed 1,000 req/s, ${count} ranges, PostgreSQL`,
    figure: `cache on: p50 ${ms(steady.p50)}, **p99 ${ms(steady.p99)}**; cache off: p99 ${ms(steadyDirect.p99)}`,
    target: `p99 < 20 ms — ${steady.p99 < 20 ? 'met' : '**not met**'}`,
  });
}

/** Test records for `serials` through the bench API (an admin makes the bench key). */
async function testData(w: World, serials: string[]): Promise<void> {
  const inserted = await w.database.db.execute(sql`INSERT INTO users (name, email, password_hash, role)
    VALUES ('Bench admin', ${`bench-admin-${process.pid}-${Date.now()}@example.com`}, 'x', 'admin') RETURNING id`);
  const cookie = `${SESSION_COOKIE}=${await createSession(w.database.db, rowsOf<{ id: string }>(inserted)[0]!.id)}`;
  const made = await w.app.inject({
    method: 'POST',
    url: '/api/v1/machines',
    headers: { cookie },
    payload: { name: `Bench ${Date.now()}` },
  });
  if (made.statusCode !== 201) throw new Error(`machine: ${made.body}`);
  const key = made.json().data.key as string;
  const records = serials.flatMap((serial, i) =>
    (['shell', 'seat'] as const).map((testType) => ({
      recordId: `pub-${i}-${testType}-${Date.now()}`,
      serial,
      testType,
      medium: 'water',
      testPressure: 2.4,
      holdingSeconds: 60,
      result: 'pass',
      testedAt: '2024-05-01T08:30:00.000Z',
      operator: 'Chen',
      // 2.4 MPa from 3.5 s to 69.65 s: the 60 s hold is met by the samples too, as the report requires.
      samples: Array.from({ length: 200 }, (_, k) => ({ t: k * 0.35, p: k < 10 ? k * 0.24 : 2.4 })),
    })),
  );
  const res = await w.app.inject({
    method: 'POST',
    url: '/api/v1/machine-data',
    headers: { authorization: `Bearer ${key}` },
    payload: { records },
  });
  if (res.statusCode >= 300) throw new Error(`records: ${res.statusCode} ${res.body.slice(0, 300)}`);
}

async function reportRequests(log: (l: string) => void, report: (row: FigureRow) => void, w: World, seconds: number): Promise<void> {
  // 50 units only the bench tests, of a product that names no test standard: the bench's own verdict stands
  // and every report is issued (a product with a standard judges the records against it and may hold the
  // report; the generated catalogue's units, or a copied database's, may have tests of their own).
  await w.database.db.execute(sql`INSERT INTO products (name, fluid, pressure_fc, temperature_max, temperature_min, test_standard)
    VALUES ('Report Bench Valve', 'water', 1.6, 120, -10, '')`);
  await w.database.db.execute(sql`INSERT INTO serial_ranges (product_id, prefix, width, start_no, end_no, production_date)
    SELECT p.id, 'RB-', 6, g, g, date '2024-01-01' FROM products p, generate_series(1, 50) g WHERE p.name = 'Report Bench Valve'`);
  // The bench's records name no instrument: its units are not held for one, and their ranges are released as
  // the migration released the ranges of the time before inspectors (0034_inspector_release.sql).
  await w.database.db.execute(sql`UPDATE settings SET require_calibrated_instruments = false, revision = revision + 1`);
  await w.database.db.execute(
    sql`INSERT INTO range_releases (range_id, source) SELECT id, 'settings' FROM serial_ranges WHERE prefix = 'RB-'`,
  );
  const unjudged = rowsOf<{ prefix: string; width: number; start: string }>(
    await w.database.db.execute(
      sql`SELECT prefix, width, start_no::text AS start FROM serial_ranges WHERE prefix = 'RB-' ORDER BY start_no`,
    ),
  );
  const serials = unjudged.map((r) => formatSerial({ prefix: r.prefix, width: r.width, number: BigInt(r.start) }));
  if (serials.length !== 50) throw new Error(`the bench's own units: ${serials.length} of 50`);
  await testData(w, serials);
  // The proof-of-work is the visitor's cost, not the server's: challenges are made here with a known
  // answer, signed with the server's key, so that each request carries a valid, unused one.
  const first = await w.app.inject({ url: '/api/v1/public/challenge' });
  if (first.statusCode !== 200) throw new Error(first.body);
  const [secret] = await w.database.db.select().from(powSecrets).where(eq(powSecrets.name, 'altcha-hmac-key'));
  const n = envInt('BENCH_REQUESTS', 4000);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const c = await createChallenge({
      hmacKey: secret!.value,
      number: i % 1000,
      maxnumber: 50_000,
      expires: new Date(Date.now() + 10 * 60_000),
    });
    const challenge = Buffer.from(
      JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: i % 1000, salt: c.salt, signature: c.signature }),
    ).toString('base64');
    lines.push(
      JSON.stringify({
        serial: serials[i % serials.length],
        email: `visitor-${i}@example.com`,
        agreeToTerms: true,
        language: i % 2 ? 'zh' : 'en',
        challenge,
      }),
    );
  }
  // Every report issued once before measuring: a request then reuses the stored report, as a popular
  // unit's requests do (the PDF's own cost is measured by the reports bench).
  const warm = performance.now();
  for (let i = 0; i < 100; i++) {
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/v1/public/report-requests',
      payload: lines[i]!,
      headers: { 'content-type': 'application/json' },
    });
    if (res.statusCode !== 200 || res.json().data.results[0].outcome !== 'issued')
      throw new Error(`warm-up: ${res.statusCode} ${res.body.slice(0, 300)}`);
  }
  const firstIssue = (performance.now() - warm) / 100;
  log(`report requests, first 100 (each report issued once: PDF, signature, stored): ${firstIssue.toFixed(1)} ms each, sequential`);
  const file = path.join(os.tmpdir(), `trc-bench-requests-${process.pid}.txt`);
  fs.writeFileSync(file, lines.slice(100).join('\n'));
  try {
    const before = process.cpuUsage();
    const r = await load({ url: `${w.appUrl}/api/v1/public/report-requests`, bodies: [], bodiesFile: file, seconds, concurrency: 16 });
    const cpu = process.cpuUsage(before);
    const sent = r.requests - r.errors;
    log(
      `report requests under load (16 in flight, stored report reused, one outbox email with the PDF each): ${r.rps.toFixed(0)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, ${sent} accepted, errors ${r.errors}, server CPU ${((cpu.user + cpu.system) / 1000 / Math.max(1, r.requests)).toFixed(1)} ms/request${r.requests >= n - 100 ? ' (ran out of prepared challenges: raise BENCH_REQUESTS)' : ''}`,
    );
    report({
      what: 'report requests under load (16 in flight, stored report reused, one email each)',
      figure: `${r.rps.toFixed(0)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, ${((cpu.user + cpu.system) / 1000 / Math.max(1, r.requests)).toFixed(1)} ms of server CPU each; a report's first issue ${firstIssue.toFixed(0)} ms`,
    });
  } finally {
    fs.rmSync(file, { force: true });
  }
  const [outbox] = rowsOf<{ n: string; kb: string }>(
    await w.database.db.execute(
      sql`SELECT count(*)::text AS n, (avg(pg_column_size(attachments)) / 1024)::int::text AS kb FROM mail_outbox`,
    ),
  );
  log(`outbox: ${outbox!.n} emails queued, ${outbox!.kb} KB of attachment each on average`);
}

export default async function publicBench(
  log: (line: string) => void,
  _args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  // A database with ranges of its own to look up in, copied first: `trc_decade` for the lookup at ten years.
  const template = process.env.BENCH_PUBLIC_TEMPLATE;
  let ranges = envInt('BENCH_RANGES', 1_000_000);
  const seconds = envInt('BENCH_SECONDS', 5);
  log(
    `${os.cpus().length} CPUs, Node ${process.version}; PostgreSQL, ${ranges.toLocaleString('en')} ranges; load average ${os.loadavg()[0]!.toFixed(1)} at the start`,
  );
  let scratch: Awaited<ReturnType<typeof openScratch>>;
  try {
    scratch = template ? await copyOfDatabase(template, log) : await openScratch('postgres');
  } catch (err) {
    log(`skipped: ${(err as Error).message}`);
    return;
  }
  raiseLimits();
  const tell = template ? (row: FigureRow) => report({ ...row, what: `${row.what}, in a copy of ${template}` }) : report;
  let cached: World | undefined;
  let direct: World | undefined;
  try {
    if (template) ranges = await rangesOf(scratch.database, log);
    else await seed(scratch.database, ranges, log);
    cached = await startApp(scratch.database, true);
    direct = await startApp(scratch.database, false);
    await lookups(log, tell, cached, direct, ranges, seconds);
    await direct.close();
    direct = undefined;
    await reportRequests(log, tell, cached, seconds);
  } finally {
    await direct?.close();
    await cached?.close();
    await scratch.drop();
  }
}
