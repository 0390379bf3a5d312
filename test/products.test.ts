import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_SORTS } from '../src/shared/contract/products';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, productBody, rangeBody, staffCookie } from './helpers/catalogue';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await staffCookie(t);
});
afterAll(() => t.close());

const post = (payload: unknown, c = cookie) =>
  t.app.inject({ method: 'POST', url: '/api/v1/products', headers: { cookie: c }, payload: payload as object });
const fieldsOf = (res: { json(): { error: { fields?: { field: string; key: string }[] } } }) =>
  res.json().error.fields?.map((f) => `${f.field}:${f.key}`);

describe('products: add and read', () => {
  it('adds a product with decimals from strings and numbers and says so', async () => {
    const res = await post(productBody({ name: 'Ball Valve DN25', pressureFc: '1,6', pressureWcb: 2.5, pressureSus: null }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ message: 'Product Added Successfully', messageKey: 'products.added' });
    expect(body.data).toMatchObject({
      name: 'Ball Valve DN25',
      fluid: 'water',
      pressureFc: 1.6,
      pressureWcb: 2.5,
      pressureSus: null,
      temperatureMax: 120,
      temperatureMin: -10,
      rangeCount: 0,
    });
    const read = await t.app.inject({ url: `/api/v1/products/${body.data.id}`, headers: { cookie } });
    expect(read.json().data).toEqual(body.data);
  });

  it('names every broken field rule', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '  ' }, 'name:validation.required'],
      [{ name: 'x'.repeat(121) }, 'name:validation.tooLong'],
      [{ fluid: 'lava' }, 'fluid:validation.oneOf'],
      [{ pressureFc: '', pressureWcb: null, pressureSus: undefined }, 'pressureFc:products.validation.pressureRequired'],
      [{ pressureFc: -1 }, 'pressureFc:validation.min'],
      [{ pressureWcb: 'abc' }, 'pressureWcb:validation.number'],
      [{ pressureSus: '1.2345' }, 'pressureSus:products.validation.decimals3'],
      [{ pressureSus: '1e400' }, 'pressureSus:validation.number'],
      [{ temperatureMin: 200, temperatureMax: 100 }, 'temperatureMin:products.validation.temperatureOrder'],
      [{ temperatureMax: '' }, 'temperatureMax:validation.required'],
      [{ temperatureMin: -300 }, 'temperatureMin:validation.min'],
      [{ connection: 'c'.repeat(121) }, 'connection:validation.tooLong'],
    ];
    for (const [overrides, expected] of cases) {
      const res = await post(productBody(overrides));
      expect(res.statusCode, expected).toBe(400);
      expect(fieldsOf(res), expected).toContain(expected);
    }
    const res = await post(productBody({ name: 'x'.repeat(121) }));
    expect(res.json().error.fields[0].message).toBe('At most 120 characters');
  });

  it('refuses a name that exists, ignoring case, with a field error on name', async () => {
    await addProduct(t.app, cookie, { name: 'Check Valve DN80' });
    const res = await post(productBody({ name: ' check valve dn80 ' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ status: 'ALREADY_EXISTS', message: 'A product with this name already exists' });
    expect(fieldsOf(res)).toEqual(['name:products.nameTaken']);
  });

  it('answers "Product Not Found" for unknown and malformed ids on every route', async () => {
    const ids = ['00000000-0000-4000-8000-000000000000', 'abc', '1', 'x'.repeat(90), '%27%20or%201%3D1'];
    for (const id of ids) {
      for (const [method, suffix] of [
        ['GET', ''],
        ['PUT', ''],
        ['DELETE', ''],
        ['GET', '/history'],
      ] as const) {
        const res = await t.app.inject({
          method,
          url: `/api/v1/products/${id}${suffix}`,
          headers: { cookie },
          ...(method === 'PUT' ? { payload: productBody() } : {}),
        });
        expect(res.statusCode, `${method} ${id.slice(0, 20)}${suffix}`).toBe(404);
        expect(res.json().error).toMatchObject({ status: 'NOT_FOUND', message: 'Product Not Found' });
      }
    }
  });

  it('answers an over-long id with a 4xx, never a 500', async () => {
    const res = await t.app.inject({ url: `/api/v1/products/${'x'.repeat(5000)}`, headers: { cookie } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('requires sign-in', async () => {
    expect((await t.app.inject({ url: '/api/v1/products' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/products', payload: productBody() })).statusCode).toBe(401);
  });

  it('speaks Traditional Chinese to a zh user', async () => {
    const zh = await staffCookie(t, { language: 'zh' });
    const res = await post(productBody({ temperatureMin: 5, temperatureMax: 1 }), zh);
    expect(res.json().error.fields[0].message).toBe('最低溫度不得高於最高溫度');
    const ok = await post(productBody(), zh);
    expect(ok.json().message).toBe('產品新增成功');
    const missing = await t.app.inject({ url: '/api/v1/products/nope', headers: { cookie: zh } });
    expect(missing.json().error.message).toBe('找不到產品');
  });
});

describe('products: update, delete, history', () => {
  it('updates, refuses a taken name on update, and keeps the history (who, when, what)', async () => {
    const p = await addProduct(t.app, cookie, { name: 'Globe Valve' });
    await addProduct(t.app, cookie, { name: 'Taken Name' });
    const put = (body: unknown) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/products/${p.id}`, headers: { cookie }, payload: body as object });
    const res = await put(productBody({ name: 'Globe Valve PN40', pressureFc: 4, fluid: 'steam' }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Product Updated Successfully',
      data: { name: 'Globe Valve PN40', fluid: 'steam', pressureFc: 4 },
    });
    const clash = await put(productBody({ name: 'TAKEN NAME' }));
    expect(clash.statusCode).toBe(409);
    expect(fieldsOf(clash)).toEqual(['name:products.nameTaken']);

    const history = (await t.app.inject({ url: `/api/v1/products/${p.id}/history`, headers: { cookie } })).json().data;
    expect(history.map((h: { action: string }) => h.action)).toEqual(['update', 'create']);
    expect(history[0].actor).toMatchObject({ name: 'Stella Staff' });
    expect(history[0].actor.label).toMatch(/@example\.com$/);
    expect(history[0].changes).toEqual(
      expect.arrayContaining([
        { field: 'name', before: 'Globe Valve', after: 'Globe Valve PN40' },
        { field: 'fluid', before: 'water', after: 'steam' },
        { field: 'pressureFc', before: 1.6, after: 4 },
      ]),
    );
    expect(history[0].changes.map((c: { field: string }) => c.field)).not.toContain('connection');
    expect(new Date(history[0].at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses to delete a product that ranges use, saying how many; deletes it otherwise', async () => {
    const p = await addProduct(t.app, cookie);
    for (const [a, b] of [
      ['DP-001', 'DP-010'],
      ['DP-011', 'DP-020'],
    ]) {
      expect((await postRange(t.app, cookie, rangeBody(p.id, a!, b!, 10))).statusCode).toBe(201);
    }
    const del = () => t.app.inject({ method: 'DELETE', url: `/api/v1/products/${p.id}`, headers: { cookie } });
    const refused = await del();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('This product cannot be deleted: 2 serial number ranges use it');
    expect((await t.app.inject({ url: `/api/v1/products/${p.id}`, headers: { cookie } })).json().data.rangeCount).toBe(2);

    const lone = await addProduct(t.app, cookie);
    const ok = await t.app.inject({ method: 'DELETE', url: `/api/v1/products/${lone.id}`, headers: { cookie } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe('Product Deleted Successfully');
    expect((await t.app.inject({ url: `/api/v1/products/${lone.id}`, headers: { cookie } })).statusCode).toBe(404);
  });
});

describe('products: list', () => {
  it('sorts on every column both ways, searches and filters', async () => {
    await addProduct(t.app, cookie, { name: 'Zeta Oil Valve', fluid: 'oil', application: 'Refinery 100%' });
    await addProduct(t.app, cookie, { name: 'alpha oil valve', fluid: 'oil', pressureFc: null, pressureSus: 9 });
    for (const sort of PRODUCT_SORTS) {
      for (const order of ['asc', 'desc']) {
        const res = await t.app.inject({ url: `/api/v1/products?sort=${sort}&order=${order}&pageSize=100`, headers: { cookie } });
        expect(res.statusCode, `${sort} ${order}`).toBe(200);
      }
    }
    const byName = (await t.app.inject({ url: '/api/v1/products?q=OIL%20valve&sort=name', headers: { cookie } })).json().data;
    expect(byName.items.map((p: { name: string }) => p.name)).toEqual(['alpha oil valve', 'Zeta Oil Valve']);
    expect(byName.total).toBe(2);
    const literal = (await t.app.inject({ url: `/api/v1/products?q=${encodeURIComponent('100%')}`, headers: { cookie } })).json().data;
    expect(literal.items.map((p: { name: string }) => p.name)).toEqual(['Zeta Oil Valve']);
    const oils = (await t.app.inject({ url: '/api/v1/products?fluid=oil&sort=pressureFc&order=desc', headers: { cookie } })).json().data;
    expect(oils.items.map((p: { name: string }) => p.name)).toEqual(['Zeta Oil Valve', 'alpha oil valve']);
    const page = (await t.app.inject({ url: '/api/v1/products?pageSize=5&page=1', headers: { cookie } })).json().data;
    expect(page.items).toHaveLength(5);
    expect(page.total).toBeGreaterThan(5);
    const bad = await t.app.inject({ url: '/api/v1/products?sort=password&pageSize=7', headers: { cookie } });
    expect(bad.statusCode).toBe(400);
  });
});
