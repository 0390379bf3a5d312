/**
 * Webhook delivery against real HTTP receivers that verify every request with the `standardwebhooks` package:
 * signatures, retries through a receiver that is down, slow or failing, redirects not followed, two workers on
 * one database sending each event once, a hanging endpoint not holding up the others, customer isolation, a
 * rotated secret, and the rule that switches a failing endpoint off.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookEndpoints } from '../src/server/db/schema/index';
import { enqueueWebhookEvent, type NewWebhookEvent } from '../src/server/modules/webhooks/events';
import { createWebhookWorker, type WebhookWorkerOptions } from '../src/server/modules/webhooks/worker';
import { buildTestApp, type TestApp } from './helpers/app';
import { adminCookie } from './helpers/machine-data';
import { addCustomer } from './helpers/orders';
import { startReceiver, type Receiver } from './helpers/webhook-receiver';

let t: TestApp;
let admin: string;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await buildTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  admin = await adminCookie(t);
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await t.app.ctx.db.delete(webhookEndpoints);
});
afterAll(() => t.close());

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 1, jitter: 0, maxAgeMs: 60_000 };
const worker = (o: Partial<WebhookWorkerOptions> = {}) =>
  createWebhookWorker({
    db: t.app.ctx.db,
    log: silent,
    publicBaseUrl: 'https://reports.example.com',
    allowPrivate: true,
    timeoutMs: 2_000,
    retry: FAST_RETRY,
    pollIntervalMs: 20,
    ...o,
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** An endpoint at the receiver; the receiver learns its secret. */
async function endpoint(r: Receiver, body: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { cookie: admin },
    payload: { url: r.url, events: ['alert.raised'], ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json().data as { id: string; secret: string };
  r.secret = created.secret;
  return created;
}

const alert = (n = 1): NewWebhookEvent => ({
  type: 'alert.raised',
  summary: `Alert ${n}`,
  data: { alertId: `a-${n}` },
  links: { alert: `/alerts/a-${n}` },
});
const raise = (e: NewWebhookEvent) => t.app.ctx.db.transaction((tx) => enqueueWebhookEvent(tx, e));

async function log(id: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries?pageSize=50`, headers: { cookie: admin } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    items: {
      eventId: string;
      eventType: string;
      attempt: number;
      statusCode: number | null;
      error: string | null;
      responseBody: string | null;
    }[];
    total: number;
  };
}

describe('webhook delivery', () => {
  it('sends a signed request a receiver verifies, with the event id, type, summary and absolute links', async () => {
    const r = await receiver();
    const ep = await endpoint(r);
    const id = await raise(alert(1));
    expect(id).toBeTruthy();
    expect(await worker().runOnce()).toBe(1);
    expect(r.received).toHaveLength(1);
    const got = r.received[0]!;
    expect(got.verifyError).toBeNull();
    expect(got.id).toBe(id);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toMatch(/TestReportCenter/);
    expect(Number(got.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    expect(got.payload).toMatchObject({
      type: 'alert.raised',
      data: { alertId: 'a-1', summary: 'Alert 1', links: { alert: 'https://reports.example.com/alerts/a-1' } },
    });
    expect((await log(ep.id)).items).toEqual([
      expect.objectContaining({ eventId: id, eventType: 'alert.raised', attempt: 1, statusCode: 204, error: null }),
    ]);
    // Nothing left: a second round sends nothing.
    expect(await worker().runOnce()).toBe(0);
    // An event nobody subscribed to writes nothing.
    expect(await raise({ ...alert(2), type: 'record.disagreement' })).toBeNull();
  });

  it('retries through a receiver that is down, too slow, then failing, and delivers once when it is back', async () => {
    const r = await receiver();
    const ep = await endpoint(r);
    const port = r.port;
    await r.close();
    const id = await raise(alert(3));
    const w = worker({ timeoutMs: 300 });
    expect(await w.runOnce()).toBe(1); // refused: nobody listens

    const back = await startReceiver(port);
    receivers.push(back);
    back.secret = r.secret;
    back.behave = (n) => (n === 0 ? { delayMs: 1_000 } : n === 1 ? { status: 500, body: 'x'.repeat(10_000) } : { status: 200 });
    await sleep(5);
    expect(await w.runOnce()).toBe(1); // too slow
    await sleep(5);
    expect(await w.runOnce()).toBe(1); // 500
    await sleep(5);
    expect(await w.runOnce()).toBe(1); // 200
    await sleep(5);
    expect(await w.runOnce()).toBe(0);

    expect(back.received.map((x) => x.id)).toEqual([id, id, id]);
    expect(back.received.every((x) => x.verifyError === null)).toBe(true);
    const attempts = (await log(ep.id)).items.reverse();
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(attempts.map((a) => a.statusCode)).toEqual([null, null, 500, 200]);
    expect(attempts[0]!.error).toMatch(/ECONNREFUSED/);
    expect(attempts[1]!.error).toMatch(/timed out after 300 ms/);
    // The receiver's answer is kept, cut to 4 KiB.
    expect(attempts[2]!.responseBody).toBe('x'.repeat(4096));
    const [delivery] = await t.app.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, id!));
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 4 });
  });

  it('keeps a cut response body and never follows a redirect', async () => {
    const target = await receiver();
    const r = await receiver();
    const ep = await endpoint(r);
    r.behave = () => ({ status: 302, headers: { location: target.url } });
    await raise(alert(4));
    await worker().runOnce();
    expect(r.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
    const [attempt] = (await log(ep.id)).items;
    expect(attempt).toMatchObject({ statusCode: 302, error: expect.stringMatching(/redirect 302 not followed/) });
  });

  it('sends each event once with two workers on one database', async () => {
    const a = await receiver();
    const b = await receiver();
    await endpoint(a);
    await endpoint(b);
    const ids = new Set<string>();
    for (let i = 0; i < 15; i++) ids.add((await raise(alert(100 + i)))!);
    const w1 = worker({ concurrency: 3 });
    const w2 = worker({ concurrency: 3 });
    w1.start();
    w2.start();
    const deadline = Date.now() + 15_000;
    while ((a.received.length < 15 || b.received.length < 15) && Date.now() < deadline) await sleep(20);
    await sleep(100);
    await Promise.all([w1.stop(), w2.stop()]);
    for (const r of [a, b]) {
      expect(r.received).toHaveLength(15);
      expect(new Set(r.received.map((x) => x.id))).toEqual(ids);
      expect(r.received.every((x) => x.verifyError === null)).toBe(true);
    }
  });

  it('keeps other endpoints flowing while one never answers', async () => {
    const hanging = await receiver();
    hanging.behave = () => 'hang';
    const fine = await receiver();
    await endpoint(hanging);
    await endpoint(fine, { events: ['record.disagreement'] });
    await raise(alert(5));
    await raise(alert(6));
    for (let i = 0; i < 3; i++) await raise({ ...alert(200 + i), type: 'record.disagreement' });
    const w = worker({ timeoutMs: 3_000, concurrency: 2 });
    const started = Date.now();
    w.start();
    while (fine.received.length < 3 && Date.now() - started < 2_500) await sleep(10);
    expect(fine.received).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(2_500);
    // One request in flight to the hanging endpoint, never two.
    expect(hanging.received).toHaveLength(1);
    await w.stop();
  });

  it("sends a customer's events only to that customer's endpoints", async () => {
    const [ca, cb] = [await addCustomer(t.app, admin), await addCustomer(t.app, admin)];
    const ra = await receiver();
    const rb = await receiver();
    const staff = await receiver();
    const events = ['certificate.issued'];
    await endpoint(ra, { customerId: ca.id, events });
    await endpoint(rb, { customerId: cb.id, events });
    await endpoint(staff, { events: ['alert.raised'] });
    const id = await raise({ type: 'certificate.issued', customerId: cb.id, summary: 'Certificate C-1', data: { reportId: 'r1' } });
    expect(await raise({ type: 'certificate.issued', summary: 'no customer', data: {} })).toBeNull();
    await worker().runOnce();
    expect(ra.received).toHaveLength(0);
    expect(staff.received).toHaveLength(0);
    expect(rb.received.map((x) => x.id)).toEqual([id]);
    expect(rb.received[0]!.verifyError).toBeNull();
  });

  it('signs with the new secret after a rotation, and the test event reaches the endpoint', async () => {
    const r = await receiver();
    const ep = await endpoint(r);
    const old = r.secret;
    const rotated = await t.app.inject({ method: 'POST', url: `/api/v1/webhooks/${ep.id}/rotate-secret`, headers: { cookie: admin } });
    const fresh = rotated.json().data.secret as string;
    const test = await t.app.inject({ method: 'POST', url: `/api/v1/webhooks/${ep.id}/test`, headers: { cookie: admin } });
    expect(test.statusCode, test.body).toBe(202);
    r.secret = old;
    await worker().runOnce();
    expect(r.received).toHaveLength(1);
    expect(r.received[0]!.verifyError).toMatch(/signature/i);
    expect(r.received[0]!.id).toBe(test.json().data.eventId);
    r.secret = fresh;
    await raise(alert(7));
    await worker().runOnce();
    expect(r.received[1]!.verifyError).toBeNull();
    expect(r.received[0]!.body).toContain('"type":"webhook.test"');
  });

  it('switches an endpoint off after its failures pass the rule, tells the callback, and a re-enable starts afresh', async () => {
    const r = await receiver();
    r.behave = () => ({ status: 503 });
    const ep = await endpoint(r);
    const told: string[] = [];
    const w = worker({ disableAfter: { failures: 3, periodMs: 0 }, onEndpointDisabled: (_tx, e) => void told.push(e.id) });
    await raise(alert(8));
    await raise(alert(9));
    for (let i = 0; i < 4; i++) {
      await w.runOnce();
      await sleep(5);
    }
    const got = (await t.app.inject({ method: 'GET', url: `/api/v1/webhooks/${ep.id}`, headers: { cookie: admin } })).json().data;
    expect(got).toMatchObject({
      enabled: false,
      consecutiveFailures: 3,
      disabledReason: expect.stringMatching(/3 attempts in a row failed/),
    });
    expect(told).toEqual([ep.id]);
    expect(r.received).toHaveLength(3);
    const waiting = await t.app.ctx.db.execute(
      sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ${ep.id} AND status = 'pending'`,
    );
    expect((waiting as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    const on = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/webhooks/${ep.id}`,
      headers: { cookie: admin },
      payload: { enabled: true },
    });
    expect(on.json().data).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledReason: null });
  });
});
