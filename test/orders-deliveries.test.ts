import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie, upload } from './helpers/catalogue';
import { addCustomer, addDelivery, addOrder, productWithRange, serialsOf } from './helpers/orders';

let t: TestApp;
let cookie: string;
let productA: { id: string; name: string };
let productB: { id: string; name: string };
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await staffCookie(t);
  productA = await productWithRange(t.app, cookie, 'DA-', 9000);
  productB = await productWithRange(t.app, cookie, 'DB-', 100);
});
afterAll(() => t.close());

const addUnits = (id: string, units: unknown[], c = cookie) =>
  t.app.inject({ method: 'POST', url: `/api/v1/deliveries/${id}/serials`, headers: { cookie: c }, payload: { units } });
const get = (url: string) => t.app.inject({ url, headers: { cookie } });

async function order(items: { line: number; productId: string; quantity: number }[]) {
  const c = await addCustomer(t.app, cookie);
  return addOrder(t.app, cookie, c.id, items);
}

describe('delivery units', () => {
  it('checks each serial against its line: parses, in a range of the line product, line exists; all or nothing', async () => {
    const po = await order([
      { line: 10, productId: productA.id, quantity: 5 },
      { line: 20, productId: productB.id, quantity: 5 },
    ]);
    const d = await addDelivery(t.app, cookie, po.id);
    const res = await addUnits(d.id, [
      { serial: 'da-00001', line: 10, tag: 'FV-1' },
      { serial: 'not a serial!', line: 10 },
      { serial: 'DB-00001', line: 10 },
      { serial: 'DA-00002', line: 99 },
      { serial: 'DA-00001', line: 10 },
      { serial: 'DB-00002', line: 20, tag: 'fv-1' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.map((f: { field: string; key: string }) => `${f.field}:${f.key}`)).toEqual([
      'units.1.serial:orders.validation.serial',
      'units.2.serial:orders.validation.serialNotOfProduct',
      'units.3.line:orders.validation.line',
      'units.4.serial:orders.validation.serialTwice',
      'units.5.tag:orders.validation.tagTwice',
    ]);
    expect(res.json().error.fields[1].message).toBe(`Serial number DB-00001 is not in a serial number range of ${productA.name}`);
    expect((await get(`/api/v1/deliveries/${d.id}`)).json().data).toMatchObject({ unitCount: 0, units: [] });

    const ok = await addUnits(d.id, [
      { serial: 'da-00001', line: 10, tag: 'FV-1' },
      { serial: 'DB-00002', line: 20 },
    ]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({
      unitCount: 2,
      units: [
        { serial: 'DA-00001', line: 10, tag: 'FV-1', productName: productA.name },
        { serial: 'DB-00002', line: 20, tag: '', productName: productB.name },
      ],
    });
    const audit = await t.app.ctx.db.execute(
      sql`SELECT action, before, after FROM audit_log WHERE entity = 'delivery' AND entity_id = ${d.id} ORDER BY id`,
    );
    const rows = (audit as unknown as { rows: { action: string; before: unknown; after: { unitCount: number } }[] }).rows;
    expect(rows.map((r) => r.action)).toEqual(['create', 'addUnits']);
    expect(rows[1]).toMatchObject({ before: { unitCount: 0 }, after: { unitCount: 2 } });
  });

  it('keeps a serial in one active delivery, naming the other; a cancel needs a reason and frees the serials', async () => {
    const po = await order([{ line: 1, productId: productA.id, quantity: 10 }]);
    const first = await addDelivery(t.app, cookie, po.id);
    const second = await addDelivery(t.app, cookie, po.id);
    expect((await addUnits(first.id, [{ serial: 'DA-00100', line: 1, tag: 'TAG-9' }])).statusCode).toBe(200);
    const taken = await addUnits(second.id, [{ serial: 'DA-00100', line: 1 }]);
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error.fields[0]).toMatchObject({
      field: 'units.0.serial',
      key: 'orders.validation.serialInDelivery',
      message: `Serial number DA-00100 is already in delivery ${first.number}`,
    });
    const tag = await addUnits(second.id, [{ serial: 'DA-00101', line: 1, tag: 'tag-9' }]);
    expect(tag.json().error.fields[0]).toMatchObject({ field: 'units.0.tag', key: 'orders.validation.tagTaken' });

    const noReason = await t.app.inject({
      method: 'POST',
      url: `/api/v1/deliveries/${first.id}/cancel`,
      headers: { cookie },
      payload: { reason: ' ' },
    });
    expect(noReason.statusCode).toBe(400);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/v1/deliveries/${first.id}/cancel`,
      headers: { cookie },
      payload: { reason: 'Wrong truck' },
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().data).toMatchObject({ status: 'cancelled', cancelReason: 'Wrong truck' });
    // Freed: the serial and the tag ship in the other delivery now; the line's shipped count followed.
    expect((await addUnits(second.id, [{ serial: 'DA-00100', line: 1, tag: 'TAG-9' }])).statusCode).toBe(200);
    expect((await get(`/api/v1/purchase-orders/${po.id}`)).json().data.items[0]).toMatchObject({ quantity: 10, shipped: 1 });

    // A cancelled delivery is not edited.
    for (const res of [
      await addUnits(first.id, [{ serial: 'DA-00102', line: 1 }]),
      await t.app.inject({
        method: 'PUT',
        url: `/api/v1/deliveries/${first.id}`,
        headers: { cookie },
        payload: { purchaseOrderId: po.id, number: 'X-1', date: '2024-06-01' },
      }),
      await t.app.inject({ method: 'DELETE', url: `/api/v1/deliveries/${first.id}/serials/DA-00100`, headers: { cookie } }),
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/deliveries/${first.id}/cancel`,
        headers: { cookie },
        payload: { reason: 'again' },
      }),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().error.key).toBe('orders.deliveryCancelled');
    }
  });

  it('refuses edits of a released delivery (409)', async () => {
    const po = await order([{ line: 1, productId: productA.id, quantity: 10 }]);
    const d = await addDelivery(t.app, cookie, po.id);
    await t.app.ctx.db.execute(sql`UPDATE deliveries SET status = 'released', released_at = now() WHERE id = ${d.id}`);
    const res = await addUnits(d.id, [{ serial: 'DA-00200', line: 1 }]);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.key).toBe('orders.deliveryReleased');
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/deliveries/${d.id}`,
      headers: { cookie },
      payload: { purchaseOrderId: po.id, number: 'R-2', date: '2024-06-01' },
    });
    expect(put.statusCode).toBe(409);
  });

  it('ships no more than ordered over all active deliveries, naming both figures', async () => {
    const po = await order([{ line: 1, productId: productA.id, quantity: 3 }]);
    const a = await addDelivery(t.app, cookie, po.id);
    const b = await addDelivery(t.app, cookie, po.id);
    expect(
      (
        await addUnits(
          a.id,
          serialsOf('DA-', 300, 2).map((serial) => ({ serial, line: 1 })),
        )
      ).statusCode,
    ).toBe(200);
    const over = await addUnits(
      b.id,
      serialsOf('DA-', 310, 2).map((serial) => ({ serial, line: 1 })),
    );
    expect(over.statusCode).toBe(400);
    expect(over.json().error.fields).toEqual([
      expect.objectContaining({
        field: 'units.1.line',
        key: 'orders.validation.overQuantity',
        message: 'Line 1: 4 units would be shipped, but 3 were ordered',
      }),
    ]);
    expect((await addUnits(b.id, [{ serial: 'DA-00310', line: 1 }])).statusCode).toBe(200);
  });

  it('edits number and date while open, and removes one unit', async () => {
    const po = await order([{ line: 1, productId: productA.id, quantity: 3 }]);
    const d = await addDelivery(t.app, cookie, po.id);
    const other = await addDelivery(t.app, cookie, po.id);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/deliveries/${d.id}`,
      headers: { cookie },
      payload: { purchaseOrderId: po.id, number: `${d.number}-B`, date: '2024-07-01' },
    });
    expect(put.json().data).toMatchObject({ number: `${d.number}-B`, date: '2024-07-01' });
    const clash = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/deliveries/${d.id}`,
      headers: { cookie },
      payload: { purchaseOrderId: po.id, number: other.number.toLowerCase(), date: '2024-07-01' },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.fields[0].field).toBe('number');
    await addUnits(d.id, [
      { serial: 'DA-00400', line: 1 },
      { serial: 'DA-00401', line: 1 },
    ]);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/deliveries/${d.id}/serials/da-00400`, headers: { cookie } });
    expect(del.statusCode).toBe(200);
    expect(del.json().data).toMatchObject({ unitCount: 1, units: [{ serial: 'DA-00401' }] });
    const missing = await t.app.inject({ method: 'DELETE', url: `/api/v1/deliveries/${d.id}/serials/DA-00400`, headers: { cookie } });
    expect(missing.statusCode).toBe(404);
  });

  it('stores nothing from a batch of 5,000 with one bad row, and names it; then stores the corrected batch', async () => {
    const po = await order([{ line: 1, productId: productA.id, quantity: 6000 }]);
    const d = await addDelivery(t.app, cookie, po.id);
    const units = serialsOf('DA-', 1001, 5000).map((serial) => ({ serial, line: 1, tag: '' }));
    units[3217] = { serial: 'DA-99999', line: 1, tag: '' };
    const bad = await addUnits(d.id, units);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.map((f: { field: string }) => f.field)).toEqual(['units.3217.serial']);
    expect((await get(`/api/v1/deliveries/${d.id}`)).json().data.unitCount).toBe(0);

    const csvBad = `serial,line,tag\n${units.map((u) => `${u.serial},1,`).join('\n')}\n`;
    const file = await upload(t.app, cookie, `/api/v1/deliveries/${d.id}/serials.csv`, csvBad);
    expect(file.statusCode).toBe(400);
    expect(file.json().error.fields.map((f: { field: string }) => f.field)).toEqual(['rows.3219.serial']);
    expect((await get(`/api/v1/deliveries/${d.id}`)).json().data.unitCount).toBe(0);

    units[3217] = { serial: 'DA-04218', line: 1, tag: '' };
    const good = await upload(
      t.app,
      cookie,
      `/api/v1/deliveries/${d.id}/serials.csv`,
      `serial,line,tag\n${units.map((u) => `${u.serial},1,`).join('\n')}\n`,
    );
    expect(good.statusCode).toBe(200);
    expect(good.json().data.unitCount).toBe(5000);
    expect((await get(`/api/v1/purchase-orders/${po.id}`)).json().data.items[0].shipped).toBe(5000);
  });

  it('stores each serial once when the same batch is sent 20 times at once, and answers the others without a 500', async () => {
    const po = await order([{ line: 1, productId: productB.id, quantity: 50 }]);
    const d = await addDelivery(t.app, cookie, po.id);
    const units = serialsOf('DB-', 50, 5).map((serial) => ({ serial, line: 1 }));
    const answers = await Promise.all(Array.from({ length: 20 }, () => addUnits(d.id, units)));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 400)).toHaveLength(19);
    for (const r of answers.filter((x) => x.statusCode === 400))
      expect(r.json().error.fields[0].key).toBe('orders.validation.serialInDelivery');
    expect((await get(`/api/v1/deliveries/${d.id}`)).json().data.unitCount).toBe(5);
  });

  it('answers the gate of every unit: without test data a unit is held as no-data', async () => {
    const po = await order([{ line: 1, productId: productB.id, quantity: 5 }]);
    const d = await addDelivery(t.app, cookie, po.id);
    await addUnits(d.id, [{ serial: 'DB-00090', line: 1 }]);
    const res = await get(`/api/v1/deliveries/${d.id}/gate`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      unitCount: 1,
      passed: 0,
      held: 1,
      units: [{ serial: 'DB-00090', status: 'no-data', held: [{ kind: 'no-data' }] }],
    });
  });

  it('lists with filters and sorts, refuses junk without a 500, and refuses anonymous callers', async () => {
    const po = await order([{ line: 1, productId: productB.id, quantity: 5 }]);
    const d = await addDelivery(t.app, cookie, po.id);
    const list = (await get(`/api/v1/deliveries?purchaseOrderId=${po.id}&sort=number&order=desc`)).json().data;
    expect(list).toMatchObject({ total: 1, items: [{ id: d.id, purchaseOrderNumber: po.number, unitCount: 0 }] });
    expect((await get(`/api/v1/deliveries?status=open&q=${encodeURIComponent(d.number)}`)).json().data.total).toBe(1);
    for (const res of [
      await get('/api/v1/deliveries?sort=nope'),
      await get('/api/v1/deliveries?status=shipped'),
      await addUnits(d.id, []),
      await addUnits(d.id, [{ serial: 'x'.repeat(100), line: 'one' }]),
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/deliveries',
        headers: { cookie },
        payload: { purchaseOrderId: 'nope', number: '', date: '2024-02-30' },
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/deliveries',
        headers: { cookie },
        payload: { purchaseOrderId: '00000000-0000-4000-8000-000000000000', number: 'N', date: '2024-02-03' },
      }),
    ])
      expect(res.statusCode).toBe(400);
    expect((await get('/api/v1/deliveries/not-a-uuid')).statusCode).toBe(404);
    expect((await get('/api/v1/deliveries/00000000-0000-4000-8000-000000000000/gate')).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/v1/deliveries' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/deliveries/${d.id}/serials`, payload: { units: [{ serial: 'DB-1', line: 1 }] } }))
        .statusCode,
    ).toBe(401);
    const zh = await staffCookie(t, { language: 'zh' });
    const refused = await addUnits(d.id, [{ serial: 'DB-00001', line: 7 }], zh);
    expect(refused.json().error.fields[0].message).toBe('採購單沒有項次 7');
  });
});
