/**
 * Webhook endpoints through the API: the secret answered once and never again, rotation, the field errors of
 * every rule (in English and Traditional Chinese), administrators only, and the audit trail without the secret.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/server/db/schema/index';
import { signatureOf } from '../src/server/modules/webhooks/signature';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie } from './helpers/catalogue';
import { adminCookie } from './helpers/machine-data';
import { addCustomer } from './helpers/orders';

let t: TestApp;
let admin: string;
let adminZh: string;
beforeAll(async () => {
  t = await buildTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  admin = await adminCookie(t);
  adminZh = await staffCookie(t, { role: 'admin', language: 'zh' });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const api = (method: Method, url: string, payload?: unknown, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload !== undefined ? { payload: payload as object } : {}) });

const staffHook = (o: Record<string, unknown> = {}) => ({ url: 'https://hooks.example.com/trc', events: ['alert.raised'], ...o });

describe('webhook endpoints', () => {
  it("signs as the specification's own example", () => {
    const body = '{"test": 2432232314}';
    expect(signatureOf('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('answers the secret once, in the Standard Webhooks form, and only a hint afterwards', async () => {
    const res = await api('POST', '/api/v1/webhooks', staffHook({ description: 'QA board' }));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().data;
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    expect(created.secretHint).toBe(created.secret.slice(-4));

    const got = await api('GET', `/api/v1/webhooks/${created.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json().data).not.toHaveProperty('secret');
    expect(got.body).not.toContain(created.secret.slice(6, 30));
    const list = await api('GET', '/api/v1/webhooks');
    expect(list.body).not.toContain(created.secret.slice(6, 30));
    expect(list.json().data.map((w: { id: string }) => w.id)).toContain(created.id);

    const rotated = await api('POST', `/api/v1/webhooks/${created.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().data.secret).toMatch(/^whsec_/);
    expect(rotated.json().data.secret).not.toBe(created.secret);

    const audit = await t.app.ctx.db.select().from(auditLog).where(eq(auditLog.entityId, created.id));
    expect(audit.map((a) => a.action).sort()).toEqual(['create', 'rotate-secret']);
    const trail = JSON.stringify(audit);
    expect(trail).not.toContain(created.secret.slice(6, 30));
    expect(trail).not.toContain(rotated.json().data.secret.slice(6, 30));
    expect(audit.find((a) => a.action === 'create')!.after).toMatchObject({
      url: 'https://hooks.example.com/trc',
      events: ['alert.raised'],
    });
  });

  it('edits, disables and enables again (failures reset), deletes, and audits each change', async () => {
    const id = (await api('POST', '/api/v1/webhooks', staffHook())).json().data.id;
    const off = await api('PATCH', `/api/v1/webhooks/${id}`, { enabled: false, events: ['alert.raised', 'record.disagreement'] });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({
      enabled: false,
      disabledReason: expect.any(String),
      events: ['alert.raised', 'record.disagreement'],
    });
    const on = await api('PATCH', `/api/v1/webhooks/${id}`, { enabled: true });
    expect(on.json().data).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, consecutiveFailures: 0 });
    expect((await api('DELETE', `/api/v1/webhooks/${id}`)).statusCode).toBe(200);
    expect((await api('GET', `/api/v1/webhooks/${id}`)).statusCode).toBe(404);
    const audit = await t.app.ctx.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, id));
    expect(audit.map((a) => a.action).sort()).toEqual(['create', 'delete', 'update', 'update']);
  });

  it('refuses a bad URL, an unknown event, a self URL, metadata and link-local addresses, with field errors', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [staffHook({ url: 'not a url' }), 'url', 'webhooks.validation.url'],
      [staffHook({ url: 'ftp://example.com/x' }), 'url', 'webhooks.validation.url'],
      [staffHook({ url: 'https://user:pw@example.com/x' }), 'url', 'webhooks.validation.url'],
      [staffHook({ events: ['alert.exploded'] }), 'events.0', 'webhooks.validation.unknownEvent'],
      [staffHook({ events: [] }), 'events', 'webhooks.validation.eventsRequired'],
      [staffHook({ url: 'http://localhost:3000/hook' }), 'url', 'webhooks.validation.selfUrl'],
      [staffHook({ url: 'http://169.254.169.254/latest/meta-data' }), 'url', 'webhooks.validation.blockedAddress'],
      [staffHook({ url: 'http://[fd00:ec2::254]/' }), 'url', 'webhooks.validation.blockedAddress'],
      [staffHook({ url: 'http://[::ffff:169.254.169.254]/' }), 'url', 'webhooks.validation.blockedAddress'],
      [staffHook({ url: 'http://metadata.google.internal/computeMetadata/v1/' }), 'url', 'webhooks.validation.blockedAddress'],
      [staffHook({ url: 'http://169.254.10.1/' }), 'url', 'webhooks.validation.blockedAddress'],
      [staffHook({ events: ['certificate.issued'] }), 'events.0', 'webhooks.validation.customerEventNeedsCustomer'],
      [
        staffHook({ customerId: '00000000-0000-4000-8000-000000000000', events: ['certificate.issued'] }),
        'customerId',
        'webhooks.validation.customer',
      ],
    ];
    for (const [body, field, key] of cases) {
      const res = await api('POST', '/api/v1/webhooks', body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
      expect(res.json().error.fields, JSON.stringify(body)).toEqual([expect.objectContaining({ field, key })]);
    }
  });

  it('says it in Traditional Chinese to a Chinese-speaking administrator', async () => {
    const bad = await api('POST', '/api/v1/webhooks', staffHook({ url: 'http://169.254.169.254/' }), adminZh);
    expect(bad.json().error.fields[0].message).toBe('此位址屬於內部網路、鏈路本機或雲端中繼資料服務，不能接收 Webhook');
    const unknown = await api('POST', '/api/v1/webhooks', staffHook({ events: ['nope'] }), adminZh);
    expect(unknown.json().error.fields[0].message).toBe('未知的事件');
    const self = await api('POST', '/api/v1/webhooks', staffHook({ url: 'https://localhost/x' }), adminZh);
    expect(self.json().error.fields[0].message).toBe('此網址指向本測試報告中心本身');
  });

  it('keeps customer events for a customer endpoint and staff events for a staff endpoint', async () => {
    const customer = await addCustomer(t.app, admin);
    const ok = await api(
      'POST',
      '/api/v1/webhooks',
      staffHook({ customerId: customer.id, events: ['certificate.issued', 'delivery.released'] }),
    );
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data).toMatchObject({ customerId: customer.id, customerName: customer.name });
    const mixed = await api(
      'POST',
      '/api/v1/webhooks',
      staffHook({ customerId: customer.id, events: ['certificate.issued', 'alert.raised'] }),
    );
    expect(mixed.json().error.fields).toEqual([
      expect.objectContaining({ field: 'events.1', key: 'webhooks.validation.staffEventForCustomer' }),
    ]);
    // A change that would leave customer events on a staff endpoint is refused as a whole.
    const orphan = await api('PATCH', `/api/v1/webhooks/${ok.json().data.id}`, { customerId: null });
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json().error.fields[0]).toMatchObject({ key: 'webhooks.validation.customerEventNeedsCustomer' });
  });

  it('refuses plain http unless the operator allows it', async () => {
    const strict = await buildTestApp();
    try {
      const cookie = await adminCookie(strict);
      const res = await strict.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: { cookie },
        payload: staffHook({ url: 'http://hooks.example.com/x' }),
      });
      expect(res.json().error.fields).toEqual([expect.objectContaining({ field: 'url', key: 'webhooks.validation.httpsRequired' })]);
      const priv = await strict.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: { cookie },
        payload: staffHook({ url: 'https://10.1.2.3/x' }),
      });
      expect(priv.json().error.fields).toEqual([expect.objectContaining({ field: 'url', key: 'webhooks.validation.blockedAddress' })]);
    } finally {
      await strict.close();
    }
  });

  it('is for administrators only', async () => {
    const staff = await staffCookie(t);
    expect((await api('GET', '/api/v1/webhooks', undefined, staff)).statusCode).toBe(403);
    expect((await api('POST', '/api/v1/webhooks', staffHook(), staff)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/webhooks' })).statusCode).toBe(401);
    expect((await api('GET', '/api/v1/webhooks/not-an-id')).statusCode).toBe(404);
    expect((await api('GET', '/api/v1/webhooks/not-an-id/deliveries')).statusCode).toBe(404);
  });
});
