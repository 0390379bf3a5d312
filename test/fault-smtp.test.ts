// @engine-independent: SMTP faults and the outbox worker's retries; the outbox rows are plain inserts and updates (scripts/test.mjs leaves it out of the PostgreSQL pass).
/**
 * SMTP unreachable during a burst of 200 public report requests (a fault test). The app is the real
 * one (in process) with SMTP_URL pointing at a port where nothing listens; its outbox worker runs as the
 * server runs it, only with retry intervals of seconds instead of minutes (the policy is the worker's
 * option; production keeps 1, 2, 4, 8, 16 min). Every request is answered at once (the email is queued);
 * each failed attempt shows on the search request rows (attempts, last error) and in the Searches API the
 * Searches screen lists them from; once the SMTP server is back on the same port, every email arrives, and none twice.
 */
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mailOutbox, searchRequests } from '../src/server/db/schema/index';
import { createMailTransport } from '../src/server/mail/transports';
import { startMailWorker, type MailWorker } from '../src/server/mail/worker';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';
import { solvedChallengeFast } from './helpers/pow';
import { catalogue, postRequest, requestBody, testData } from './helpers/public';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

const REQUESTS = 200;
const SERIALS = 20; // each asked for 10 times: the per-serial limit is 10 an hour

let t: TestApp;
let sink: SmtpSink | undefined;
let worker: MailWorker | undefined;
let port = 0;
const warnings: string[] = [];

beforeAll(async () => {
  // A port that was just freed: the SMTP server is "down" (connections refused) until the sink returns.
  const probe = await startSmtpSink();
  port = probe.port;
  await probe.close();
  t = await buildTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await sink?.close();
  await t?.close();
});

async function until(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it('delivers every email of a 200-request burst once after the SMTP server comes back, and shows the retries meanwhile', async () => {
  const c = await catalogue(t);
  const serials = Array.from({ length: SERIALS }, (_, i) => c.serial(i + 1));
  for (const serial of serials) await testData(t, serial);
  const challenges: string[] = [];
  for (let i = 0; i < REQUESTS; i++) challenges.push(await solvedChallengeFast(t.app));

  const log = {
    info() {},
    warn: (_o: object, m?: string) => void warnings.push(m ?? ''),
    error: (_o: object, m?: string) => void warnings.push(m ?? ''),
  };
  // 4, 8, 16, 20, 20 s (±20 %) between the six attempts: the first message of the burst has its last attempt
  // after 54 s at the earliest, so the burst (20-40 s on a busy machine) and the outage fit in that budget.
  worker = startMailWorker({
    db: t.app.ctx.db,
    transport: createMailTransport(t.config, log),
    log,
    retryPolicy: { baseDelayMs: 4_000, maxDelayMs: 20_000, jitter: 0.2 },
  });
  const burstStart = Date.now();

  // The burst: 200 requests, five at a time (the test database's pool has 5 connections; more at once only
  // queue for them, and on a loaded CI machine past the pool's 5 s wait), each from an address of its own.
  const emails: string[] = [];
  const groups: string[] = [];
  for (let i = 0; i < REQUESTS; i += 5) {
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, j) => {
        const body = requestBody({ serial: serials[(i + j) % SERIALS], challenge: challenges[i + j] });
        emails.push(body.email as string);
        return postRequest(t.app, body);
      }),
    );
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.emailQueued).toBe(true);
      groups.push(res.json().data.requestId);
    }
  }
  const burstMs = Date.now() - burstStart;
  const rows = () => t.app.ctx.db.select().from(searchRequests).where(inArray(searchRequests.groupId, groups));

  // Every message tried and refused at least once; the search requests say so and stay queued.
  await until(
    async () => (await rows()).every((r) => r.attempts >= 1 && r.lastError !== null),
    60_000,
    'a failed attempt of every message',
  );
  const during = await rows();
  expect(during).toHaveLength(REQUESTS);
  for (const r of during) {
    expect(r.status).toBe('queued');
    expect(r.lastError).toMatch(/ECONNREFUSED|ECONNECTION|connect/i);
  }
  expect(warnings.filter((w) => w === 'email will be retried').length).toBeGreaterThanOrEqual(REQUESTS);
  // What the Searches screen shows: every request of the burst still on its way, with its attempts and error.
  const admin = await staffCookie(t, { role: 'admin' });
  const screen = async (status?: string) => {
    const res = await t.app.inject({
      url: `/api/v1/search-requests?serial=${encodeURIComponent(c.prefix)}&pageSize=all${status ? `&status=${status}` : ''}`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as { total: number; items: { status: string; attempts: number; lastError: string | null }[] };
  };
  const shown = await screen();
  expect(shown.total).toBe(REQUESTS);
  for (const item of shown.items) {
    expect(item.status).toBe('queued');
    expect(item.attempts).toBeGreaterThanOrEqual(1);
    expect(item.lastError).toMatch(/ECONNREFUSED|ECONNECTION|connect/i);
  }

  // The SMTP server comes back where it was.
  const outageMs = Date.now() - burstStart;
  sink = await startSmtpSink({ port });
  const backAt = Date.now();
  await sink.waitFor(REQUESTS, 90_000);
  await until(async () => (await rows()).every((r) => r.status === 'sent'), 30_000, 'every request sent');
  const deliveredMs = Date.now() - backAt;
  // Longer than a poll interval: a second copy of any message would have arrived by now.
  await new Promise((r) => setTimeout(r, 3_000));

  expect(sink.messages).toHaveLength(REQUESTS);
  expect(new Set(sink.messages.map((m) => m.parsed!.messageId)).size).toBe(REQUESTS);
  expect(sink.messages.map((m) => m.to[0]).sort()).toEqual([...emails].sort());
  const after = await rows();
  for (const r of after) {
    expect(r).toMatchObject({ status: 'sent', lastError: null });
    expect(r.attempts).toBeGreaterThanOrEqual(2);
    expect(r.sentAt).toBeInstanceOf(Date);
  }
  expect((await screen('sent')).total).toBe(REQUESTS);
  expect((await screen('queued')).total).toBe(0);
  const [outbox] = await t.app.ctx.db
    .select({
      sent: sql<number>`count(*) FILTER (WHERE ${mailOutbox.status} = 'sent')::int`,
      other: sql<number>`count(*) FILTER (WHERE ${mailOutbox.status} <> 'sent')::int`,
    })
    .from(mailOutbox);
  expect(outbox).toEqual({ sent: REQUESTS, other: 0 });
  console.log(
    `SMTP outage: ${REQUESTS} requests in ${burstMs} ms, SMTP down for ${outageMs} ms, ${warnings.length} failed attempts logged, ` +
      `most attempts of one message ${Math.max(...after.map((r) => r.attempts))}, all delivered ${deliveredMs} ms after SMTP was back`,
  );
}, 240_000);
