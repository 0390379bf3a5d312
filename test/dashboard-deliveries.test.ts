/**
 * The dashboard's delivery figures: open deliveries awaiting release (at least one unit) and the units of
 * open deliveries the release gate holds, counted as each delivery's gate (GET …/gate) counts them, through
 * units added and removed, tests failed and retested, a standard's missing test, a cancel and a release.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../src/shared/contract/dashboard';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';
import { addCustomer, addDelivery, addOrder, post, productWithRange, serialsOf, uniq } from './helpers/orders';
import { API598_GATE } from './helpers/reports';
import { releaseRangeOf } from './helpers/inspectors';

let t: TestApp;
let staff: string;
let benchKey: string;

beforeAll(async () => {
  t = await buildTestApp();
  staff = await staffCookie(t);
  benchKey = (await createBench(t.app, await adminCookie(t))).key;
});
afterAll(() => t.close());

async function figures(): Promise<Dashboard['deliveries']> {
  const res = await t.app.inject({ url: '/api/v1/dashboard', headers: { cookie: staff } });
  expect(res.statusCode).toBe(200);
  return (res.json().data as Dashboard).deliveries;
}

/** The held units of the given deliveries by their own gate: the figure must agree with it. */
async function heldByGates(ids: string[]): Promise<number> {
  let n = 0;
  for (const id of ids) {
    const res = await t.app.inject({ url: `/api/v1/deliveries/${id}/gate`, headers: { cookie: staff } });
    expect(res.statusCode).toBe(200);
    n += (res.json().data as { held: number }).held;
  }
  return n;
}

async function send(serial: string, testType: string, result: 'pass' | 'fail', testedAt: string, extra: Record<string, unknown> = {}) {
  const res = await postBatch(t.app, benchKey, { records: [record({ serial, testType, result, testedAt, ...extra })] });
  expect(res.statusCode, res.body).toBe(200);
}

const addUnits = (id: string, serials: string[]) =>
  post(t.app, staff, `/api/v1/deliveries/${id}/serials`, { units: serials.map((serial) => ({ serial, line: 1 })) }, 200);

describe('dashboard: deliveries awaiting release and held units', () => {
  it('counts nothing on an empty database', async () => {
    expect(await figures()).toEqual({ awaitingRelease: 0, heldUnits: 0 });
  });

  it('counts open deliveries with units and the units their gate holds, as each delivery gate does', async () => {
    const plain = await productWithRange(t.app, staff, 'DQ-', 100);
    const api598 = await addProduct(t.app, staff, API598_GATE);
    expect((await postRange(t.app, staff, rangeBody(api598.id, 'DR-00001', 'DR-00100', 100, { bodyMaterial: 'wcb' }))).statusCode).toBe(
      201,
    );
    const customer = await addCustomer(t.app, staff);
    const order = await addOrder(t.app, staff, customer.id, [{ line: 1, productId: plain.id, quantity: 50 }]);
    const order598 = await addOrder(t.app, staff, customer.id, [{ line: 1, productId: api598.id, quantity: 50 }]);

    // An open delivery without units awaits nothing.
    await addDelivery(t.app, staff, order.id);
    expect(await figures()).toEqual({ awaitingRelease: 0, heldUnits: 0 });

    // Three units: one passed, one whose latest shell test failed, one without test data.
    const [pass, failed, none] = serialsOf('DQ-', 1, 3) as [string, string, string];
    await send(pass, 'shell', 'pass', '2024-05-01T08:00:00Z');
    await send(failed, 'shell', 'pass', '2024-05-01T08:00:00Z');
    await send(failed, 'shell', 'fail', '2024-05-01T09:00:00Z');
    const a = await addDelivery(t.app, staff, order.id);
    await addUnits(a.id, [pass, failed, none]);
    expect(await figures()).toEqual({ awaitingRelease: 1, heldUnits: 2 });
    expect(await heldByGates([a.id])).toBe(2);

    // A product under API 598 requires more than a shell test: a unit with only a passed shell test is held.
    const [shellOnly, complete] = serialsOf('DR-', 1, 2) as [string, string];
    // 1.5 × 1.96 MPa rounded up to the next bar (ASME B16.34): 3.0 MPa.
    const shell = { testPressure: 3.0, samples: undefined };
    await send(shellOnly, 'shell', 'pass', '2024-05-01T08:00:00Z', shell);
    await send(complete, 'shell', 'pass', '2024-05-01T08:00:00Z', shell);
    await send(complete, 'backseat', 'pass', '2024-05-01T08:10:00Z', { testPressure: 2.2, samples: undefined });
    await send(complete, 'air-seat', 'pass', '2024-05-01T08:20:00Z', {
      medium: 'air',
      testPressure: 0.6,
      leakageValue: 0,
      leakageUnit: 'bubbles/min',
      samples: undefined,
    });
    const b = await addDelivery(t.app, staff, order598.id);
    await addUnits(b.id, [shellOnly, complete]);
    const gateB = (await t.app.inject({ url: `/api/v1/deliveries/${b.id}/gate`, headers: { cookie: staff } })).json().data;
    expect(gateB.units.map((u: { status: string }) => u.status)).toEqual(['held', 'pass']);
    const both = await figures();
    expect(both.awaitingRelease).toBe(2);
    expect(both.heldUnits).toBe(await heldByGates([a.id, b.id]));
    expect(both.heldUnits).toBe(3);

    // A retest that passes frees the failed unit; removing the unit without data frees it too.
    await send(failed, 'shell', 'pass', '2024-05-01T10:00:00Z');
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/deliveries/${a.id}/serials/${none}`, headers: { cookie: staff } });
    expect(removed.statusCode).toBe(200);
    expect(await figures()).toEqual({ awaitingRelease: 2, heldUnits: 1 });
    expect(await heldByGates([a.id, b.id])).toBe(1);

    // A cancelled delivery is no longer open: neither it nor its units count.
    await post(t.app, staff, `/api/v1/deliveries/${b.id}/cancel`, { reason: 'Buyer changed the order' }, 200);
    expect(await figures()).toEqual({ awaitingRelease: 1, heldUnits: 0 });

    // A delivery whose release has started awaits it no longer.
    const release = await t.app.inject({ method: 'POST', url: `/api/v1/deliveries/${a.id}/release`, headers: { cookie: staff } });
    expect(release.statusCode, release.body).toBe(202);
    expect(await figures()).toEqual({ awaitingRelease: 0, heldUnits: 0 });
  });

  it("counts by each order's EN 10204 type, not the Settings': a 3.1 order's unit waits for its range's release", async () => {
    const product = await productWithRange(t.app, staff, 'DT-', 100);
    const [pass31, pass22] = serialsOf('DT-', 1, 2) as [string, string];
    await send(pass31, 'shell', 'pass', '2024-05-01T08:00:00Z');
    await send(pass22, 'shell', 'pass', '2024-05-01T08:00:00Z');
    const customer = await addCustomer(t.app, staff);
    const items = [{ line: 1, productId: product.id, quantity: 10 }];
    const order31 = await post(t.app, staff, '/api/v1/purchase-orders', {
      customerId: customer.id,
      number: `PO-31-${uniq()}`,
      date: '2024-05-01',
      documentType: '3.1',
      items,
    });
    const order22 = await post(t.app, staff, '/api/v1/purchase-orders', {
      customerId: customer.id,
      number: `PO-22-${uniq()}`,
      date: '2024-05-01',
      documentType: '2.2',
      items,
    });
    const d31 = await addDelivery(t.app, staff, order31.id);
    const d22 = await addDelivery(t.app, staff, order22.id);
    await addUnits(d31.id, [pass31]);
    await addUnits(d22.id, [pass22]);
    // The 3.1 order's unit is held until an authorised inspector releases its range; the 2.2 order's is not.
    expect(await heldByGates([d31.id, d22.id])).toBe(1);
    expect((await figures()).heldUnits).toBe(1);
    await releaseRangeOf(t, pass31);
    expect(await heldByGates([d31.id, d22.id])).toBe(0);
    expect((await figures()).heldUnits).toBe(0);
  });
});
