import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { createUser, GOOD_PASSWORD, randomIp, sessionCookieOf, signIn, uniqueEmail } from './helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const login = (email: string, password: string, extra: { cookie?: string; ip?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    remoteAddress: extra.ip ?? randomIp(),
    headers: extra.cookie ? { cookie: extra.cookie } : {},
  });

describe('login', () => {
  it('signs in with the right password, sets an HttpOnly SameSite=Lax cookie and returns user and abilities', async () => {
    const u = await createUser(t.app.ctx.db, { role: 'staff', name: 'Amy' });
    const res = await login(u.email.toUpperCase(), u.password);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.user).toMatchObject({ id: u.id, name: 'Amy', email: u.email, role: 'staff', language: 'en', disabled: false });
    expect(body.data.abilities.length).toBeGreaterThan(0);
    expect(body.data.user).not.toHaveProperty('passwordHash');
    const cookie = res.cookies.find((c) => c.name === 'trc_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.secure).toBeFalsy();
    expect(cookie.value.length).toBeGreaterThanOrEqual(43); // 32 bytes base64url
    const me = await t.app.inject({ url: '/api/v1/auth/me', headers: { cookie: sessionCookieOf(res)! } });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.user.id).toBe(u.id);
  });

  it('answers who is signed in at /auth/session: the user, or null for a visitor, with 200 either way', async () => {
    const visitor = await t.app.inject({ url: '/api/v1/auth/session' });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual({ data: null });
    expect((await t.app.inject({ url: '/api/v1/auth/me' })).statusCode).toBe(401);
    const u = await createUser(t.app.ctx.db, { role: 'admin', name: 'Sam' });
    const res = await login(u.email, u.password);
    const session = await t.app.inject({ url: '/api/v1/auth/session', headers: { cookie: sessionCookieOf(res)! } });
    expect(session.statusCode).toBe(200);
    expect(session.json().data.user).toMatchObject({ id: u.id, role: 'admin' });
    expect(session.json().data.abilities.length).toBeGreaterThan(0);
  });

  it('sets a Secure cookie when the request came over HTTPS through a trusted proxy', async () => {
    const p = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      const u = await createUser(p.app.ctx.db);
      const res = await p.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: u.email, password: u.password },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === 'trc_session')!.secure).toBe(true);
    } finally {
      await p.close();
    }
  });

  it('answers an unknown email, a wrong password and a disabled account identically', async () => {
    const u = await createUser(t.app.ctx.db);
    const d = await createUser(t.app.ctx.db, { disabled: true });
    const unknown = await login(uniqueEmail('nobody'), GOOD_PASSWORD);
    const wrong = await login(u.email, 'Wrong-password-123');
    const disabled = await login(d.email, d.password);
    for (const res of [unknown, wrong, disabled]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: { status: 'UNAUTHENTICATED', message: 'Email or Password is Wrong', key: 'errors.emailOrPasswordWrong' },
      });
      expect(res.cookies.find((c) => c.name === 'trc_session')).toBeUndefined();
    }
  });

  it('translates the refusal for a Chinese browser', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: uniqueEmail(), password: 'whatever-123' },
      headers: { 'accept-language': 'zh-TW,zh;q=0.9' },
      remoteAddress: randomIp(),
    });
    expect(res.json().error.message).toBe('電子郵件或密碼錯誤');
  });

  it('names the bad fields of a malformed request', async () => {
    const res = await login('not-an-email', '');
    expect(res.statusCode).toBe(400);
    const fields = res.json().error.fields.map((f: { field: string; key: string }) => [f.field, f.key]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ['email', 'validation.email'],
        ['password', 'validation.required'],
      ]),
    );
  });

  it('renews the session at sign-in: a cookie held before sign-in stops working', async () => {
    const u = await createUser(t.app.ctx.db);
    const first = await signIn(t.app, u.email, u.password);
    const res = await login(u.email, u.password, { cookie: first });
    expect(res.statusCode).toBe(200);
    const second = sessionCookieOf(res)!;
    expect(second).not.toBe(first);
    expect((await t.app.inject({ url: '/api/v1/auth/me', headers: { cookie: first } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/v1/auth/me', headers: { cookie: second } })).statusCode).toBe(200);
  });

  it('has the success message in the catalogue', async () => {
    const { translate } = await import('../src/shared/i18n/index');
    expect(translate('en', 'auth.loginSuccess')).toBe('Login Successfully');
    expect(translate('zh', 'auth.loginSuccess')).not.toBe('Login Successfully');
  });
});

describe('logout', () => {
  it('ends the session and clears the cookie; the old cookie then gets 401', async () => {
    const u = await createUser(t.app.ctx.db);
    const cookie = await signIn(t.app, u.email, u.password);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const cleared = res.cookies.find((c) => c.name === 'trc_session')!;
    expect(cleared.value).toBe('');
    const after = await t.app.inject({ url: '/api/v1/auth/me', headers: { cookie } });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.key).toBe('errors.sessionExpired');
  });
});
