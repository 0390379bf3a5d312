/**
 * A product's Chinese name (docs/product.md §3): stored and validated like its other texts, exported and
 * imported as a CSV column, and printed instead of the name where the reader reads Chinese: the answer to a
 * Chinese report request and the Chinese certificate name the product in Chinese, the English ones in English.
 * Its connection, application and medium have Chinese texts too, printed the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, productBody, staffCookie, upload } from './helpers/catalogue';
import { catalogue, postRequest, requestBody, testData } from './helpers/public';
import { poppler, tmpFile } from './helpers/reports';

let t: TestApp;
let staff: string;

beforeAll(async () => {
  t = await buildTestApp();
  staff = await staffCookie(t, { role: 'admin' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const NAME_ZH = '鑄鋼閘閥 DN50';

async function reportText(pdfPath: string): Promise<string> {
  const res = await t.app.inject({ url: pdfPath });
  expect(res.statusCode).toBe(200);
  return poppler('pdftotext', ['-layout', tmpFile(res.rawPayload), '-']);
}

describe('a product’s Chinese name', () => {
  it('is stored, returned and optional; its field errors name it', async () => {
    const p = await addProduct(t.app, staff, { nameZh: `  ${NAME_ZH}  ` });
    const got = await t.app.inject({ url: `/api/v1/products/${p.id}`, headers: { cookie: staff } });
    expect(got.json().data.nameZh).toBe(NAME_ZH);
    const without = await addProduct(t.app, staff);
    const plain = await t.app.inject({ url: `/api/v1/products/${without.id}`, headers: { cookie: staff } });
    expect(plain.json().data.nameZh).toBe('');

    for (const [nameZh, key] of [
      ['閥'.repeat(121), 'validation.tooLong'],
      ['閘閥\n DN50', 'validation.lineBreak'],
    ] as const) {
      const zh = await staffCookie(t, { language: 'zh' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/products',
        headers: { cookie: zh },
        payload: productBody({ nameZh }),
      });
      expect(res.statusCode).toBe(400);
      const fields = res.json().error.fields as Array<{ field: string; key?: string; message: string }>;
      const field = fields.find((f) => f.field === 'nameZh');
      expect(field, JSON.stringify(fields)).toBeDefined();
      if (field!.key) expect(field!.key).toBe(key);
    }
  });

  it('goes out and comes back in the CSV as the column nameZh', async () => {
    const p = await addProduct(t.app, staff, { name: `CSV ${Date.now()}`, nameZh: '球閥，軟密封' });
    const csv = await t.app.inject({ url: `/api/v1/products/export.csv?q=${encodeURIComponent(p.name)}`, headers: { cookie: staff } });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]!.split(',').slice(0, 2)).toEqual(['name', 'nameZh']);
    expect(lines[1]).toContain('球閥，軟密封');

    const template = await t.app.inject({ url: '/api/v1/products/template.csv', headers: { cookie: staff } });
    expect(template.body).toContain('nameZh');

    const name = `Imported ${Date.now()}`;
    const res = await upload(
      t.app,
      staff,
      '/api/v1/products/import',
      `name,nameZh,fluid,pressureFc,temperatureMax,temperatureMin\n${name},蝶閥 DN100,water,1.6,120,-10\n`,
    );
    expect(res.statusCode, res.body).toBeLessThan(300);
    const list = await t.app.inject({ url: `/api/v1/products?q=${encodeURIComponent(name)}`, headers: { cookie: staff } });
    expect(list.json().data.items[0].nameZh).toBe('蝶閥 DN100');
  });

  it('names the product in Chinese in a Chinese report, and in English in an English one', async () => {
    const name = `Cast Steel Gate Valve ${Date.now()}`;
    const cat = await catalogue(t, {
      name,
      nameZh: NAME_ZH,
      connection: 'Flanged RF',
      connectionZh: '凸面法蘭',
      application: 'Waterworks',
      applicationZh: '自來水',
      applicationMedium: 'Potable water',
      applicationMediumZh: '飲用水',
    });
    await testData(t, cat.serial(1));

    const zh = await postRequest(t.app, requestBody({ serials: [cat.serial(1)], language: 'zh' }));
    expect(zh.statusCode, zh.body).toBeLessThan(300);
    const zhResult = zh.json().data.results[0];
    expect(zhResult.product).toBe(NAME_ZH);
    const zhText = await reportText(zhResult.pdfPath);
    expect(zhText).toContain(NAME_ZH);
    expect(zhText).not.toContain(name);
    for (const [zhWords, enWords] of [
      ['凸面法蘭', 'Flanged RF'],
      ['自來水', 'Waterworks'],
      ['飲用水', 'Potable water'],
    ]) {
      expect(zhText).toContain(zhWords);
      expect(zhText).not.toContain(enWords);
    }

    const en = await postRequest(t.app, requestBody({ serials: [cat.serial(1)], language: 'en' }));
    expect(en.statusCode, en.body).toBeLessThan(300);
    const enResult = en.json().data.results[0];
    expect(enResult.product).toBe(name);
    const enText = await reportText(enResult.pdfPath);
    expect(enText).toContain(name);
    expect(enText).not.toContain(NAME_ZH);
    expect(enText).toContain('Flanged RF');
    expect(enText).not.toContain('凸面法蘭');
  });

  it('is offered to the public page beside the name, which picks by language', async () => {
    const cat = await catalogue(t, { nameZh: NAME_ZH });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/public/lookup', payload: { serial: cat.serial(2) } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.product).toMatchObject({ name: cat.productName, nameZh: NAME_ZH });
  });

  it("goes with the product's name in the staff lists, so that Chinese screens can show it", async () => {
    const cat = await catalogue(t, { nameZh: NAME_ZH });
    await testData(t, cat.serial(3));
    const list = await t.app.inject({
      url: `/api/v1/machine-data?serial=${encodeURIComponent(cat.serial(3))}`,
      headers: { cookie: staff },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.items[0]).toMatchObject({ productName: cat.productName, productNameZh: NAME_ZH });
    const history = await t.app.inject({
      url: `/api/v1/machine-data/units/${encodeURIComponent(cat.serial(3))}`,
      headers: { cookie: staff },
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().data.product).toMatchObject({ name: cat.productName, nameZh: NAME_ZH });
  });
});
