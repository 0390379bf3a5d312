/**
 * An exported list imports as the same records, and importing it again stores nothing twice: products,
 * customers, serial ranges and test records (every list with both an export and an import). The formula
 * guard the export puts before `=Valve` is taken off again by the import, and a line break is kept where the
 * field may span lines (a customer's address) or refused with a message that says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie, upload } from './helpers/catalogue';
import { addCustomer, uniq } from './helpers/orders';
import { createBench, postBatch, record } from './helpers/machine-data';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await staffCookie(t, { role: 'admin' });
});
afterAll(() => t.close());

const get = (url: string, c = cookie) => t.app.inject({ url, headers: { cookie: c } });
const remove = (url: string) => t.app.inject({ method: 'DELETE', url, headers: { cookie, origin: 'http://localhost:3000' } });
const errorKeys = (res: { json(): { data: { errors: { row: number; field: string; key: string }[] } } }) =>
  res.json().data.errors.map((e) => `${e.row}:${e.field}:${e.key}`);

describe('CSV round trip', () => {
  it('products: an exported list imports as the same products, formula-like names included, never twice', async () => {
    const tag = uniq();
    const names = [`=Valve ${tag}`, `+Ball ${tag}`, `@Gate ${tag}`, `'=Quoted ${tag}`, `Plain, "DN50" ${tag}`];
    for (const name of names) await addProduct(t.app, cookie, { name, connection: '-Flange', applicationMedium: '-5' });
    const before = (await get(`/api/v1/products?q=${tag}&sort=name&pageSize=100`)).json().data.items;
    expect(before).toHaveLength(names.length);

    const csv = await get(`/api/v1/products/export.csv?q=${tag}`);
    expect(csv.body).toContain(`'=Valve ${tag}`);
    // The same file again: every name is already taken, none is stored a second time under another spelling.
    const again = await upload(t.app, cookie, '/api/v1/products/import', csv.rawPayload);
    expect(again.json().data).toMatchObject({ stored: 0, valid: false });
    expect(again.json().data.errors.map((e: { key: string }) => e.key)).toEqual(names.map(() => 'products.nameTaken'));

    for (const p of before) expect((await remove(`/api/v1/products/${p.id}`)).statusCode).toBe(200);
    const back = await upload(t.app, cookie, '/api/v1/products/import', csv.rawPayload);
    expect(back.json().data).toMatchObject({ valid: true, stored: names.length });
    const after = (await get(`/api/v1/products?q=${tag}&sort=name&pageSize=100`)).json().data.items;
    const shape = (p: Record<string, unknown>) => {
      const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = p;
      return rest;
    };
    expect(after.map(shape)).toEqual(before.map(shape));
    expect(after.map((p: { name: string }) => p.name).sort()).toEqual([...names].sort());
  });

  it('customers: an exported list imports as the same customers and contacts, a multi-line address kept', async () => {
    const code = `RT${uniq()}`.toUpperCase();
    const made = [
      await addCustomer(t.app, cookie, {
        name: `=Buyer ${code}`,
        code: `${code}A`,
        address: '1 Harbour Rd\r\nKaohsiung 806',
        country: 'TW',
      }),
      await addCustomer(t.app, cookie, {
        name: `-Minus, "Ltd" ${code}`,
        code: `${code}B`,
        emailDomains: ['one.com', 'two.com'],
        contacts: [
          { name: '=Lin (QA), "Mei"', email: 'lin@one.com', language: 'zh', receivesCertificates: true },
          { name: 'Bob', email: 'Bob@Two.com', language: 'en', receivesCertificates: false },
        ],
      }),
    ];
    const read = async () =>
      (await get(`/api/v1/customers?q=${code}&sort=code`)).json().data.items.map((c: Record<string, unknown>) => {
        const { id: _id, createdAt: _c, updatedAt: _u, contacts, ...rest } = c;
        return { ...rest, contacts: (contacts as { id: string }[]).map(({ id: _k, ...k }) => k) };
      });
    const before = await read();
    expect(before).toHaveLength(2);
    const csv = await get(`/api/v1/customers/export.csv?q=${code}`);
    expect(csv.body).toContain(`"'=Lin (QA), ""Mei"" <lin@one.com> (zh, certificates); Bob <bob@two.com> (en)"`);
    for (const c of made) expect((await remove(`/api/v1/customers/${(c as { id: string }).id}`)).statusCode).toBe(200);
    const back = await upload(t.app, cookie, '/api/v1/customers/import', csv.rawPayload);
    expect(back.json().data).toMatchObject({ valid: true, stored: 2 });
    expect(await read()).toEqual(before);
    expect(before[0]).toMatchObject({ name: `=Buyer ${code}` });
    expect(before[1].contacts).toHaveLength(2);
  });

  it('customers: a contacts cell not written as the export writes it is refused by row', async () => {
    const code = `RC${uniq()}`.toUpperCase();
    const header = 'name,code,contacts\n';
    const file = `${header}One,${code}A,Ann <ann@x.com> (en)\nTwo,${code}B,Ann ann@x.com\nThree,${code}C,A <a@x.com>; B <A@X.com>\n`;
    const res = await upload(t.app, cookie, '/api/v1/customers/import', file);
    expect(errorKeys(res)).toEqual(['3:contacts:orders.import.contacts', '4:contacts:orders.validation.contactTwice']);
    expect(res.json().data.stored).toBe(0);
    const named = await t.app.inject({
      method: 'POST',
      url: '/api/v1/customers',
      headers: { cookie, origin: 'http://localhost:3000' },
      payload: { name: 'N', code: `${code}D`, contacts: [{ name: 'A; B', email: 'a@x.com' }] },
    });
    expect(named.statusCode).toBe(400);
    expect(named.json().error.fields[0]).toMatchObject({ field: 'contacts.0.name', key: 'orders.validation.contactName' });
  });

  it('serial ranges: an exported list imports as the same ranges, formula-like products and serials included, never twice', async () => {
    const tag = uniq();
    const guarded = await addProduct(t.app, cookie, { name: `=Range ${tag}` });
    const plain = await addProduct(t.app, cookie, { name: `Plain, "DN80" ${tag}` });
    // A prefix that starts with "-" makes the serial formula-like: the export guards it, the import takes it back.
    const bodies = [
      rangeBody(guarded.id, `-R${tag}-00001`, `-R${tag}-00500`, 500, { bodyMaterial: 'wcb' }),
      rangeBody(guarded.id, `RT${tag}/0001`, `RT${tag}/0010`, 10, { productionDate: '2023-02-28' }),
      rangeBody(plain.id, `PL${tag}.000001`, `PL${tag}.000100`, 100, { bodyMaterial: 'sus', productionDate: '2024-12-31' }),
    ];
    for (const body of bodies) expect((await postRange(t.app, cookie, body)).statusCode).toBe(201);
    const read = async () =>
      (await get(`/api/v1/serial-ranges?q=${tag}&sort=startSerial&pageSize=100`)).json().data.items.map((r: Record<string, unknown>) => {
        const { id: _id, productId: _p, createdAt: _c, updatedAt: _u, ...rest } = r;
        return rest;
      });
    const before = await read();
    expect(before).toHaveLength(bodies.length);

    const csv = await get(`/api/v1/serial-ranges/export.csv?q=${tag}`);
    expect(csv.body).toContain(`'=Range ${tag}`);
    expect(csv.body).toContain(`'-R${tag}-00001`);
    // The same file again: every range is already stored, none is stored a second time.
    const again = await upload(t.app, cookie, '/api/v1/serial-ranges/import', csv.rawPayload);
    expect(again.json().data).toMatchObject({ stored: 0, valid: false });
    expect(again.json().data.errors.map((e: { key: string }) => e.key)).toEqual(bodies.map(() => 'serials.overlap'));
    expect(await read()).toEqual(before);

    const ids = (await get(`/api/v1/serial-ranges?q=${tag}&pageSize=100`)).json().data.items.map((r: { id: string }) => r.id);
    for (const id of ids) expect((await remove(`/api/v1/serial-ranges/${id}`)).statusCode).toBe(200);
    const back = await upload(t.app, cookie, '/api/v1/serial-ranges/import', csv.rawPayload);
    expect(back.json().data).toMatchObject({ valid: true, stored: bodies.length });
    expect(await read()).toEqual(before);
  });

  it('test records: an exported list imports as the same records, into this server (nothing twice) and into another', async () => {
    // The export carries a record's sample count, not its samples, so these records are sent without samples.
    const serial = `RT${uniq()}-000001`;
    const bench = await createBench(t.app, cookie);
    const sent = [
      record({ serial, operator: '=Chen', samples: undefined }),
      record({ serial, testType: 'seat', leakageValue: 0.25, leakageUnit: 'ml/min', operator: 'Lin, "QA"', samples: undefined }),
    ];
    expect((await postBatch(t.app, bench.key, { records: sent })).statusCode).toBeLessThan(300);
    const staffFile = `recordId,serial,testType,medium,testPressure,holdingSeconds,leakageValue,leakageUnit,result,testedAt,operator,machine\n${`U-${uniq()}`},${serial},shell,air,0.6,15,,,fail,2024-05-02T09:00:00+08:00,-Wu,\n`;
    expect((await upload(t.app, cookie, '/api/v1/machine-data/import', staffFile)).json().data).toMatchObject({ stored: 1 });

    const read = async (app = t.app, c = cookie) =>
      (await app.inject({ url: `/api/v1/machine-data?serial=${serial}&sort=recordId&pageSize=100`, headers: { cookie: c } }))
        .json()
        .data.items.map((r: Record<string, unknown>) => {
          const { id: _id, machineId: _m, upload: _up, receivedAt: _r, productId: _p, rangeId: _g, ...rest } = r;
          return rest;
        });
    const before = await read();
    expect(before).toHaveLength(3);
    const csv = await get(`/api/v1/machine-data/export.csv?serial=${serial}`);
    expect(csv.body).toContain("'=Chen");

    const again = await upload(t.app, cookie, '/api/v1/machine-data/import', csv.rawPayload);
    expect(again.json().data).toMatchObject({ valid: true, stored: 0, skipped: 3 });
    expect(await read()).toEqual(before);

    // Another server with a bench of the same name: the same records, the bench's ones under that bench.
    const other = await buildTestApp();
    try {
      const otherCookie = await staffCookie(other, { role: 'admin' });
      await createBench(other.app, otherCookie, bench.name);
      const moved = await upload(other.app, otherCookie, '/api/v1/machine-data/import', csv.rawPayload);
      expect(moved.json().data).toMatchObject({ valid: true, stored: 3 });
      expect(await read(other.app, otherCookie)).toEqual(before);
    } finally {
      await other.close();
    }
  });

  it('test records with samples: the export carries their count, not the points, so their rows come back refused, never stored twice', async () => {
    const serial = `RS${uniq()}-000001`;
    const bench = await createBench(t.app, cookie);
    expect((await postBatch(t.app, bench.key, { records: [record({ serial })] })).statusCode).toBeLessThan(300);
    const csv = await get(`/api/v1/machine-data/export.csv?serial=${serial}`);
    const res = await upload(t.app, cookie, '/api/v1/machine-data/import', csv.rawPayload);
    expect(res.json().data).toMatchObject({ valid: false, stored: 0 });
    expect(res.json().data.errors).toHaveLength(1);
    const list = await get(`/api/v1/machine-data?serial=${serial}`);
    expect(list.json().data.items).toHaveLength(1);
  });

  it('a line break in a one-line field is refused with a message that says so, in en and zh', async () => {
    const header = 'name,fluid,connection,application,applicationMedium,pressureFc,pressureWcb,pressureSus,temperatureMax,temperatureMin\n';
    const file = `${header}"Gate\nValve ${uniq()}",water,,,,1,,,100,0\n`;
    const en = await upload(t.app, cookie, '/api/v1/products/import?dryRun=1', file);
    expect(errorKeys(en)).toEqual(['2:name:validation.lineBreak']);
    expect(en.json().data.errors[0].message).toBe('Line breaks are not allowed in this field; keep it on one line');
    const zh = await upload(t.app, await staffCookie(t, { language: 'zh' }), '/api/v1/products/import?dryRun=1', file);
    expect(zh.json().data.errors[0].message).toBe('此欄位不可換行，請寫在同一行');

    const customers = `name,code,address\n"Two\nLines ${uniq()}",LB${uniq()},\n`;
    const res = await upload(t.app, cookie, '/api/v1/customers/import?dryRun=1', customers);
    expect(errorKeys(res)).toEqual(['2:name:validation.lineBreak']);
  });
});
