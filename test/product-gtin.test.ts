/**
 * A product's GTIN (docs/decisions/0062-gs1-digital-link.md): optional; 8, 12, 13 or 14 digits with their GS1
 * mod-10 check digit, kept as GTIN-14; unique; named by its field when wrong, in the form, the API and the
 * CSV import alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productInput } from '../src/shared/contract/products';
import { normaliseGtin, parseGtin } from '../src/shared/gtin';
import { translate } from '../src/shared/i18n/index';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, productBody, randomGtin, staffCookie, upload } from './helpers/catalogue';
import { uniq } from './helpers/orders';

describe('GTIN: the check digit and the contract', () => {
  it('knows worked examples of every length, and a wrong check digit', () => {
    // GTIN-13 (EAN-13), GTIN-12 (UPC-A), GTIN-8 and GTIN-14, each with its check digit.
    expect(parseGtin('4006381333931')).toEqual({ gtin: '04006381333931' });
    expect(parseGtin('036000291452')).toEqual({ gtin: '00036000291452' });
    expect(parseGtin('96385074')).toEqual({ gtin: '00000096385074' });
    expect(parseGtin('09506000134352')).toEqual({ gtin: '09506000134352' });
    expect(parseGtin('4006381333932')).toEqual({ problem: 'checkDigit' });
    expect(parseGtin('036000291453')).toEqual({ problem: 'checkDigit' });
    // As printed under a barcode, in groups.
    expect(normaliseGtin('4 006381 333931')).toBe('04006381333931');
    for (const bad of ['', '1234567', '40063813339', '400638133393100', '4006381333931A', '00000000', '-4006381333931'])
      expect(parseGtin(bad), bad).toEqual({ problem: 'digits' });
  });

  it('takes a GTIN of any length as GTIN-14, none as null, and names the field otherwise', () => {
    const base = productBody();
    const parse = (gtin: unknown) => productInput.safeParse({ ...base, gtin });
    expect(parse('4006381333931').data?.gtin).toBe('04006381333931');
    expect(parse(' 96385074 ').data?.gtin).toBe('00000096385074');
    expect(parse('').data?.gtin).toBeNull();
    expect(parse(null).data?.gtin).toBeNull();
    expect(parse(undefined).data?.gtin).toBeUndefined();
    const issue = (gtin: unknown) => parse(gtin).error?.issues.map((i) => `${i.path.join('.')}:${i.message}`);
    expect(issue('4006381333932')).toEqual(['gtin:products.validation.gtinCheckDigit']);
    expect(issue('12345')).toEqual(['gtin:products.validation.gtinDigits']);
    expect(issue(4006381333931)).toEqual(['gtin:products.validation.gtinDigits']);
    expect(issue('9'.repeat(100))).toEqual(['gtin:products.validation.gtinDigits']);
  });

  it('says what is wrong in both languages', () => {
    expect(translate('en', 'products.validation.gtinCheckDigit')).toMatch(/check digit/);
    expect(translate('zh', 'products.validation.gtinCheckDigit')).toBe('此 GTIN 的最後一位不是正確的檢查碼，請核對號碼');
    expect(translate('zh', 'products.validation.gtinDigits')).toBe('GTIN 應為 8、12、13 或 14 位數字');
  });
});

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await staffCookie(t, { role: 'admin' });
});
afterAll(() => t.close());

const send = (method: 'POST' | 'PUT', url: string, payload: object, c = cookie) =>
  t.app.inject({ method, url, headers: { cookie: c }, payload });
const get = (url: string) => t.app.inject({ url, headers: { cookie } });
const fieldsOf = (res: { json(): { error: { fields?: { field: string; key: string; message: string }[] } } }) =>
  res.json().error.fields?.map((f) => `${f.field}:${f.key}`);

describe('GTIN: the products API', () => {
  it('stores a GTIN as GTIN-14, keeps it on a replace that does not name it, and clears it with ""', async () => {
    const gtin = randomGtin(13);
    const created = await send('POST', '/api/v1/products', productBody({ gtin }));
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json().data;
    expect(product.gtin).toBe(`0${gtin}`);
    expect((await get(`/api/v1/products?q=${gtin}`)).json().data.items.map((p: { id: string }) => p.id)).toEqual([product.id]);

    const { gtin: _g, ...withoutGtin } = productBody({ name: product.name });
    const kept = await send('PUT', `/api/v1/products/${product.id}`, withoutGtin);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data.gtin).toBe(`0${gtin}`);
    const cleared = await send('PUT', `/api/v1/products/${product.id}`, { ...withoutGtin, gtin: '' });
    expect(cleared.json().data.gtin).toBeNull();
  });

  it('answers a bad GTIN on add and on update with 400 naming the field, in the user’s language', async () => {
    const p = await addProduct(t.app, cookie);
    for (const [gtin, key] of [
      ['4006381333932', 'products.validation.gtinCheckDigit'],
      ['123', 'products.validation.gtinDigits'],
      ['ABCDEFGH', 'products.validation.gtinDigits'],
    ]) {
      const add = await send('POST', '/api/v1/products', productBody({ gtin }));
      expect(add.statusCode, gtin).toBe(400);
      expect(fieldsOf(add), gtin).toEqual([`gtin:${key}`]);
      const update = await send('PUT', `/api/v1/products/${p.id}`, productBody({ name: p.name, gtin }));
      expect(update.statusCode, gtin).toBe(400);
      expect(fieldsOf(update), gtin).toEqual([`gtin:${key}`]);
    }
    const zh = await send('POST', '/api/v1/products', productBody({ gtin: '4006381333932' }), await staffCookie(t, { language: 'zh' }));
    expect(zh.json().error.fields[0].message).toBe('此 GTIN 的最後一位不是正確的檢查碼，請核對號碼');
  });

  it('refuses a GTIN another product has, in any of its lengths, on its field', async () => {
    const gtin = randomGtin(12);
    await addProduct(t.app, cookie, { gtin });
    const again = await send('POST', '/api/v1/products', productBody({ gtin: `00${gtin}` }));
    expect(again.statusCode).toBe(409);
    expect(fieldsOf(again)).toEqual(['gtin:products.gtinTaken']);
    const other = await addProduct(t.app, cookie);
    const update = await send('PUT', `/api/v1/products/${other.id}`, productBody({ name: other.name, gtin }));
    expect(update.statusCode).toBe(409);
    expect(fieldsOf(update)).toEqual(['gtin:products.gtinTaken']);
  });
});

describe('GTIN: CSV', () => {
  it('exports the GTIN and imports it back as the same product', async () => {
    const tag = uniq();
    const gtin = randomGtin(14);
    await addProduct(t.app, cookie, { name: `GTIN valve ${tag}`, gtin });
    await addProduct(t.app, cookie, { name: `No GTIN valve ${tag}` });
    const before = (await get(`/api/v1/products?q=${tag}&sort=name`)).json().data.items;
    const csv = await get(`/api/v1/products/export.csv?q=${tag}&sort=name`);
    const [header, ...lines] = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const column = header!.split(',').indexOf('gtin');
    expect(column).toBeGreaterThan(0);
    expect(lines.map((l) => l.split(',')[column])).toEqual([gtin, '']);

    // Again while they exist: the names are taken (a name is told before its GTIN).
    const again = await upload(t.app, cookie, '/api/v1/products/import', csv.rawPayload);
    expect(again.json().data.errors.map((e: { field: string; key: string }) => `${e.field}:${e.key}`)).toEqual([
      'name:products.nameTaken',
      'name:products.nameTaken',
    ]);
    for (const p of before)
      await t.app.inject({ method: 'DELETE', url: `/api/v1/products/${p.id}`, headers: { cookie, origin: 'http://localhost:3000' } });
    const back = await upload(t.app, cookie, '/api/v1/products/import', csv.rawPayload);
    expect(back.json().data).toMatchObject({ valid: true, stored: 2 });
    const after = (await get(`/api/v1/products?q=${tag}&sort=name`)).json().data.items;
    const shape = ({ id: _i, createdAt: _c, updatedAt: _u, ...rest }: Record<string, unknown>) => rest;
    expect(after.map(shape)).toEqual(before.map(shape));
  });

  it('refuses a bad, a taken or a repeated GTIN by row and column', async () => {
    const taken = randomGtin(13);
    await addProduct(t.app, cookie, { gtin: taken });
    const twice = randomGtin(8);
    const tag = uniq();
    const csv = [
      'name,fluid,pressureFc,temperatureMax,temperatureMin,gtin',
      `A ${tag},water,1.6,100,0,4006381333932`,
      `B ${tag},water,1.6,100,0,${taken}`,
      `C ${tag},water,1.6,100,0,${twice}`,
      `D ${tag},water,1.6,100,0,000000${twice}`,
      `E ${tag},water,1.6,100,0,`,
    ].join('\n');
    const res = await upload(t.app, cookie, '/api/v1/products/import', `${csv}\n`);
    expect(res.statusCode).toBeLessThan(500);
    const errors = res.json().data.errors.map((e: { row: number; field: string; key: string }) => `${e.row}:${e.field}:${e.key}`);
    expect(errors).toContain('2:gtin:products.validation.gtinCheckDigit');
    expect(res.json().data.stored).toBe(0);

    // Without the bad row, the store path finds the taken and the repeated GTIN and stores the rest.
    const stored = await upload(
      t.app,
      cookie,
      '/api/v1/products/import',
      `${csv
        .split('\n')
        .filter((_, i) => i !== 1)
        .join('\n')}\n`,
    );
    const data = stored.json().data;
    expect(data.errors.map((e: { row: number; field: string; key: string }) => `${e.row}:${e.field}:${e.key}`).sort()).toEqual([
      '2:gtin:products.gtinTaken',
      '4:gtin:products.import.duplicateGtinInFile',
    ]);
  });
});
