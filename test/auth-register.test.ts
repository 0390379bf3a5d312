import { count, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../src/server/db/schema/index';
import { buildTestApp, type TestApp } from './helpers/app';
import { createUser, GOOD_PASSWORD, randomIp, sessionCookieOf, uniqueEmail } from './helpers/factories';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const register = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload, remoteAddress: randomIp(), headers });

describe('first-run registration', () => {
  it('creates the first admin while no account exists, signs them in, then closes', async () => {
    expect((await t.app.inject('/api/v1/auth/setup')).json()).toEqual({ data: { needsFirstAdmin: true } });
    const res = await register({ name: 'Ada', email: 'Ada@Example.com', password: GOOD_PASSWORD }, { 'accept-language': 'zh-TW' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.user).toMatchObject({ name: 'Ada', email: 'ada@example.com', role: 'admin', language: 'zh' });
    const me = await t.app.inject({ url: '/api/v1/auth/me', headers: { cookie: sessionCookieOf(res)! } });
    expect(me.json().data.user.role).toBe('admin');
    expect((await t.app.inject('/api/v1/auth/setup')).json()).toEqual({ data: { needsFirstAdmin: false } });

    const again = await register({ name: 'Eve', email: uniqueEmail(), password: GOOD_PASSWORD });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: { status: 'ABORTED', message: 'Accounts are created by an administrator', key: 'auth.accountsByAdmin' },
    });
  });

  it('refuses once any account exists, even a staff one', async () => {
    await createUser(t.app.ctx.db, { role: 'staff' });
    const res = await register({ name: 'Eve', email: uniqueEmail(), password: GOOD_PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.key).toBe('auth.accountsByAdmin');
  });

  it('yields exactly one admin when two registrations race', async () => {
    const [a, b] = await Promise.all([
      register({ name: 'A', email: uniqueEmail('a'), password: GOOD_PASSWORD }),
      register({ name: 'B', email: uniqueEmail('b'), password: GOOD_PASSWORD }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const [row] = await t.app.ctx.db.select({ n: count() }).from(users).where(eq(users.role, 'admin'));
    expect(row!.n).toBe(1);
  });

  it('refuses the commonest passwords and too short or too long ones, naming the field', async () => {
    const common = await register({ name: 'A', email: uniqueEmail(), password: 'Password1' });
    expect(common.statusCode).toBe(400);
    expect(common.json().error.fields).toEqual([
      { field: 'password', key: 'validation.passwordTooCommon', message: 'This password is too common; choose another' },
    ]);
    const short = await register({ name: 'A', email: uniqueEmail(), password: 'Ab3$x' });
    expect(short.json().error.fields[0]).toMatchObject({ field: 'password', key: 'validation.passwordTooShort' });
    const long = await register({ name: 'A', email: uniqueEmail(), password: 'x'.repeat(129) });
    expect(long.json().error.fields[0]).toMatchObject({ field: 'password', key: 'validation.passwordTooLong' });
    expect((await t.app.inject('/api/v1/auth/setup')).json().data.needsFirstAdmin).toBe(true);
  });

  it('stores an Argon2id hash with the configured cost, never the password', async () => {
    await register({ name: 'A', email: 'first@example.com', password: GOOD_PASSWORD });
    const [row] = await t.app.ctx.db.select().from(users);
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row!.passwordHash).not.toContain(GOOD_PASSWORD);
  });
});
