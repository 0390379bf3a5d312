/** Nothing a client sends to the accounts routes produces a 5xx: junk bodies and queries get a 4xx. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { randomIp, signedInUser } from './helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const ROUTES: [string, string][] = [
  ['POST', '/api/v1/auth/register'],
  ['POST', '/api/v1/auth/login'],
  ['PATCH', '/api/v1/auth/me'],
  ['POST', '/api/v1/auth/password'],
  ['POST', '/api/v1/auth/forgot-password'],
  ['POST', '/api/v1/auth/reset-password'],
  ['POST', '/api/v1/staff'],
  ['PATCH', '/api/v1/staff/:id'],
  ['POST', '/api/v1/staff/:id/password'],
  ['GET', '/api/v1/staff'],
  ['GET', '/api/v1/audit-log'],
];

const BODIES: string[] = [
  '{}',
  '[]',
  '"text"',
  'null',
  '42',
  '{"email":1,"password":{},"name":[],"role":null}',
  JSON.stringify({ email: `${'a'.repeat(300)}@example.com`, password: 'x'.repeat(5000), name: 'n'.repeat(5000) }),
  JSON.stringify({
    email: 'a@b.co',
    password: 'p\u0000ssword-long',
    token: '\u0000',
    name: '\u0000',
    currentPassword: '\u0000',
    newPassword: '\ud800\udc00x'.repeat(10),
  }),
  JSON.stringify({ preferences: { a: { b: { c: ['\u0000'] } } }, language: 'xx', disabled: 'yes' }),
  '{"email": "a@b.co", ',
];

const QUERIES = [
  '?page=0',
  '?page=-1&pageSize=abc',
  '?sort=__proto__',
  '?q=%00',
  '?q=' + 'x'.repeat(500),
  '?entity=%00&entityId=%E0%A4%A',
  '?page=99999999999999999999',
];

describe('junk input', () => {
  it('never answers 5xx', async () => {
    const { cookie } = await signedInUser(t.app, { role: 'admin' });
    const bad: string[] = [];
    for (const [method, path] of ROUTES) {
      const url = path.replace(':id', randomUUID());
      const attempts: { url: string; payload?: string }[] =
        method === 'GET' ? QUERIES.map((q) => ({ url: url + q })) : BODIES.map((b) => ({ url, payload: b }));
      for (const a of attempts) {
        const res = await t.app.inject({
          method: method as 'POST',
          url: a.url,
          headers: { cookie, 'content-type': 'application/json' },
          remoteAddress: randomIp(),
          ...(a.payload !== undefined ? { payload: a.payload } : {}),
        });
        if (res.statusCode >= 500) bad.push(`${method} ${a.url} ${a.payload?.slice(0, 60) ?? ''} → ${res.statusCode}`);
      }
    }
    expect(bad).toEqual([]);
    expect((await t.app.inject({ url: '/api/v1/auth/me', headers: { cookie } })).statusCode).toBe(200);
  }, 120_000);
});
