/**
 * The host name is the one the proxy vouches for: behind a trusted proxy, a client's own X-Forwarded-Host
 * (or Forwarded host=) neither turns the public host into the staff host nor passes the CSRF origin check,
 * unless TRUST_FORWARDED_HOST says the proxy sets that header itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/server/config';
import { buildTestApp, type TestApp } from './helpers/app';
import { randomIp } from './helpers/factories';

let proxied: TestApp;
beforeAll(async () => {
  // The proxy is 127.0.0.1, where app.inject's requests come from.
  proxied = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(() => proxied.close());

const login = { email: 'nobody@example.com', password: 'not the password' };

describe('TRUST_PROXY set, forwarded host not trusted (the default)', () => {
  it("a client's X-Forwarded-Host: staff… on the public host reaches neither the staff API nor sign-in", async () => {
    const headers = { host: 'report.example.com', 'x-forwarded-host': 'staff.example.com' };
    const me = await proxied.app.inject({ url: '/api/v1/auth/me', headers });
    expect(me.statusCode).toBe(403);
    expect(me.json().error.key).toBe('errors.staffOnlyHost');
    const signIn = await proxied.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { ...headers, origin: 'http://report.example.com' },
      payload: login,
      remoteAddress: '127.0.0.1',
    });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().error.key).toBe('errors.staffOnlyHost');
    const page = await proxied.app.inject({ url: '/login', headers });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/search');
    // Forwarded: host= is not read either.
    const rfc = await proxied.app.inject({
      url: '/api/v1/auth/me',
      headers: { host: 'report.example.com', forwarded: 'host=staff.example.com' },
    });
    expect(rfc.statusCode).toBe(403);
  });

  it('the CSRF origin check compares with the Host the proxy sent, not a forwarded host the client chose', async () => {
    const forged = await proxied.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { host: 'staff.example.com', 'x-forwarded-host': 'evil.example', origin: 'http://evil.example' },
      payload: login,
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error.key).toBe('errors.crossSite');
    // The app's own origin still signs in (here: a wrong password, so 401, past the CSRF check).
    const own = await proxied.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { host: 'staff.example.com', 'x-forwarded-host': 'evil.example', origin: 'http://staff.example.com' },
      payload: login,
      remoteAddress: '127.0.0.1',
    });
    expect(own.statusCode).not.toBe(403);
  });
});

describe('TRUST_FORWARDED_HOST=true', () => {
  it('takes the host name from the trusted proxy, and from no one else', async () => {
    const t = await buildTestApp({ TRUST_PROXY: '127.0.0.1', TRUST_FORWARDED_HOST: 'true' });
    try {
      const fromProxy = await t.app.inject({
        url: '/api/v1/auth/me',
        headers: { host: '127.0.0.1:3000', 'x-forwarded-host': 'report.example.com' },
      });
      expect(fromProxy.statusCode).toBe(403);
      expect(fromProxy.json().error.key).toBe('errors.staffOnlyHost');
      // The same header from a client that reaches the app directly is not believed.
      const direct = await t.app.inject({
        url: '/api/v1/auth/me',
        headers: { host: 'staff.example.com', 'x-forwarded-host': 'report.example.com' },
        remoteAddress: randomIp(),
      });
      expect(direct.statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('is refused without TRUST_PROXY, and takes only true or false', () => {
    expect(() => loadConfig({ TRUST_FORWARDED_HOST: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_FORWARDED_HOST: 'true' })).toThrow(/TRUST_FORWARDED_HOST.*TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '127.0.0.1', TRUST_FORWARDED_HOST: 'yes' })).toThrow(/TRUST_FORWARDED_HOST/);
    expect(loadConfig({}).trustForwardedHost).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1', TRUST_FORWARDED_HOST: '1' }).trustForwardedHost).toBe(true);
  });
});
