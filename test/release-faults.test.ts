/**
 * A delivery's release against the real server process: killed with SIGKILL halfway, the next start resumes
 * it and issues every unit exactly once (a unit whose certificate was stored but not recorded finds it
 * again); with the SMTP server down when it ends, the delivery is released and the link's email waits in the
 * outbox, then arrives once when mail is back (docs/decisions/0044).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../src/server/db/client';
import { addProduct, postRange, rangeBody } from './helpers/catalogue';
import { createEmptyPostgresDatabase } from './helpers/database';
import { freePort } from './helpers/free-port';
import { httpApp } from './helpers/http-app';
import { createBench, postBatch, record } from './helpers/machine-data';
import { addCustomer, addDelivery, post } from './helpers/orders';
import { startServer, type ServerProcess } from './helpers/server-process';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

const serverUrl = process.env.TEST_DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-release-'));
let scratch: { url: string; drop(): Promise<void> } | undefined;
let server: ServerProcess | undefined;
let sink: SmtpSink | undefined;

afterAll(async () => {
  await server?.stop();
  await sink?.close();
  await scratch?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function inDatabase<T>(read: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase(scratch ? { url: scratch.url, maxConnections: 1 } : { dataDir });
  try {
    return await read(database.db);
  } finally {
    await database.close();
  }
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('resumes a release killed halfway, issues each unit once, and sends the link once when mail is back', async () => {
  if (serverUrl) scratch = await createEmptyPostgresDatabase(serverUrl, 'trc_release');
  const smtpPort = await freePort();
  // SMTP down: nothing listens on its port while the release runs.
  const env = { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, REPORT_WORKERS: '1' };
  // One address for every start, as a real server keeps it: the public base URL is part of a report's reuse
  // key, so a unit whose certificate was stored but not yet recorded when the server was killed finds it again.
  const port = await freePort();
  server = await startServer({ dataDir, databaseUrl: scratch?.url, env, port });
  let app = httpApp(server.url);
  const cookie = server.cookie;
  const product = await addProduct(app, cookie);
  const range = await postRange(app, cookie, rangeBody(product.id, 'RK-000001', 'RK-000100', 100));
  expect(range.statusCode).toBe(201);
  const bench = await createBench(app, cookie);
  const serials = Array.from({ length: 60 }, (_, i) => `RK-${String(i + 1).padStart(6, '0')}`);
  const sent = await postBatch(app, bench.key, {
    records: serials.flatMap((serial) => [record({ serial, testType: 'shell' }), record({ serial, testType: 'seat' })]),
  });
  expect(sent.statusCode).toBeLessThan(300);
  const customer = await addCustomer(app, cookie, {
    contacts: [{ name: 'QA', email: 'qa@buyer.example', language: 'en', receivesCertificates: true }],
  });
  const po = await post(app, cookie, '/api/v1/purchase-orders', {
    customerId: customer.id,
    number: 'PO-KILL-1',
    date: '2024-04-20',
    items: [{ line: 1, productId: product.id, quantity: 60 }],
  });
  const delivery = await addDelivery(app, cookie, po.id);
  await post(app, cookie, `/api/v1/deliveries/${delivery.id}/serials`, { units: serials.map((serial) => ({ serial, line: 1 })) }, 200);

  const released = await app.inject({ method: 'POST', url: `/api/v1/deliveries/${delivery.id}/release`, headers: { cookie } });
  expect(released.statusCode).toBe(202);
  const detail = async () => (await app.inject({ url: `/api/v1/deliveries/${delivery.id}`, headers: { cookie } })).json().data;
  // Killed as soon as a certificate is stored, long before all 60 are (on PostgreSQL a few go out a second).
  const halfway = await until(
    'a first certificate',
    async () => {
      const d = await detail();
      return d.issuedCount >= 1 ? d : null;
    },
    120_000,
  );
  expect(halfway.status).toBe('releasing');
  const exited = new Promise<void>((resolve) => server!.child.once('exit', () => resolve()));
  server.child.kill('SIGKILL');
  await exited;
  const stored = await inDatabase(async (db) => {
    // A kill between storing a certificate and recording it on its unit, made certain: the first recorded
    // unit forgets its certificate, as if the kill had come a moment earlier.
    await db.execute(sql`
      WITH first AS (SELECT id FROM delivery_units WHERE delivery_id = ${delivery.id} AND report_id IS NOT NULL ORDER BY id LIMIT 1),
           forgot AS (UPDATE delivery_units SET report_id = NULL WHERE id IN (SELECT id FROM first) RETURNING 1)
      UPDATE deliveries SET issued_count = issued_count - (SELECT count(*) FROM forgot)::int WHERE id = ${delivery.id}`);
    return rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM reports WHERE delivery_unit_id IS NOT NULL`));
  });
  expect(stored[0]!.n).toBeGreaterThanOrEqual(1);
  expect(stored[0]!.n).toBeLessThan(60);

  // The next start resumes it; mail is still down.
  server = await startServer({ dataDir, databaseUrl: scratch?.url, env, port });
  app = httpApp(server.url);
  const after = await until('the release to end', async () => {
    const d = (await app.inject({ url: `/api/v1/deliveries/${delivery.id}`, headers: { cookie: server!.cookie } })).json().data;
    return d.status === 'released' ? d : null;
  });
  expect(after.issuedCount).toBe(60);
  // Time for the mail worker to try the link's email against the SMTP server that is down.
  await new Promise((r) => setTimeout(r, 2000));
  await server.stop();

  const facts = await inDatabase(async (db) => {
    const [counts] = rowsOf<{ reports: number; units: number; numbers: number; links: number; mails: number; unsent: number }>(
      await db.execute(sql`SELECT
        (SELECT count(*)::int FROM reports r JOIN delivery_units u ON u.id = r.delivery_unit_id WHERE u.delivery_id = ${delivery.id}) AS reports,
        (SELECT count(DISTINCT r.delivery_unit_id)::int FROM reports r JOIN delivery_units u ON u.id = r.delivery_unit_id WHERE u.delivery_id = ${delivery.id}) AS units,
        (SELECT count(DISTINCT r.number)::int FROM reports r JOIN delivery_units u ON u.id = r.delivery_unit_id WHERE u.delivery_id = ${delivery.id}) AS numbers,
        (SELECT count(*)::int FROM delivery_links WHERE delivery_id = ${delivery.id}) AS links,
        (SELECT count(*)::int FROM mail_outbox WHERE recipient = 'qa@buyer.example') AS mails,
        (SELECT count(*)::int FROM mail_outbox WHERE recipient = 'qa@buyer.example' AND status = 'queued') AS unsent`),
    );
    // The hour until the next attempt passes.
    await db.execute(sql`UPDATE mail_outbox SET next_attempt_at = now() WHERE recipient = 'qa@buyer.example' AND status = 'queued'`);
    return counts!;
  });
  expect(facts).toEqual({ reports: 60, units: 60, numbers: 60, links: 1, mails: 1, unsent: 1 });

  // Mail is back: the link arrives once.
  sink = await startSmtpSink({ port: smtpPort });
  server = await startServer({ dataDir, databaseUrl: scratch?.url, env, port });
  const [mail] = await sink.waitFor(1, 60_000);
  expect(mail!.to).toContain('qa@buyer.example');
  expect(mail!.parsed!.text).toMatch(/\/search\?delivery=[A-Za-z0-9_-]{43}/);
  await new Promise((r) => setTimeout(r, 1500));
  expect(sink.messages).toHaveLength(1);
}, 480_000);
