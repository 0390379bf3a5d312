/**
 * The identification link a nameplate's QR code carries (`/id/<serial>`, docs/decisions/0061-identification-link.md):
 * a browser is sent on to the public page; a machine reads the unit's linkset (RFC 9264's JSON form) or its
 * JSON-LD data sheet, which tell no more than the public lookup; anything that is not a unit is the
 * lookup's 404; the limits are the lookup's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_LIMITS } from '../src/server/modules/public/public-limits';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { randomIp } from './helpers/factories';
import { catalogue, lookup, series } from './helpers/public';

const BASE = 'https://valves.example.com';
const NOT_FOUND = { status: 'NOT_FOUND', key: 'errors.serialNotFound', message: 'Serial Number Not Found' };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_BASE_URL: BASE });
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}, ip = randomIp()) =>
  t.app.inject({ method: 'GET', url, headers, remoteAddress: ip });

/** RFC 9264 §4.2: `linkset` is an array of link context objects, each an `anchor` and relation types whose values are arrays of target objects with an `href`. */
function expectLinksetForm(body: unknown): void {
  expect(body).toEqual({ linkset: expect.any(Array) });
  for (const context of (body as { linkset: Array<Record<string, unknown>> }).linkset) {
    expect(typeof context.anchor).toBe('string');
    for (const [relation, targets] of Object.entries(context)) {
      if (relation === 'anchor') continue;
      expect(Array.isArray(targets), relation).toBe(true);
      for (const target of targets as Array<Record<string, unknown>>) {
        expect(new URL(target.href as string).protocol, relation).toBe('https:');
        if ('hreflang' in target) expect(Array.isArray(target.hreflang)).toBe(true);
        if ('title*' in target)
          for (const t of target['title*'] as unknown[]) expect(t).toEqual({ value: expect.any(String), language: expect.any(String) });
      }
    }
  }
}

describe('identification link', () => {
  it('sends a browser on to the public page of the serial, and names the linkset', async () => {
    const c = await catalogue(t);
    const res = await get(`/id/${c.serial(7).toLowerCase()}`, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe(`/search?serial=${encodeURIComponent(c.serial(7))}`);
    expect(res.headers.link).toBe(`<${BASE}/id/${c.serial(7)}?linkType=linkset>; rel="linkset"; type="application/linkset+json"`);
    // The page does the lookup, and says there when a serial is not a unit.
    const unknown = await get(`/id/${c.prefix}000101`);
    expect(unknown.statusCode).toBe(307);
    expect(unknown.headers.location).toBe(`/search?serial=${encodeURIComponent(`${c.prefix}000101`)}`);
  });

  it('answers a machine the linkset: the public page, the certificate request, the verifier and the data sheet', async () => {
    const c = await catalogue(t);
    const anchor = `${BASE}/id/${c.serial(3)}`;
    for (const res of [
      await get(`/id/${c.serial(3)}`, { accept: 'application/linkset+json' }),
      await get(`/id/${c.serial(3)}?linkType=linkset`),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/linkset\+json/);
      expect(res.headers.vary).toMatch(/Accept/);
      const body = res.json();
      expectLinksetForm(body);
      const [context] = body.linkset;
      expect(context.anchor).toBe(anchor);
      const page = `${BASE}/search?serial=${encodeURIComponent(c.serial(3))}`;
      expect(context['https://gs1.org/voc/pip'][0]).toMatchObject({ href: page, type: 'text/html', hreflang: ['en', 'zh-Hant-TW'] });
      expect(context['https://gs1.org/voc/defaultLink'][0].href).toBe(page);
      expect(context['https://gs1.org/voc/certificationInfo'][0]).toMatchObject({
        href: page,
        title: 'Request the test certificate by email',
      });
      expect(context['https://gs1.org/voc/certificationInfo'][0]['title*']).toEqual([
        { value: '以電子郵件索取測試報告', language: 'zh-Hant-TW' },
      ]);
      expect(context['https://gs1.org/voc/verificationService'][0].href).toBe(`${BASE}/search`);
      expect(context['https://gs1.org/voc/masterData'][0]).toMatchObject({
        href: `${anchor}?linkType=gs1:masterData`,
        type: 'application/ld+json',
      });
      expect(context.describedby[0].href).toBe(`${anchor}?linkType=gs1:masterData`);
      // No more than the lookup tells: no ids, no purchaser, no certificate file.
      expect(JSON.stringify(body)).not.toMatch(/\/api\/|\.pdf|[0-9a-f]{8}-[0-9a-f]{4}-/);
    }
  });

  it('answers the data sheet as schema.org JSON-LD with what the public lookup shows', async () => {
    const cookie = await staffCookie(t);
    const product = await addProduct(t.app, cookie, {
      name: 'Gate Valve DN50',
      nameZh: '閘閥 DN50',
      pressureWcb: 2.5,
      temperatureMax: 180,
    });
    const prefix = series();
    expect((await postRange(t.app, cookie, rangeBody(product.id, `${prefix}000001`, `${prefix}000010`, 10))).statusCode).toBe(201);
    const serial = `${prefix}000004`;
    const res = await get(`/id/${serial}?linkType=gs1:masterData`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
    const sheet = res.json();
    const facts = (await lookup(t.app, serial)).json().data;
    expect(sheet).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      '@id': `${BASE}/id/${serial}`,
      serialNumber: serial,
      productionDate: facts.productionDate,
      name: [
        { '@value': 'Gate Valve DN50', '@language': 'en' },
        { '@value': '閘閥 DN50', '@language': 'zh-Hant-TW' },
      ],
    });
    expect(sheet.additionalProperty).toContainEqual({
      '@type': 'PropertyValue',
      name: 'Rated pressure, cast carbon steel (WCB)',
      value: 2.5,
      unitCode: 'MPA',
      unitText: 'MPa',
    });
    expect(sheet.additionalProperty).toContainEqual({
      '@type': 'PropertyValue',
      name: 'Maximum temperature',
      value: 180,
      unitCode: 'CEL',
      unitText: '°C',
    });
    // The same by the Accept header.
    expect((await get(`/id/${serial}`, { accept: 'application/ld+json' })).json()).toEqual(sheet);
  });

  it('keeps a slash of the serial as a slash in the link', async () => {
    const cookie = await staffCookie(t);
    const product = await addProduct(t.app, cookie);
    const prefix = `${series().slice(0, -1)}/`;
    expect((await postRange(t.app, cookie, rangeBody(product.id, `${prefix}000001`, `${prefix}000010`, 10))).statusCode).toBe(201);
    const res = await get(`/id/${prefix}000002?linkType=linkset`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().linkset[0].anchor).toBe(`${BASE}/id/${prefix}000002`);
  });

  it('answers the lookup’s 404 for an unknown, malformed or overlong serial, and a bad link type is a page', async () => {
    const c = await catalogue(t);
    for (const path of [`${c.prefix}000101`, 'NO-DIGITS', '%E2%80%AE', 'A'.repeat(400), `${c.serial(1)}/extra`]) {
      const res = await get(`/id/${path}?linkType=linkset`);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().error, path).toEqual(NOT_FOUND);
    }
    expect((await get(`/id/${c.serial(1)}?linkType=${'x'.repeat(300)}`)).statusCode).toBe(400);
    expect((await get(`/id/${c.serial(1)}?linkType=gs1:epil`)).statusCode).toBe(307);
  });

  it('is limited like the lookup: per address, and per address and serial on the lookup’s own count', async () => {
    const c = await catalogue(t);
    const ip = randomIp();
    let last = 0;
    for (let i = 0; i < PUBLIC_LIMITS.lookupPerSerial.max + 1; i++)
      last = (await get(`/id/${c.serial(9)}?linkType=linkset`, {}, ip)).statusCode;
    expect(last).toBe(429);
    // The same address looking the same serial up through the public lookup is over the limit too.
    expect((await lookup(t.app, c.serial(9), { ip })).statusCode).toBe(429);
    const other = randomIp();
    let status = 0;
    for (let i = 0; i < PUBLIC_LIMITS.lookupPerIp.max + 1; i++) status = (await get(`/id/${c.serial((i % 90) + 1)}`, {}, other)).statusCode;
    expect(status).toBe(429);
  });

  it('opens on a report host name, where only the public side is served', async () => {
    const c = await catalogue(t);
    const res = await get(`/id/${c.serial(2)}`, { host: 'report.example.com' });
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe(`/search?serial=${encodeURIComponent(c.serial(2))}`);
  });
});
