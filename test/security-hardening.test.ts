/**
 * Holes found by attacking the running product, each with the request that used to get through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestForLog } from '../src/server/app';
import { firstRunNotice } from '../src/server/first-run-notice';
import { MAX_JSON_DEPTH } from '../src/server/lib/body-parsers';
import { buildTestApp, type TestApp } from './helpers/app';
import { createUser, randomIp, signedInUser } from './helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('request bodies', () => {
  it('refuses a text/plain POST with 415, before it reaches a body-less route such as logout', async () => {
    const { cookie } = await signedInUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { cookie, 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatchObject({ status: 'UNSUPPORTED_MEDIA_TYPE', key: 'errors.unsupportedMediaType' });
    // Still signed in.
    expect((await t.app.inject({ url: '/api/v1/auth/me', headers: { cookie } })).statusCode).toBe(200);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'text/xml'])('refuses %s on a JSON route with 415', async (type) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': type },
      payload: 'email=a@example.com&password=x',
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(415);
  });

  it('still accepts a body-less POST without a content type (logout from the app)', async () => {
    const { cookie } = await signedInUser(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
  });

  it('answers a deeply nested JSON value with 400, not 500', async () => {
    const { cookie } = await signedInUser(t.app);
    const deep = `{"preferences":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/auth/me',
      headers: { cookie, 'content-type': 'application/json' },
      payload: deep,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.key).toBe('errors.jsonTooDeep');
    // Anywhere in any body, also on public routes.
    const anon = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}}`,
      remoteAddress: randomIp(),
    });
    expect(anon.statusCode).toBe(400);
    expect(anon.json().error.key).toBe('errors.jsonTooDeep');
  });

  it('keeps accepting preferences nested a few levels', async () => {
    const { cookie } = await signedInUser(t.app);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/auth/me',
      headers: { cookie },
      payload: { preferences: { layout: { nav: { collapsed: true, widths: [1, [2, [3]]] } } } },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('URLs', () => {
  it('answers a malformed URL with 400 in the error envelope', async () => {
    for (const url of ['/api/v1/staff/%E0%A4%A', '/api/v1/products/%', '/%c0']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ status: 'INVALID_ARGUMENT', key: 'errors.malformedUrl' });
    }
  });

  it('logs a request without its query string', () => {
    const logged = requestForLog({ method: 'GET', url: '/reset-password?token=secret&x=1', host: 'h', ip: '10.0.0.1' } as never);
    expect(JSON.stringify(logged)).not.toContain('secret');
    expect(logged.url).toBe('/reset-password');
  });
});

describe('headers', () => {
  it('sends no-store on signed-in API answers', async () => {
    const { cookie } = await signedInUser(t.app);
    for (const url of ['/api/v1/auth/me', '/api/v1/products', '/api/v1/serial-ranges', '/api/v1/nothing-here']) {
      const res = await t.app.inject({ url, headers: { cookie } });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('says DENY in X-Frame-Options, as frame-ancestors does, and sends a Permissions-Policy with a page', async () => {
    const res = await t.app.inject('/api/docs/');
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['permissions-policy']).toMatch(/camera=\(\)/);
    expect(res.headers['permissions-policy']).toMatch(/geolocation=\(\)/);
  });
});

describe('a proxy in front', () => {
  it("with the proxy's address in TRUST_PROXY takes only the address the proxy added, not one a client wrote before it", async () => {
    const p = await buildTestApp({ TRUST_PROXY: '127.0.0.1' }, (app) => {
      app.get('/whoami', async (req) => ({ ip: req.ip, host: req.host, protocol: req.protocol }));
    });
    try {
      const res = await p.app.inject({ url: '/whoami', headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' } });
      expect(res.json().ip).toBe('203.0.113.7');
      // A client that reaches the app directly (not through the proxy) forges nothing.
      const direct = await p.app.inject({
        url: '/whoami',
        headers: { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-host': 'report.example.com' },
        remoteAddress: '198.51.100.9',
      });
      expect(direct.json()).toMatchObject({ ip: '198.51.100.9', host: 'localhost:80' });
    } finally {
      await p.close();
    }
  });
});

describe('passwords', () => {
  it.each(['        ', 'aaaaaaaaaaaa', '\t\t\t\t\t\t\t\t'])('refuses %j as a new password with a field error', async (password) => {
    const { user, cookie } = await signedInUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password',
      headers: { cookie },
      payload: { currentPassword: user.password, newPassword: password },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual([expect.objectContaining({ field: 'newPassword', key: 'validation.passwordTooSimple' })]);
  });

  it('refuses them when an administrator sets a password too', async () => {
    const { cookie } = await signedInUser(t.app, { role: 'admin' });
    const u = await createUser(t.app.ctx.db);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/staff/${u.id}/password`,
      headers: { cookie },
      payload: { password: 'zzzzzzzzzz' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[0].key).toBe('validation.passwordTooSimple');
  });
});

describe('first start', () => {
  it('warns that whoever opens /register first becomes admin when the server listens beyond this machine', () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.10']) {
      const n = firstRunNotice(host, 'http://localhost:3000');
      expect(n.level).toBe('warn');
      expect(n.message).toMatch(/whoever opens \/register first becomes the administrator/);
    }
    for (const host of ['127.0.0.1', 'localhost', '::1']) expect(firstRunNotice(host, 'http://localhost:3000').level).toBe('info');
  });
});
