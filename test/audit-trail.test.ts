/** The audit trail's filters (user, record, dates), its users list, paging, and who may read it. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct } from './helpers/catalogue';
import { createUser } from './helpers/factories';

let t: TestApp;
let admin: string;
let staff: string;
let productId: string;

async function cookieOf(email: string, role: 'admin' | 'staff') {
  const user = await createUser(t.app.ctx.db, { email, role });
  return `${SESSION_COOKIE}=${await createSession(t.app.ctx.db, user.id)}`;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await cookieOf('audit.admin@example.com', 'admin');
  staff = await cookieOf('audit.staff@example.com', 'staff');
  const product = await addProduct(t.app, staff, { name: 'Audited Valve' });
  productId = product.id;
  const edited = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/products/${productId}`,
    headers: { cookie: admin },
    payload: {
      name: 'Audited Valve 2',
      fluid: 'oil',
      pressureFc: 1.6,
      pressureWcb: '',
      pressureSus: '',
      temperatureMax: 120,
      temperatureMin: -10,
    },
  });
  expect(edited.statusCode).toBe(200);
  await addProduct(t.app, admin, { name: 'Other Valve' });
  // One entry dated in the past, to filter by date.
  await t.app.ctx.db.execute(sql`INSERT INTO audit_log (at, actor_label, action, entity, entity_id)
    VALUES ('2024-03-15T12:00:00Z', 'cli', 'create', 'user', 'old-user')`);
});
afterAll(() => t.close());

type Page = {
  items: {
    actorLabel: string;
    action: string;
    entity: string;
    entityId: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }[];
  total: number;
};
const list = async (query: string, cookie = admin) => {
  const res = await t.app.inject({ url: `/api/v1/audit-log?${query}`, headers: { cookie } });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json().data as Page;
};

describe('filters', () => {
  it('narrows to one record: its create and its update with before and after', async () => {
    const page = await list(`entity=product&entityId=${productId}`);
    expect(page.total).toBe(2);
    expect(page.items.map((i) => [i.action, i.actorLabel])).toEqual([
      ['update', 'audit.admin@example.com'],
      ['create', 'audit.staff@example.com'],
    ]);
    expect(page.items[0]!.before).toMatchObject({ name: 'Audited Valve', fluid: 'water' });
    expect(page.items[0]!.after).toMatchObject({ name: 'Audited Valve 2', fluid: 'oil' });
  });

  it('narrows to one user', async () => {
    const page = await list('actor=audit.staff@example.com');
    expect(page.items.map((i) => i.entityId)).toEqual([productId]);
    expect((await list('actor=nobody@example.com')).total).toBe(0);
  });

  it('narrows to days, both included', async () => {
    const day = await list('from=2024-03-15&to=2024-03-15');
    expect(day.items.map((i) => i.entityId)).toEqual(['old-user']);
    expect((await list('from=2024-03-16&to=2024-03-31')).total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const recent = await list(`from=${today}&entity=product`);
    expect(recent.total).toBe(3);
  });

  it('pages like the other lists', async () => {
    const first = await list('entity=product&pageSize=5&page=1');
    const all = await list('entity=product&pageSize=all');
    expect(first.items).toHaveLength(3);
    expect(all.total).toBe(3);
    expect((await list('entity=product&pageSize=5&page=2')).items).toEqual([]);
  });

  it('names the field of a bad filter', async () => {
    const fieldsOf = async (query: string) => {
      const res = await t.app.inject({ url: `/api/v1/audit-log?${query}`, headers: { cookie: admin } });
      return [res.statusCode, (res.json().error.fields as { field: string }[]).map((f) => f.field)];
    };
    expect(await fieldsOf('from=2024-02-30')).toEqual([400, ['from']]);
    expect(await fieldsOf('to=yesterday')).toEqual([400, ['to']]);
    expect(await fieldsOf('from=2024-05-02&to=2024-05-01')).toEqual([400, ['to']]);
    expect(await fieldsOf(`actor=${'a'.repeat(300)}`)).toEqual([400, ['actor']]);
    expect(await fieldsOf('pageSize=3')).toEqual([400, ['pageSize']]);
  });
});

describe('users and access', () => {
  it('lists the users who appear in the log, once each', async () => {
    const res = await t.app.inject({ url: '/api/v1/audit-log/actors', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(['audit.admin@example.com', 'audit.staff@example.com', 'cli']);
  });

  it('is for admins only: staff get 403, visitors 401', async () => {
    for (const url of ['/api/v1/audit-log', '/api/v1/audit-log/actors']) {
      expect((await t.app.inject({ url, headers: { cookie: staff } })).statusCode).toBe(403);
      expect((await t.app.inject({ url })).statusCode).toBe(401);
    }
  });
});
