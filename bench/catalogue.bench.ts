/**
 * The catalogue at scale (docs/product.md §7): on PostgreSQL with BENCH_RANGES ranges (1,000,000) and on
 * PGlite with BENCH_PGLITE_RANGES (100,000):
 *  - findRangeBySerial p50/p99 (called directly, 80% hits);
 *  - a public-lookup-shaped route (the real app: hooks, zod, error envelope) vs a bare Fastify route, req/s
 *    and the ratio, load from a child process; then the lookup route at a fixed 1,000 req/s for its p99;
 *  - the first list page sorted by every column both ways and with search terms (server time via inject);
 *  - importing BENCH_IMPORT_RANGES (100,000) ranges from a generated CSV over HTTP: time and peak RSS.
 * BENCH_SECONDS (5) per throughput run. Sizes are small-able for a quick run: BENCH_RANGES=100000 etc.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { SERIAL_RANGE_SORTS } from '../src/shared/contract/serials';
import type { Database } from '../src/server/db/client';
import { findRangeBySerial } from '../src/server/modules/serials/serials.service';
import { insideOf, missOf, openScratch, PRODUCTS, searchTerms, seed, startWorld, type World } from './lib/catalogue-fixture';
import { load, ms, percentile, timeMany, withPeakRss } from './lib/stats';
import type { FigureRow } from './lib/figures-table';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
};

/** Serials of random ranges: 4 of 5 inside one, 1 of 5 that no range holds. */
function sampleSerials(ranges: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const g = Math.floor(Math.random() * ranges);
    return i % 5 === 4 ? missOf(g, i) : insideOf(g, Math.floor(Math.random() * 100));
  });
}

interface Lookups {
  direct: { p50: number; p99: number };
  /** the lookup-shaped route's throughput, req/s */
  routeRps: number;
}

export async function lookups(log: (l: string) => void, w: World, ranges: number, seconds: number): Promise<Lookups> {
  const serials = sampleSerials(ranges, 2000);
  for (const s of serials.slice(0, 200)) await findRangeBySerial(w.database.db, s); // warm-up
  const direct = await timeMany(serials.length, (i) => findRangeBySerial(w.database.db, serials[i]!));
  log(`findRangeBySerial: p50 ${ms(direct.p50)}, p99 ${ms(direct.p99)} (${serials.length} calls, 80% hits)`);

  const bodies = serials.slice(0, 1000).map((serial) => JSON.stringify({ serial }));
  await load({ url: `${w.bareUrl}/bare`, bodies, seconds: 1, concurrency: 32 }); // warm both up
  await load({ url: `${w.appUrl}/api/v1/bench/lookup`, bodies, seconds: 1, concurrency: 32 });
  const bare = await load({ url: `${w.bareUrl}/bare`, bodies, seconds, concurrency: 32 });
  const route = await load({ url: `${w.appUrl}/api/v1/bench/lookup`, bodies, seconds, concurrency: 32 });
  const noop = await load({ url: `${w.appUrl}/api/v1/bench/noop`, bodies, seconds, concurrency: 32 });
  log(
    `lookup route ${route.rps.toFixed(0)} req/s vs bare Fastify ${bare.rps.toFixed(0)} req/s: ratio ${((100 * route.rps) / bare.rps).toFixed(0)}% (target >= 40%); errors ${route.errors + bare.errors}`,
  );
  log(
    `  the app's pipeline without the lookup (same hooks, no database): ${noop.rps.toFixed(0)} req/s, ${((100 * noop.rps) / bare.rps).toFixed(0)}% of bare`,
  );
  const steady = await load({ url: `${w.appUrl}/api/v1/bench/lookup`, bodies, seconds, rate: 1000 });
  log(
    `lookup route at 1,000 req/s: p50 ${ms(steady.p50)}, p99 ${ms(steady.p99)} (target p99 < 20 ms), achieved ${steady.rps.toFixed(0)} req/s, errors ${steady.errors}`,
  );
  return { direct, routeRps: route.rps };
}

/** Medians in ms: the first page per sort column (asc and desc), and each search in the order listed. */
interface ListPages {
  sorts: number[];
  searches: number[];
  prefixRanges: number;
}

export async function listPages(log: (l: string) => void, w: World, ranges: number): Promise<ListPages> {
  const median = async (url: string) => {
    const t: number[] = [];
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      const res = await w.app.inject({ url, headers: { cookie: w.cookie } });
      t.push(performance.now() - s);
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    return percentile(
      t.sort((a, b) => a - b),
      50,
    );
  };
  const parts: string[] = [];
  const sorts: number[] = [];
  for (const sort of SERIAL_RANGE_SORTS) {
    const asc = await median(`/api/v1/serial-ranges?sort=${sort}&order=asc&pageSize=10`);
    const desc = await median(`/api/v1/serial-ranges?sort=${sort}&order=desc&pageSize=10`);
    parts.push(`${sort} ${asc.toFixed(1)}/${desc.toFixed(1)}`);
    sorts.push(asc, desc);
  }
  log(`list first page (10 rows), median ms asc/desc: ${parts.join(', ')}`);
  const inside = insideOf(Math.floor(ranges / 2), 42);
  const terms = searchTerms();
  const searches: [string, string][] = [
    [`q=${inside}`, 'q = a serial inside a range'],
    [`q=${encodeURIComponent(terms.productName)}`, `q = a product name (about ${Math.round(ranges / PRODUCTS)} ranges a product)`],
    [`q=${encodeURIComponent(terms.prefix)}&sort=productionDate`, `q = a series prefix (${terms.prefixRanges} ranges), by date`],
    [`serial=${inside}`, 'serial = the containing range'],
    [`productId=PRODUCT&sort=totalUnits&order=desc`, 'product filter, by total units'],
    [`page=50&sort=startSerial`, 'page 50 by starting serial'],
  ];
  const [first] = (await w.app.inject({ url: '/api/v1/products?sort=name&pageSize=5', headers: { cookie: w.cookie } })).json().data
    .items as { id: string }[];
  const id = first?.id ?? '';
  const out = [];
  const times: number[] = [];
  for (const [qs, label] of searches) {
    const t = await median(`/api/v1/serial-ranges?${qs.replace('PRODUCT', id)}&pageSize=10`);
    out.push(`${label} ${t.toFixed(1)}`);
    times.push(t);
  }
  log(`list with search/filter, median ms: ${out.join('; ')}`);
  return { sorts, searches: times, prefixRanges: terms.prefixRanges };
}

async function importCsv(log: (l: string) => void, w: World, rows: number): Promise<{ seconds: number; peakMb: number }> {
  const res = await w.app.inject({
    method: 'POST',
    url: '/api/v1/products',
    headers: { cookie: w.cookie },
    payload: { name: 'Bench Import', fluid: 'water', pressureFc: 1, temperatureMax: 100, temperatureMin: 0 },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  const file = path.join(os.tmpdir(), `trc-bench-import-${process.pid}.csv`);
  const out = fs.createWriteStream(file);
  out.write('product,startSerial,endSerial,totalUnits,productionDate\n');
  for (let i = 0; i < rows; i++) {
    const line = `Bench Import,IMP-${String(i * 10).padStart(9, '0')},IMP-${String(i * 10 + 9).padStart(9, '0')},10,2024-01-${String(1 + (i % 28)).padStart(2, '0')}\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  const size = fs.statSync(file).size;
  const boundary = '----trcbench';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ranges.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(`${w.appUrl}/api/v1/serial-ranges/import`);
  const started = performance.now();
  const { result, peakMb, baseMb } = await withPeakRss(
    () =>
      new Promise<string>((resolve, reject) => {
        const req = http.request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: {
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'content-length': head.length + size + tail.length,
              cookie: w.cookie,
              origin: `http://${url.host}`,
            },
          },
          (r) => {
            let body = '';
            r.on('data', (c) => (body += c));
            r.on('end', () => resolve(body));
          },
        );
        req.on('error', reject);
        req.write(head);
        const src = fs.createReadStream(file);
        src.on('end', () => req.end(tail));
        src.pipe(req, { end: false });
      }),
  );
  const seconds = (performance.now() - started) / 1000;
  fs.rmSync(file, { force: true });
  const data = JSON.parse(result).data as { stored: number; errors: unknown[] } | undefined;
  if (!data || data.stored !== rows) throw new Error(`import stored ${data?.stored}: ${result.slice(0, 300)}`);
  log(
    `import ${rows.toLocaleString('en')} ranges (${(size / 2 ** 20).toFixed(1)} MB CSV, over HTTP, one transaction): ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString('en')} rows/s), RSS ${baseMb.toFixed(0)} MB before, peak ${peakMb.toFixed(0)} MB`,
  );
  return { seconds, peakMb };
}

interface Measured {
  lookups: Lookups;
  pages: ListPages;
  imported?: { seconds: number; peakMb: number };
}

async function run(
  log: (l: string) => void,
  kind: 'postgres' | 'pglite',
  ranges: number,
  importRows: number,
  seconds: number,
): Promise<Measured | undefined> {
  log(`### ${kind}, ${ranges.toLocaleString('en')} ranges`);
  let scratch: { database: Database; drop(): Promise<void> };
  try {
    scratch = await openScratch(kind);
  } catch (err) {
    log(`skipped: ${(err as Error).message}`);
    return undefined;
  }
  let world: World | undefined;
  try {
    await seed(scratch.database, ranges, log);
    world = await startWorld(scratch.database);
    const found = await lookups(log, world, ranges, seconds);
    const pages = await listPages(log, world, ranges);
    const imported = importRows > 0 ? await importCsv(log, world, importRows) : undefined;
    return { lookups: found, pages, imported };
  } finally {
    await world?.close();
    await scratch.drop();
  }
}

export default async function catalogueBench(
  log: (line: string) => void,
  _args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  const ranges = envInt('BENCH_RANGES', 1_000_000);
  const pgliteRanges = envInt('BENCH_PGLITE_RANGES', Math.min(100_000, ranges));
  const importRows = envInt('BENCH_IMPORT_RANGES', 100_000);
  const seconds = envInt('BENCH_SECONDS', 5);
  log(`${os.cpus().length} CPUs, Node ${process.version}`);
  const pg = await run(log, 'postgres', ranges, importRows, seconds);
  const lite = await run(log, 'pglite', pgliteRanges, importRows, seconds);

  // Reported in the table's order: both engines' lookups first, then PostgreSQL's list and import.
  const count = ranges.toLocaleString('en');
  const met = (ok: boolean) => (ok ? 'met' : '**not met**');
  if (pg) {
    report({
      what: `\`findRangeBySerial\`, ${count} ranges, PostgreSQL`,
      figure: `p50 ${ms(pg.lookups.direct.p50)}, p99 ${ms(pg.lookups.direct.p99)}`,
      target: 'an index lookup',
    });
  }
  if (lite) {
    report({
      what: '`findRangeBySerial` on the embedded database (PGlite)',
      figure: `p50 ${ms(lite.lookups.direct.p50)}, p99 ${ms(lite.lookups.direct.p99)}; the lookup route reaches ~${lite.lookups.routeRps.toFixed(0)} req/s (PGlite is single-threaded WebAssembly: use PostgreSQL for public traffic)`,
    });
  }
  if (pg) {
    const { sorts, searches, prefixRanges } = pg.pages;
    // The first three searches: a serial, a product name, a whole series prefix (listPages' order).
    const [bySerial, byName, byPrefix] = searches;
    report({
      what: `Serial Numbers list, ${count} ranges, PostgreSQL`,
      figure: `first page per sort column, asc and desc, ${Math.min(...sorts).toFixed(1)}–${Math.max(...sorts).toFixed(1)} ms; search by a serial / a product name / a whole series prefix (${prefixRanges.toLocaleString('en')} ranges) ${bySerial!.toFixed(1)} / ${byName!.toFixed(1)} / ${byPrefix!.toFixed(1)} ms`,
      target: `< 50 ms — ${met(Math.max(...sorts, ...searches) < 50)}`,
    });
  }
  if (pg?.imported) {
    const { seconds: took, peakMb } = pg.imported;
    report({
      what: `CSV import of ${importRows.toLocaleString('en')} serial ranges over HTTP, one transaction, PostgreSQL`,
      figure: `${took.toFixed(1)} s (${Math.round(importRows / took).toLocaleString('en')} rows/s), peak RSS ${peakMb.toFixed(0)} MB`,
    });
  }
}
