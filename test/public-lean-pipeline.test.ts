/**
 * The public lookup's lean pipeline (docs/decisions/0028) keeps what the heavier one gave it: helmet's
 * headers (computed once now), HSTS over HTTPS, no-store and the request id on every answer (found, not
 * found, refused), its per-IP and per-serial limits on cached answers, the CSRF rule, the host rules, and
 * answers that are the response schema's even when they come from the cache as text.
 */
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_HEADERS, HELMET_OPTIONS, helmetHeaders, isJsonAnswer, PERMISSIONS_POLICY } from '../src/server/lib/security-headers';
import { envelope } from '../src/shared/contract/common';
import { lookupAnswerData } from '../src/shared/contract/public';
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

  it('are the API set on every answer of the lookup: found (from the database and from the cache), not found, invalid', async () => {
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
      for (const [name, value] of Object.entries(API_HEADERS)) expect(res.headers[name], name).toBe(value);
      // The document set's other headers say what a page may do; a JSON answer is not a page.
      const documentOnly = Object.keys(helmetSet).filter((name) => !(name in API_HEADERS));
      expect(documentOnly).toEqual(expect.arrayContaining(['referrer-policy', 'cross-origin-opener-policy', 'x-xss-protection']));
      for (const name of [...documentOnly, 'permissions-policy']) expect(res.headers[name], name).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      // Not over plain HTTP.
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it("are helmet's whole set on what is not JSON: the API's browsable docs and their files", async () => {
    const helmetSet = await helmetPerRequest();
    for (const url of ['/api/docs/', '/api/docs/static/index.css']) {
      const res = await t.app.inject(url);
      expect(isJsonAnswer(res.headers['content-type']), url).toBe(false);
      for (const [name, value] of Object.entries(helmetSet)) expect(res.headers[name], `${url} ${name}`).toBe(value);
      expect(res.headers['permissions-policy'], url).toBe(PERMISSIONS_POLICY);
    }
  });

  it('tell JSON by its media type, with or without parameters', () => {
    expect(isJsonAnswer('application/json')).toBe(true);
    expect(isJsonAnswer('application/json; charset=utf-8')).toBe(true);
    for (const other of ['text/html; charset=utf-8', 'application/pdf', 'text/csv', undefined, 42]) expect(isJsonAnswer(other)).toBe(false);
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
    expect(envelope(lookupAnswerData).parse(first.json())).toEqual(first.json());
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
      // Answers within the limit do not tell a scraper its remaining budget.
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
        expect(res.headers[name], name).toBeUndefined();
    }
    const refused = await lookup(t.app, c.serial(9), { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.key).toBe('errors.tooManyRequests');
    // A refused one says when to come back.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['x-ratelimit-limit']).toBe(String(PUBLIC_LIMITS.lookupPerIp.max));
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
