import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { emailField, requiredText } from '../src/shared/contract/common';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.post(
      '/api/v1/test/echo',
      {
        config: { access: 'public' },
        schema: { body: z.object({ name: requiredText(10), email: emailField(), nested: z.object({ n: z.number() }).optional() }) },
      },
      async (req) => ({ data: req.body }),
    );
    r.get('/api/v1/test/boom', { config: { access: 'public' } }, async () => {
      throw new Error('secret internals: password=hunter2');
    });
  });
});
afterAll(() => t.close());

describe('health and discovery', () => {
  it('answers /healthz and /readyz once migrations are applied', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    // Each component to a signed-in user (test/health-readiness.test.ts has who sees what).
    const ready = await t.app.inject({ url: '/readyz', headers: { cookie: await staffCookie(t) } });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      status: 'ok',
      components: { database: { status: 'ok', kind: expect.stringMatching(/pglite|postgres/) }, outbox: { status: 'ok' } },
    });
  });

  it('serves the OpenAPI document and the browsable docs', async () => {
    const doc = await t.app.inject('/api/openapi.json');
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toMatch(/^3\./);
    const ui = await t.app.inject('/api/docs/');
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('error envelope', () => {
  it('answers an unknown API route with 404 not-found', async () => {
    const res = await t.app.inject('/api/v1/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { status: 'NOT_FOUND', message: 'No such API route' } });
  });

  it('names each invalid field with the catalogue texts', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/test/echo', payload: { name: '', email: 'not-an-email' } });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.status).toBe('INVALID_ARGUMENT');
    expect(error.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'name', key: 'validation.required', message: 'This field is required' }),
        expect.objectContaining({ field: 'email', key: 'validation.email', message: 'The Email field must be a valid email' }),
      ]),
    );
  });

  it('translates field errors for a Chinese client', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'accept-language': 'zh-TW,zh;q=0.9' },
      payload: { email: 'a@b.co' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[0]).toMatchObject({ field: 'name', message: '此欄位為必填' });
  });

  it('names nested fields by their path and says "required" for a missing field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/test/echo', payload: { name: 'x', nested: { n: 'x' } } });
    const fields = res.json().error.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'nested.n']));
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "x",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ status: 'INVALID_ARGUMENT', message: 'The request body is not valid JSON' });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe('The request body is too large');
  });

  it('refuses a body type it does not parse with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=x',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.status).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('hides the internals of a 500 and gives the request id that the response header carries', async () => {
    const res = await t.app.inject('/api/v1/test/boom');
    expect(res.statusCode).toBe(500);
    const { error } = res.json();
    expect(error).toMatchObject({ status: 'INTERNAL', message: 'Something went wrong on our side' });
    expect(JSON.stringify(error)).not.toContain('hunter2');
    expect(error.requestId).toBe(res.headers['x-request-id']);
  });
});

describe('security headers', () => {
  it('sends a CSP, nosniff, frame-ancestors and a referrer policy with a page, and HSTS only over HTTPS', async () => {
    const res = await t.app.inject('/api/docs/');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends a JSON answer a CSP that loads nothing, nosniff, frame-ancestors and no-store', async () => {
    const res = await t.app.inject('/api/v1/nope');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS when a trusted proxy says the request came over HTTPS', async () => {
    const behindProxy = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      const res = await behindProxy.app.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      const untrusted = await t.app.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
      expect(untrusted.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await behindProxy.close();
    }
  });
});

describe('public host names', () => {
  it('redirects pages other than /search to /search, keeping the query', async () => {
    const res = await t.app.inject({ url: '/dashboard?x=1', headers: { host: 'report.example.com' } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/search?x=1');
  });

  it('refuses the staff API but serves the public API and health checks', async () => {
    const staff = await t.app.inject({ url: '/api/v1/auth/me', headers: { host: 'client.example.com' } });
    expect(staff.statusCode).toBe(403);
    expect(staff.json().error.status).toBe('PERMISSION_DENIED');
    const health = await t.app.inject({ url: '/healthz', headers: { host: 'reports.example.com' } });
    expect(health.statusCode).toBe(200);
  });

  it('leaves other host names alone', async () => {
    const res = await t.app.inject({ url: '/api/v1/nope', headers: { host: 'office.example.com' } });
    expect(res.statusCode).toBe(404);
  });
});
