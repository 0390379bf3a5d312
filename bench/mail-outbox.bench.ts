/**
 * Messages per second through the outbox worker (claim, send, record) to a local smtp-server, with
 * nodemailer pooled (as the server runs it) and unpooled (a connection per message), in the same run.
 * Each message carries an 8 KB attachment, about the size of a report PDF. PGlite in memory, or
 * PostgreSQL when TEST_DATABASE_URL is set (a fresh database, dropped afterwards).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../src/server/db/client';
import { mailOutbox } from '../src/server/db/schema/index';
import { enqueueMail } from '../src/server/mail/outbox';
import { createSmtpTransport, type MailLog } from '../src/server/mail/transports';
import { startMailWorker } from '../src/server/mail/worker';
import { createTestDatabase } from '../test/helpers/database';
import { startSmtpSink, type SmtpSink } from '../test/helpers/smtp-sink';
import type { FigureRow } from './lib/figures-table';

const silent: MailLog = { info() {}, warn() {}, error() {} };
const FROM = 'Test Report Center <no-reply@bench.example.com>';
const attachment = { filename: 'report.pdf', contentType: 'application/pdf', contentBase64: randomBytes(8 * 1024).toString('base64') };

async function enqueue(db: Db, count: number): Promise<void> {
  await db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      await enqueueMail(tx, {
        kind: 'bench',
        to: `v${i}@example.com`,
        language: 'en',
        subject: `Report ${i}`,
        text: 'Your report is attached.',
        attachments: [attachment],
      });
    }
  });
}

async function drained(db: Db): Promise<void> {
  for (;;) {
    const [r] = await db
      .select({ open: sql<number>`count(*)::int` })
      .from(mailOutbox)
      .where(sql`status <> 'sent'`);
    if (r!.open === 0) return;
    await new Promise((res) => setTimeout(res, 5));
  }
}

/** Messages per second for `count` messages, after a warm-up batch on the same transport. */
async function measure(db: Db, sink: SmtpSink, pool: boolean, count: number, batchSize: number): Promise<number> {
  const transport = createSmtpTransport(sink.url, FROM, { pool });
  const worker = startMailWorker({ db, transport, log: silent, batchSize, pollIntervalMs: 1 });
  try {
    await enqueue(db, 20);
    await sink.waitFor(20);
    await drained(db);
    await db.delete(mailOutbox);
    sink.messages.length = 0;

    await enqueue(db, count);
    const started = performance.now();
    worker.kick();
    // Wait on the sink first: polling the table meanwhile would compete with the worker for PGlite's one connection.
    await sink.waitFor(count, 120_000);
    await drained(db);
    const seconds = (performance.now() - started) / 1000;
    if (sink.messages.length !== count) throw new Error(`sink received ${sink.messages.length} of ${count}`);
    await db.delete(mailOutbox);
    sink.messages.length = 0;
    return count / seconds;
  } finally {
    await worker.stop();
    await transport.close();
  }
}

export default async function mailOutboxBench(
  log: (line: string) => void,
  _args: string[],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  const testDb = await createTestDatabase();
  const sink = await startSmtpSink({ parse: false });
  try {
    const db = testDb.database.db;
    log(`database: ${testDb.database.kind}; 8 KB attachment per message`);
    const rates: Record<number, { pooled: number; unpooled: number }> = {};
    for (const batchSize of [10, 1]) {
      const pooled = await measure(db, sink, true, batchSize === 1 ? 100 : 500, batchSize);
      const unpooled = await measure(db, sink, false, batchSize === 1 ? 30 : 200, batchSize);
      rates[batchSize] = { pooled, unpooled };
      const label = batchSize === 1 ? 'one at a time (batch 1)' : `worker default (batch ${batchSize}, sent concurrently)`;
      log(
        `${label}: pooled ${pooled.toFixed(0)} msg/s (${(1000 / pooled).toFixed(1)} ms/msg), unpooled ${unpooled.toFixed(0)} msg/s (${(1000 / unpooled).toFixed(1)} ms/msg), pooled/unpooled ${(pooled / unpooled).toFixed(1)}x`,
      );
    }
    const [batch, single] = [rates[10]!, rates[1]!];
    const rate = (x: number) => `${x.toFixed(0)} msg/s`;
    report({
      what: `mail outbox to a local SMTP server, ${testDb.database.kind}`,
      figure: `pooled ${rate(batch.pooled)}; one at a time ${rate(single.pooled)}`,
      peer: `unpooled ${rate(batch.unpooled)} → **${(batch.pooled / batch.unpooled).toFixed(1)}×**; one at a time unpooled ${rate(single.unpooled)} → ${(single.pooled / single.unpooled).toFixed(0)}×`,
    });
  } finally {
    await sink.close();
    await testDb.drop();
  }
}
