/**
 * The worker as the server runs it: started by startBackgroundWork with SMTP_URL or without it (the
 * .eml fallback), woken by a kick, and stopped only after the sends in flight are recorded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackgroundWork } from '../src/server/background';
import { mailOutbox } from '../src/server/db/schema/index';
import { renderEmail } from '../src/server/mail/layout';
import { enqueueMail, type NewMail } from '../src/server/mail/outbox';
import { createMailTransport, type MailTransport } from '../src/server/mail/transports';
import { createMailWorker, startMailWorker } from '../src/server/mail/worker';
import { buildTestApp, type TestApp } from './helpers/app';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n\x00\x01\xff\n%%EOF\n', 'latin1');

function reportMail(): NewMail {
  const { html, text } = renderEmail({ language: 'zh', title: '測試報告', paragraphs: ['您的測試報告已附上。'] });
  return {
    kind: 'test-report',
    to: 'visitor@example.com',
    language: 'zh',
    subject: '測試報告 VB2311-000123',
    text,
    html,
    attachments: [{ filename: '測試報告.pdf', contentType: 'application/pdf', contentBase64: PDF.toString('base64') }],
  };
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('without SMTP_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('writes each message as an .eml file under DATA_DIR/outbox that parses back, and logs where', async () => {
    const lines: string[] = [];
    const log = { info: (_o: object, m?: string) => void lines.push(m ?? ''), warn() {}, error() {} };
    const transport = createMailTransport(t.config, log);
    const worker = createMailWorker({ db: t.app.ctx.db, transport, log });
    const id = await enqueueMail(t.app.ctx.db, reportMail());
    expect(await worker.runOnce()).toBe(1);

    const dir = path.join(t.config.dataDir, 'outbox');
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`_test-report_${id}\\.eml$`));
    const file = path.join(dir, files[0]!);
    expect(lines.some((l) => l.includes(file) && l.includes('SMTP_URL'))).toBe(true);

    const raw = fs.readFileSync(file);
    expect(raw.includes('\r\n')).toBe(true);
    const parsed = await PostalMime.parse(raw);
    expect(parsed.subject).toBe('測試報告 VB2311-000123');
    expect(parsed.to?.[0]?.address).toBe('visitor@example.com');
    expect(parsed.text).toContain('您的測試報告已附上。');
    expect(parsed.html).toContain('lang="zh-Hant"');
    expect(parsed.attachments[0]!.filename).toBe('測試報告.pdf');
    expect(Buffer.from(parsed.attachments[0]!.content as ArrayBuffer).equals(PDF)).toBe(true);
    const [r] = await t.app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(r).toMatchObject({ status: 'sent', attempts: 1 });
    await worker.stop();
    await transport.close();
  });

  it('runs the worker from startBackgroundWork and stops it', async () => {
    const stop = await startBackgroundWork(t.app);
    try {
      const id = await enqueueMail(t.app.ctx.db, { ...reportMail(), kind: 'background' });
      t.app.ctx.mail.kick();
      const dir = path.join(t.config.dataDir, 'outbox');
      await until(() => fs.readdirSync(dir).find((f) => f.endsWith(`${id}.eml`)));
    } finally {
      await stop();
    }
  });
});

describe('with SMTP_URL', () => {
  let t: TestApp;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await buildTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'Reports <reports@example.com>' });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('sends through the SMTP server when kicked after the enqueueing transaction commits', async () => {
    const stop = await startBackgroundWork(t.app);
    try {
      await t.app.ctx.db.transaction((tx) => enqueueMail(tx, reportMail()));
      t.app.ctx.mail.kick();
      const [m] = await sink.waitFor(1);
      expect(m!.from).toBe('reports@example.com');
      expect(m!.parsed!.subject).toBe('測試報告 VB2311-000123');
    } finally {
      await stop();
    }
    expect(fs.existsSync(path.join(t.config.dataDir, 'outbox'))).toBe(false);
  });

  it('stop() waits for a send in flight and records its outcome', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const sending = new Promise<void>((r) => (started = r));
    const slow: MailTransport = {
      description: 'slow',
      keepsCopies: false,
      async send(row) {
        started();
        await gate;
        return { messageId: `<${row.id}@test>` };
      },
      async close() {},
    };
    const worker = startMailWorker({ db: t.app.ctx.db, transport: slow, log: { info() {}, warn() {}, error() {} }, pollIntervalMs: 10 });
    const id = await enqueueMail(t.app.ctx.db, { ...reportMail(), kind: 'slow' });
    worker.kick();
    await sending;
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    const [r] = await t.app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(r!.status).toBe('sent');
  });
});
