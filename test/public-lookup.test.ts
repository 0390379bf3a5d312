/**
 * POST /api/v1/public/lookup: the product summary of a serial, "Serial Number Not Found" (recorded as a
 * search request), normalised input, its cache following range changes, and its rate limits.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { searchRequests } from '../src/server/db/schema/index';
import { PUBLIC_LIMITS } from '../src/server/modules/public/public-limits';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, productBody, staffCookie } from './helpers/catalogue';
import { randomIp } from './helpers/factories';
import { catalogue, lookup, series } from './helpers/public';

// Real SMTP, PDFs and solved challenges on a two-core machine shared with other work: generous timeouts.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const recordsOf = (serial: string) => t.app.ctx.db.select().from(searchRequests).where(eq(searchRequests.serial, serial));

describe('lookup', () => {
  it('answers the product summary of a serial inside a range, whatever its spelling', async () => {
    const c = await catalogue(t, { connection: 'Flange PN16', pressureSus: 4 });
    const typed = ` ${c.serial(42).toLowerCase().replace('-', ' - ')} `;
    const res = await lookup(t.app, typed);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      serial: c.serial(42),
      product: {
        name: c.productName,
        // no Chinese name set: the page shows the name in both languages
        nameZh: '',
        fluid: 'water',
        connection: 'Flange PN16',
        application: 'Waterworks',
        applicationMedium: 'Water',
        connectionZh: '',
        applicationZh: '',
        applicationMediumZh: '',
        pressureFc: 1.6,
        pressureWcb: 2.5,
        pressureSus: 4,
        temperatureMax: 120,
        temperatureMin: -10,
        // what the GS1 Digital Link is checked against (decision 0062); this product has none
        gtin: null,
      },
      productionDate: '2024-03-01',
      // untested: its report cannot be sent yet (test/lookup-availability.test.ts)
      certificate: 'not-yet',
    });
    // Only the serial asked: nothing tells where its range starts or ends.
    expect(res.body).not.toContain(c.serial(1));
    expect(res.body).not.toContain(c.serial(100));
    // A found lookup is not a submission: nothing recorded.
    await t.app.ctx.afterResponse.idle();
    expect(await recordsOf(c.serial(42))).toHaveLength(0);
  });

  it('answers 404 "Serial Number Not Found" (translated) and records the lookup as a not-found search request', async () => {
    const c = await catalogue(t);
    const missing = c.serial(101);
    const ip = randomIp();
    const res = await lookup(t.app, missing, { ip, headers: { 'accept-language': 'zh-TW,zh;q=0.9', 'user-agent': 'Phone/1.0' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ status: 'NOT_FOUND', key: 'errors.serialNotFound' });
    expect(res.json().error.message).not.toBe('Serial Number Not Found');
    const en = await lookup(t.app, missing);
    expect(en.json().error.message).toBe('Serial Number Not Found');
    await t.app.ctx.afterResponse.idle();
    const rows = await recordsOf(missing);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.clientIp === ip)).toMatchObject({
      source: 'lookup',
      status: 'not-found',
      language: 'zh',
      recipientEmail: null,
      userAgent: 'Phone/1.0',
      reportId: null,
      outboxId: null,
    });
  });

  it("answers on the customers' host names too (reports.*, client.*)", async () => {
    const c = await catalogue(t);
    const res = await lookup(t.app, c.serial(9), { headers: { host: 'reports.example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.serial).toBe(c.serial(9));
    const challenge = await t.app.inject({
      url: '/api/v1/public/challenge',
      headers: { host: 'client.example.com' },
      remoteAddress: randomIp(),
    });
    expect(challenge.statusCode).toBe(200);
  });

  it('treats text that is no serial at all as not found, and an empty one as a missing field', async () => {
    const junk = await lookup(t.app, '???');
    expect(junk.statusCode).toBe(404);
    for (const serial of ['', '   ', undefined, 42, 'x'.repeat(300), 'A\u0000B']) {
      const res = await lookup(t.app, serial);
      expect(res.statusCode, String(serial)).toBe(400);
      expect(res.json().error.fields[0].field).toBe('serial');
    }
    const missing = await lookup(t.app, '');
    expect(missing.json().error.fields[0].message).toBe('This field is required');
  });

  it('follows a range that is added, moved to another product or deleted (the cache is invalidated)', async () => {
    const cookie = await staffCookie(t);
    const first = await addProduct(t.app, cookie);
    const second = await addProduct(t.app, cookie);
    const prefix = series();
    const serial = `${prefix}000005`;
    expect((await lookup(t.app, serial)).statusCode).toBe(404);

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/serial-ranges',
      headers: { cookie },
      payload: {
        productId: first.id,
        startSerial: `${prefix}000001`,
        endSerial: `${prefix}000010`,
        totalUnits: 10,
        productionDate: '2024-01-02',
      },
    });
    expect(created.statusCode).toBe(201);
    const range = created.json().data as { id: string };
    await vi.waitFor(async () => expect((await lookup(t.app, serial)).json().data?.product.name).toBe(first.name), {
      timeout: 5000,
      interval: 300,
    });

    const moved = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/serial-ranges/${range.id}`,
      headers: { cookie },
      payload: {
        productId: second.id,
        startSerial: `${prefix}000001`,
        endSerial: `${prefix}000010`,
        totalUnits: 10,
        productionDate: '2024-01-02',
      },
    });
    expect(moved.statusCode).toBe(200);
    await vi.waitFor(async () => expect((await lookup(t.app, serial)).json().data?.product.name).toBe(second.name), {
      timeout: 5000,
      interval: 300,
    });

    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/products/${second.id}`,
      headers: { cookie },
      payload: productBody({ name: `${second.name} Mk II` }),
    });
    expect(renamed.statusCode).toBe(200);
    await vi.waitFor(async () => expect((await lookup(t.app, serial)).json().data?.product.name).toBe(`${second.name} Mk II`), {
      timeout: 5000,
      interval: 300,
    });

    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/serial-ranges/${range.id}`, headers: { cookie } })).statusCode,
    ).toBeLessThan(300);
    await vi.waitFor(async () => expect((await lookup(t.app, serial)).statusCode).toBe(404), { timeout: 5000, interval: 300 });
  });
});

describe('lookup rate limits', () => {
  it(`per IP: the ${PUBLIC_LIMITS.lookupPerIp.max + 1}th lookup in a minute gets 429 with Retry-After and a translated message`, async () => {
    const c = await catalogue(t);
    const ip = randomIp();
    for (let i = 0; i < PUBLIC_LIMITS.lookupPerIp.max; i++) {
      const res = await lookup(t.app, c.serial(1 + (i % 100)), { ip });
      expect(res.statusCode).toBe(200);
    }
    const over = await lookup(t.app, c.serial(1), { ip, headers: { 'accept-language': 'zh' } });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.json().error.status).toBe('RESOURCE_EXHAUSTED');
    expect(over.json().error.message).toMatch(/[\u4e00-\u9fff]/);
    // Another address is not affected.
    expect((await lookup(t.app, c.serial(1))).statusCode).toBe(200);
  });

  it(`per serial: one client looking one serial up more than ${PUBLIC_LIMITS.lookupPerSerial.max} times a minute gets 429; other clients do not`, async () => {
    const c = await catalogue(t);
    const a = randomIp();
    for (let i = 0; i < PUBLIC_LIMITS.lookupPerSerial.max; i++) expect((await lookup(t.app, c.serial(7), { ip: a })).statusCode).toBe(200);
    const over = await lookup(t.app, c.serial(7).toLowerCase(), { ip: a });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // The limit hit and the wait in minutes (lib/limit-wait.ts), never a count of seconds.
    expect(over.json().error.message).toBe('This serial number was looked up too often; try again in 1 minute');
    const zh = await lookup(t.app, c.serial(7), { ip: a, headers: { 'accept-language': 'zh-TW' } });
    expect(zh.json().error.message).toBe('此序號的查詢次數過多，請於 1 分鐘後再試');
    expect((await lookup(t.app, c.serial(8), { ip: a })).statusCode).toBe(200);
    // Client B still looks that serial up: a stranger cannot lock customers out of it.
    expect((await lookup(t.app, c.serial(7), { ip: randomIp() })).statusCode).toBe(200);
  });
});
