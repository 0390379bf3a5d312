import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { createUser, GOOD_PASSWORD, randomIp, signIn, signedInUser, uniqueEmail } from './helpers/factories';

let t: TestApp;
let admin: { user: Awaited<ReturnType<typeof createUser>>; cookie: string };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signedInUser(t.app, { role: 'admin', name: 'Admin' });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, remoteAddress: randomIp(), ...(payload ? { payload } : {}) });
const me = (cookie: string) => t.app.inject({ url: '/api/v1/auth/me', headers: { cookie } });
const loginStatus = async (email: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress: randomIp() })).statusCode;

describe('adding staff', () => {
  it('adds a member who can then sign in, with the original success message', async () => {
    const email = uniqueEmail('new');
    const res = await call('POST', '/api/v1/staff', admin.cookie, {
      name: 'Nina',
      email: email.toUpperCase(),
      password: GOOD_PASSWORD,
      role: 'staff',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'Nina',
      email,
      role: 'staff',
      disabled: false,
      message: 'Staff Added Successfully',
      key: 'staff.added',
    });
    expect(res.json().data).not.toHaveProperty('passwordHash');
    expect(await loginStatus(email, GOOD_PASSWORD)).toBe(200);
  });

  it('refuses an e-mail already taken, ignoring case, on the email field', async () => {
    const existing = await createUser(t.app.ctx.db);
    const res = await call('POST', '/api/v1/staff', admin.cookie, {
      name: 'Dup',
      email: existing.email.toUpperCase(),
      password: GOOD_PASSWORD,
      role: 'staff',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      status: 'ALREADY_EXISTS',
      key: 'staff.emailTaken',
      message: 'An account with this email already exists',
    });
    expect(res.json().error.fields).toEqual([
      { field: 'email', key: 'staff.emailTaken', message: 'An account with this email already exists' },
    ]);
  });

  it('validates every field and refuses common passwords', async () => {
    const res = await call('POST', '/api/v1/staff', admin.cookie, { name: '', email: 'x', password: 'short', role: 'boss' });
    expect(res.statusCode).toBe(400);
    const fields = res
      .json()
      .error.fields.map((f: { field: string }) => f.field)
      .sort();
    expect(fields).toEqual(['email', 'name', 'password', 'role']);
    const common = await call('POST', '/api/v1/staff', admin.cookie, {
      name: 'C',
      email: uniqueEmail(),
      password: 'abc123456',
      role: 'staff',
    });
    expect(common.json().error.fields[0]).toMatchObject({ field: 'password', key: 'validation.passwordTooCommon' });
  });
});

describe('listing staff', () => {
  it('pages, sorts and searches on the server', async () => {
    const tag = `zq${Date.now()}`;
    for (const n of ['Carol', 'alice', 'Bob']) await createUser(t.app.ctx.db, { name: `${n} ${tag}` });
    await createUser(t.app.ctx.db, { name: 'Dora', email: `dora.${tag}@example.com` });
    const list = (qs: string) => call('GET', `/api/v1/staff?${qs}`, admin.cookie);
    const all = await list(`q=${tag}&sort=name&order=asc&pageSize=all`);
    expect(all.statusCode).toBe(200);
    expect(all.json().data.total).toBe(4);
    expect(all.json().data.items.map((u: { name: string }) => u.name.split(' ')[0])).toEqual(['alice', 'Bob', 'Carol', 'Dora']);
    const page2 = await list(`q=${tag.toUpperCase()}&sort=name&order=desc&pageSize=5&page=1`);
    expect(page2.json().data.items.map((u: { name: string }) => u.name.split(' ')[0])).toEqual(['Dora', 'Carol', 'Bob', 'alice']);
    const paged = await list(`q=${tag}&sort=name&pageSize=5&page=2`);
    expect(paged.json().data).toEqual({ items: [], total: 4 });
    expect(all.json().data.items[0]).toHaveProperty('createdAt');
  });

  it('refuses a page size outside the list and a wildcard search matches literally', async () => {
    expect((await call('GET', '/api/v1/staff?pageSize=7', admin.cookie)).statusCode).toBe(400);
    expect((await call('GET', '/api/v1/staff?sort=password', admin.cookie)).statusCode).toBe(400);
    expect((await call('GET', '/api/v1/staff?q=%25', admin.cookie)).json().data.total).toBe(0);
    expect((await call('GET', '/api/v1/staff?q=%00', admin.cookie)).statusCode).toBe(400);
    expect((await call('GET', '/api/v1/audit-log?entity=%00', admin.cookie)).statusCode).toBe(400);
    const nul = await call('POST', '/api/v1/staff', admin.cookie, {
      name: 'a\u0000',
      email: uniqueEmail(),
      password: GOOD_PASSWORD,
      role: 'staff',
    });
    expect(nul.json().error.fields[0]).toMatchObject({ field: 'name' });
  });

  it('is for admins only', async () => {
    const staff = await signedInUser(t.app, { role: 'staff' });
    const res = await call('GET', '/api/v1/staff', staff.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.status).toBe('PERMISSION_DENIED');
    expect((await t.app.inject('/api/v1/staff')).statusCode).toBe(401);
  });
});

describe('changing staff ends their sessions where it must', () => {
  it('a role change ends the sessions of that user at once', async () => {
    const s = await signedInUser(t.app, { role: 'staff' });
    const res = await call('PATCH', `/api/v1/staff/${s.user.id}`, admin.cookie, { role: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ role: 'admin', message: 'Staff Updated Successfully' });
    expect((await me(s.cookie)).statusCode).toBe(401);
  });

  it('disabling ends the sessions and blocks sign-in; enabling lets them back', async () => {
    const s = await signedInUser(t.app);
    expect((await call('PATCH', `/api/v1/staff/${s.user.id}`, admin.cookie, { disabled: true })).statusCode).toBe(200);
    expect((await me(s.cookie)).statusCode).toBe(401);
    expect(await loginStatus(s.user.email, s.user.password)).toBe(401);
    expect((await call('PATCH', `/api/v1/staff/${s.user.id}`, admin.cookie, { disabled: false })).statusCode).toBe(200);
    expect(await loginStatus(s.user.email, s.user.password)).toBe(200);
  });

  it('a name change keeps the sessions', async () => {
    const s = await signedInUser(t.app);
    const res = await call('PATCH', `/api/v1/staff/${s.user.id}`, admin.cookie, { name: 'Renamed' });
    expect(res.json().data.name).toBe('Renamed');
    expect((await me(s.cookie)).statusCode).toBe(200);
  });

  it('an admin-set password ends the sessions and replaces the old password', async () => {
    const s = await signedInUser(t.app);
    const res = await call('POST', `/api/v1/staff/${s.user.id}/password`, admin.cookie, { password: 'Admin-Chosen-Passw0rd' });
    expect(res.statusCode).toBe(200);
    expect((await me(s.cookie)).statusCode).toBe(401);
    expect(await loginStatus(s.user.email, s.user.password)).toBe(401);
    expect(await loginStatus(s.user.email, 'Admin-Chosen-Passw0rd')).toBe(200);
    const common = await call('POST', `/api/v1/staff/${s.user.id}/password`, admin.cookie, { password: 'password123' });
    expect(common.json().error.fields[0]).toMatchObject({ key: 'validation.passwordTooCommon' });
  });

  it('deleting ends the sessions; the user is gone', async () => {
    const s = await signedInUser(t.app);
    const res = await call('DELETE', `/api/v1/staff/${s.user.id}`, admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.key).toBe('staff.deleted');
    expect((await me(s.cookie)).statusCode).toBe(401);
    const gone = await call('GET', `/api/v1/staff/${s.user.id}`, admin.cookie);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toBe('User not found');
    expect((await call('DELETE', `/api/v1/staff/${s.user.id}`, admin.cookie)).statusCode).toBe(404);
    expect((await call('PATCH', `/api/v1/staff/${s.user.id}`, admin.cookie, { name: 'x' })).statusCode).toBe(404);
  });
});

describe('admins and themselves', () => {
  it('an admin cannot demote, disable or delete themselves', async () => {
    const url = `/api/v1/staff/${admin.user.id}`;
    const demote = await call('PATCH', url, admin.cookie, { role: 'staff' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error).toMatchObject({
      key: 'staff.cannotDemoteSelf',
      message: 'You cannot take away your own administrator role',
    });
    expect((await call('PATCH', url, admin.cookie, { disabled: true })).json().error.key).toBe('staff.cannotDisableSelf');
    expect((await call('DELETE', url, admin.cookie)).json().error).toMatchObject({
      key: 'staff.cannotDeleteSelf',
      message: 'You cannot delete your own account',
    });
    expect((await call('PATCH', url, admin.cookie, { name: 'Still Admin', role: 'admin' })).statusCode).toBe(200);
    expect((await me(admin.cookie)).json().data.user.role).toBe('admin');
  });

  it('an admin changing their own password here keeps their current session', async () => {
    const a = await signedInUser(t.app, { role: 'admin' });
    const other = await signIn(t.app, a.user.email, a.user.password, { remoteAddress: randomIp() });
    expect((await call('POST', `/api/v1/staff/${a.user.id}/password`, a.cookie, { password: 'Admin-Own-Passw0rd!' })).statusCode).toBe(200);
    expect((await me(a.cookie)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
  });
});
