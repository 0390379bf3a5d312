/**
 * The public lookup's lean pipeline (docs/decisions/0028) keeps what the heavier one gave it: helmet's
 * headers (computed once now), HSTS over HTTPS, no-store and the request id on every answer (found, not
 * found, refused), its per-IP and per-serial limits on cached answers, the CSRF rule, the host rules, and
 * answers that are the response schema's even when they come from the cache as text.
 */
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HELMET_OPTIONS, helmetHeaders, PERMISSIONS_POLICY } from '../src/server/lib/security-headers';
import { lookupAnswer } from '../src/server/modules/public/lookup.service';
import { PUBLIC_LIMITS } from '../src/server/modules/public/public-limits';
import { buildTestApp, type TestApp } from './helpers/app';
import { randomIp } from './helpers/factories';
import { catalogue, lookup } from './helpers/public';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApp;
beforeAll(async () => {
  // Behind a proxy at 127.0.0.1 (where app.inject's requests come from unless told otherwise).
  t = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(() => t.close());

/** What @fastify/helmet itself sends per request with the app's options (the plugin as it was used before). */
async function helmetPerRequest(): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, HELMET_OPTIONS);
  probe.get('/', async () => 'x');
  const res = await probe.inject('/');
  await probe.close();
  const own = new Set(['content-type', 'content-length', 'date', 'connection']);
  return Object.fromEntries(Object.entries(res.headers).filter(([k]) => !own.has(k))) as Record<string, string>;
}

describe('security headers', () => {
  it("are helmet's own, computed once", async () => {
    const expected = await helmetPerRequest();
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(['content-security-policy', 'x-frame-options', 'referrer-policy']));
    expect(await helmetHeaders(helmet, HELMET_OPTIONS)).toEqual(expected);
  });

  it('refuses a CSP directive that would have to be computed per request', async () => {
    const perRequest = {
      ...HELMET_OPTIONS,
      contentSecurityPolicy: {
        directives: { ...HELMET_OPTIONS.contentSecurityPolicy.directives, scriptSrc: ["'self'", () => "'nonce-x'"] },
      },
    };
    await expect(helmetHeaders(helmet, perRequest as unknown as typeof HELMET_OPTIONS)).rejects.toThrow(/per request/);
  });

  it('are on every answer of the lookup: found (from the database and from the cache), not found, invalid', async () => {
    const c = await catalogue(t);
    const helmetSet = await helmetPerRequest();
    const answers = [
      await lookup(t.app, c.serial(5)),
      await lookup(t.app, c.serial(5)),
      await lookup(t.app, c.serial(101)),
      await lookup(t.app, ''),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 404, 400]);
    for (const res of answers) {
      for (const [name, value] of Object.entries(helmetSet)) expect(res.headers[name], name).toBe(value);
      expect(res.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      // Not over plain HTTP.
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('include HSTS when the proxy says the request came over HTTPS', async () => {
    const c = await catalogue(t);
    for (const serial of [c.serial(6), c.serial(6), c.serial(102)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/public/lookup',
        payload: { serial },
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': randomIp() },
      });
      expect(res.statusCode).toBe(serial === c.serial(102) ? 404 : 200);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
  });
});

describe('answers from the cache', () => {
  it('are the response schema’s, byte for byte the same each time', async () => {
    const c = await catalogue(t);
    const first = await lookup(t.app, c.serial(7));
    const again = await lookup(t.app, c.serial(7).toLowerCase());
    expect(again.body).toBe(first.body);
    expect(lookupAnswer.parse(first.json())).toEqual(first.json());
  });
});

describe('limits', () => {
  it('count cached answers: the 31st lookup of one serial by one client in a minute is refused, others still answered', async () => {
    const c = await catalogue(t);
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < PUBLIC_LIMITS.lookupPerSerial.max; i++) statuses.push((await lookup(t.app, c.serial(8), { ip })).statusCode);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const refused = await lookup(t.app, c.serial(8), { ip });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['content-security-policy']).toBeDefined();
    expect((await lookup(t.app, c.serial(8))).statusCode).toBe(200);
  });

  it('count per address: the 61st lookup in a minute is refused, found or not', async () => {
    const c = await catalogue(t);
    const ip = randomIp();
    for (let i = 0; i < PUBLIC_LIMITS.lookupPerIp.max; i++) {
      const res = await lookup(t.app, i % 2 ? c.serial(1 + (i % 100)) : c.serial(101 + i), { ip });
      expect(res.statusCode, String(i)).toBe(i % 2 ? 200 : 404);
    }
    const refused = await lookup(t.app, c.serial(9), { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.key).toBe('errors.tooManyRequests');
  });
});

describe('host and origin rules', () => {
  it('the lookup answers on the customers’ host, where the staff API stays refused, even with a forged X-Forwarded-Host', async () => {
    const c = await catalogue(t);
    const headers = { host: 'report.example.com', 'x-forwarded-host': 'staff.example.com' };
    expect((await lookup(t.app, c.serial(10), { headers })).statusCode).toBe(200);
    const me = await t.app.inject({ url: '/api/v1/auth/me', headers });
    expect(me.statusCode).toBe(403);
    expect(me.json().error.key).toBe('errors.staffOnlyHost');
  });

  it('a lookup a browser marks as cross-site is refused (decision 0004), a same-origin one is answered', async () => {
    const c = await catalogue(t);
    const cross = await lookup(t.app, c.serial(11), { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(cross.statusCode).toBe(403);
    expect(cross.json().error.key).toBe('errors.crossSite');
    const foreign = await lookup(t.app, c.serial(11), { headers: { origin: 'https://evil.example' } });
    expect(foreign.statusCode).toBe(403);
    const own = await lookup(t.app, c.serial(11), { headers: { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' } });
    expect(own.statusCode).toBe(200);
  });
});
