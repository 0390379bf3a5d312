import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, multipart, postRange, rangeBody, staffCookie, upload } from './helpers/catalogue';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await staffCookie(t);
});
afterAll(() => t.close());

const get = (url: string, c = cookie) => t.app.inject({ url, headers: { cookie: c } });
const PRODUCT_HEADER =
  'name,fluid,connection,application,applicationMedium,pressureFc,pressureWcb,pressureSus,temperatureMax,temperatureMin\n';

describe('product CSV', () => {
  it('offers a template that imports as it is', async () => {
    const res = await get('/api/v1/products/template.csv');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('products-template.csv');
    expect(res.body.startsWith('\uFEFFname,nameZh,fluid,')).toBe(true);
    const preview = await upload(t.app, cookie, '/api/v1/products/import?dryRun=true', res.rawPayload);
    expect(preview.json().data).toMatchObject({ dryRun: true, rows: 1, stored: 0, valid: true, errors: [] });
  });

  it('refuses a file with one bad row (nothing stored), then stores the corrected file', async () => {
    const bad = `${PRODUCT_HEADER}CSV Valve A,water,,,,1.6,,,100,0\nCSV Valve B,lava,,,,,,,100,0\ncsv valve a,oil,,,,1,,,10,0\n`;
    for (const url of ['/api/v1/products/import?dryRun=true', '/api/v1/products/import']) {
      const res = await upload(t.app, cookie, url, bad);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({ rows: 3, stored: 0, valid: false });
      expect(data.errors).toEqual([
        { row: 3, field: 'fluid', key: 'validation.oneOf', message: 'Choose one of the listed values' },
        { row: 4, field: 'name', key: 'products.import.duplicateInFile', message: 'This name appears more than once in the file' },
      ]);
    }
    expect((await get('/api/v1/products?q=CSV%20Valve')).json().data.total).toBe(0);

    const good = `\uFEFF${PRODUCT_HEADER}CSV Valve A,water,,,,1.6,,,100,0\n"CSV Valve B, ""DN50""",oil,Flange,,,,2.5,,100,-5\n`;
    const res = await upload(t.app, cookie, '/api/v1/products/import', good);
    expect(res.json().data).toMatchObject({ rows: 2, stored: 2, valid: true, dryRun: false });
    const list = (await get('/api/v1/products?q=CSV%20Valve&sort=name')).json().data;
    expect(list.items.map((p: { name: string }) => p.name)).toEqual(['CSV Valve A', 'CSV Valve B, "DN50"']);
    const history = (await get(`/api/v1/products/${list.items[0].id}/history`)).json().data;
    expect(history[0]).toMatchObject({ action: 'import', changes: expect.arrayContaining([{ field: 'name', after: 'CSV Valve A' }]) });

    const again = await upload(t.app, cookie, '/api/v1/products/import', good);
    expect(again.json().data.errors.map((e: { row: number; key: string }) => `${e.row}:${e.key}`)).toEqual([
      '2:products.nameTaken',
      '3:products.nameTaken',
    ]);
  });

  it('answers in the user language, and tolerates junk without a 500', async () => {
    const zh = await staffCookie(t, { language: 'zh' });
    const res = await upload(t.app, zh, '/api/v1/products/import?dryRun=1', `${PRODUCT_HEADER}X,water,,,,,,,1,2\n`);
    expect(res.json().data.errors.map((e: { message: string }) => e.message)).toEqual([
      '請至少輸入一項壓力額定值（FC、WCB 或 SUS）',
      '最低溫度不得高於最高溫度',
    ]);
    const junk: [string | Buffer, string][] = [
      ['', 'products.import.empty'],
      [PRODUCT_HEADER, 'products.import.empty'],
      ['foo,bar\n1,2\n', 'products.import.missingColumns'],
      // UTF-16 (a spreadsheet's "Unicode text"): not UTF-8, said as such
      [Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x00, 0x0a, 0x00]), 'csvImport.invalidUtf8'],
      [`${PRODUCT_HEADER}"unclosed,water`, 'products.import.malformed'],
      [`${PRODUCT_HEADER}A,water,,,,1,,,1,0,surplus\n`, 'products.import.extraValues'],
    ];
    for (const [content, key] of junk) {
      const r = await upload(t.app, cookie, '/api/v1/products/import', content);
      expect(r.statusCode).toBe(200);
      expect(r.json().data.errors[0].key, key).toBe(key);
    }
  });

  it('needs a multipart upload from our own origin', async () => {
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/v1/products/import',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(none.statusCode).toBe(415);
    const { payload, headers } = multipart(PRODUCT_HEADER);
    const noOrigin = await t.app.inject({
      method: 'POST',
      url: '/api/v1/products/import',
      headers: { 'content-type': headers['content-type']!, cookie },
      payload,
    });
    expect(noOrigin.statusCode).toBe(403);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/v1/products/import',
      headers: { ...headers, cookie },
      payload: Buffer.from(`--${headers['content-type']!.split('boundary=')[1]}--\r\n`),
    });
    expect(empty.statusCode).toBe(400);
  });
});

describe('serial-range CSV', () => {
  const HEADER = 'product,startSerial,endSerial,totalUnits,productionDate\n';

  it('refuses a file with a bad row or an overlap (nothing stored), then stores the good file', async () => {
    const p = await addProduct(t.app, cookie, { name: 'Imported Valve' });
    await postRange(t.app, cookie, rangeBody(p.id, 'IMP-0900', 'IMP-0999', 100));
    const bad =
      HEADER +
      'imported valve, imp-0001 ,IMP-0100,100,2024-01-01\n' +
      'Imported Valve,IMP-0101,IMP-0200,99,2024-01-01\n' +
      'Nobody,IMP-0300,IMP-0300,,2024-01-01\n' +
      'Imported Valve,IMP-0050,IMP-0060,,2024-01-01\n' +
      'Imported Valve,IMP-0950,IMP-0960,,2024-01-01\n';
    const res = await upload(t.app, cookie, '/api/v1/serial-ranges/import', bad);
    expect(res.json().data).toMatchObject({ rows: 5, stored: 0, valid: false });
    expect(res.json().data.errors.map((e: { row: number; field: string; message: string }) => `${e.row} ${e.field} ${e.message}`)).toEqual([
      '3 totalUnits Total Units must equal Ending − Starting + 1',
      '4 product No product has this name',
      '5 startSerial This range overlaps IMP-0001 – IMP-0100 on another row of this file',
      '6 startSerial This range overlaps IMP-0900 – IMP-0999 (Imported Valve)',
    ]);
    expect((await get(`/api/v1/serial-ranges?productId=${p.id}`)).json().data.total).toBe(1);

    const good = HEADER + 'imported valve, imp-0001 ,IMP-0100,100,2024-01-01\r\nImported Valve,IMP-0101,IMP-0200,,2024-01-02\r\n';
    const preview = await upload(t.app, cookie, '/api/v1/serial-ranges/import?dryRun=true', good);
    expect(preview.json().data).toMatchObject({ rows: 2, stored: 0, valid: true });
    expect((await get(`/api/v1/serial-ranges?productId=${p.id}`)).json().data.total).toBe(1);
    const stored = await upload(t.app, cookie, '/api/v1/serial-ranges/import', good);
    expect(stored.json().data).toMatchObject({ rows: 2, stored: 2, valid: true });
    const list = (await get(`/api/v1/serial-ranges?productId=${p.id}&sort=startSerial`)).json().data;
    expect(list.items.map((r: { startSerial: string; totalUnits: number }) => `${r.startSerial}/${r.totalUnits}`)).toEqual([
      'IMP-0001/100',
      'IMP-0101/100',
      'IMP-0900/100',
    ]);
    expect((await get(`/api/v1/products/${p.id}`)).json().data.rangeCount).toBe(3);
  });

  it('exports what the list shows: filter, search and sort', async () => {
    const a = await addProduct(t.app, cookie, { name: 'Export A' });
    const b = await addProduct(t.app, cookie, { name: 'Export B' });
    for (let i = 0; i < 5; i++)
      await postRange(t.app, cookie, rangeBody(a.id, `EXA-${i}00`, `EXA-${i}99`, 100, { productionDate: `2024-01-0${i + 1}` }));
    await postRange(t.app, cookie, rangeBody(b.id, 'EXB-100', 'EXB-199', 100));
    const res = await get(`/api/v1/serial-ranges/export.csv?productId=${a.id}&sort=productionDate&order=desc`);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('product,startSerial,endSerial,totalUnits,productionDate,bodyMaterial');
    expect(lines.slice(1)).toEqual([4, 3, 2, 1, 0].map((i) => `Export A,EXA-${i}00,EXA-${i}99,100,2024-01-0${i + 1},`));
    const search = (await get('/api/v1/serial-ranges/export.csv?q=EXB-150')).body.trim().split('\r\n');
    expect(search.slice(1)).toEqual(['Export B,EXB-100,EXB-199,100,2024-03-01,']);
    const products = (await get('/api/v1/products/export.csv?q=export&sort=name&order=desc')).body.trim().split('\r\n');
    expect(products.slice(1).map((l) => l.split(',')[0])).toEqual(['Export B', 'Export A']);
  });

  it('walks a long export page by page in order', async () => {
    const p = await addProduct(t.app, cookie, { name: 'Long Export' });
    const rows = Array.from(
      { length: 2500 },
      (_, i) => `Long Export,LX-${String(i * 10).padStart(6, '0')},LX-${String(i * 10 + 9).padStart(6, '0')},10,2024-01-01`,
    );
    const res = await upload(t.app, cookie, '/api/v1/serial-ranges/import', HEADER + rows.join('\n'));
    expect(res.json().data).toMatchObject({ stored: 2500 });
    for (const [sort, order] of [
      ['startSerial', 'desc'],
      ['createdAt', 'asc'],
      ['productName', 'asc'],
    ]) {
      const lines = (await get(`/api/v1/serial-ranges/export.csv?productId=${p.id}&sort=${sort}&order=${order}`)).body
        .trim()
        .split('\r\n')
        .slice(1);
      expect(lines, `${sort}`).toHaveLength(2500);
      expect(new Set(lines).size).toBe(2500);
      if (sort === 'startSerial') expect(lines[0]).toContain('LX-024990');
    }
  });
});
