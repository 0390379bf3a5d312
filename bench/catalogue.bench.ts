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

export async function lookups(log: (l: string) => void, w: World, ranges: number, seconds: number): Promise<void> {
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
}

export async function listPages(log: (l: string) => void, w: World, ranges: number): Promise<void> {
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
  for (const sort of SERIAL_RANGE_SORTS) {
    const asc = await median(`/api/v1/serial-ranges?sort=${sort}&order=asc&pageSize=10`);
    const desc = await median(`/api/v1/serial-ranges?sort=${sort}&order=desc&pageSize=10`);
    parts.push(`${sort} ${asc.toFixed(1)}/${desc.toFixed(1)}`);
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
  for (const [qs, label] of searches)
    out.push(`${label} ${(await median(`/api/v1/serial-ranges?${qs.replace('PRODUCT', id)}&pageSize=10`)).toFixed(1)}`);
  log(`list with search/filter, median ms: ${out.join('; ')}`);
}

async function importCsv(log: (l: string) => void, w: World, rows: number): Promise<void> {
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
}

async function run(
  log: (l: string) => void,
  kind: 'postgres' | 'pglite',
  ranges: number,
  importRows: number,
  seconds: number,
): Promise<void> {
  log(`### ${kind}, ${ranges.toLocaleString('en')} ranges`);
  let scratch: { database: Database; drop(): Promise<void> };
  try {
    scratch = await openScratch(kind);
  } catch (err) {
    log(`skipped: ${(err as Error).message}`);
    return;
  }
  let world: World | undefined;
  try {
    await seed(scratch.database, ranges, log);
    world = await startWorld(scratch.database);
    await lookups(log, world, ranges, seconds);
    await listPages(log, world, ranges);
    if (importRows > 0) await importCsv(log, world, importRows);
  } finally {
    await world?.close();
    await scratch.drop();
  }
}

export default async function catalogueBench(log: (line: string) => void): Promise<void> {
  const ranges = envInt('BENCH_RANGES', 1_000_000);
  const pgliteRanges = envInt('BENCH_PGLITE_RANGES', Math.min(100_000, ranges));
  const importRows = envInt('BENCH_IMPORT_RANGES', 100_000);
  const seconds = envInt('BENCH_SECONDS', 5);
  log(`${os.cpus().length} CPUs, Node ${process.version}`);
  await run(log, 'postgres', ranges, importRows, seconds);
  await run(log, 'pglite', pgliteRanges, importRows, seconds);
}
