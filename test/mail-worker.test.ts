/**
 * The outbox worker against a real SMTP server: delivery, retries, permanent failures, leases and the
 * outcome hooks. Rows are made due by setting next_attempt_at instead of waiting.
 */
import net from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../src/server/db/schema/index';
import { enqueueMail, type NewMail } from '../src/server/mail/outbox';
import type { MailOutcome } from '../src/server/mail/outcomes';
import { mailHubOf } from '../src/server/mail/hub';
import { createSmtpTransport, type MailLog, type MailTransport } from '../src/server/mail/transports';
import { createMailWorker, type MailWorker } from '../src/server/mail/worker';
import { createTestDatabase, type TestDatabase } from './helpers/database';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

const silent: MailLog = { info() {}, warn() {}, error() {} };
const FROM = 'Test Report Center <no-reply@reports.example.com>';
// Starts like a PDF and carries bytes that would not survive a text-mode round trip.
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
  Buffer.from([0, 1, 2, 254, 255]),
  Buffer.from('\n%%EOF\n'),
]);

let testDb: TestDatabase;
let sink: SmtpSink;
let transport: MailTransport;
let worker: MailWorker;

const db = () => testDb.database.db;
const mail = (over: Partial<NewMail> = {}): NewMail => ({
  kind: 'test',
  to: 'visitor@example.com',
  language: 'en',
  subject: 'Your test report',
  text: 'Plain body',
  ...over,
});
const row = async (id: string) => (await db().select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;
const makeDue = (id: string) =>
  db()
    .update(mailOutbox)
    .set({ nextAttemptAt: sql`now()` })
    .where(eq(mailOutbox.id, id));
const secondsUntil = (d: Date, from: Date) => (d.getTime() - from.getTime()) / 1000;

beforeAll(async () => {
  testDb = await createTestDatabase();
  sink = await startSmtpSink();
  transport = createSmtpTransport(sink.url, FROM);
  worker = createMailWorker({ db: db(), transport, log: silent });
});
afterAll(async () => {
  await worker.stop();
  await transport.close();
  await sink.close();
  await testDb.drop();
});
beforeEach(async () => {
  await db().delete(mailOutbox);
  sink.messages.length = 0;
});

describe('mail worker', () => {
  it('delivers subject, text, html and attachment intact and marks the row sent', async () => {
    const id = await enqueueMail(
      db(),
      mail({
        subject: 'Test report VB2311-000123 / 測試報告',
        text: 'Dear customer,\nyour report is attached.',
        html: '<p>Dear customer, your <b>report</b> is attached.</p>',
        attachments: [{ filename: 'report-VB2311-000123.pdf', contentType: 'application/pdf', contentBase64: PDF.toString('base64') }],
      }),
    );
    expect(await worker.runOnce()).toBe(1);

    const [m] = await sink.waitFor(1);
    expect(m!.to).toEqual(['visitor@example.com']);
    expect(m!.from).toBe('no-reply@reports.example.com');
    const p = m!.parsed!;
    expect(p.subject).toBe('Test report VB2311-000123 / 測試報告');
    expect(p.text?.trim()).toBe('Dear customer,\nyour report is attached.');
    expect(p.html).toContain('your <b>report</b> is attached');
    expect(p.messageId).toBe(`<${id}@reports.example.com>`);
    expect(p.attachments).toHaveLength(1);
    expect(p.attachments[0]!.filename).toBe('report-VB2311-000123.pdf');
    expect(p.attachments[0]!.mimeType).toBe('application/pdf');
    expect(Buffer.from(p.attachments[0]!.content as ArrayBuffer).equals(PDF)).toBe(true);

    const r = await row(id);
    expect(r).toMatchObject({ status: 'sent', attempts: 1, lastError: null, lockedUntil: null });
    expect(r.sentAt).toBeInstanceOf(Date);
    expect(await worker.runOnce()).toBe(0);
  });

  it('sends an attachment named by ref with the bytes its kind’s composer reads, and fails it for good without one', async () => {
    const read: string[] = [];
    const off = mailHubOf(db()).onCompose('by-ref', async (_db, r) => {
      read.push(...r.attachments.map((a) => a.ref ?? ''));
      return { text: r.textBody, attachments: r.attachments.map((a) => ({ ...a, contentBase64: PDF.toString('base64') })) };
    });
    try {
      const attachments = [{ filename: 'test-report-A.pdf', contentType: 'application/pdf', ref: 'report-a' }];
      const id = await enqueueMail(db(), mail({ kind: 'by-ref', attachments }));
      // The row holds the name only; the bytes are read when it is sent.
      expect((await row(id)).attachments).toEqual(attachments);
      expect(await worker.runOnce()).toBe(1);
      const [m] = await sink.waitFor(1);
      expect(read).toEqual(['report-a']);
      expect(Buffer.from(m!.parsed!.attachments[0]!.content as ArrayBuffer).equals(PDF)).toBe(true);
      expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1 });

      // A kind without a composer cannot fill it in: failed at once, not retried.
      const orphan = await enqueueMail(db(), mail({ kind: 'no-composer', attachments }));
      expect(await worker.runOnce()).toBe(1);
      expect(await row(orphan)).toMatchObject({ status: 'failed', attempts: 1 });
      expect((await row(orphan)).lastError).toMatch(/not composed/);
      expect(sink.messages).toHaveLength(1);
    } finally {
      off();
    }
  });

  it('retries temporary SMTP errors with growing delays, then sends', async () => {
    const id = await enqueueMail(db(), mail());
    sink.failNext(1, { code: 451, message: 'Greylisted, try later' });
    sink.failNext(1, { code: 421, message: 'Service not available' });

    await worker.runOnce();
    let r = await row(id);
    expect(r).toMatchObject({ status: 'queued', attempts: 1 });
    expect(r.lastError).toContain('451');
    // 60 s ± 20% after the first failure, 120 s ± 20% after the second
    const now1 = new Date();
    expect(secondsUntil(r.nextAttemptAt, now1)).toBeGreaterThan(40);
    expect(secondsUntil(r.nextAttemptAt, now1)).toBeLessThan(80);
    expect(await worker.runOnce()).toBe(0);

    await makeDue(id);
    await worker.runOnce();
    r = await row(id);
    expect(r).toMatchObject({ status: 'queued', attempts: 2 });
    expect(r.lastError).toContain('421');
    const now2 = new Date();
    expect(secondsUntil(r.nextAttemptAt, now2)).toBeGreaterThan(90);
    expect(secondsUntil(r.nextAttemptAt, now2)).toBeLessThan(150);

    await makeDue(id);
    await worker.runOnce();
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 3 });
    expect(sink.messages).toHaveLength(1);
  });

  it('retries a dropped connection and a refused one', async () => {
    const dropped = await enqueueMail(db(), mail());
    sink.dropNext(1);
    await worker.runOnce();
    expect(await row(dropped)).toMatchObject({ status: 'queued', attempts: 1 });
    await makeDue(dropped);
    await worker.runOnce();
    expect(await row(dropped)).toMatchObject({ status: 'sent', attempts: 2 });

    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = createSmtpTransport(`smtp://127.0.0.1:${port}`, FROM, { pool: false });
    const refusedWorker = createMailWorker({ db: db(), transport: nowhere, log: silent });
    const refused = await enqueueMail(db(), mail());
    await refusedWorker.runOnce();
    const r = await row(refused);
    expect(r).toMatchObject({ status: 'queued', attempts: 1 });
    expect(r.lastError).toMatch(/ECONNREFUSED|ECONNECTION|ESOCKET/);
    await nowhere.close();
  });

  it('fails a permanent refusal at once, without retrying', async () => {
    const id = await enqueueMail(db(), mail({ to: 'nobody@example.com' }));
    sink.failNext(1, { code: 550, message: 'No such user here', stage: 'rcpt' });
    await worker.runOnce();
    const r = await row(id);
    expect(r).toMatchObject({ status: 'failed', attempts: 1 });
    expect(r.lastError).toContain('550');
    expect(r.lastError).toContain('No such user here');
    await makeDue(id);
    expect(await worker.runOnce()).toBe(0);
    expect(sink.messages).toHaveLength(0);
  });

  it('fails after max_attempts temporary errors, keeping the last error', async () => {
    const id = await enqueueMail(db(), mail({ maxAttempts: 3 }));
    sink.failNext(2, { code: 451, message: 'Busy' });
    sink.failNext(1, { code: 452, message: 'Out of storage' });
    for (let i = 0; i < 3; i++) {
      await makeDue(id);
      await worker.runOnce();
    }
    const r = await row(id);
    expect(r).toMatchObject({ status: 'failed', attempts: 3 });
    expect(r.lastError).toContain('452');
    await makeDue(id);
    expect(await worker.runOnce()).toBe(0);
    expect(sink.messages).toHaveLength(0);
  });

  it('never sends a message whose transaction rolled back', async () => {
    await expect(
      db().transaction(async (tx) => {
        await enqueueMail(tx, mail({ subject: 'rolled back' }));
        throw new Error('the change that caused the mail failed');
      }),
    ).rejects.toThrow('the change that caused the mail failed');
    expect(await worker.runOnce()).toBe(0);
    expect(await db().select().from(mailOutbox)).toHaveLength(0);
    expect(sink.messages).toHaveLength(0);
  });

  it('takes over a row whose worker died mid-send, but not after its last attempt', async () => {
    const id = await enqueueMail(db(), mail());
    const last = await enqueueMail(db(), mail({ maxAttempts: 2 }));
    // As a dead worker leaves them: claimed, lease run out.
    await db()
      .update(mailOutbox)
      .set({ status: 'sending', attempts: 1, lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(mailOutbox.id, id));
    await db()
      .update(mailOutbox)
      .set({ status: 'sending', attempts: 2, lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(mailOutbox.id, last));
    expect(await worker.runOnce()).toBe(2);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
    const r = await row(last);
    expect(r).toMatchObject({ status: 'failed', attempts: 2 });
    expect(r.lastError).toMatch(/stopped before it finished/);
    expect(sink.messages).toHaveLength(1);
  });
});

describe('outcome hooks', () => {
  const seen: { id: string; status: string; outcome: MailOutcome }[] = [];
  let off: () => void;
  beforeEach(() => {
    seen.length = 0;
    off = mailHubOf(db()).onOutcome('hooked', (r, outcome) => {
      seen.push({ id: r.id, status: r.status, outcome });
    });
  });
  afterEach(() => off());

  it('tells the kind’s handler about retries, sending and failure', async () => {
    const ok = await enqueueMail(db(), mail({ kind: 'hooked' }));
    sink.failNext(1, { code: 451 });
    await worker.runOnce();
    await makeDue(ok);
    await worker.runOnce();
    const bad = await enqueueMail(db(), mail({ kind: 'hooked' }));
    sink.failNext(1, { code: 550 });
    await worker.runOnce();
    await enqueueMail(db(), mail({ kind: 'other' }));
    await worker.runOnce();

    expect(seen.map((s) => [s.id, s.status, s.outcome.status])).toEqual([
      [ok, 'queued', 'retrying'],
      [ok, 'sent', 'sent'],
      [bad, 'failed', 'failed'],
    ]);
    expect(seen[0]!.outcome).toMatchObject({ error: expect.stringContaining('451'), nextAttemptAt: expect.any(Date) });
  });

  it('keeps the outcome when a handler fails, even after a failed SQL statement', async () => {
    mailHubOf(db()).onOutcome('hooked', async (_r, _o, tx) => {
      await tx.execute(sql`SELECT * FROM no_such_table`);
    });
    const id = await enqueueMail(db(), mail({ kind: 'hooked' }));
    await worker.runOnce();
    expect(await row(id)).toMatchObject({ status: 'sent' });
    expect(sink.messages).toHaveLength(1);
  });

  it('commits what a handler writes with the outcome', async () => {
    const other = await enqueueMail(db(), mail({ kind: 'parked', maxAttempts: 1 }));
    await db()
      .update(mailOutbox)
      .set({ nextAttemptAt: sql`now() + interval '1 hour'` })
      .where(eq(mailOutbox.id, other));
    mailHubOf(db()).onOutcome('hooked', async (r, o, tx) => {
      await tx
        .update(mailOutbox)
        .set({ lastError: `${o.status}:${r.id}` })
        .where(eq(mailOutbox.id, other));
    });
    const id = await enqueueMail(db(), mail({ kind: 'hooked' }));
    await worker.runOnce();
    expect((await row(other)).lastError).toBe(`sent:${id}`);
  });
});
