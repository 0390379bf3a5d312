/**
 * Delivery and abuse protection of report requests: SMTP down then up (the email arrives once and the
 * request shows sent), a permanent refusal (the request shows failed), nothing half-written when a step
 * fails, and the per-IP, per-recipient and per-serial limits.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/server/db/client';
import { searchRequests } from '../src/server/db/schema/index';
import { createMailTransport, type MailTransport } from '../src/server/mail/transports';
import { createMailWorker, type MailWorker } from '../src/server/mail/worker';
import { PUBLIC_LIMITS } from '../src/server/modules/public/public-limits';
import { requestReports, type IssueReport } from '../src/server/modules/public/report-requests.service';
import { issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { randomIp } from './helpers/factories';
import { catalogue, postRequest, requestBody, series, testData } from './helpers/public';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

let sink: SmtpSink;
let t: TestApp;
let transport: MailTransport;
let worker: MailWorker;
const quiet = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ SMTP_URL: sink.url });
  transport = createMailTransport(t.config, quiet);
  // Driven step by step, with retries due at once, so that the test needs no clock.
  worker = createMailWorker({ db: t.app.ctx.db, transport, log: quiet, retryPolicy: { baseDelayMs: 0, maxDelayMs: 0, jitter: 0 } });
});
afterAll(async () => {
  await worker.stop();
  await transport.close();
  await t.close();
  await sink.close();
});

const rowsOfGroup = (groupId: string) => t.app.ctx.db.select().from(searchRequests).where(eq(searchRequests.groupId, groupId));
const count = async (table: 'search_requests' | 'mail_outbox') =>
  Number(rowsOf<{ n: string }>(await t.app.ctx.db.execute(sql.raw(`SELECT count(*)::text AS n FROM ${table}`)))[0]!.n);

describe('delivery', () => {
  it('SMTP refusing twice then accepting: the email arrives once and the request shows sent', async () => {
    const c = await catalogue(t);
    await testData(t, c.serial(1));
    const body = requestBody({ serial: c.serial(1) });
    const res = await postRequest(t.app, body);
    expect(res.statusCode).toBe(200);
    const { requestId } = res.json().data;

    sink.failNext(2, { code: 421, message: 'Service not available' });
    expect(await worker.runOnce()).toBe(1);
    let [row] = await rowsOfGroup(requestId);
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(row!.lastError).toMatch(/421|not available/i);
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(1);
    [row] = await rowsOfGroup(requestId);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect(await worker.runOnce()).toBe(0);
    expect(sink.messages.filter((m) => m.to.includes(body.email as string))).toHaveLength(1);
  });

  it('SMTP refusing the address for good: the request shows failed with the reason', async () => {
    const c = await catalogue(t);
    await testData(t, c.serial(2));
    const res = await postRequest(t.app, requestBody({ serial: c.serial(2) }));
    sink.failNext(1, { code: 550, message: 'Mailbox unavailable', stage: 'rcpt' });
    expect(await worker.runOnce()).toBe(1);
    const [row] = await rowsOfGroup(res.json().data.requestId);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row!.lastError).toMatch(/550|unavailable/i);
  });
});

describe('nothing half-written', () => {
  it('a report that fails to issue for the second serial leaves no request rows and no email', async () => {
    const c = await catalogue(t);
    await testData(t, c.serial(3));
    await testData(t, c.serial(4));
    const [requests, mails] = [await count('search_requests'), await count('mail_outbox')];
    let calls = 0;
    const failing: IssueReport = async (db, input) => {
      if (++calls === 2) throw new Error('signing key unreadable');
      return issueReport(db, { ...input, publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    };
    await expect(
      requestReports(
        { db: t.app.ctx.db, issueReport: failing, kick: () => t.app.ctx.mail.kick(), termsVersion: async () => 1, contact: async () => '' },
        { serials: [c.serial(3), c.serial(4)], email: 'x@example.com', language: 'en', challenge: 'x' },
        { ip: '10.0.0.1', language: 'en' },
      ),
    ).rejects.toThrow(/signing key/);
    expect([await count('search_requests'), await count('mail_outbox')]).toEqual([requests, mails]);
  });

  it('a request row the database refuses after the email was queued takes the email with it', async () => {
    const c = await catalogue(t);
    await testData(t, c.serial(5));
    const [requests, mails] = [await count('search_requests'), await count('mail_outbox')];
    // An address PostgreSQL cannot store (U+0000) only in search_requests: the failure comes at the last
    // insert of the transaction, after the outbox row was written.
    await expect(
      requestReports(
        {
          db: t.app.ctx.db,
          issueReport: (db, input) => issueReport(db, { ...input, publicBaseUrl: t.app.ctx.config.publicBaseUrl }),
          kick: () => t.app.ctx.mail.kick(),
          termsVersion: async () => 1,
          contact: async () => '',
        },
        { serials: [c.serial(5)], email: 'y@example.com', language: 'en', challenge: 'x' },
        { ip: '10.0.0.2\u0000', language: 'en' },
      ),
    ).rejects.toThrow();
    expect([await count('search_requests'), await count('mail_outbox')]).toEqual([requests, mails]);
  });
});

// Each request carries a challenge solved here: on a busy machine the limit tests take a while.
describe('report request limits', { timeout: 180_000 }, () => {
  it(`per IP: the ${PUBLIC_LIMITS.requestPerIp.max + 1}th request in 15 minutes gets 429, before any work`, async () => {
    const ip = randomIp();
    for (let i = 0; i < PUBLIC_LIMITS.requestPerIp.max; i++) {
      // Refused for the missing challenge, yet counted: the limit applies before the body is read.
      expect((await postRequest(t.app, requestBody({ serial: 'A1', challenge: '' }), { ip })).statusCode).toBe(400);
    }
    const over = await postRequest(t.app, requestBody({ serial: 'A1' }), { ip, headers: { 'accept-language': 'zh' } });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.json().error.message).toMatch(/[\u4e00-\u9fff]/);
    const challengeOver = await t.app.inject({ url: '/api/v1/public/challenge', remoteAddress: ip });
    expect(challengeOver.statusCode).toBe(200);
  });

  it(`per recipient: the ${PUBLIC_LIMITS.requestPerRecipient.max + 1}th request to one inbox in an hour gets 429, from any IP, any spelling`, async () => {
    const name = `limit${series()
      .toLowerCase()
      .replace(/[^a-z]/g, '')}`;
    // Case, a +tag, and for gmail the dots and googlemail.com: all one inbox (src/server/lib/email-address.ts).
    const spellings = [
      `${name}@example.com`,
      `${name.toUpperCase()}@EXAMPLE.com`,
      `${name}+1@example.com`,
      `${name}+3@Example.com`,
      `${name}+tag.two@example.com`,
    ];
    for (const email of spellings.slice(0, PUBLIC_LIMITS.requestPerRecipient.max)) {
      expect((await postRequest(t.app, requestBody({ serial: `${series()}000001`, email }))).statusCode).toBe(200);
    }
    const over = await postRequest(t.app, requestBody({ serial: `${series()}000001`, email: `${name}+9@example.com` }));
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(60);
    expect(over.json().error.key).toBe('errors.tooManyRequests');
    expect((await postRequest(t.app, requestBody({ serial: `${series()}000001` }))).statusCode).toBe(200);
    // Another provider's dots are part of the name: that is another inbox, not limited.
    expect(
      (await postRequest(t.app, requestBody({ serial: `${series()}000001`, email: `${name.slice(0, 3)}.${name.slice(3)}@example.com` })))
        .statusCode,
    ).toBe(200);
  });

  it('per recipient at gmail: dots and googlemail.com are one inbox', async () => {
    const name = `gm${series()
      .toLowerCase()
      .replace(/[^a-z]/g, '')}`;
    const dotted = (i: number) => `${name.slice(0, i)}.${name.slice(i)}`;
    const spellings = [
      `${name}@gmail.com`,
      `${dotted(1)}@gmail.com`,
      `${dotted(2)}+x@GMAIL.com`,
      `${dotted(3)}@googlemail.com`,
      `${dotted(4)}@gmail.com`,
    ];
    for (const email of spellings.slice(0, PUBLIC_LIMITS.requestPerRecipient.max)) {
      expect((await postRequest(t.app, requestBody({ serial: `${series()}000001`, email }))).statusCode).toBe(200);
    }
    expect((await postRequest(t.app, requestBody({ serial: `${series()}000001`, email: `${dotted(5)}@googlemail.com` }))).statusCode).toBe(
      429,
    );
  });

  it(`per serial: one client's ${PUBLIC_LIMITS.requestPerSerial.max + 1}th request for one serial in an hour gets 429, also inside a list; other clients still get it`, async () => {
    const serial = `${series()}000001`;
    const a = randomIp();
    // Below the per-IP limit, so that it is the serial's limit that answers.
    const max = PUBLIC_LIMITS.requestPerSerial.max;
    PUBLIC_LIMITS.requestPerSerial.max = 3;
    try {
      for (let i = 0; i < 3; i++) {
        expect((await postRequest(t.app, requestBody({ serial }), { ip: a })).statusCode).toBe(200);
      }
      const over = await postRequest(t.app, requestBody({ serials: [`${series()}000001`, serial.toLowerCase()] }), { ip: a });
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(60);
      // A stranger spending the serial's allowance does not lock the customer out of it.
      expect((await postRequest(t.app, requestBody({ serial }), { ip: randomIp() })).statusCode).toBe(200);
    } finally {
      PUBLIC_LIMITS.requestPerSerial.max = max;
    }
  });
});
