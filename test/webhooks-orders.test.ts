/**
 * The customer events an order raises, written in the transactions that make the change: a released
 * delivery's certificates, the release itself, and a certificate superseded by a corrected tag, sent to the
 * buyer's endpoint and to no other customer's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookWorker } from '../src/server/modules/webhooks/worker';
import { buildTestApp, type TestApp } from './helpers/app';
import { releasedDelivery } from './helpers/deliveries';
import { adminCookie } from './helpers/machine-data';
import { addCustomer } from './helpers/orders';
import { startReceiver, type Receiver } from './helpers/webhook-receiver';

let t: TestApp;
let admin: string;
let buyer: Receiver;
let other: Receiver;
beforeAll(async () => {
  t = await buildTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  admin = await adminCookie(t);
  [buyer, other] = [await startReceiver(), await startReceiver()];
});
afterAll(async () => {
  await Promise.all([buyer.close(), other.close()]);
  await t.close();
});

const events = ['certificate.issued', 'certificate.superseded', 'delivery.released'];

async function hook(r: Receiver, customerId: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { cookie: admin },
    payload: { url: r.url, events, customerId },
  });
  expect(res.statusCode, res.body).toBe(201);
  r.secret = res.json().data.secret;
}

describe('customer events of an order', () => {
  it('tells the buyer of each certificate, the release and a superseded certificate, and nobody else', async () => {
    const stranger = await addCustomer(t.app, admin);
    await hook(other, stranger.id);
    const d = await releasedDelivery(t, { units: 2, beforeRelease: (r) => hook(buyer, r.customer.id) });
    const worker = createWebhookWorker({
      db: t.app.ctx.db,
      log: { info: () => {}, warn: () => {}, error: () => {} },
      publicBaseUrl: t.config.publicBaseUrl,
      allowPrivate: true,
      timeoutMs: 2_000,
    });
    while ((await worker.runOnce()) > 0);
    const types = () => buyer.received.map((x) => x.payload?.type).sort();
    expect(types()).toEqual(['certificate.issued', 'certificate.issued', 'delivery.released']);
    expect(buyer.received.every((x) => x.verifyError === null)).toBe(true);
    const issued = buyer.received.filter((x) => x.payload?.type === 'certificate.issued').map((x) => x.payload!.data);
    expect(issued.map((x) => x.reportId).sort()).toEqual(d.units.map((u) => u.reportId).sort());
    expect(issued[0]).toMatchObject({
      deliveryId: d.delivery.id,
      purchaseOrderNumber: d.purchaseOrder.number,
      links: { verification: expect.stringMatching(/^http:\/\/localhost:3000\/search\?report=/) },
    });
    const released = buyer.received.find((x) => x.payload?.type === 'delivery.released')!.payload!.data;
    expect(released).toMatchObject({ deliveryId: d.delivery.id, deliveryNumber: d.delivery.number });

    // A corrected tag issues a new version of the unit's certificate, which supersedes the old one.
    const unit = d.units[0]!;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/deliveries/${d.delivery.id}/serials/${unit.serial}`,
      headers: { cookie: admin },
      payload: { tag: 'FV-101' },
    });
    expect(put.statusCode, put.body).toBe(200);
    while ((await worker.runOnce()) > 0);
    const superseded = buyer.received.filter((x) => x.payload?.type === 'certificate.superseded').map((x) => x.payload!.data);
    expect(superseded).toEqual([expect.objectContaining({ reportId: unit.reportId, serial: unit.serial })]);
    expect(other.received).toHaveLength(0);
  });
});
