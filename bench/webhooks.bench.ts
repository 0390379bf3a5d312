/**
 * Webhook events per second through the outbox worker (claim, sign, send, record) to a local receiver that
 * verifies every signature with the `standardwebhooks` package, as a customer's system would: 1,000 events
 * (`--events N` for another count), each to one of 8 customers' endpoints in turn, so that the one-in-flight
 * rule per endpoint is in the figure. Target: under 10 s. PGlite in memory, or PostgreSQL when
 * TEST_DATABASE_URL is set (a fresh database, dropped afterwards). The load average is printed beside the
 * figure: taken beside other work it cannot be compared.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../src/server/db/client';
import { customers, webhookEndpoints } from '../src/server/db/schema/index';
import { enqueueWebhookEvent } from '../src/server/modules/webhooks/events';
import { newSecret } from '../src/server/modules/webhooks/signature';
import { startWebhookWorker } from '../src/server/modules/webhooks/worker';
import { createTestDatabase } from '../test/helpers/database';
import { startReceiver } from '../test/helpers/webhook-receiver';
import type { FigureRow } from './lib/figures-table';

const silent = { info() {}, warn() {}, error() {} };
const ENDPOINTS = 8;

export default async function webhooksBench(log: (line: string) => void, args: string[], report: (row: FigureRow) => void = () => {}) {
  const at = args.indexOf('--events');
  const count = at >= 0 ? Math.max(1, Number(args[at + 1])) : 1000;
  const testDb = await createTestDatabase();
  const receiver = await startReceiver();
  try {
    const db = testDb.database.db;
    const secret = newSecret();
    receiver.secret = secret;
    const buyers = await db
      .insert(customers)
      .values(Array.from({ length: ENDPOINTS }, (_, i) => ({ name: `Bench buyer ${i}`, code: `BENCH${i}` })))
      .returning({ id: customers.id });
    await db
      .insert(webhookEndpoints)
      .values(buyers.map((b, i) => ({ url: `${receiver.url}/${i}`, events: ['certificate.issued'], customerId: b.id, secret })));
    await db.transaction(async (tx) => {
      for (let i = 0; i < count; i++) {
        await enqueueWebhookEvent(tx, {
          type: 'certificate.issued',
          customerId: buyers[i % ENDPOINTS]!.id,
          summary: `Certificate ${i} issued`,
          data: { reportId: `r${i}` },
          links: { verification: `/search?report=r${i}` },
        });
      }
    });
    const expected = count;
    log(`database: ${testDb.database.kind}; ${count} events, ${ENDPOINTS} endpoints`);
    const started = performance.now();
    const worker = startWebhookWorker({
      db,
      log: silent,
      publicBaseUrl: 'https://reports.example.com',
      allowPrivate: true,
      timeoutMs: 10_000,
      pollIntervalMs: 5,
    });
    const deadline = Date.now() + 120_000;
    while (receiver.received.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await worker.stop();
    const seconds = (performance.now() - started) / 1000;
    const [open] = rowsOf<{ n: number }>(
      await db.execute(sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered'`),
    );
    const bad = receiver.received.filter((r) => r.verifyError).length;
    if (receiver.received.length !== expected || open!.n !== 0 || bad)
      throw new Error(`received ${receiver.received.length} of ${expected}, ${open!.n} not delivered, ${bad} failed verification`);
    const load = os.loadavg()[0]!.toFixed(1);
    log(`${count} events in ${seconds.toFixed(2)} s: ${(expected / seconds).toFixed(0)} events/s; load average ${load}`);
    report({
      what: `${count.toLocaleString('en')} signed webhook events through the outbox worker to ${ENDPOINTS} local endpoints, verified by the receiver, ${testDb.database.kind}`,
      figure: `**${seconds.toFixed(1)} s** (${(expected / seconds).toFixed(0)} events/s)`,
      target: `1,000 in < 10 s — ${count >= 1000 && seconds < 10 ? 'met' : '**not met**'}`,
    });
  } finally {
    await receiver.close();
    await testDb.drop();
  }
}
