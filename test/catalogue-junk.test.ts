import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie, upload } from './helpers/catalogue';

let t: TestApp;
let cookie: string;
let productId: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await staffCookie(t);
  productId = (await addProduct(t.app, cookie)).id;
});
afterAll(() => t.close());

describe('nothing a client sends gives a 500', () => {
  it('CSV cells with NUL and control characters', async () => {
    const csv = 'product,startSerial,endSerial,totalUnits,productionDate\nA\u0000B,N1,N2,,2024-01-01\n';
    const res = await upload(t.app, cookie, '/api/v1/serial-ranges/import', csv);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.errors[0]).toMatchObject({ row: 2, field: 'product', key: 'validation.invalid' });
    const p = await upload(
      t.app,
      cookie,
      '/api/v1/products/import',
      'name,fluid,pressureFc,temperatureMax,temperatureMin\nA\u0000,water,1,2,1\n',
    );
    expect(p.json().data.errors[0]).toMatchObject({ row: 2, field: 'name', key: 'validation.invalid' });
  });

  it('a large upload with a wrong header, and one over the row limit, are answered', async () => {
    const res = await upload(t.app, cookie, '/api/v1/serial-ranges/import', `foo,bar\n${'x,y\n'.repeat(500_000)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.errors[0].key).toBe('serials.import.missingColumns');
  });

  it('list queries', async () => {
    const urls = [
      '/api/v1/serial-ranges?page=1000000000000000&pageSize=100',
      '/api/v1/serial-ranges?page=1e400',
      '/api/v1/serial-ranges?pageSize=all&page=99999999',
      `/api/v1/serial-ranges?q=${encodeURIComponent('%_\\\'";--')}`,
      `/api/v1/serial-ranges?q=${'9'.repeat(200)}`,
      '/api/v1/serial-ranges?serial=A99999999999999999999999&productId=1',
      '/api/v1/serial-ranges?sort=id&order=sideways',
      '/api/v1/products?page=1000000000000000&pageSize=100',
      '/api/v1/products?fluid=lava&q=x',
      '/api/v1/products/export.csv?page=0&sort=nope',
      '/api/v1/serial-ranges/export.csv?q=%00',
    ];
    for (const url of urls) {
      const res = await t.app.inject({ url, headers: { cookie } });
      expect(res.statusCode, url).toBeLessThan(500);
    }
    const far = await t.app.inject({ url: '/api/v1/serial-ranges?page=1000000&pageSize=100', headers: { cookie } });
    expect(far.json(), far.body).toHaveProperty('data.items', []);
  });

  it('bodies', async () => {
    const bodies: unknown[] = [
      [],
      'x',
      { productId: 5, startSerial: 1, endSerial: null, totalUnits: '1e400', productionDate: 20240101 },
      rangeBody(productId, 'A1', 'A9', 9, { totalUnits: '1e400' }),
      rangeBody(productId, 'A1', 'A9', 9, { totalUnits: -1 }),
      rangeBody(productId, 'A000000000000000001', 'A999999999999999999', 9),
      rangeBody(productId, 'A1', 'A9', 9, { productionDate: '0000-01-01' }),
      rangeBody(productId, 'A\u0000 1', 'A9', 9),
    ];
    for (const body of bodies) {
      const res = await postRange(t.app, cookie, body as Record<string, unknown>);
      expect(res.statusCode, JSON.stringify(body)).toBeLessThan(500);
      expect(res.statusCode, JSON.stringify(body)).not.toBe(201);
    }
    const extra = await postRange(t.app, cookie, { ...rangeBody(productId, 'A1', 'A9', 9), extra: { nested: [1, 2, 3] } });
    expect(extra.statusCode).toBe(201);
    const edge = await postRange(t.app, cookie, rangeBody(productId, '999999999999999990', '999999999999999999', 10));
    expect(edge.statusCode).toBe(201);
    const products: unknown[] = [
      { name: 'A\u0000B', fluid: 'water', pressureFc: 1, temperatureMax: 1, temperatureMin: 0 },
      { name: 'ok', connection: 'tab\there', fluid: 'water', pressureFc: 1, temperatureMax: 1, temperatureMin: 0 },
      { name: 'x', fluid: 'water', pressureFc: '99999999999999999999', temperatureMax: 1, temperatureMin: 0 },
      { name: { $ne: 1 } },
    ];
    for (const body of products) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/products', headers: { cookie }, payload: body as object });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});
