/**
 * `npm run bench -- memory-after-work [--database pglite|postgres]`: does the server give its memory back after work? The server as
 * `npm start` runs it (bench/lib/npm-start.ts), on PostgreSQL (BENCH_DATABASE_URL or the local one; skipped
 * when none answers) and on the embedded database, each in turn:
 *  1. idle: its RSS 5 s after /readyz at a second start (the first made the database);
 *  2. an import: the generated machine-data catalogue (100 products, 10,000 ranges), then
 *     BENCH_AFTER_PG_ROWS (300,000) / BENCH_AFTER_PGLITE_ROWS (50,000) test records from CSV; its peak;
 *  3. a report burst: BENCH_AFTER_REQUESTS (20) public report requests of 20 serials each (tested units of
 *     that file, en and zh alternately, each from its own address with a solved challenge), four at a
 *     time, a busy answer retried after its Retry-After; the reports issued and the peak;
 *  4. after each of the two, the RSS 10, 30, 75 and 150 s later (the report threads exit after a minute idle;
 *     the recently used PDFs are dropped 30–45 s after their last use, decision 0033 seventh section).
 * Targets (docs/product.md §7, decision 0033): back to idle, ≤ 150 MB on PostgreSQL and ≤ 200 MB on the embedded one.
 * The load average is printed beside each figure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { createEmptyPostgresDatabase } from '../test/helpers/database';
import { writeMachineCsv } from '../test/helpers/machine-data-csv';
import { uploadFile } from '../test/helpers/server-process';
import { send, solvedChallenge, solverWorker, visitorIp } from './load.bench';
import { writeMdCatalogue } from './lib/md-catalogue';
import { buildForStart, npmStart, type NpmStarted } from './lib/npm-start';
import type { FigureRow } from './lib/figures-table';

const ADMIN = { name: 'Memory Admin', email: 'memory-admin@example.com', password: 'Correct-Horse-Battery-9-Staple!' };
const TARGET_MB = { postgres: 150, pglite: 200 } as const;
const SETTLE_AT_S = [10, 30, 75, 150];

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
};
const loadAverage = () =>
  `load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (n: number) => `${n.toFixed(0)} MB`;

/**
 * The RSS at each of SETTLE_AT_S seconds from now (MB, in that order), and a line with them and whether the
 * last is at or under `target`.
 */
async function settle(server: NpmStarted, target: number): Promise<{ rss: number[]; line: string }> {
  const started = performance.now();
  const rss: number[] = [];
  for (const s of SETTLE_AT_S) {
    await sleep(Math.max(0, s * 1000 - (performance.now() - started)));
    rss.push(server.rssMb());
  }
  const last = rss[rss.length - 1]!;
  const seen = SETTLE_AT_S.map((s, i) => `${s} s: ${mb(rss[i]!)}`);
  return { rss, line: `${seen.join(', ')} (target ≤ ${target} MB: ${last <= target ? 'met' : '**not met**'}; ${loadAverage()})` };
}

/** One engine's run, for the figures table. */
interface AfterWork {
  engine: 'postgres' | 'pglite';
  rows: number;
  requests: number;
  target: number;
  idle: number;
  afterImport: number[];
  afterBurst: number[];
  /** the higher of the import's and the burst's peaks, MB */
  peak: number;
  issued: number;
}

/** Distinct serials of `file` that fall inside a range of the generated catalogue (n mod 2000 < 1000). */
async function testedSerials(file: string, count: number): Promise<string[]> {
  const found = new Set<string>();
  const lines = readline.createInterface({ input: fs.createReadStream(file) });
  for await (const line of lines) {
    const serial = line.split(',')[1];
    if (serial && /^MD\d\d-\d{8}$/.test(serial) && Number(serial.slice(5)) % 2000 < 1000) found.add(serial);
    if (found.size >= count) break;
  }
  lines.close();
  return [...found];
}

async function reportBurst(base: string, serials: string[], requests: number): Promise<{ issued: number; busy: number; seconds: number }> {
  const solver = solverWorker();
  try {
    // A busy answer spends the challenge (it cannot be replayed), so each attempt solves its own; the
    // solving is the visitor's browser's work and is not the server's, but it is inside the burst's time.
    const attempt = async (i: number) => {
      const ip = visitorIp();
      const challenge = await solvedChallenge(base, ip, solver);
      const body = JSON.stringify({
        serials: serials.slice(i * 20, i * 20 + 20),
        email: `visitor-${i}@example.com`,
        agreeToTerms: true,
        language: i % 2 ? 'zh' : 'en',
        challenge,
      });
      return send(base, 'POST', '/api/v1/public/report-requests', { 'x-forwarded-for': ip, origin: base }, body);
    };
    let issued = 0;
    let busy = 0;
    let nextRequest = 0;
    const started = performance.now();
    const next = async (): Promise<void> => {
      const i = nextRequest++;
      if (i >= requests) return;
      for (;;) {
        const r = await attempt(i);
        if (r.status === 503) {
          busy++;
          await sleep(Math.min(2, Number(r.headers['retry-after']) || 1) * 1000);
          continue;
        }
        if (r.status !== 200) throw new Error(`report request: ${r.status} ${r.body.slice(0, 300)}`);
        const results = (JSON.parse(r.body).data?.results ?? []) as { outcome?: string }[];
        issued += results.filter((x) => x.outcome === 'issued').length;
        break;
      }
      return next();
    };
    await Promise.all([next(), next(), next(), next()]);
    return { issued, busy, seconds: (performance.now() - started) / 1000 };
  } finally {
    await solver.close();
  }
}

/** The run on `engine`; undefined when it was skipped. */
async function on(engine: 'postgres' | 'pglite', log: (line: string) => void): Promise<AfterWork | undefined> {
  let scratch: { url: string; drop(): Promise<void> } | undefined;
  if (engine === 'postgres') {
    scratch = await createEmptyPostgresDatabase(
      process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      'trc_after',
    ).catch((err: Error) => {
      log(`PostgreSQL unavailable (${err.message}): skipped`);
      return undefined;
    });
    if (!scratch) return undefined;
  }
  const target = TARGET_MB[engine];
  const rows = engine === 'postgres' ? envInt('BENCH_AFTER_PG_ROWS', 300_000) : envInt('BENCH_AFTER_PGLITE_ROWS', 50_000);
  const requests = envInt('BENCH_AFTER_REQUESTS', 20);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-after-'));
  let server: NpmStarted | undefined;
  try {
    const md = await writeMdCatalogue(dir);
    const records = path.join(dir, 'records.csv');
    await writeMachineCsv(records, rows, 7);
    const serials = await testedSerials(records, requests * 20);
    const start = () =>
      npmStart({ dataDir: dir, databaseUrl: scratch?.url, env: { TRUST_PROXY: '127.0.0.1', REQUEST_TIMEOUT_MS: '900000' } });
    // The idle targets are of a second start: the first makes the database (and on the embedded one
    // grows its WebAssembly heap doing so).
    await (await start()).stop();
    server = await start();
    const base = server.url;
    log(
      `### ${engine === 'postgres' ? 'PostgreSQL' : 'embedded (PGlite)'}: npm start (second start), ready in ${(server.readyMs / 1000).toFixed(2)} s`,
    );
    await sleep(5_000);
    const idle = server.rssMb();
    log(`idle 5 s after ready: ${mb(idle)} (target ≤ ${target} MB; ${loadAverage()})`);

    const json = { origin: base, 'x-forwarded-for': '127.0.0.1' };
    const reg = await send(base, 'POST', '/api/v1/auth/register', json, JSON.stringify(ADMIN));
    const cookie = reg.headers['set-cookie']?.[0]?.split(';')[0];
    if (reg.status !== 201 || !cookie) throw new Error(`register: ${reg.status} ${reg.body}`);
    server.resetPeak();
    const importStarted = performance.now();
    for (const [route, file, expected] of [
      ['/api/v1/products/import', md.products, md.productRows],
      ['/api/v1/serial-ranges/import', md.ranges, md.rangeRows],
      ['/api/v1/machine-data/import', records, rows],
    ] as const) {
      const res = await uploadFile(`${base}${route}`, cookie, file);
      const stored = (JSON.parse(res.body) as { data?: { stored: number } }).data?.stored;
      if (res.status !== 200 || stored !== expected) throw new Error(`${route}: ${res.status} ${res.body.slice(0, 400)}`);
    }
    const importPeak = server.peakMb();
    log(
      `import: 100 products, ${md.rangeRows.toLocaleString('en')} ranges and ${rows.toLocaleString('en')} test records in ${((performance.now() - importStarted) / 1000).toFixed(1)} s; peak ${mb(importPeak)} (${loadAverage()})`,
    );
    const afterImport = await settle(server, target);
    log(`  after the import: ${afterImport.line}`);

    server.resetPeak();
    const burst = await reportBurst(base, serials, requests);
    const burstPeak = server.peakMb();
    log(
      `report burst: ${requests} requests of 20 serials, ${burst.issued} reports issued in ${burst.seconds.toFixed(1)} s (${burst.busy} busy answers retried); peak ${mb(burstPeak)} (${loadAverage()})`,
    );
    const afterBurst = await settle(server, target);
    log(`  after the burst: ${afterBurst.line}`);
    return {
      engine,
      rows,
      requests,
      target,
      idle,
      afterImport: afterImport.rss,
      afterBurst: afterBurst.rss,
      peak: Math.max(importPeak, burstPeak),
      issued: burst.issued,
    };
  } finally {
    await server?.stop();
    await scratch?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export default async function memoryAfterWork(
  log: (line: string) => void,
  args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  const which = args.includes('--database') ? args[args.indexOf('--database') + 1] : 'both';
  log(`${os.cpus().length} CPUs, Node ${process.version}, ${loadAverage()}`);
  buildForStart();
  const pg = which !== 'pglite' ? await on('postgres', log) : undefined;
  const lite = which !== 'postgres' ? await on('pglite', log) : undefined;
  const runs = [pg, lite].filter((r): r is AfterWork => r !== undefined);
  if (runs.length > 0) report(figureRow(runs));
}

/** One row for every engine that ran, in the figures table's wording: the last two settling times' RSS. */
function figureRow(runs: AfterWork[]): FigureRow {
  const name = (r: AfterWork) => (r.engine === 'postgres' ? 'PostgreSQL' : 'embedded');
  const lastTwo = (rss: number[]) =>
    rss
      .slice(-2)
      .map((x) => x.toFixed(0))
      .join(' / ');
  // One count when the engines issued as many reports, else each engine's.
  const issued = [...new Set(runs.map((r) => r.issued))].join(' / ');
  const settled = runs.every((r) => r.afterImport.at(-1)! <= r.target && r.afterBurst.at(-1)! <= r.target);
  return {
    what:
      `memory after work: an import of ${runs.map((r) => `${r.rows.toLocaleString('en')} (${name(r)})`).join(' / ')} test records, ` +
      `then ${runs[0]!.requests} report requests of 20 serials (${issued} reports); RSS ${SETTLE_AT_S.slice(-2).join(' / ')} s after each`,
    figure: runs
      .map(
        (r) =>
          `${name(r)}: idle ${mb(r.idle)}, after the import ${lastTwo(r.afterImport)} MB, after the burst ${lastTwo(r.afterBurst)} MB (peak ${mb(r.peak)})`,
      )
      .join('; '),
    target: `back to ${runs.map((r) => `≤ ${r.target}`).join(' / ')} MB — ${settled ? 'met' : '**not met**'}`,
  };
}
