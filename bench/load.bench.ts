/**
 * `npm run bench -- load [--duration <s>] [--rate <x>]` (or LOAD_DURATION / LOAD_RATE): a realistic mix
 * against the real built server (`node dist/server/main.js`, built first by scripts/build-server.mjs), for
 * 10 minutes by default, on PostgreSQL (a scratch database on BENCH_DATABASE_URL or the local
 * postgres://postgres@127.0.0.1:5432, dropped afterwards) or, when none answers, PGlite in a temporary
 * DATA_DIR. Open-loop: each kind of request is sent on its own fixed schedule, and latency counts from the
 * scheduled time, so a server that falls behind cannot hide its queue. The mix, per second at rate 1:
 *  - 100 public lookups (80 % serials inside the range, 20 % not found), each from its own visitor address;
 *  - 1 report request: a challenge fetched, solved here in a worker thread as a browser would, then sent
 *    (a serial with test data, a new recipient each time), visitor and challenge from the same address;
 *  - 10 staff list pages (products, ranges, machine data, search requests, audit log, staff) and 2 edits
 *    (a product updated) with an administrator's session, same-origin as the web app sends them;
 *  - 2 bench uploads (POST /api/v1/machine-data, 10 records with 60 pressure samples each, bench key).
 * Visitors are told apart by X-Forwarded-For: the server runs with TRUST_PROXY=127.0.0.1 and its default
 * rate limits, so each simulated visitor stays well under them. Prints requests/s, p50/p99 and statuses per
 * route, and the server's resident memory every 5 s with a verdict on whether it levelled off.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createEmptyPostgresDatabase } from '../test/helpers/database';
import { percentile } from './lib/stats';
import type { FigureRow } from './lib/figures-table';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN = { name: 'Load Admin', email: 'load-admin@example.com', password: 'Correct-Horse-Battery-9-Staple!' };

function flag(args: string[], name: string, env: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  const raw = i >= 0 ? args[i + 1] : process.env[env];
  const v = Number(raw);
  return raw !== undefined && Number.isFinite(v) && v > 0 ? v : fallback;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export interface Reply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

export function send(base: string, method: string, url: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  const target = new URL(url, base);
  const payload = body === undefined ? undefined : Buffer.from(body);
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
        res.on('error', () => resolve({ status: 0, body: '', headers: {} }));
      },
    );
    req.on('error', () => resolve({ status: 0, body: '', headers: {} }));
    req.end(payload);
  });
}

/** A visitor's address from 10.0.0.0/8: with 16 million of them no per-IP limit is reached by chance. */
export function visitorIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

/** Solves ALTCHA v1 challenges off the main thread (find n with SHA-256(salt + n) = challenge). */
export function solverWorker(): { solve(salt: string, challenge: string, max: number): Promise<number | null>; close(): Promise<number> } {
  const code = `
    const { parentPort } = require('node:worker_threads');
    const { createHash } = require('node:crypto');
    parentPort.on('message', ({ id, salt, challenge, max }) => {
      for (let n = 0; n <= max; n++) {
        if (createHash('sha256').update(salt + n).digest('hex') === challenge) return parentPort.postMessage({ id, n });
      }
      parentPort.postMessage({ id, n: null });
    });`;
  const worker = new Worker(code, { eval: true });
  const waiting = new Map<number, (n: number | null) => void>();
  let next = 0;
  worker.on('message', ({ id, n }: { id: number; n: number | null }) => {
    waiting.get(id)?.(n);
    waiting.delete(id);
  });
  return {
    solve: (salt, challenge, max) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        worker.postMessage({ id, salt, challenge, max });
      }),
    close: () => worker.terminate(),
  };
}

/**
 * A challenge fetched from `base` for the visitor at `ip` and solved by `solver`, encoded as the report
 * request's `challenge` field (what the public page's widget sends).
 */
export async function solvedChallenge(base: string, ip: string, solver: ReturnType<typeof solverWorker>): Promise<string> {
  const reply = await send(base, 'GET', '/api/v1/public/challenge', { 'x-forwarded-for': ip });
  if (reply.status !== 200) throw new Error(`challenge: ${reply.status} ${reply.body.slice(0, 300)}`);
  const c = JSON.parse(reply.body).data as { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
  const number = await solver.solve(c.salt, c.challenge, c.maxnumber);
  if (number === null) throw new Error('challenge not solvable');
  return Buffer.from(
    JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number, salt: c.salt, signature: c.signature }),
  ).toString('base64');
}

/** What `Stats.print` counted: the totals, and each route's p50 and p99 in ms. */
interface Counted {
  total: number;
  errors: number;
  routes: Map<string, { p50: number; p99: number }>;
}

class Stats {
  private readonly routes = new Map<string, { latencies: number[]; statuses: Map<number, number>; dropped: number }>();

  private of(route: string) {
    let r = this.routes.get(route);
    if (!r) {
      r = { latencies: [], statuses: new Map(), dropped: 0 };
      this.routes.set(route, r);
    }
    return r;
  }

  add(route: string, status: number, ms: number): void {
    const r = this.of(route);
    r.latencies.push(ms);
    r.statuses.set(status, (r.statuses.get(status) ?? 0) + 1);
  }

  drop(route: string): void {
    this.of(route).dropped++;
  }

  print(log: (l: string) => void, seconds: number, ok: (route: string, status: number) => boolean): Counted {
    let total = 0;
    let bad = 0;
    const routes = new Map<string, { p50: number; p99: number }>();
    const wide = Math.max(...[...this.routes.keys()].map((k) => k.length));
    for (const [route, r] of [...this.routes].sort()) {
      r.latencies.sort((a, b) => a - b);
      total += r.latencies.length;
      const statuses = [...r.statuses].sort(([a], [b]) => a - b);
      bad += statuses.filter(([s]) => !ok(route, s)).reduce((n, [, c]) => n + c, 0);
      routes.set(route, { p50: percentile(r.latencies, 50), p99: percentile(r.latencies, 99) });
      log(
        `${route.padEnd(wide)}  ${(r.latencies.length / seconds).toFixed(1).padStart(6)} req/s  p50 ${percentile(r.latencies, 50).toFixed(1).padStart(6)} ms  p99 ${percentile(r.latencies, 99).toFixed(1).padStart(7)} ms  statuses ${statuses.map(([s, c]) => `${s || 'no answer'}×${c}`).join(' ')}${r.dropped ? `  (${r.dropped} not sent: too many in flight)` : ''}`,
      );
    }
    log(
      `total: ${total} requests, ${(total / seconds).toFixed(1)} req/s, ${bad} errors (a status the route should not answer under this load)`,
    );
    return { total, errors: bad, routes };
  }
}

/** Runs `fire` `perSecond` times a second on a fixed schedule until `until`, at most `cap` in flight. */
async function schedule(
  perSecond: number,
  until: number,
  cap: number,
  route: string,
  stats: Stats,
  fire: (scheduledAt: number) => Promise<void>,
): Promise<void> {
  if (perSecond <= 0) return;
  const interval = 1000 / perSecond;
  const started = performance.now();
  const inflight = new Set<Promise<void>>();
  for (let i = 0; ; i++) {
    const at = started + i * interval;
    if (at >= until) break;
    const wait = at - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    if (inflight.size >= cap) {
      stats.drop(route);
      continue;
    }
    const p: Promise<void> = fire(at).finally(() => inflight.delete(p));
    inflight.add(p);
  }
  await Promise.all(inflight);
}

export interface Server {
  url: string;
  pid: number;
  rssMb(): number;
  peakRssMb(): number;
  resetPeak(): void;
  stop(): Promise<void>;
  output(): string;
}

/** `extraEnv`: further variables for the server (SMTP_URL, REPORT_WORKERS…). */
export async function startBuiltServer(
  dataDir: string,
  databaseUrl: string | undefined,
  extraEnv: Record<string, string> = {},
): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: url,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: '127.0.0.1',
    NODE_ENV: 'production',
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL']) delete env[name];
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  Object.assign(env, extraEnv);
  // BENCH_SERVER_NODE_ARGS: extra flags for the server's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...extra, '--enable-source-maps', path.join(root, 'dist/server/main.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const s of [child.stdout!, child.stderr!]) s.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    if ((await send(url, 'GET', '/readyz', {})).status === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within 240 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    pid: child.pid!,
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024,
    peakRssMb: () => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024,
    // Writing 5 to clear_refs resets the peak resident set size (VmHWM).
    resetPeak: () => fs.writeFileSync(`/proc/${child.pid}/clear_refs`, '5'),
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function record(serial: string, i: number): Record<string, unknown> {
  const pressure = 1.6 + (i % 5) * 0.2;
  return {
    recordId: `LD-${randomBytes(6).toString('hex')}`,
    serial,
    testType: i % 2 ? 'seat' : 'shell',
    medium: 'water',
    testPressure: pressure,
    holdingSeconds: 60,
    result: 'pass',
    testedAt: new Date(Date.now() - i * 1000).toISOString(),
    operator: 'Load',
    samples: Array.from({ length: 60 }, (_, k) => ({ t: k, p: k < 5 ? (k * pressure) / 5 : pressure })),
  };
}

interface Memory {
  lines: string[];
  levelled: boolean;
  /** MB: the first and last minutes' averages, the peak; MB a minute over the second half */
  first: number;
  last: number;
  peak: number;
  slope: number;
}

/** Verdict on the RSS series: levelled off when the last minute is within 10 % of the first (after warm-up). */
function memoryVerdict(samples: { t: number; mb: number }[], seconds: number): Memory {
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const first = samples.filter((s) => s.t <= 60).map((s) => s.mb);
  const last = samples.filter((s) => s.t >= seconds - 60).map((s) => s.mb);
  const half = samples.filter((s) => s.t >= seconds / 2);
  const peak = Math.max(...samples.map((s) => s.mb));
  const lines = [
    `RSS first minute avg ${avg(first).toFixed(0)} MB, last minute avg ${avg(last).toFixed(0)} MB, peak ${peak.toFixed(0)} MB`,
  ];
  // Slope over the second half (least squares), MB per minute: a leak keeps climbing after warm-up.
  const mt = avg(half.map((s) => s.t));
  const mm = avg(half.map((s) => s.mb));
  const slope =
    (half.reduce((a, s) => a + (s.t - mt) * (s.mb - mm), 0) /
      Math.max(
        1e-9,
        half.reduce((a, s) => a + (s.t - mt) ** 2, 0),
      )) *
    60;
  const growth = (avg(last) - avg(first)) / avg(first);
  // The first minute is warm-up (JIT, caches, pools filling), so the verdict is on what follows: the trend
  // over the second half, and the median of the last third of the run after warm-up against the middle
  // third's (medians over whole windows, so that one garbage-collection peak does not decide it).
  const after = samples.filter((s) => s.t > Math.min(60, seconds / 3));
  const span = after.length ? after[after.length - 1]!.t - after[0]!.t : 0;
  const start = after[0]?.t ?? 0;
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted.length ? (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2 : NaN;
  };
  const middle = median(after.filter((s) => s.t >= start + span / 3 && s.t < start + (2 * span) / 3).map((s) => s.mb));
  const end = median(after.filter((s) => s.t >= start + (2 * span) / 3).map((s) => s.mb));
  const levelled = slope < 0.02 * mm && end <= middle * 1.05;
  lines.push(
    `RSS after warm-up: middle third median ${middle.toFixed(0)} MB, last third ${end.toFixed(0)} MB (${end >= middle ? '+' : ''}${((100 * (end - middle)) / middle).toFixed(0)} %); slope over the second half ${slope >= 0 ? '+' : ''}${slope.toFixed(1)} MB/min`,
    `memory verdict: ${levelled ? 'levelled off' : 'still growing'} (levelled = last third within +5 % of the middle one and the second half's slope under 2 % a minute; last vs first minute ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(0)} %, warm-up included)${seconds < 300 ? '; a short run: run the 10 minutes for a firm verdict' : ''}`,
  );
  return { lines, levelled, first: avg(first), last: avg(last), peak, slope };
}

/** The route a staff list page is counted under, e.g. `GET /products`. */
const listRoute = (url: string) => `GET ${url.replace('/api/v1', '').replace(/\?.*/, '')}`;

/** Milliseconds as the figures table shows them: one decimal under 10 ms, none above. */
const msShort = (x: number) => x.toFixed(x < 10 ? 1 : 0);

export default async function loadBench(
  log: (line: string) => void,
  args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  const seconds = flag(args, 'duration', 'LOAD_DURATION', 600);
  const rate = flag(args, 'rate', 'LOAD_RATE', 1);
  log(
    `${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (a shared machine: figures swing with what else runs), Node ${process.version}`,
  );

  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('scripts/build-server.mjs failed');

  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  let scratch: { url: string; drop(): Promise<void> } | undefined;
  try {
    scratch = await createEmptyPostgresDatabase(serverUrl, 'trc_load');
  } catch (err) {
    log(`PostgreSQL at ${new URL(serverUrl).host} unavailable (${(err as Error).message}): PGlite in DATA_DIR instead`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-load-'));
  let server: Server | undefined;
  const solver = solverWorker();
  try {
    server = await startBuiltServer(dataDir, scratch?.url);
    log(
      `server: node dist/server/main.js (pid ${server.pid}) on ${scratch ? 'PostgreSQL (scratch database)' : 'PGlite'}, TRUST_PROXY=127.0.0.1, default rate limits; ${seconds} s at rate ×${rate}`,
    );
    const base = server.url;
    const json = { origin: base, 'x-forwarded-for': '127.0.0.1' };

    // The first administrator, signed in as the web app does.
    const reg = await send(base, 'POST', '/api/v1/auth/register', json, JSON.stringify(ADMIN));
    const cookie = reg.headers['set-cookie']?.[0]?.split(';')[0];
    if (reg.status !== 201 || !cookie) throw new Error(`register: ${reg.status} ${reg.body}`);
    const staff = { ...json, cookie };
    const ok = (r: Reply, what: string) => {
      if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.body.slice(0, 300)}`);
      return JSON.parse(r.body).data;
    };

    // The catalogue: a product and a range of 100,000 units; test data for the first 500 of them.
    const letters = 'ABCDEFGHJKLMNPQR';
    const prefix = `LD${[...randomBytes(2).toString('hex')].map((h) => letters[parseInt(h, 16)]).join('')}-`;
    const serial = (n: number) => `${prefix}${String(n).padStart(6, '0')}`;
    const productBody = (name: string, pressure: number) => ({
      name,
      fluid: 'water',
      connection: 'Flange',
      application: 'Waterworks',
      applicationMedium: 'Water',
      pressureFc: pressure,
      pressureWcb: '2.5',
      pressureSus: '',
      temperatureMax: 120,
      temperatureMin: -10,
    });
    const products: string[] = [];
    for (let i = 0; i < 20; i++)
      products.push(
        ok(await send(base, 'POST', '/api/v1/products', staff, JSON.stringify(productBody(`Load Valve ${prefix}${i}`, 1.6))), 'product')
          .id as string,
      );
    ok(
      await send(
        base,
        'POST',
        '/api/v1/serial-ranges',
        staff,
        JSON.stringify({
          productId: products[0],
          startSerial: serial(1),
          endSerial: serial(100_000),
          totalUnits: 100_000,
          productionDate: '2024-03-01',
        }),
      ),
      'range',
    );
    const key = ok(await send(base, 'POST', '/api/v1/machines', staff, JSON.stringify({ name: `Load bench ${prefix}` })), 'machine')
      .key as string;
    const bench = { authorization: `Bearer ${key}`, 'x-forwarded-for': '127.0.0.1' };
    const withData = 500;
    for (let from = 1; from <= withData; from += 50) {
      const records = Array.from({ length: 50 }, (_, i) => [record(serial(from + i), 0), record(serial(from + i), 1)]).flat();
      ok(await send(base, 'POST', '/api/v1/machine-data', bench, JSON.stringify({ records })), 'test data');
    }
    log(`seeded: 20 products, one range of 100,000 units, test data (shell and seat) for ${withData} of them`);

    const stats = new Stats();
    const rss: { t: number; mb: number }[] = [];
    const started = performance.now();
    const until = started + seconds * 1000;
    const sampler = setInterval(() => rss.push({ t: (performance.now() - started) / 1000, mb: server!.rssMb() }), 5000);
    rss.push({ t: 0, mb: server.rssMb() });
    const timed = async (route: string, scheduledAt: number, go: () => Promise<Reply>): Promise<Reply> => {
      const r = await go();
      stats.add(route, r.status, performance.now() - scheduledAt);
      return r;
    };

    const lookups = schedule(100 * rate, until, 500, 'POST /public/lookup', stats, async (at) => {
      const n = Math.random() < 0.8 ? 1 + Math.floor(Math.random() * 100_000) : 100_001 + Math.floor(Math.random() * 100_000);
      await timed('POST /public/lookup', at, () =>
        send(base, 'POST', '/api/v1/public/lookup', { 'x-forwarded-for': visitorIp() }, JSON.stringify({ serial: serial(n) })),
      );
    });
    let requested = 0;
    const reportRequests = schedule(1 * rate, until, 50, 'POST /public/report-requests', stats, async (at) => {
      const ip = visitorIp();
      const ch = await timed('GET /public/challenge', at, () => send(base, 'GET', '/api/v1/public/challenge', { 'x-forwarded-for': ip }));
      if (ch.status !== 200) return;
      const c = JSON.parse(ch.body).data as { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
      const number = await solver.solve(c.salt, c.challenge, c.maxnumber);
      if (number === null) throw new Error('challenge not solvable');
      const challenge = Buffer.from(
        JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number, salt: c.salt, signature: c.signature }),
      ).toString('base64');
      const body = {
        serial: serial(1 + Math.floor(Math.random() * withData)),
        email: `visitor-${requested++}-${randomBytes(3).toString('hex')}@example.com`,
        agreeToTerms: true,
        language: Math.random() < 0.5 ? 'en' : 'zh',
        challenge,
      };
      const sentAt = performance.now();
      await timed('POST /public/report-requests', sentAt, () =>
        send(
          base,
          'POST',
          '/api/v1/public/report-requests',
          { 'x-forwarded-for': ip, origin: base, 'user-agent': 'Mozilla/5.0 (load bench)' },
          JSON.stringify(body),
        ),
      );
    });
    const listUrls = [
      '/api/v1/products?page=1&pageSize=25',
      '/api/v1/serial-ranges?page=1&pageSize=25',
      '/api/v1/machine-data?page=1&pageSize=25',
      '/api/v1/search-requests?page=1&pageSize=25',
      '/api/v1/audit-log',
      '/api/v1/staff',
    ];
    let listTurn = 0;
    const staffLists = schedule(10 * rate, until, 100, 'GET staff lists', stats, async (at) => {
      const url = listUrls[listTurn++ % listUrls.length]!;
      await timed(listRoute(url), at, () => send(base, 'GET', url, staff));
    });
    let edits = 0;
    const staffEdits = schedule(2 * rate, until, 50, 'PUT /products/:id', stats, async (at) => {
      const i = edits++;
      const id = products[i % products.length]!;
      await timed('PUT /products/:id', at, () =>
        send(
          base,
          'PUT',
          `/api/v1/products/${id}`,
          staff,
          JSON.stringify(productBody(`Load Valve ${prefix}${i % products.length}`, 1.6 + (i % 10) / 10)),
        ),
      );
    });
    const ingestion = schedule(2 * rate, until, 50, 'POST /machine-data', stats, async (at) => {
      const records = Array.from({ length: 10 }, (_, i) => record(serial(1 + Math.floor(Math.random() * 100_000)), i));
      await timed('POST /machine-data', at, () => send(base, 'POST', '/api/v1/machine-data', bench, JSON.stringify({ records })));
    });
    await Promise.all([lookups, reportRequests, staffLists, staffEdits, ingestion]);
    clearInterval(sampler);
    rss.push({ t: (performance.now() - started) / 1000, mb: server.rssMb() });
    const elapsed = (performance.now() - started) / 1000;

    // 404 is a lookup's "not found" (a fifth of them on purpose); everything else should succeed.
    const counted = stats.print(
      log,
      elapsed,
      (route, status) => (status >= 200 && status < 300) || (route === 'POST /public/lookup' && status === 404),
    );
    const step = Math.max(1, Math.round(rss.length / 24));
    log(
      `server RSS (MB, every ${5 * step} s): ${rss
        .filter((_, i) => i % step === 0)
        .map((s) => s.mb.toFixed(0))
        .join(' ')}`,
    );
    const memory = memoryVerdict(rss, elapsed);
    for (const line of memory.lines) log(line);
    log(
      `load average at the end: ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );

    const route = (name: string) => counted.routes.get(name) ?? { p50: NaN, p99: NaN };
    const pair = (name: string) => `${msShort(route(name).p50)} / ${msShort(route(name).p99)} ms`;
    const lists = listUrls.map((url) => route(listRoute(url)));
    const spread = (xs: number[]) => `${msShort(Math.min(...xs))}–${msShort(Math.max(...xs))}`;
    const duration = seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} s`;
    report({
      what: `load: the realistic mix of \`npm run bench -- load\` for ${duration} at rate ×${rate}, default rate limits, ${scratch ? 'PostgreSQL' : 'PGlite'}`,
      figure:
        `${(counted.total / elapsed).toFixed(0)} req/s, ${counted.total.toLocaleString('en')} requests, **${counted.errors} errors**; ` +
        `p50 / p99: lookup ${pair('POST /public/lookup')}, challenge ${pair('GET /public/challenge')}, report request ${pair('POST /public/report-requests')}, ` +
        `staff lists ${spread(lists.map((l) => l.p50))} / ${spread(lists.map((l) => l.p99))} ms, product edit ${pair('PUT /products/:id')}, bench upload ${pair('POST /machine-data')}; ` +
        `server RSS **${memory.levelled ? 'levelled off' : 'still growing'}** (first minute ${memory.first.toFixed(0)} MB, last minute ${memory.last.toFixed(0)} MB, peak ${memory.peak.toFixed(0)} MB, ${memory.slope >= 0 ? '+' : ''}${memory.slope.toFixed(1)} MB/min)`,
      target: `no errors, memory levelled off — ${counted.errors === 0 && memory.levelled ? 'met' : '**not met**'}`,
    });
  } catch (err) {
    if (server) log(`server log tail: ${server.output().slice(-2000)}`);
    throw err;
  } finally {
    await solver.close();
    await server?.stop();
    agent.destroy();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
