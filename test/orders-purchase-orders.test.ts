import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';
import { addCustomer, addDelivery, addOrder, productWithRange } from './helpers/orders';

let t: TestApp;
let cookie: string;
let product: { id: string; name: string };
let other: { id: string; name: string };
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await staffCookie(t);
  product = await productWithRange(t.app, cookie, 'PO-', 100);
  other = await productWithRange(t.app, cookie, 'PX-', 10);
});
afterAll(() => t.close());

const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });
const get = (url: string) => t.app.inject({ url, headers: { cookie } });

describe('purchase orders', () => {
  it('adds an order with the Settings document type by default; a number once per customer, ignoring case', async () => {
    const c = await addCustomer(t.app, cookie);
    const po = await addOrder(t.app, cookie, c.id, [{ line: 1, productId: product.id, quantity: 2 }]);
    expect(po).toMatchObject({
      customerId: c.id,
      documentType: '2.2',
      deliveryCount: 0,
      items: [{ line: 1, productName: product.name, quantity: 2, shipped: 0 }],
    });
    const again = await send('POST', '/api/v1/purchase-orders', {
      customerId: c.id,
      number: po.number.toLowerCase(),
      date: '2024-05-01',
      items: [{ line: 1, productId: product.id, quantity: 1 }],
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.fields[0].field).toBe('number');
    const otherCustomer = await addCustomer(t.app, cookie);
    const same = await send('POST', '/api/v1/purchase-orders', {
      customerId: otherCustomer.id,
      number: po.number,
      date: '2024-05-01',
      documentType: '3.1',
      items: [{ line: 1, productId: product.id, quantity: 1 }],
    });
    expect(same.statusCode).toBe(201);
    expect(same.json().data.documentType).toBe('3.1');
    const list = (await get(`/api/v1/purchase-orders?customerId=${c.id}&sort=number`)).json().data;
    expect(list).toMatchObject({ total: 1, items: [{ id: po.id }] });
  });

  it('refuses unknown customers and products, and a line twice, naming the fields', async () => {
    const c = await addCustomer(t.app, cookie);
    const res = await send('POST', '/api/v1/purchase-orders', {
      customerId: '00000000-0000-4000-8000-000000000000',
      number: 'PO-X',
      date: '2024-05-01',
      items: [{ line: 1, productId: '00000000-0000-4000-8000-000000000001', quantity: 1 }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.map((f: { field: string; key: string }) => `${f.field}:${f.key}`)).toEqual([
      'customerId:orders.validation.customer',
      'items.0.productId:orders.validation.product',
    ]);
    const twice = await send('POST', '/api/v1/purchase-orders', {
      customerId: c.id,
      number: 'PO-Y',
      date: '2024-05-01',
      items: [
        { line: 1, productId: product.id, quantity: 1 },
        { line: 1, productId: product.id, quantity: 1 },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.fields[0]).toMatchObject({ field: 'items.1.line', key: 'orders.validation.lineTwice' });
  });

  it('does not reduce an item below what was shipped, remove it or change its product while shipped; deletes only without deliveries', async () => {
    const c = await addCustomer(t.app, cookie);
    const po = await addOrder(t.app, cookie, c.id, [
      { line: 1, productId: product.id, quantity: 5 },
      { line: 2, productId: product.id, quantity: 5 },
    ]);
    const d = await addDelivery(t.app, cookie, po.id);
    const units = ['PO-00001', 'PO-00002', 'PO-00003'].map((serial) => ({ serial, line: 1 }));
    expect((await send('POST', `/api/v1/deliveries/${d.id}/serials`, { units })).statusCode).toBe(200);
    const body = (items: unknown[]) => ({ customerId: c.id, number: po.number, date: po.date, items });

    const below = await send(
      'PUT',
      `/api/v1/purchase-orders/${po.id}`,
      body([
        { line: 1, productId: product.id, quantity: 2 },
        { line: 2, productId: product.id, quantity: 5 },
      ]),
    );
    expect(below.statusCode).toBe(400);
    expect(below.json().error.fields[0]).toMatchObject({
      field: 'items.0.quantity',
      message: 'The quantity cannot be below the 3 units already shipped',
    });
    const removed = await send('PUT', `/api/v1/purchase-orders/${po.id}`, body([{ line: 2, productId: product.id, quantity: 5 }]));
    expect(removed.json().error.fields[0]).toMatchObject({
      field: 'items',
      key: 'orders.validation.lineInDeliveries',
      params: { line: 1 },
    });
    const product2 = await send(
      'PUT',
      `/api/v1/purchase-orders/${po.id}`,
      body([
        { line: 1, productId: other.id, quantity: 5 },
        { line: 2, productId: product.id, quantity: 5 },
      ]),
    );
    expect(product2.json().error.fields[0]).toMatchObject({ field: 'items.0.productId', key: 'orders.validation.productShipped' });

    // Line 2 has shipped nothing: it may go; line 1 may drop to exactly what shipped; line 3 is new.
    const ok = await send(
      'PUT',
      `/api/v1/purchase-orders/${po.id}`,
      body([
        { line: 1, productId: product.id, quantity: 3 },
        { line: 3, productId: other.id, quantity: 1, description: 'Spare' },
      ]),
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.items).toMatchObject([
      { line: 1, quantity: 3, shipped: 3 },
      { line: 3, quantity: 1, shipped: 0, description: 'Spare' },
    ]);

    const refused = await send('DELETE', `/api/v1/purchase-orders/${po.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.key).toBe('orders.purchaseOrderInUseOne');
    const free = await addOrder(t.app, cookie, c.id, [{ line: 1, productId: product.id, quantity: 1 }]);
    expect((await send('DELETE', `/api/v1/purchase-orders/${free.id}`)).statusCode).toBe(200);
  });

  it('refuses junk without a 500 and anonymous callers with 401', async () => {
    for (const res of [
      await send('POST', '/api/v1/purchase-orders', { customerId: 'x', number: '', date: '2024-13-01', items: [] }),
      await send('POST', '/api/v1/purchase-orders', {
        customerId: '00000000-0000-4000-8000-000000000000',
        number: 'a',
        date: '2024-01-01',
        documentType: '9',
        items: [{ line: 0, productId: 'p', quantity: -1 }],
      }),
      await get('/api/v1/purchase-orders?customerId=nope'),
    ])
      expect(res.statusCode).toBe(400);
    expect((await get('/api/v1/purchase-orders/nope')).statusCode).toBe(404);
    expect((await send('DELETE', '/api/v1/purchase-orders/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/v1/purchase-orders' })).statusCode).toBe(401);
  });
});
