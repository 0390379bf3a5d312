import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { GOOD_PASSWORD, randomIp, signedInUser, uniqueEmail } from './helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('audit log', () => {
  it('records every change to an account with who, before and after, and no secrets', async () => {
    const admin = await signedInUser(t.app, { role: 'admin' });
    const call = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie: admin.cookie }, remoteAddress: '10.1.2.3', ...(payload ? { payload } : {}) });
    const email = uniqueEmail('audited');
    const id = (await call('POST', '/api/v1/staff', { name: 'Audited', email, password: GOOD_PASSWORD, role: 'staff' })).json().data.id;
    await call('PATCH', `/api/v1/staff/${id}`, { role: 'admin', name: 'Audited Two' });
    await call('POST', `/api/v1/staff/${id}/password`, { password: 'Another-Good-Passw0rd' });
    await call('DELETE', `/api/v1/staff/${id}`);

    const res = await call('GET', `/api/v1/audit-log?entity=user&entityId=${id}`);
    expect(res.statusCode).toBe(200);
    const { items, total } = res.json().data;
    expect(total).toBe(4);
    expect(items.map((e: { action: string }) => e.action)).toEqual(['delete', 'set-password', 'update', 'create']);
    for (const e of items)
      expect(e).toMatchObject({ actorId: admin.user.id, actorLabel: admin.user.email, ip: '10.1.2.3', entity: 'user', entityId: id });
    const update = items[2];
    expect(update.before).toMatchObject({ role: 'staff', name: 'Audited' });
    expect(update.after).toMatchObject({ role: 'admin', name: 'Audited Two' });
    expect(items[0].before).toMatchObject({ email });
    expect(JSON.stringify(items)).not.toMatch(/argon2|passwordHash|Another-Good|Correct-Horse/);

    const asc = await call('GET', `/api/v1/audit-log?entity=user&entityId=${id}&order=asc&pageSize=5&page=1`);
    expect(asc.json().data.items[0].action).toBe('create');
  });

  it('records sign-in-related changes a user makes to their own account', async () => {
    const u = await signedInUser(t.app);
    await t.app.inject({ method: 'PATCH', url: '/api/v1/auth/me', headers: { cookie: u.cookie }, payload: { language: 'zh' } });
    const admin = await signedInUser(t.app, { role: 'admin' });
    const res = await t.app.inject({ url: `/api/v1/audit-log?entityId=${u.user.id}`, headers: { cookie: admin.cookie } });
    expect(res.json().data.items[0]).toMatchObject({
      action: 'update-profile',
      actorId: u.user.id,
      before: { language: 'en' },
      after: { language: 'zh' },
    });
  });

  it('records no profile change when a save changes nothing', async () => {
    const u = await signedInUser(t.app);
    const same = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/auth/me',
      headers: { cookie: u.cookie },
      payload: { language: 'en' },
    });
    expect(same.statusCode).toBe(200);
    const admin = await signedInUser(t.app, { role: 'admin' });
    const res = await t.app.inject({ url: `/api/v1/audit-log?entityId=${u.user.id}`, headers: { cookie: admin.cookie } });
    expect(res.json().data.items.map((i: { action: string }) => i.action)).not.toContain('update-profile');
  });

  it('is readable by admins only', async () => {
    const staff = await signedInUser(t.app);
    expect(
      (await t.app.inject({ url: '/api/v1/audit-log', headers: { cookie: staff.cookie }, remoteAddress: randomIp() })).statusCode,
    ).toBe(403);
    expect((await t.app.inject('/api/v1/audit-log')).statusCode).toBe(401);
  });

  it('refuses a day that is no date on its field, never with a 500 (found by the OpenAPI fuzz)', async () => {
    const admin = await signedInUser(t.app, { role: 'admin' });
    for (const q of ['from=0000-00-00', 'to=2024-02-30', 'from=2024-13-01', 'to=9999-99-99']) {
      const res = await t.app.inject({ url: `/api/v1/audit-log?${q}`, headers: { cookie: admin.cookie }, remoteAddress: randomIp() });
      expect(res.statusCode, q).toBe(400);
      expect(
        res.json().error.fields.map((f: { field: string }) => f.field),
        q,
      ).toContain(q.split('=')[0]);
    }
  });
});
