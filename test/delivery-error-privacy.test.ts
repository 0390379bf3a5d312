/**
 * Staff never see a customer's address in a delivery error: a bounce quoting the recipient is stored masked
 * (search request and outbox), the list, the detail, the deliveries and the CSV show it masked to staff and
 * admins, rows stored before are masked when read and scrubbed by 0011_abuse_rules.sql, and the retention
 * job clears every copy.
 */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mailOutbox, searchRequests } from '../src/server/db/schema/index';
import { createMailTransport, type MailTransport } from '../src/server/mail/transports';
import { createMailWorker, type MailWorker } from '../src/server/mail/worker';
import { applySearchRetention } from '../src/server/modules/public/search-retention';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';
import { catalogue, postRequest, requestBody, testData } from './helpers/public';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let sink: SmtpSink;
let t: TestApp;
let transport: MailTransport;
let worker: MailWorker;
let staff: string;
let admin: string;
const quiet = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ SMTP_URL: sink.url });
  transport = createMailTransport(t.config, quiet);
  worker = createMailWorker({ db: t.app.ctx.db, transport, log: quiet, retryPolicy: { baseDelayMs: 0, maxDelayMs: 0, jitter: 0 } });
  staff = await staffCookie(t);
  admin = await staffCookie(t, { role: 'admin' });
});
afterAll(async () => {
  await worker.stop();
  await transport.close();
  await t.close();
  await sink.close();
});

const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const DAY = 86_400_000;

/** A request whose email the SMTP server refuses with a bounce that quotes the address. */
async function bounced(): Promise<{ groupId: string; local: string; email: string }> {
  const local = `jane.doe.${randomBytes(4).toString('hex')}`;
  const email = `${local}@customer.example`;
  const c = await catalogue(t);
  await testData(t, c.serial(1));
  const res = await postRequest(t.app, requestBody({ serial: c.serial(1), email }));
  expect(res.statusCode).toBe(200);
  sink.failNext(1, { code: 550, message: `5.1.1 <${email}>: Recipient address rejected: User unknown`, stage: 'rcpt' });
  expect(await worker.runOnce()).toBe(1);
  return { groupId: res.json().data.requestId, local, email };
}

describe('a bounce quoting the address', () => {
  it('is stored masked in the request and the outbox, and the reason stays readable', async () => {
    const { groupId, local } = await bounced();
    const rows = await t.app.ctx.db.select().from(searchRequests).where(eq(searchRequests.groupId, groupId));
    expect(rows[0]).toMatchObject({ status: 'failed' });
    expect(rows[0]!.lastError).toMatch(/550/);
    expect(rows[0]!.lastError).toMatch(/j\*\*\*@c\*\*\*\.example/);
    expect(rows[0]!.lastError).toMatch(/User unknown/);
    expect(rows[0]!.lastError).not.toContain(local);
    const [mail] = await t.app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, rows[0]!.outboxId!));
    expect(mail!.lastError).not.toContain(local);
    expect(mail!.lastError).toMatch(/j\*\*\*@c\*\*\*\.example/);
  });

  it('never reaches staff (nor admins) through the list, the detail, its deliveries or the CSV', async () => {
    const { groupId, local } = await bounced();
    for (const cookie of [staff, admin]) {
      const list = await get(`/api/v1/search-requests?pageSize=100`, cookie);
      const item = list.json().data.items.find((i: { id: string }) => i.id === groupId);
      expect(item.lastError).toMatch(/550/);
      expect(item.lastError).not.toContain(local);
      const detail = await get(`/api/v1/search-requests/${groupId}`, cookie);
      expect(detail.json().data.deliveries[0].lastError).toMatch(/550/);
      expect(detail.json().data.deliveries[0].lastError).not.toContain(local);
      const csv = await get('/api/v1/search-requests/export.csv', cookie);
      expect(csv.statusCode).toBe(200);
      const line = csv.body.split('\r\n').find((l) => l.includes(groupId))!;
      expect(line).toMatch(/550/);
      // Once for admins (the recipient column, theirs to see), never for staff; never in the error.
      expect(line.split(local).length - 1).toBe(cookie === admin ? 1 : 0);
    }
    // The admin still sees the recipient itself in its own field; staff see its mask.
    expect((await get(`/api/v1/search-requests/${groupId}`, admin)).json().data.recipientEmail).toContain(local);
    expect((await get(`/api/v1/search-requests/${groupId}`, staff)).body).not.toContain(local);
  });
});

describe('errors stored before masking', () => {
  /** A failed request and its email as an older version stored them: the address in both last errors. */
  async function oldRows(at: Date) {
    const { groupId, local, email } = await bounced();
    const raw = `550 5.1.1 <${email}>: Recipient address rejected`;
    const [row] = await t.app.ctx.db
      .update(searchRequests)
      .set({ lastError: raw, createdAt: at })
      .where(eq(searchRequests.groupId, groupId))
      .returning();
    await t.app.ctx.db.update(mailOutbox).set({ lastError: raw, createdAt: at }).where(eq(mailOutbox.id, row!.outboxId!));
    return { groupId, local, outboxId: row!.outboxId! };
  }

  it('are masked when read', async () => {
    const { groupId, local } = await oldRows(new Date());
    const detail = await get(`/api/v1/search-requests/${groupId}`, staff);
    expect(detail.json().data.lastError).toMatch(/^550 5\.1\.1 <j\*\*\*@c\*\*\*\.example>/);
    expect(detail.body).not.toContain(local);
  });

  it('are scrubbed by the migration', async () => {
    const { groupId, local, outboxId } = await oldRows(new Date());
    const scrub = fs.readFileSync(new URL('../src/server/db/migrations/0011_abuse_rules.sql', import.meta.url), 'utf8');
    await t.app.ctx.database.withSession((s) => s.exec(scrub));
    const [row] = await t.app.ctx.db.select().from(searchRequests).where(eq(searchRequests.groupId, groupId));
    const [mail] = await t.app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId));
    for (const text of [row!.lastError, mail!.lastError]) {
      expect(text).toBe('550 5.1.1 <j***@c***>: Recipient address rejected');
      expect(text).not.toContain(local);
    }
  });

  it('lose every copy of the address to the retention job: request, outbox recipient and both errors', async () => {
    const { groupId, local, outboxId } = await oldRows(new Date(Date.now() - 400 * DAY));
    await applySearchRetention(t.app.ctx.db);
    const rows = await t.app.ctx.db.select().from(searchRequests).where(eq(searchRequests.groupId, groupId));
    const mails = await t.app.ctx.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.id, [outboxId]));
    expect(rows[0]).toMatchObject({ recipientEmail: null, clientIp: null });
    expect(mails[0]!.recipient).toBe('');
    expect(JSON.stringify({ rows, mails })).not.toContain(local);
    expect(rows[0]!.lastError).toMatch(/^550 5\.1\.1 <j\*\*\*@c\*\*\*>/);
  });
});
