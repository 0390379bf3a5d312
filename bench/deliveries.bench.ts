/**
 * `npm run bench -- deliveries [--units <n>] [--database pglite|postgres]`: a delivery of 1,000 units released
 * on the real server (`tsx src/server/main.ts`, REPORT_WORKERS by default) on each engine: the time from the
 * release request until every certificate is issued, signed and stored, while /healthz and the deliveries
 * list are timed every 100 ms; then the buyer's ZIP of the stored certificates (first byte, whole, the
 * server's peak RSS while it streams); then, on PostgreSQL, the first pages of the delivery and order lists at
 * 10,000 deliveries and 1,000,000 delivered units. Each figure beside its target and the load average.
 */
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createEmptyPostgresDatabase } from '../test/helpers/database';
import { httpApp } from '../test/helpers/http-app';
import { addProduct, postRange, rangeBody } from '../test/helpers/catalogue';
import { createBench, postBatch, record } from '../test/helpers/machine-data';
import { addCustomer, addDelivery, post } from '../test/helpers/orders';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { send, startBuiltServer, type Server } from './load.bench';
import { startSmtpSink } from '../test/helpers/smtp-sink';
import { percentile } from './lib/stats';
import type { FigureRow } from './lib/figures-table';

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const met = (ok: boolean) => (ok ? 'met' : '**not met**');

export default async function deliveriesBench(
  log: (line: string) => void,
  args: string[] = [],
  reportRow: (row: FigureRow) => void = () => {},
): Promise<void> {
  const at = args.indexOf('--units');
  const units = at >= 0 ? Math.max(1, Number(args[at + 1]) || 1000) : 1000;
  const which = args.includes('--database') ? args[args.indexOf('--database') + 1] : 'both';
  log(`${os.cpus().length} CPUs, load average ${load()} before, Node ${process.version}`);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('scripts/build-server.mjs failed');
  // The table's rows of this bench are replaced as a whole: only a run of both engines reports them.
  const report = which === 'both' ? reportRow : () => {};
  if (which !== 'both') log('(one engine only: no rows for docs/benchmarks.md)');
  if (which !== 'pglite') await releaseOn('postgres', units, log, report);
  if (which !== 'postgres') await releaseOn('pglite', units, log, report);
  if (which !== 'pglite') await listsAtSize(log, report);
}

async function releaseOn(
  engine: 'postgres' | 'pglite',
  n: number,
  log: (line: string) => void,
  report: (row: FigureRow) => void,
): Promise<void> {
  const name = engine === 'postgres' ? 'PostgreSQL' : 'PGlite';
  let scratch: { url: string; drop(): Promise<void> } | undefined;
  if (engine === 'postgres') {
    scratch = await createEmptyPostgresDatabase(
      process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      'trc_release',
    ).catch((err: Error) => {
      log(`PostgreSQL unavailable (${err.message}): skipped`);
      return undefined;
    });
    if (!scratch) return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-release-'));
  const sink = await startSmtpSink({ parse: true });
  let server: Server | undefined;
  try {
    server = await startBuiltServer(dataDir, scratch?.url, { SMTP_URL: sink.url });
    const app = httpApp(server.url);
    const cookie = await signIn(server.url);
    const product = await addProduct(app, cookie);
    const width = 6;
    const serial = (i: number) => `RB-${String(i + 1).padStart(width, '0')}`;
    const range = await postRange(app, cookie, rangeBody(product.id, serial(0), serial(n - 1), n));
    if (range.statusCode !== 201) throw new Error(`range: ${range.body}`);
    const bench = await createBench(app, cookie);
    for (let i = 0; i < n; i += 250) {
      const batch = Array.from({ length: Math.min(250, n - i) }, (_, k) => serial(i + k));
      const r = await postBatch(app, bench.key, {
        records: batch.flatMap((s) => [record({ serial: s, testType: 'shell' }), record({ serial: s, testType: 'seat' })]),
      });
      if (r.statusCode >= 300) throw new Error(`records: ${r.body}`);
    }
    const customer = await addCustomer(app, cookie, {
      contacts: [{ name: 'QA', email: 'qa@buyer.example', language: 'en', receivesCertificates: true }],
    });
    const po = await post(app, cookie, '/api/v1/purchase-orders', {
      customerId: customer.id,
      number: 'PO-BENCH-1',
      date: '2026-01-10',
      items: [{ line: 1, productId: product.id, quantity: n }],
    });
    const delivery = await addDelivery(app, cookie, po.id);
    await post(
      app,
      cookie,
      `/api/v1/deliveries/${delivery.id}/serials`,
      { units: Array.from({ length: n }, (_, i) => ({ serial: serial(i), line: 1, tag: `T-${i + 1}` })) },
      200,
    );
    log(`${name}: ${n} units with shell and seat records; load average ${load()}`);

    // The release, with other requests timed meanwhile.
    const probes: number[] = [];
    let releasing = true;
    const probing = (async () => {
      while (releasing) {
        const t0 = performance.now();
        await app.inject({ url: '/api/v1/deliveries?pageSize=25', headers: { cookie } });
        await app.inject({ url: '/healthz' });
        probes.push((performance.now() - t0) / 2);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const started = performance.now();
    const res = await app.inject({ method: 'POST', url: `/api/v1/deliveries/${delivery.id}/release`, headers: { cookie } });
    if (res.statusCode !== 202) throw new Error(`release: ${res.statusCode} ${res.body}`);
    for (;;) {
      const d = (await app.inject({ url: `/api/v1/deliveries/${delivery.id}`, headers: { cookie } })).json().data;
      if (d.status === 'released') break;
      if (d.status !== 'releasing') throw new Error(`release stopped: ${JSON.stringify(d.releaseError)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    releasing = false;
    await probing;
    const sorted = [...probes].sort((a, b) => a - b);
    const target = engine === 'postgres' ? 30 : 90;
    log(
      `${name}: released ${n} units in ${seconds.toFixed(1)} s (${(n / seconds).toFixed(0)} certificates/s); target < ${target} s: ${met(seconds < target)}; load average ${load()}`,
    );
    log(
      `${name}: other requests during the release (deliveries list, /healthz): ${sorted.length} probes, p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms; target < 200 ms: ${met(percentile(sorted, 99) < 200)}`,
    );
    report({
      what: `release of a ${n.toLocaleString('en')}-unit delivery (gate, issue, sign and store every certificate naming the order), built server, ${name}`,
      figure: `**${seconds.toFixed(1)} s**, ${(n / seconds).toFixed(0)} certificates/s; other requests meanwhile p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms`,
      target: `< ${target} s, others < 200 ms — ${met(seconds < target && percentile(sorted, 99) < 200)}`,
    });

    // The buyer's ZIP of every certificate.
    const [mail] = await sink.waitFor(1, 60_000);
    const token = /\/search\?delivery=([A-Za-z0-9_-]{43})/.exec(mail!.parsed?.text ?? '')?.[1];
    if (!token) throw new Error('no link in the release email');
    // A buyer downloads after the release: by then the report threads have exited (a minute idle,
    // docs/decisions/0033-server-memory.md) and their memory is given back.
    const idleSince = performance.now();
    while (performance.now() - idleSince < 75_000 && server.rssMb() > 300) await new Promise((r) => setTimeout(r, 1000));
    server.resetPeak();
    const rssBefore = server.rssMb();
    const zip = await download(`${server.url}/api/v1/public/deliveries/${token}.zip`);
    const peak = server.peakRssMb();
    log(
      `${name}: ZIP of ${n} certificates, ${(zip.bytes / 1e6).toFixed(1)} MB: first byte ${zip.firstByteMs.toFixed(0)} ms (target < 1000 ms: ${met(zip.firstByteMs < 1000)}), whole ${(zip.totalMs / 1000).toFixed(1)} s (target < 15 s: ${met(zip.totalMs < 15_000)}), server RSS ${rssBefore.toFixed(0)} → peak ${peak.toFixed(0)} MB (target < 300 MB: ${met(peak < 300)}); load average ${load()}`,
    );
    report({
      what: `the buyer's ZIP of ${n.toLocaleString('en')} stored certificates (${(zip.bytes / 1e6).toFixed(1)} MB), streamed, ${name}`,
      figure: `first byte ${zip.firstByteMs.toFixed(0)} ms, whole ${(zip.totalMs / 1000).toFixed(1)} s, server RSS ${rssBefore.toFixed(0)} → peak ${peak.toFixed(0)} MB`,
      target: `first byte < 1 s, whole < 15 s, RSS < 300 MB — ${met(zip.firstByteMs < 1000 && zip.totalMs < 15_000 && peak < 300)}`,
    });
  } finally {
    await server?.stop();
    await sink.close();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function download(url: string): Promise<{ status: number; bytes: number; firstByteMs: number; totalMs: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let first = 0;
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          if (!first) first = performance.now() - t0;
          bytes += c.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, firstByteMs: first, totalMs: performance.now() - t0 }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** 10,000 deliveries of 100 units each (1,000,000 delivered units) over 1,000 customers, written in SQL; the lists' first pages. */
async function listsAtSize(log: (line: string) => void, report: (row: FigureRow) => void): Promise<void> {
  const scratch = await createEmptyPostgresDatabase(
    process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    'trc_lists',
  ).catch(() => undefined);
  if (!scratch) return;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-lists-'));
  let server: Server | undefined;
  try {
    server = await startBuiltServer(dataDir, scratch.url);
    const app = httpApp(server.url);
    const cookie = await signIn(server.url);
    const product = await addProduct(app, cookie);
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const t0 = performance.now();
    await client.query(`
      INSERT INTO customers (name, code, country) SELECT 'Customer ' || g, 'C' || g, 'TW' FROM generate_series(1, 1000) g;
      INSERT INTO purchase_orders (customer_id, number, date, document_type)
        SELECT c.id, 'PO-' || g, date '2020-01-01' + (g % 2000), '3.1'
          FROM generate_series(1, 10000) g JOIN customers c ON c.code = 'C' || (1 + g % 1000);
      INSERT INTO purchase_order_items (purchase_order_id, line, product_id, quantity, shipped)
        SELECT id, 1, '${product.id}', 100, 100 FROM purchase_orders;
      INSERT INTO deliveries (purchase_order_id, number, date, status, unit_count, released_at)
        SELECT id, 'D-' || number, date + 7, 'released', 100, now() FROM purchase_orders;
      INSERT INTO delivery_units (delivery_id, purchase_order_id, line, serial, prefix, width, serial_no)
        SELECT d.id, d.purchase_order_id, 1, 'LS-' || lpad(((row_number() OVER ()) )::text, 8, '0'), 'LS-', 8, row_number() OVER ()
          FROM deliveries d CROSS JOIN generate_series(1, 100);
      ANALYZE;`);
    await client.end();
    log(
      `PostgreSQL: 10,000 deliveries, 1,000,000 units written in ${((performance.now() - t0) / 1000).toFixed(0)} s; load average ${load()}`,
    );
    const medians: string[] = [];
    let worst = 0;
    for (const url of [
      '/api/v1/deliveries?pageSize=25',
      '/api/v1/deliveries?pageSize=25&sort=customer&order=asc',
      '/api/v1/deliveries?pageSize=25&status=released&sort=date&order=desc',
      '/api/v1/purchase-orders?pageSize=25',
      '/api/v1/purchase-orders?pageSize=25&sort=number&order=asc',
    ]) {
      const times: number[] = [];
      for (let i = 0; i < 25; i++) {
        const s = performance.now();
        const r = await app.inject({ url, headers: { cookie } });
        if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode}`);
        times.push(performance.now() - s);
      }
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      medians.push(`${p50.toFixed(1)} ms`);
      worst = Math.max(worst, p50);
      log(
        `PostgreSQL: ${url} first page median ${p50.toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms; target < 50 ms: ${met(p50 < 50)}`,
      );
    }
    report({
      what: 'delivery and order lists, first page, 10,000 deliveries and 1,000,000 delivered units, PostgreSQL',
      figure: `deliveries by creation / customer / status and date: median ${medians.slice(0, 3).join(' / ')}; orders by creation / number ${medians.slice(3).join(' / ')}`,
      target: `< 50 ms — ${met(worst < 50)}`,
    });
  } finally {
    await server?.stop();
    await scratch.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const ADMIN = { name: 'Bench Admin', email: 'bench-admin@example.com', password: 'Correct-Horse-Battery-9-Staple!' };

async function signIn(base: string): Promise<string> {
  const reg = await send(
    base,
    'POST',
    '/api/v1/auth/register',
    { origin: base, 'content-type': 'application/json' },
    JSON.stringify(ADMIN),
  );
  const cookie = reg.headers['set-cookie']?.[0]?.split(';')[0];
  if (reg.status !== 201 || !cookie) throw new Error(`register: ${reg.status} ${reg.body}`);
  return cookie;
}
