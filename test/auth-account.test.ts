import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/server/db/schema/index';
import { sha256 } from '../src/server/lib/crypto';
import { ABSOLUTE_MS, IDLE_MS } from '../src/server/lib/sessions';
import { buildTestApp, type TestApp } from './helpers/app';
import { createUser, GOOD_PASSWORD, randomIp, signIn, signedInUser } from './helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const NEW_PASSWORD = 'Brand-New-Passphrase-77';
const me = (cookie: string) => t.app.inject({ url: '/api/v1/auth/me', headers: { cookie } });
const post = (url: string, payload: unknown, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    remoteAddress: randomIp(),
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });

describe('/auth/me', () => {
  it('reads and changes own name, language and preferences; the language changes the messages', async () => {
    const { user, cookie } = await signedInUser(t.app);
    expect((await me(cookie)).json().data.user).toMatchObject({ id: user.id, language: 'en', preferences: {} });
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/auth/me',
      headers: { cookie },
      payload: { name: '  New Name ', language: 'zh', preferences: { theme: 'dark', rowsPerPage: 25 } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user).toMatchObject({ name: 'New Name', language: 'zh', preferences: { theme: 'dark', rowsPerPage: 25 } });
    const refused = await post('/api/v1/auth/password', { currentPassword: 'Wrong-password-1', newPassword: NEW_PASSWORD }, cookie);
    expect(refused.json().error.message).toBe('目前的密碼不正確');
  });

  it('refuses a bad language, an empty name and oversized preferences, naming the field', async () => {
    const { cookie } = await signedInUser(t.app);
    const patch = (payload: object) => t.app.inject({ method: 'PATCH', url: '/api/v1/auth/me', headers: { cookie }, payload });
    expect((await patch({ language: 'fr' })).json().error.fields[0]).toMatchObject({ field: 'language', key: 'validation.oneOf' });
    expect((await patch({ name: '   ' })).json().error.fields[0]).toMatchObject({ field: 'name', key: 'validation.required' });
    expect((await patch({ preferences: { big: 'x'.repeat(9000) } })).statusCode).toBe(400);
    // U+0000 cannot be stored in PostgreSQL text or jsonb: a 400 naming the field, never a 500.
    expect((await patch({ name: 'a\u0000b' })).json().error.fields[0]).toMatchObject({ field: 'name', key: 'validation.invalid' });
    expect((await patch({ preferences: { x: 'a\u0000' } })).json().error.fields[0]).toMatchObject({ field: 'preferences' });
    expect((await patch({ role: 'admin' })).statusCode).toBe(200);
    expect((await me(cookie)).json().data.user.role).toBe('staff');
  });
});

describe('session timeouts', () => {
  it('ends a session idle for longer than the idle timeout', async () => {
    const { cookie } = await signedInUser(t.app);
    const hash = sha256(cookie.split('=')[1]!);
    await t.app.ctx.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - IDLE_MS - 60_000) })
      .where(eq(sessions.idHash, hash));
    const res = await me(cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toMatchObject({ status: 'UNAUTHENTICATED', key: 'errors.sessionExpired' });
  });

  it('ends a session past its absolute lifetime even when it is in use', async () => {
    const { cookie } = await signedInUser(t.app);
    const hash = sha256(cookie.split('=')[1]!);
    await t.app.ctx.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - ABSOLUTE_MS - 1000), expiresAt: new Date(Date.now() - 1000), lastSeenAt: new Date() })
      .where(eq(sessions.idHash, hash));
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('keeps an active session alive and stores only the hash of its id', async () => {
    const { cookie } = await signedInUser(t.app);
    const token = cookie.split('=')[1]!;
    const rows = await t.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, sha256(token)));
    expect(rows).toHaveLength(1);
    expect(await t.app.ctx.db.select().from(sessions).where(eq(sessions.idHash, token))).toHaveLength(0);
    expect((await me(cookie)).statusCode).toBe(200);
  });
});

describe('changing own password', () => {
  it('needs the current password and refuses a common new one', async () => {
    const { cookie } = await signedInUser(t.app);
    const wrong = await post('/api/v1/auth/password', { currentPassword: 'Wrong-password-1', newPassword: NEW_PASSWORD }, cookie);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ key: 'auth.currentPasswordWrong', message: 'The current password is wrong' });
    expect(wrong.json().error.fields[0]).toMatchObject({ field: 'currentPassword' });
    const common = await post('/api/v1/auth/password', { currentPassword: GOOD_PASSWORD, newPassword: 'qwertyuiop' }, cookie);
    expect(common.statusCode).toBe(400);
    expect(common.json().error.fields[0]).toMatchObject({ field: 'newPassword', key: 'validation.passwordTooCommon' });
  });

  it('changes it, keeps the current session and ends every other one', async () => {
    const user = await createUser(t.app.ctx.db);
    const here = await signIn(t.app, user.email, user.password, { remoteAddress: randomIp() });
    const elsewhere = await signIn(t.app, user.email, user.password, { remoteAddress: randomIp() });
    const res = await post('/api/v1/auth/password', { currentPassword: user.password, newPassword: NEW_PASSWORD }, here);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ ok: true, key: 'auth.passwordChanged' });
    expect((await me(here)).statusCode).toBe(200);
    expect((await me(elsewhere)).statusCode).toBe(401);
    expect((await post('/api/v1/auth/login', { email: user.email, password: user.password })).statusCode).toBe(401);
    expect((await post('/api/v1/auth/login', { email: user.email, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('signs out of other sessions on request', async () => {
    const user = await createUser(t.app.ctx.db);
    const here = await signIn(t.app, user.email, user.password, { remoteAddress: randomIp() });
    const elsewhere = await signIn(t.app, user.email, user.password, { remoteAddress: randomIp() });
    const res = await post('/api/v1/auth/sessions/revoke-others', undefined, here);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.message).toBe('You have been signed out of all other sessions');
    expect((await me(here)).statusCode).toBe(200);
    expect((await me(elsewhere)).statusCode).toBe(401);
  });
});

describe('CSRF on cookie-authenticated changes', () => {
  it('refuses a cross-site Origin or Sec-Fetch-Site with 403 and lets same-origin through', async () => {
    const { cookie } = await signedInUser(t.app);
    const url = '/api/v1/auth/sessions/revoke-others';
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
    ];
    for (const headers of crossSite) {
      const res = await post(url, undefined, cookie, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({ status: 'PERMISSION_DENIED', key: 'errors.crossSite' });
    }
    expect((await post(url, undefined, cookie, { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('refuses a cross-site sign-in (login CSRF)', async () => {
    const u = await createUser(t.app.ctx.db);
    const res = await post('/api/v1/auth/login', { email: u.email, password: u.password }, undefined, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
  });
});
