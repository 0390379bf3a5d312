/**
 * The GS1 Digital Link of a unit whose product has a GTIN (docs/decisions/0062-gs1-digital-link.md):
 * `/01/<GTIN>/21/<serial>` answers as `/id/<serial>` does, but only with the unit's product's GTIN; anything
 * else is the lookup's 404. Labels and the linkset's anchor carry it, the data sheet names the GTIN, and
 * `/.well-known/gs1resolver` describes the resolver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelLink } from '../src/shared/contract/labels';
import { identificationLink, originOf } from '../src/shared/identification';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, randomGtin, rangeBody, staffCookie } from './helpers/catalogue';
import { randomIp } from './helpers/factories';
import { catalogue, series } from './helpers/public';

const BASE = 'https://valves.example.com';
const NOT_FOUND = { status: 'NOT_FOUND', key: 'errors.serialNotFound', message: 'Serial Number Not Found' };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_BASE_URL: BASE });
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers, remoteAddress: randomIp() });

describe('the identification link with a GTIN', () => {
  it('is the GS1 Digital Link, GTIN-14 and the serial; a serial with a slash keeps /id/', () => {
    expect(identificationLink(`${BASE}//`, 'bf300-000002', '4006381333931')).toBe(`${BASE}/01/04006381333931/21/BF300-000002`);
    expect(identificationLink(BASE, 'BF300-000002', '96385074')).toBe(`${BASE}/01/00000096385074/21/BF300-000002`);
    expect(identificationLink(BASE, 'BF300-000002', null)).toBe(`${BASE}/id/BF300-000002`);
    // A slash would part AI 21 from its value in a Digital Link, and %2F is refused by common proxies.
    expect(identificationLink(BASE, 'AB/000002', '4006381333931')).toBe(`${BASE}/id/AB/000002`);
    expect(labelLink(BASE, 'BF300-000002', '04006381333931')).toBe(`${BASE}/01/04006381333931/21/BF300-000002`);
    expect(originOf('https://a.example/trc///')).toBe('https://a.example/trc');
  });
});

async function unitWithGtin(length: 8 | 12 | 13 | 14 = 13) {
  const c = await catalogue(t, { gtin: randomGtin(length), name: `GTIN valve ${series()}` });
  const cookie = await staffCookie(t);
  const list = (await t.app.inject({ url: `/api/v1/products?q=${encodeURIComponent(c.productName)}`, headers: { cookie } })).json();
  const gtin14 = list.data.items[0].gtin as string;
  return { ...c, gtin14 };
}

describe('/01/<GTIN>/21/<serial>', () => {
  it('sends a browser to the public page and names the linkset of the Digital Link', async () => {
    const c = await unitWithGtin(12);
    const link = `${BASE}/01/${c.gtin14}/21/${c.serial(5)}`;
    // The GTIN in any length it was written, the serial in any spelling.
    for (const gtin of [c.gtin14, c.gtin14.slice(2)]) {
      const res = await get(`/01/${gtin}/21/${c.serial(5).toLowerCase()}`, { accept: 'text/html' });
      expect(res.statusCode, gtin).toBe(307);
      expect(res.headers.location).toBe(`/search?serial=${encodeURIComponent(c.serial(5))}`);
      expect(res.headers.link).toBe(`<${link}?linkType=linkset>; rel="linkset"; type="application/linkset+json"`);
    }
    // On a report host name too.
    expect((await get(`/01/${c.gtin14}/21/${c.serial(5)}`, { host: 'report.example.com' })).statusCode).toBe(307);
  });

  it('answers the linkset and the data sheet with the Digital Link as anchor, /id/ too', async () => {
    const c = await unitWithGtin(13);
    const link = `${BASE}/01/${c.gtin14}/21/${c.serial(3)}`;
    for (const url of [`/01/${c.gtin14}/21/${c.serial(3)}?linkType=linkset`, `/id/${c.serial(3)}?linkType=linkset`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/linkset\+json/);
      const [context] = res.json().linkset;
      expect(context.anchor).toBe(link);
      expect(context['https://gs1.org/voc/masterData'][0].href).toBe(`${link}?linkType=gs1:masterData`);
      expect(context['https://gs1.org/voc/pip'][0].href).toBe(`${BASE}/search?serial=${encodeURIComponent(c.serial(3))}`);
    }
    const sheet = await get(`/01/${c.gtin14.slice(1)}/21/${c.serial(3)}`, { accept: 'application/ld+json' });
    expect(sheet.statusCode).toBe(200);
    expect(sheet.json()).toMatchObject({ '@type': 'Product', '@id': link, gtin: c.gtin14, serialNumber: c.serial(3) });
    // The same sheet by /id/.
    expect((await get(`/id/${c.serial(3)}?linkType=gs1:masterData`)).json()).toEqual(sheet.json());
  });

  it('takes a serial with a slash, written as a slash or %2F', async () => {
    const gtin = randomGtin(8);
    const cookie = await staffCookie(t);
    const product = await addProduct(t.app, cookie, { gtin });
    const prefix = `${series().slice(0, -1)}/`;
    expect((await postRange(t.app, cookie, rangeBody(product.id, `${prefix}000001`, `${prefix}000010`, 10))).statusCode).toBe(201);
    for (const serial of [`${prefix}000002`, `${prefix.slice(0, -1)}%2F000002`]) {
      const res = await get(`/01/${gtin}/21/${serial}?linkType=linkset`);
      expect(res.statusCode, serial).toBe(200);
      expect(res.json().linkset[0].anchor).toBe(`${BASE}/id/${prefix}000002`);
    }
  });

  it('answers the lookup’s 404 for a malformed GTIN, a wrong check digit, another product’s GTIN or an unknown serial', async () => {
    const c = await unitWithGtin(13);
    const other = await unitWithGtin(13);
    const plain = await catalogue(t);
    const wrongCheck = `${c.gtin14.slice(0, -1)}${(Number(c.gtin14.slice(-1)) + 1) % 10}`;
    const paths = [
      `/01/12345/21/${c.serial(1)}`,
      `/01/ABCDEFGHIJKLMN/21/${c.serial(1)}`,
      `/01/${'9'.repeat(40)}/21/${c.serial(1)}`,
      `/01/${wrongCheck}/21/${c.serial(1)}`,
      `/01/${other.gtin14}/21/${c.serial(1)}`,
      `/01/${c.gtin14}/21/${c.prefix}000101`,
      `/01/${c.gtin14}/21/NO-DIGITS`,
      `/01/${c.gtin14}/21/${'A'.repeat(400)}`,
      `/01/${c.gtin14}/21/${plain.serial(1)}`,
      `/01/${c.gtin14}`,
      `/01/${c.gtin14}/10/LOT1/21/${c.serial(1)}`,
    ];
    for (const path of paths)
      for (const headers of [{ accept: 'text/html' }, { accept: 'application/linkset+json' }]) {
        const res = await get(path, headers);
        expect(res.statusCode, `${path} ${headers.accept}`).toBe(404);
        expect(res.json().error, path).toEqual(NOT_FOUND);
      }
  });
});

describe('/.well-known/gs1resolver', () => {
  it('describes the resolver: its root, GTINs with serials, GS1 link types, for anyone, cached briefly', async () => {
    for (const host of ['localhost', 'report.example.com']) {
      const res = await get('/.well-known/gs1resolver', { host });
      expect(res.statusCode, host).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.json()).toEqual({
        name: expect.stringMatching(/^Test Report Center/),
        resolverRoot: BASE,
        supportedPrimaryKeys: ['01'],
        supportedLinkType: [{ namespace: 'https://gs1.org/voc/', prefix: 'gs1:' }],
        linkTypeDefaultCanBeLinkset: false,
        linkTypeDefaultCanBeAll: false,
        validatesAIcombination: true,
        contact: expect.any(String),
      });
      expect(res.json().contact.length).toBeGreaterThan(0);
    }
    // Only that well-known address: other dot paths stay hidden.
    for (const path of ['/.well-known/security.txt', '/.well-known/gs1resolver/../x', '/%2Ewell-known/gs1resolver'])
      expect((await get(path)).statusCode, path).toBe(404);
  });
});
