/**
 * Several workers on one outbox never send a message twice: two in one process (the only way on PGlite,
 * which has one connection), and on PostgreSQL two "instances" with their own connection pools.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../src/server/db/client';
import { mailOutbox } from '../src/server/db/schema/index';
import { enqueueMail } from '../src/server/mail/outbox';
import { createSmtpTransport, type MailLog, type MailTransport } from '../src/server/mail/transports';
import { startMailWorker, type MailWorker } from '../src/server/mail/worker';
import { createTestDatabase, type TestDatabase } from './helpers/database';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

const silent: MailLog = { info() {}, warn() {}, error() {} };
const FROM = 'Test Report Center <no-reply@reports.example.com>';
const COUNT = 300;
// Retries come quickly here so that the requeue path runs under contention too.
const fastRetry = { baseDelayMs: 20, maxDelayMs: 100, jitter: 0.5 };

let testDb: TestDatabase;
let sink: SmtpSink;
const transports: MailTransport[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  sink = await startSmtpSink({ parse: false });
});
afterAll(async () => {
  for (const t of transports) await t.close();
  await sink.close();
  await testDb.drop();
});
beforeEach(async () => {
  await testDb.database.db.delete(mailOutbox);
  sink.messages.length = 0;
});

function worker(db: Db, batchSize: number): MailWorker {
  const transport = createSmtpTransport(sink.url, FROM);
  transports.push(transport);
  return startMailWorker({ db, transport, log: silent, batchSize, pollIntervalMs: 10, retryPolicy: fastRetry });
}

async function enqueueMany(db: Db): Promise<Set<string>> {
  const ids = new Set<string>();
  await db.transaction(async (tx) => {
    for (let i = 0; i < COUNT; i++)
      ids.add(await enqueueMail(tx, { kind: 'bulk', to: `v${i}@example.com`, language: 'en', subject: `n${i}`, text: 'x' }));
  });
  return ids;
}

async function settled(db: Db): Promise<void> {
  for (;;) {
    const [r] = await db
      .select({ open: sql<number>`count(*)::int` })
      .from(mailOutbox)
      .where(sql`status IN ('queued', 'sending')`);
    if (r!.open === 0) return;
    await new Promise((res) => setTimeout(res, 20));
  }
}

function deliveredIds(): string[] {
  return sink.messages.map((m) => /^Message-ID:\s*<([^@>]+)@/im.exec(m.raw.toString('utf8'))?.[1] ?? 'none');
}

async function expectEachSentOnce(db: Db, ids: Set<string>): Promise<void> {
  await settled(db);
  // Late duplicates would arrive after the rows settled; give them a moment to show.
  await new Promise((res) => setTimeout(res, 200));
  const delivered = deliveredIds();
  expect(delivered).toHaveLength(COUNT);
  expect(new Set(delivered)).toEqual(ids);
  const rows = await db.select({ status: mailOutbox.status }).from(mailOutbox);
  expect(rows.every((r) => r.status === 'sent')).toBe(true);
}

describe('concurrent workers', () => {
  it('two workers in one process send each message exactly once, with temporary failures mixed in', async () => {
    const db = testDb.database.db;
    const ids = await enqueueMany(db);
    sink.failNext(15, { code: 451 });
    sink.dropNext(5);
    const workers = [worker(db, 7), worker(db, 10)];
    try {
      await expectEachSentOnce(db, ids);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    expect(sink.refused).toBe(20);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('two instances on one PostgreSQL database send each message exactly once', async () => {
    const instances: Database[] = [
      await openDatabase({ url: testDb.url!, maxConnections: 4 }),
      await openDatabase({ url: testDb.url!, maxConnections: 4 }),
    ];
    const ids = await enqueueMany(instances[0]!.db);
    sink.failNext(15, { code: 421 });
    const workers = instances.flatMap((d) => [worker(d.db, 5), worker(d.db, 10)]);
    try {
      await expectEachSentOnce(instances[0]!.db, ids);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      for (const d of instances) await d.close();
    }
  });
});
