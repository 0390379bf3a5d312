/**
 * `npm run bench -- report-load [--requests <n>] [--database pglite|postgres]`: the report-request attack
 * against the real built server (modules/reports/render-job.ts, docs/decisions/0020), on each engine in
 * turn: PostgreSQL (BENCH_DATABASE_URL or the local one, when one answers), then the embedded database
 * (PGlite); `--database` runs one. `--requests` report requests (100 by default) of 20 serials each, half
 * with test data and half never tested, each from its own address with its own solved challenge, all sent
 * at once; meanwhile /healthz, a lookup and a staff screen (the search requests list) are timed every
 * 100 ms. Prints, per engine, the requests' statuses (admitted, 503 with Retry-After, anything else), the
 * probes' latency during the attack and the server's peak resident memory (and its course), each beside
 * its target, and the load average before and after.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmptyPostgresDatabase } from '../test/helpers/database';
import { send, solvedChallenge, solverWorker, startBuiltServer, visitorIp, type Reply, type Server } from './load.bench';
import { percentile } from './lib/stats';
import type { FigureRow } from './lib/figures-table';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN = { name: 'Attack Admin', email: 'attack-admin@example.com', password: 'Correct-Horse-Battery-9-Staple!' };

function loadAverage(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
}

function summary(name: string, ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  return `${name}: ${s.length} answered during the attack, p50 ${percentile(s, 50).toFixed(0)} ms, p99 ${percentile(s, 99).toFixed(0)} ms, max ${(s[s.length - 1] ?? 0).toFixed(0)} ms`;
}

/** The issue's targets (docs/decisions/0020): probes' p99 during the attack, the server's peak RSS. */
const TARGET_MS = 200;
const TARGET_RSS_MB = 600;

const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');

export default async function reportLoadBench(
  log: (line: string) => void,
  args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  const at = args.indexOf('--requests');
  const requests = at >= 0 ? Math.max(1, Number(args[at + 1]) || 100) : 100;
  const which = args.includes('--database') ? args[args.indexOf('--database') + 1] : 'both';
  log(`${os.cpus().length} CPUs, load average ${loadAverage()} before, Node ${process.version}`);
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('scripts/build-server.mjs failed');
  const onPostgres = which !== 'pglite' && (await attackOn('postgres', requests, log, report, 'first'));
  if (which !== 'postgres') await attackOn('pglite', requests, log, report, onPostgres ? 'after' : 'first');
}

/**
 * The attack on `engine`; false when it was skipped. `place`: whether its row follows the PostgreSQL attack's
 * in the figures table ("the same attack") or stands first and says what the attack is.
 */
async function attackOn(
  engine: 'postgres' | 'pglite',
  requests: number,
  log: (line: string) => void,
  report: (row: FigureRow) => void,
  place: 'first' | 'after',
): Promise<boolean> {
  let scratch: { url: string; drop(): Promise<void> } | undefined;
  if (engine === 'postgres') {
    const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    scratch = await createEmptyPostgresDatabase(serverUrl, 'trc_attack').catch((err: Error) => {
      log(`PostgreSQL unavailable (${err.message}): skipped`);
      return undefined;
    });
    if (!scratch) return false;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-attack-'));
  let server: Server | undefined;
  const solver = solverWorker();
  const name = engine === 'postgres' ? 'PostgreSQL' : 'PGlite';
  try {
    server = await startBuiltServer(dataDir, scratch?.url);
    const base = server.url;
    log(`${name}: node dist/server/main.js, default REPORT_WORKERS and REPORT_QUEUE; load average ${loadAverage()}`);
    const json = { origin: base, 'x-forwarded-for': '127.0.0.1' };
    const reg = await send(base, 'POST', '/api/v1/auth/register', json, JSON.stringify(ADMIN));
    const cookie = reg.headers['set-cookie']?.[0]?.split(';')[0];
    if (reg.status !== 201 || !cookie) throw new Error(`register: ${reg.status} ${reg.body}`);
    const staff = { ...json, cookie };
    const ok = (r: Reply, what: string) => {
      if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.body.slice(0, 300)}`);
      return JSON.parse(r.body).data;
    };
    const prefix = `AT${randomBytes(2)
      .toString('hex')
      .toUpperCase()
      .replace(/[0-9]/g, (d) => 'ABCDEFGHJK'[Number(d)]!)}-`;
    const serial = (n: number) => `${prefix}${String(n).padStart(6, '0')}`;
    const product = ok(
      await send(
        base,
        'POST',
        '/api/v1/products',
        staff,
        JSON.stringify({
          name: `Attack Valve ${prefix}`,
          fluid: 'water',
          connection: 'Flange',
          application: 'Waterworks',
          applicationMedium: 'Water',
          pressureFc: 1.6,
          pressureWcb: '2.5',
          pressureSus: '',
          temperatureMax: 120,
          temperatureMin: -10,
        }),
      ),
      'product',
    ).id as string;
    const units = 10_000;
    ok(
      await send(
        base,
        'POST',
        '/api/v1/serial-ranges',
        staff,
        JSON.stringify({
          productId: product,
          startSerial: serial(1),
          endSerial: serial(units),
          totalUnits: units,
          productionDate: '2024-03-01',
        }),
      ),
      'range',
    );
    const key = ok(await send(base, 'POST', '/api/v1/machines', staff, JSON.stringify({ name: `Attack bench ${prefix}` })), 'machine').key;
    // Every even unit up to 2 × (20 × requests / 2) has test data: each request names 10 of them and 10 odd ones.
    // …and the last unit, for the warm-up report.
    const tested = [...Array.from({ length: requests * 10 }, (_, i) => serial(2 * (i + 1))), serial(units)];
    for (let from = 0; from < tested.length; from += 500) {
      const records = tested.slice(from, from + 500).map((s) => ({
        recordId: `AT-${randomBytes(6).toString('hex')}`,
        serial: s,
        testType: 'shell',
        medium: 'water',
        testPressure: 2.4,
        holdingSeconds: 60,
        result: 'pass',
        testedAt: new Date().toISOString(),
        operator: 'Attack',
        samples: Array.from({ length: 60 }, (_, k) => ({ t: k, p: k < 5 ? (k * 2.4) / 5 : 2.4 })),
      }));
      ok(
        await send(
          base,
          'POST',
          '/api/v1/machine-data',
          { authorization: `Bearer ${key}`, 'x-forwarded-for': '127.0.0.1' },
          JSON.stringify({ records }),
        ),
        'records',
      );
    }
    // The challenges solved before the attack, as an attacker would have them ready.
    const bodies = [];
    for (let i = 0; i < requests; i++) {
      const ip = visitorIp();
      const challenge = await solvedChallenge(base, ip, solver);
      const serials = Array.from({ length: 20 }, (_, k) => serial(i * 20 + k + 1));
      bodies.push({
        ip,
        body: JSON.stringify({ serials, email: `attack-${i}@example.com`, agreeToTerms: true, language: 'en', challenge }),
      });
    }
    log(`  seeded: ${units} units, ${tested.length} with test data; ${requests} requests of 20 serials ready`);
    // One report before the attack: the first makes the signing certificate (once per installation) and
    // starts a worker, which the attack's figures should not include.
    {
      const ip = visitorIp();
      const challenge = await solvedChallenge(base, ip, solver);
      const body = JSON.stringify({
        serials: [serial(units)],
        email: 'warm-up@example.com',
        agreeToTerms: true,
        language: 'en',
        challenge,
      });
      await send(base, 'POST', '/api/v1/public/report-requests', { 'x-forwarded-for': ip, origin: base, 'user-agent': 'warm-up' }, body);
    }

    const rssBefore = server.rssMb();
    let peak = rssBefore;
    let running = true;
    // The course of the resident memory: the highest figure of each second.
    const course: number[] = [];
    const attackStarted = performance.now();
    const rssTimer = setInterval(() => {
      const mb = server!.rssMb();
      peak = Math.max(peak, mb);
      const second = Math.floor((performance.now() - attackStarted) / 1000);
      course[second] = Math.max(course[second] ?? 0, mb);
    }, 250);
    const timings = { healthz: [] as number[], lookup: [] as number[], staff: [] as number[] };
    // Each probe on its own, every 100 ms after its last answer, so that a slow one does not thin out the others.
    const refused = { healthz: 0, lookup: 0, staff: 0 };
    const probeEvery = (which: keyof typeof timings, ask: () => Promise<Reply>) =>
      (async () => {
        while (running) {
          const t0 = performance.now();
          const r = await ask();
          timings[which].push(performance.now() - t0);
          if (r.status !== 200) refused[which]++;
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
    const probes = Promise.all([
      probeEvery('healthz', () => send(base, 'GET', '/healthz', {})),
      probeEvery('lookup', () =>
        send(base, 'POST', '/api/v1/public/lookup', { 'x-forwarded-for': visitorIp() }, JSON.stringify({ serial: serial(2) })),
      ),
      probeEvery('staff', () => send(base, 'GET', '/api/v1/search-requests', staff)),
    ]);
    const started = performance.now();
    const results = await Promise.all(
      bodies.map(({ ip, body }) =>
        send(base, 'POST', '/api/v1/public/report-requests', { 'x-forwarded-for': ip, origin: base, 'user-agent': 'attack' }, body),
      ),
    );
    const took = (performance.now() - started) / 1000;
    running = false;
    await probes;
    clearInterval(rssTimer);
    const admitted = results.filter((r) => r.status === 200).length;
    const busy = results.filter((r) => r.status === 503);
    const withRetryAfter = busy.filter((r) => Number(r.headers['retry-after']) > 0).length;
    const others = new Map<number, number>();
    for (const r of results) if (r.status !== 200 && r.status !== 503) others.set(r.status, (others.get(r.status) ?? 0) + 1);
    log(
      `  attack: ${requests} requests answered in ${took.toFixed(1)} s: ${admitted} admitted, ${busy.length} × 503 (${withRetryAfter} with Retry-After)` +
        (others.size ? `, others ${[...others].map(([st, n]) => `${st}×${n}`).join(', ')}` : ', no other status'),
    );
    const p99 = { healthz: NaN, lookup: NaN, staff: NaN };
    for (const [label, which] of [
      ['GET /healthz', 'healthz'],
      ['POST /public/lookup', 'lookup'],
      ['GET /search-requests (staff)', 'staff'],
    ] as const) {
      const sorted = [...timings[which]].sort((a, b) => a - b);
      const bad = refused[which] ? `; ${refused[which]} answered other than 200` : '';
      p99[which] = percentile(sorted, 99);
      log(`  ${summary(label, sorted)}${bad} (target p99 < ${TARGET_MS} ms: ${verdict(p99[which] < TARGET_MS)})`);
    }
    log(
      `  server RSS ${rssBefore.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB (target < ${TARGET_RSS_MB} MB: ${verdict(peak < TARGET_RSS_MB)}); ` +
        `each second's highest: ${course.map((mb) => (mb ? mb.toFixed(0) : '-')).join(' ')}`,
    );
    log(`  load average ${loadAverage()} after`);

    const refusals =
      withRetryAfter === busy.length
        ? `${busy.length} × 503 with \`Retry-After\``
        : `${busy.length} × 503 (${withRetryAfter} with \`Retry-After\`)`;
    const otherStatuses = [...others].map(([st, n]) => `, ${n} × ${st}`).join('');
    const where = engine === 'postgres' ? 'PostgreSQL' : 'embedded database';
    report({
      what: place === 'after' ? `the same attack, ${where}` : `report-request attack (${requests} requests × 20 serials at once), ${where}`,
      figure:
        `${admitted} admitted, ${refusals}${otherStatuses}, in ${took.toFixed(1)} s; ` +
        `during it \`/healthz\` p99 ${p99.healthz.toFixed(0)} ms, lookup p99 ${p99.lookup.toFixed(0)} ms, staff list p99 ${p99.staff.toFixed(0)} ms; ` +
        `RSS ${rssBefore.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB`,
      target: `answers < ${TARGET_MS} ms, RSS < ${TARGET_RSS_MB} MB — ${verdict(Math.max(p99.healthz, p99.lookup, p99.staff) < TARGET_MS && peak < TARGET_RSS_MB)}`,
    });
    return true;
  } finally {
    await solver.close();
    await server?.stop();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
