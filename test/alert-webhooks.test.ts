/**
 * Alerts reach staff webhooks: a disagreement's alert sends `alert.raised` and `record.disagreement`, its
 * acknowledgement `alert.acknowledged`, each verified by a real receiver with the `standardwebhooks` package;
 * an endpoint switched off after failing raises a `webhookDisabled` alert. Emails of users who chose them.
 */
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, mailOutbox, users } from '../src/server/db/schema/index';
import { evaluateAlerts } from '../src/server/modules/alerts/evaluator';
import { alertOnDisabledEndpoint, alertSinks } from '../src/server/modules/alerts/notify';
import { mailDailyDigest } from '../src/server/modules/alerts/alert-mail';
import { createWebhookWorker } from '../src/server/modules/webhooks/worker';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';
import { startReceiver, type Receiver } from './helpers/webhook-receiver';

let t: TestApp;
let admin: string;
let receiver: Receiver;
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const sinks = () => alertSinks({ baseUrl: 'https://reports.example.com' });

beforeAll(async () => {
  t = await buildTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  admin = await adminCookie(t);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const worker = (o: { disableAfter?: { failures: number; periodMs: number } } = {}) =>
  createWebhookWorker({
    db: t.app.ctx.db,
    log: silent,
    publicBaseUrl: 'https://reports.example.com',
    allowPrivate: true,
    timeoutMs: 2_000,
    retry: { baseDelayMs: 1, maxDelayMs: 1, jitter: 0, maxAgeMs: 60_000 },
    pollIntervalMs: 20,
    onEndpointDisabled: alertOnDisabledEndpoint(sinks()),
    ...o,
  });

describe('alerts through webhooks and email', () => {
  it('sends alert.raised and record.disagreement, then alert.acknowledged, signed; and mails who chose it', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { cookie: admin },
      payload: { url: receiver.url, events: ['alert.raised', 'alert.acknowledged', 'record.disagreement'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    receiver.secret = created.json().data.secret;
    const staff = await staffCookie(t, { language: 'zh' });
    const me = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/alerts/email',
      headers: { cookie: staff },
      payload: { alertMail: 'instant' },
    });
    expect(me.statusCode, me.body).toBe(200);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/v1/alerts/email', headers: { cookie: staff }, payload: { alertMail: 'often' } }))
        .statusCode,
    ).toBe(400);

    const bench = await createBench(t.app, admin, `Hook Bench ${randomBytes(2).toString('hex')}`);
    const product = await addProduct(t.app, staff, { name: `Hook Valve ${randomBytes(2).toString('hex')}` });
    const p = `H${randomBytes(2).toString('hex').toUpperCase()}`;
    expect((await postRange(t.app, staff, rangeBody(product.id, `${p}-0001`, `${p}-0100`, 100))).statusCode).toBe(201);
    expect((await postBatch(t.app, bench.key, { records: [record({ serial: `${p}-0007` })] })).statusCode).toBe(200);
    await t.app.ctx.db.execute(sql`UPDATE test_records SET verdict = 'nonconforming', reasons = 1 WHERE serial = ${`${p}-0007`}`);
    await evaluateAlerts(t.app.ctx.db, sinks());
    const w = worker();
    while ((await w.runOnce()) > 0);

    const types = receiver.received.map((r) => r.payload?.type).sort();
    expect(types).toEqual(['alert.raised', 'record.disagreement']);
    expect(receiver.received.every((r) => r.verifyError === null)).toBe(true);
    const raised = receiver.received.find((r) => r.payload?.type === 'alert.raised')!.payload!.data;
    expect(raised).toMatchObject({ kind: 'disagreement', serial: `${p}-0007`, machineId: bench.id });
    expect(String(raised.summary)).toContain(`${p}-0007`);
    expect((raised.links as Record<string, string>).unit).toBe(`https://reports.example.com/units/${p}-0007`);

    // The user who chose "at once" has an email in their language.
    const [u] = await t.app.ctx.db.select({ email: users.email }).from(users).where(eq(users.alertMail, 'instant'));
    const mails = await t.app.ctx.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, String(u!.email)));
    expect(mails.map((m) => m.kind)).toEqual(['alert']);
    expect(mails[0]!.subject).toBe('警示：判定不一致');
    expect(mails[0]!.textBody).toContain(`${p}-0007`);

    const [row] = await t.app.ctx.db
      .select()
      .from(alerts)
      .where(eq(alerts.serial, `${p}-0007`));
    const ack = await t.app.inject({
      method: 'POST',
      url: `/api/v1/alerts/${row!.id}/acknowledge`,
      headers: { cookie: admin },
      payload: { cause: 'Hold timer misread', action: 'Unit retested; timer replaced' },
    });
    expect(ack.statusCode, ack.body).toBe(200);
    while ((await w.runOnce()) > 0);
    const acknowledged = receiver.received.find((r) => r.payload?.type === 'alert.acknowledged')!;
    expect(acknowledged.verifyError).toBeNull();
    expect(acknowledged.payload!.data).toMatchObject({ alertId: row!.id, status: 'acknowledged', cause: 'Hold timer misread' });
  });

  it('raises an alert when an endpoint is switched off after failing', async () => {
    const down = await startReceiver();
    down.behave = () => ({ status: 500 });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { cookie: admin },
      payload: { url: down.url, events: ['alert.raised'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    down.secret = created.json().data.secret;
    const id = created.json().data.id as string;
    const test = await t.app.inject({ method: 'POST', url: `/api/v1/webhooks/${id}/test`, headers: { cookie: admin } });
    expect(test.statusCode, test.body).toBeLessThan(300);
    const w = worker({ disableAfter: { failures: 2, periodMs: 0 } });
    for (let i = 0; i < 4; i++) {
      await w.runOnce();
      await new Promise((r) => setTimeout(r, 10));
    }
    await down.close();
    const raised = await t.app.ctx.db.select().from(alerts).where(eq(alerts.kind, 'webhookDisabled'));
    expect(raised).toHaveLength(1);
    expect(raised[0]!.detail).toEqual({ webhookId: id, url: down.url });
    const list = await t.app.inject({ url: '/api/v1/alerts?kind=webhookDisabled', headers: { cookie: admin } });
    expect(list.json().data.items[0].summary).toContain(down.url);
  });

  it("sends the daily digest once a day, in each chooser's language, of the last day's alerts", async () => {
    const zh = await staffCookie(t, { language: 'zh' });
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/v1/alerts/email', headers: { cookie: zh }, payload: { alertMail: 'digest' } }))
        .statusCode,
    ).toBe(200);
    const [me] = await t.app.ctx.db.select({ email: users.email }).from(users).where(eq(users.alertMail, 'digest'));
    const now = new Date();
    // Two instances at the day's first round: one digest.
    const sent = await Promise.all([
      mailDailyDigest(t.app.ctx.db, 'https://reports.example.com', now),
      mailDailyDigest(t.app.ctx.db, 'https://reports.example.com', now),
    ]);
    expect(sent.sort()).toEqual([0, 1]);
    const mails = await t.app.ctx.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, String(me!.email)));
    expect(mails.map((m) => m.kind)).toEqual(['alert-digest']);
    const raisedToday = await t.app.ctx.db.select().from(alerts);
    expect(mails[0]!.subject).toBe(`過去一天的警示：${raisedToday.length} 則`);
    expect(mails[0]!.textBody).toContain('判定不一致');
    expect(mails[0]!.textBody).toContain('https://reports.example.com/alerts?status=open');
  });
});
