import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, staffCookie, upload } from './helpers/catalogue';
import { addCustomer, addOrder, uniq } from './helpers/orders';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await staffCookie(t);
});
afterAll(() => t.close());

const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });
const get = (url: string) => t.app.inject({ url, headers: { cookie } });

describe('customers', () => {
  it('adds, reads, updates with contacts, and audits every change with before and after', async () => {
    const res = await send('POST', '/api/v1/customers', {
      name: 'Taiwan Power',
      code: 'tpc-1',
      country: 'tw',
      emailDomains: ['TaiPower.com.tw'],
      contacts: [{ name: 'Lin', email: 'Lin@taipower.com.tw', language: 'zh' }],
    });
    expect(res.statusCode).toBe(201);
    const c = res.json().data;
    expect(c).toMatchObject({
      code: 'TPC-1',
      country: 'TW',
      emailDomains: ['taipower.com.tw'],
      orderCount: 0,
      contacts: [{ name: 'Lin', language: 'zh', receivesCertificates: true }],
    });
    const put = await send('PUT', `/api/v1/customers/${c.id}`, { name: 'Taiwan Power Co.', code: 'TPC-1', contacts: [] });
    expect(put.json().data).toMatchObject({ name: 'Taiwan Power Co.', contacts: [] });
    const audit = await t.app.ctx.db.execute(
      sql`SELECT action, before, after FROM audit_log WHERE entity = 'customer' AND entity_id = ${c.id} ORDER BY id`,
    );
    const rows = (audit as unknown as { rows: { action: string; before: { name: string } | null; after: { name: string } }[] }).rows;
    expect(rows.map((r) => [r.action, r.before?.name ?? null, r.after.name])).toEqual([
      ['create', null, 'Taiwan Power'],
      ['update', 'Taiwan Power', 'Taiwan Power Co.'],
    ]);
    expect((await get(`/api/v1/customers?q=lin%40taipower`)).json().data.total).toBe(0);
  });

  it('keeps codes unique ignoring case, and a contact address once per customer', async () => {
    const a = await addCustomer(t.app, cookie, { code: 'SAME-1' });
    const taken = await send('POST', '/api/v1/customers', { name: 'Other', code: 'same-1' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields[0]).toMatchObject({ field: 'code', key: 'orders.codeTaken' });
    const twice = await send('PUT', `/api/v1/customers/${a.id}`, {
      name: a.name,
      code: a.code,
      contacts: [
        { name: 'A', email: 'a@x.com' },
        { name: 'B', email: 'A@X.com' },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.fields[0]).toMatchObject({ field: 'contacts.1.email', key: 'orders.validation.contactTwice' });
  });

  it('deletes a customer only while no purchase order names it (409 otherwise)', async () => {
    const c = await addCustomer(t.app, cookie);
    const p = await addProduct(t.app, cookie);
    await addOrder(t.app, cookie, c.id, [{ line: 1, productId: p.id, quantity: 1 }]);
    const refused = await send('DELETE', `/api/v1/customers/${c.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('This customer cannot be deleted: 1 purchase order names it');
    const free = await addCustomer(t.app, cookie);
    expect((await send('DELETE', `/api/v1/customers/${free.id}`)).statusCode).toBe(200);
    expect((await get(`/api/v1/customers/${free.id}`)).statusCode).toBe(404);
  });

  it('exports and imports CSV, all or nothing', async () => {
    const code = `IMP${uniq()}`;
    const header = 'name,code,address,country,language,emailDomains\n';
    const bad = `${header}Import One,${code}A,,TW,zh,one.com two.com\nImport Two,${code}B,,Taiwan,en,\nImport Three,${code.toLowerCase()}a,,,,\n`;
    const res = await upload(t.app, cookie, '/api/v1/customers/import', bad);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.errors.map((e: { row: number; field: string; key: string }) => `${e.row}:${e.field}:${e.key}`)).toEqual([
      '3:country:orders.validation.country',
      '4:code:orders.import.codeTwice',
    ]);
    expect((await get(`/api/v1/customers?q=${code}`)).json().data.total).toBe(0);
    const good = await upload(t.app, cookie, '/api/v1/customers/import', `${header}Import One,${code}A,,TW,zh,one.com two.com\n`);
    expect(good.json().data).toMatchObject({ valid: true, stored: 1 });
    const csv = await get(`/api/v1/customers/export.csv?q=${code}`);
    // A file without postcode and city imports as before; the export has them, empty.
    expect(csv.body).toContain(`Import One,${code}A,,,,TW,zh,one.com two.com`);
    // With them, they come back as they went in.
    const full = 'name,code,address,postcode,city,country,language,emailDomains,contacts\n';
    const withCity = await upload(
      t.app,
      cookie,
      '/api/v1/customers/import',
      `${full}Import Four,${code}D,1 Pier St,806,Kaohsiung,TW,en,,\n`,
    );
    expect(withCity.json().data).toMatchObject({ valid: true, stored: 1 });
    expect((await get(`/api/v1/customers/export.csv?q=${code}D`)).body).toContain(`Import Four,${code}D,1 Pier St,806,Kaohsiung,TW,en,,`);
  });

  it('refuses junk without a 500, and anonymous callers with 401', async () => {
    for (const res of [
      await send('POST', '/api/v1/customers', { name: '', code: 'bad code!', country: 'TWN', emailDomains: ['not a domain'] }),
      await send('POST', '/api/v1/customers', { name: 'x', code: 'X', contacts: [{ name: 'n', email: 'nope' }] }),
      await get('/api/v1/customers?sort=zzz&page=0'),
    ])
      expect(res.statusCode).toBe(400);
    expect((await get('/api/v1/customers/123')).statusCode).toBe(404);
    expect((await send('PUT', '/api/v1/customers/00000000-0000-4000-8000-000000000000', { name: 'n', code: 'N' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/v1/customers' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/customers', payload: { name: 'n', code: 'N' } })).statusCode).toBe(401);
  });
});
