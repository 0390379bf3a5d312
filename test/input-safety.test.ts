/** Input no form would send but anyone can: it must come back as a 4xx in the envelope, never a 500. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { signedInUser } from './helpers/factories';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp({}, (app) => {
    app.get('/api/v1/test/overflow', { config: { access: 'public' } }, async () => {
      // A value validation let through that the database refuses (SQLSTATE 22003).
      await app.ctx.db.execute(await import('drizzle-orm').then(({ sql }) => sql`select 99999999999999999999::bigint`));
      return { data: null };
    });
  });
  ({ cookie } = await signedInUser(t.app, { role: 'staff' }));
});
afterAll(() => t.close());

const product = {
  name: 'Gate valve',
  fluid: 'water',
  connection: 'Flanged',
  application: 'Waterworks',
  applicationMedium: 'Water',
  pressureFc: 1.6,
  temperatureMax: 80,
  temperatureMin: -10,
};

describe('input the database cannot store', () => {
  it('refuses U+0000 in a text field as a field error', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/products',
      headers: { cookie },
      payload: { ...product, name: 'Gate\u0000valve' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual([expect.objectContaining({ field: 'name', key: 'validation.invalid' })]);
  });

  it('refuses U+0000 in a search term', async () => {
    const res = await t.app.inject({ url: '/api/v1/products?q=a%00b', headers: { cookie } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[0].field).toBe('q');
  });

  it('refuses a page number past any real list', async () => {
    const res = await t.app.inject({ url: '/api/v1/products?page=100000000000000000000', headers: { cookie } });
    expect(res.statusCode).toBe(400);
  });

  it('turns a value the database refuses into 400, not 500', async () => {
    const res = await t.app.inject('/api/v1/test/overflow');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.status).toBe('INVALID_ARGUMENT');
  });
});
