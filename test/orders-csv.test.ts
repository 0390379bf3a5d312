/**
 * CSV of orders: purchase orders export and import one row per item (all or nothing, every bad row named,
 * an exported list imports as the same orders and never twice), the deliveries list exports as filtered,
 * and an order item's tag numbers bound the tags its delivered units carry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { multipart, staffCookie, upload } from './helpers/catalogue';
import { addCustomer, addDelivery, post, productWithRange, uniq } from './helpers/orders';

let t: TestApp;
let cookie: string;
let zhCookie: string;
let product: { id: string; name: string };
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await staffCookie(t, { role: 'admin' });
  zhCookie = await staffCookie(t, { role: 'admin', language: 'zh' });
  product = await productWithRange(t.app, cookie, 'OC-', 500);
});
afterAll(() => t.close());

const ORIGIN = 'http://localhost:3000';
const get = (url: string) => t.app.inject({ url, headers: { cookie } });
const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, c = cookie) =>
  t.app.inject({ method, url, headers: { cookie: c, origin: ORIGIN }, ...(payload ? { payload: payload as object } : {}) });
const errorKeys = (res: { json(): { data: { errors: { row: number; field: string; key: string }[] } } }) =>
  res.json().data.errors.map((e) => `${e.row}:${e.field}:${e.key}`);
const fieldKeys = (res: { json(): { error: { fields: { field: string; key: string }[] } } }) =>
  res.json().error.fields.map((f) => `${f.field}:${f.key}`);
const HEADER = 'customer,number,date,documentType,line,product,quantity,buyerItemCode,description,tags\n';

describe('purchase orders CSV', () => {
  it('an exported list imports as the same orders, formula-like text and tags kept, never twice', async () => {
    const c = await addCustomer(t.app, cookie, { code: `POX${uniq()}` });
    const made = [
      await post(t.app, cookie, '/api/v1/purchase-orders', {
        customerId: c.id,
        number: `=PO-${uniq()}`,
        date: '2024-05-01',
        documentType: '3.1',
        items: [
          {
            line: 10,
            productId: product.id,
            quantity: 3,
            buyerItemCode: '+ITM-1',
            description: 'Ball valve, "DN50"',
            tags: ['FV-101', 'FV-102'],
          },
          { line: 20, productId: product.id, quantity: 2, description: '@gate valve' },
        ],
      }),
      await post(t.app, cookie, '/api/v1/purchase-orders', {
        customerId: c.id,
        number: `PO-${uniq()}`,
        date: '2024-06-30',
        items: [{ line: 1, productId: product.id, quantity: 1 }],
      }),
    ];
    const read = async () =>
      (await get(`/api/v1/purchase-orders?customerId=${c.id}&sort=number`)).json().data.items.map((p: Record<string, unknown>) => {
        const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = p;
        return rest;
      });
    const before = await read();
    expect(before).toHaveLength(2);

    const csv = await get(`/api/v1/purchase-orders/export.csv?customerId=${c.id}&sort=number`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe(HEADER.trim());
    expect(lines).toHaveLength(4); // the header and one row per item
    expect(csv.body).toContain(`'=PO-`); // the formula guard
    expect(csv.body).toContain(`,FV-101 FV-102`);

    // The same file again: every row's order exists already, nothing is stored twice.
    const again = await upload(t.app, cookie, '/api/v1/purchase-orders/import', csv.rawPayload);
    expect(again.json().data).toMatchObject({ stored: 0, valid: false });
    expect(errorKeys(again)).toEqual(['2:number:orders.poNumberTaken', '3:number:orders.poNumberTaken', '4:number:orders.poNumberTaken']);

    for (const p of made) expect((await send('DELETE', `/api/v1/purchase-orders/${p.id}`)).statusCode).toBe(200);
    const back = await upload(t.app, cookie, '/api/v1/purchase-orders/import', csv.rawPayload);
    expect(back.json().data).toMatchObject({ valid: true, stored: 2 });
    expect(await read()).toEqual(before);
    expect(before.find((p: { number: string }) => p.number.startsWith('=PO-')).items[0]).toMatchObject({
      buyerItemCode: '+ITM-1',
      tags: ['FV-101', 'FV-102'],
    });
  });

  it('groups rows by customer and PO number; one bad row stores nothing and every bad row is named', async () => {
    const c = await addCustomer(t.app, cookie, { code: `POI${uniq()}` });
    const n = `PO-${uniq()}`;
    const rows = [
      `${c.code},${n},2024-05-01,3.1,1,${product.name},2,,,T-1 T-2`,
      `${c.code.toLowerCase()},${n.toLowerCase()},2024-05-01,3.1,2,${product.name},1,,,t-2`, // same order; tag twice in it
      `${c.code},${n}-B,2024-05-01,,1,No Such Product,1,,,`,
      `NOPE${uniq()},${n},2024-05-01,,1,${product.name},1,,,`,
      `${c.code},${n}-C,2024-05-01,,1,${product.name},1,,,`,
      `${c.code},${n}-C,2024-05-02,,2,${product.name},0,,,`, // another date in the same order
      `${c.code},${n}-D,2024-02-30,,1,${product.name},1,,,`,
      `${c.code},${n}-E,2024-05-01,2.2,1,${product.name},1,,,`, // a good order, not stored either
    ];
    const res = await upload(t.app, cookie, '/api/v1/purchase-orders/import', HEADER + rows.join('\n'));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ valid: false, stored: 0 });
    expect(errorKeys(res)).toEqual([
      '3:tags:orders.validation.itemTagTwice',
      '4:product:orders.import.unknownProduct',
      '5:customer:orders.import.unknownCustomer',
      '7:date:orders.import.orderDiffers',
      '8:date:validation.date',
    ]);
    expect((await get(`/api/v1/purchase-orders?customerId=${c.id}`)).json().data.total).toBe(0);

    const m = multipart(HEADER + rows[3]);
    const zh = await t.app.inject({
      method: 'POST',
      url: '/api/v1/purchase-orders/import?dryRun=1',
      payload: m.payload,
      headers: { ...m.headers, cookie: zhCookie },
    });
    expect(zh.json().data.errors[0].message).toMatch(/^沒有代碼為 NOPE/);

    const ok = await upload(t.app, cookie, '/api/v1/purchase-orders/import', HEADER + rows[0] + '\n' + rows[7]);
    expect(ok.json().data).toMatchObject({ valid: true, stored: 2 });
    const orders = (await get(`/api/v1/purchase-orders?customerId=${c.id}&sort=number&order=asc`)).json().data.items;
    expect(orders.map((o: { number: string; documentType: string }) => `${o.number} ${o.documentType}`)).toEqual([
      `${n} 3.1`,
      `${n}-E 2.2`,
    ]);
    expect(orders[0].items[0]).toMatchObject({ line: 1, quantity: 2, tags: ['T-1', 'T-2'] });
  });
});

describe('deliveries list CSV', () => {
  it('exports the list with its filters', async () => {
    const c = await addCustomer(t.app, cookie, { name: `=Buyer ${uniq()}` });
    const po = await post(t.app, cookie, '/api/v1/purchase-orders', {
      customerId: c.id,
      number: `PO-${uniq()}`,
      date: '2024-05-01',
      items: [{ line: 1, productId: product.id, quantity: 5 }],
    });
    const open = await addDelivery(t.app, cookie, po.id);
    const gone = await addDelivery(t.app, cookie, po.id);
    expect((await send('POST', `/api/v1/deliveries/${gone.id}/cancel`, { reason: 'wrong truck' })).statusCode).toBe(200);

    const all = await get(`/api/v1/deliveries/export.csv?purchaseOrderId=${po.id}&sort=number`);
    expect(all.statusCode).toBe(200);
    const lines = all.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('number,date,status,customer,purchaseOrder,unitCount,issuedCount,releasedAt,cancelReason');
    expect(lines).toHaveLength(3);
    expect(all.body).toContain(`'=Buyer`);
    const cancelled = await get(`/api/v1/deliveries/export.csv?purchaseOrderId=${po.id}&status=cancelled`);
    const rows = cancelled.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(gone.number);
    expect(rows[1]).toContain('wrong truck');
    expect(cancelled.body).not.toContain(open.number);
    expect((await t.app.inject({ url: '/api/v1/deliveries/export.csv' })).statusCode).toBe(401);
  });
});

describe('order item tags', () => {
  const addUnits = (id: string, units: unknown[], c = cookie) => send('POST', `/api/v1/deliveries/${id}/serials`, { units }, c);

  it('are unique within the order, ignoring case', async () => {
    const c = await addCustomer(t.app, cookie);
    const res = await send('POST', '/api/v1/purchase-orders', {
      customerId: c.id,
      number: `PO-${uniq()}`,
      date: '2024-05-01',
      items: [
        { line: 1, productId: product.id, quantity: 1, tags: ['TV-1'] },
        { line: 2, productId: product.id, quantity: 1, tags: ['tv-1'] },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(fieldKeys(res)).toEqual(['items.1.tags:orders.validation.itemTagTwice']);
  });

  it("bound a delivered unit's tag when the item lists them; an item without tags takes any", async () => {
    const c = await addCustomer(t.app, cookie);
    const po = await post(t.app, cookie, '/api/v1/purchase-orders', {
      customerId: c.id,
      number: `PO-${uniq()}`,
      date: '2024-05-01',
      items: [
        { line: 1, productId: product.id, quantity: 3, tags: ['FV-1', 'FV-2'] },
        { line: 2, productId: product.id, quantity: 3 },
      ],
    });
    expect(po.items[0].tags).toEqual(['FV-1', 'FV-2']);
    const d = await addDelivery(t.app, cookie, po.id);
    const serial = (k: number) => `OC-${String(100 + k).padStart(5, '0')}`;

    const bad = await addUnits(d.id, [
      { serial: serial(1), line: 1, tag: 'FV-9' },
      { serial: serial(2), line: 1, tag: 'fv-2' },
      { serial: serial(3), line: 2, tag: 'ANY-1' },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(fieldKeys(bad)).toEqual(['units.0.tag:orders.validation.tagNotOfItem']);
    expect(bad.json().error.fields[0].message).toBe('Tag number FV-9 is not one of the tag numbers of line 1');
    const zh = await addUnits(d.id, [{ serial: serial(1), line: 1, tag: 'FV-9' }], zhCookie);
    expect(zh.json().error.fields[0].message).toBe('位號 FV-9 不是項次 1 的位號之一');

    const ok = await addUnits(d.id, [
      { serial: serial(1), line: 1 },
      { serial: serial(2), line: 1, tag: 'fv-2' },
      { serial: serial(3), line: 2, tag: 'ANY-1' },
    ]);
    expect(ok.statusCode).toBe(200);

    // A correction of the tag keeps the rule.
    const wrong = await send('PUT', `/api/v1/deliveries/${d.id}/serials/${serial(1)}`, { tag: 'FV-7' });
    expect(wrong.statusCode).toBe(400);
    expect(fieldKeys(wrong)).toEqual(['tag:orders.validation.tagNotOfItem']);
    expect((await send('PUT', `/api/v1/deliveries/${d.id}/serials/${serial(1)}`, { tag: 'FV-1' })).statusCode).toBe(200);

    // The order cannot drop a tag a delivered unit carries.
    const edit = (tags: string[]) =>
      send('PUT', `/api/v1/purchase-orders/${po.id}`, {
        customerId: c.id,
        number: po.number,
        date: po.date,
        items: [
          { line: 1, productId: product.id, quantity: 3, tags },
          { line: 2, productId: product.id, quantity: 3 },
        ],
      });
    const dropped = await edit(['FV-1', 'FV-3']);
    expect(dropped.statusCode).toBe(400);
    expect(fieldKeys(dropped)).toEqual(['items.0.tags:orders.validation.tagInDeliveries']);
    expect((await edit(['FV-1', 'FV-2', 'FV-3'])).statusCode).toBe(200);
  });
});
