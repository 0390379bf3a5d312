import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERIAL_RANGE_SORTS } from '../src/shared/contract/serials';
import { findRangeBySerial } from '../src/server/modules/serials/serials.service';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';

let t: TestApp;
let cookie: string;
let productId: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await staffCookie(t);
  productId = (await addProduct(t.app, cookie, { name: 'Range Product' })).id;
});
afterAll(() => t.close());

const add = (start: string, end: string, total: number, overrides: Record<string, unknown> = {}) =>
  postRange(t.app, cookie, rangeBody(productId, start, end, total, overrides));
const fieldsOf = (res: { json(): { error: { fields?: { field: string; key: string }[] } } }) =>
  res.json().error.fields?.map((f) => `${f.field}:${f.key}`);

describe('serial ranges: add and read', () => {
  it('normalises serials, checks Total Units, and says so', async () => {
    const res = await add(' vb2311-000 001 ', 'Vb2311-000100', 100);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Serial Number Added Successfully',
      messageKey: 'serials.added',
      data: {
        productId,
        productName: 'Range Product',
        startSerial: 'VB2311-000001',
        endSerial: 'VB2311-000100',
        totalUnits: 100,
        productionDate: '2024-03-01',
      },
    });
    const read = await t.app.inject({ url: `/api/v1/serial-ranges/${res.json().data.id}`, headers: { cookie } });
    expect(read.json().data).toEqual(res.json().data);
  });

  it('names every broken rule', async () => {
    const cases: [ReturnType<typeof add>, string][] = [
      [add('VB-001', 'VC-010', 10), 'endSerial:serials.validation.sameSeries'],
      [add('VB-001', 'VB-0010', 10), 'endSerial:serials.validation.sameSeries'],
      [add('VB-010', 'VB-001', 10), 'endSerial:serials.validation.endBeforeStart'],
      [add('VB-001', 'VB-010', 9), 'totalUnits:serials.validation.totalMismatch'],
      [add('Q00000000', 'Q10000000', 10_000_000), 'endSerial:serials.validation.tooManyUnits'],
      [add('VB-', 'VB-010', 10), 'startSerial:serials.validation.serial'],
      [add('', 'VB-010', 10), 'startSerial:validation.required'],
      [add('VB-001', 'VB-010', 10, { productionDate: '2999-12-31' }), 'productionDate:serials.validation.futureDate'],
      [add('VB-001', 'VB-010', 10, { productionDate: '31/12/2023' }), 'productionDate:validation.date'],
      [add('VB-001', 'VB-010', 10, { totalUnits: 'ten' }), 'totalUnits:validation.number'],
      [add('X1', 'X99999999999999999999999', 1), 'endSerial:serials.validation.serial'],
    ];
    for (const [pending, expected] of cases) {
      const res = await pending;
      expect(res.statusCode, expected).toBe(400);
      expect(fieldsOf(res), expected).toContain(expected);
    }
  });

  it('accepts the largest range and today as production date', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await add('BIG0000000', 'BIG9999999', 10_000_000, { productionDate: today });
    expect(res.statusCode).toBe(201);
  });

  it('answers "Product Not Found" for an unknown product', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await postRange(t.app, cookie, rangeBody(id, 'NP-1', 'NP-2', 2));
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Product Not Found');
      expect(fieldsOf(res)).toEqual(['productId:errors.productNotFound']);
    }
  });

  it('answers 404 for unknown and malformed range ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'abc', '-1']) {
      for (const [method, suffix] of [
        ['GET', ''],
        ['PUT', ''],
        ['DELETE', ''],
        ['GET', '/history'],
      ] as const) {
        const res = await t.app.inject({
          method,
          url: `/api/v1/serial-ranges/${id}${suffix}`,
          headers: { cookie },
          ...(method === 'PUT' ? { payload: rangeBody(productId, 'N-1', 'N-2', 2) } : {}),
        });
        expect(res.statusCode, `${method} ${id}${suffix}`).toBe(404);
        expect(res.json().error.message).toBe('Serial Number Range Not Found');
      }
    }
  });
});

describe('serial ranges: overlaps', () => {
  it('refuses identical, contained, containing and partly overlapping ranges, naming the collision', async () => {
    expect((await add('OV-0100', 'OV-0200', 101)).statusCode).toBe(201);
    for (const [a, b, n] of [
      ['OV-0100', 'OV-0200', 101],
      ['OV-0150', 'OV-0160', 11],
      ['OV-0050', 'OV-0300', 251],
      ['OV-0200', 'OV-0250', 51],
      ['OV-0001', 'OV-0100', 100],
    ] as const) {
      const res = await add(a, b, n);
      expect(res.statusCode, `${a}–${b}`).toBe(409);
      expect(res.json().error.message).toBe('This range overlaps OV-0100 – OV-0200 (Range Product)');
      expect(fieldsOf(res)).toEqual(['startSerial:serials.overlap']);
    }
  });

  it('accepts touching ranges, another width and another prefix', async () => {
    expect((await add('AD-0100', 'AD-0199', 100)).statusCode).toBe(201);
    expect((await add('AD-0200', 'AD-0299', 100)).statusCode).toBe(201);
    expect((await add('AD-0000', 'AD-0099', 100)).statusCode).toBe(201);
    expect((await add('AD-100', 'AD-199', 100)).statusCode).toBe(201);
    expect((await add('AE-0100', 'AE-0199', 100)).statusCode).toBe(201);
    expect((await add('0100', '0199', 100)).statusCode).toBe(201);
  });

  it('refuses an update that would overlap, but lets a range be edited onto itself', async () => {
    const a = (await add('UP-100', 'UP-199', 100)).json().data;
    const b = (await add('UP-200', 'UP-299', 100)).json().data;
    const put = (id: string, s: string, e: string, n: number) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/serial-ranges/${id}`, headers: { cookie }, payload: rangeBody(productId, s, e, n) });
    const grow = await put(a.id, 'UP-100', 'UP-249', 150);
    expect(grow.statusCode).toBe(409);
    expect(grow.json().error.message).toContain('UP-200 – UP-299');
    const shift = await put(b.id, 'UP-150', 'UP-299', 150);
    expect(shift.json().error.message).toContain('UP-100 – UP-199');
    const same = await put(a.id, 'UP-100', 'UP-198', 99);
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ message: 'Serial Number Updated Successfully', data: { endSerial: 'UP-198', totalUnits: 99 } });
  });

  it('lets exactly one of several concurrent overlapping inserts win', async () => {
    const results = await Promise.all([0, 1, 2, 3, 4].map((i) => add(`CC-${100 + i}`, `CC-${200 + i}`, 101)));
    const codes = results.map((r) => r.statusCode).sort();
    // Two of them can deadlock on the exclusion constraint: the loser is done again and meets the winner.
    expect(codes, results.map((r) => r.body).join('\n')).toEqual([201, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().error.message).toMatch(/overlaps CC-1\d\d – CC-2\d\d/);
  });
});

describe('serial ranges: lookup, list, delete, history', () => {
  it('findRangeBySerial returns the range and its product, for any spelling', async () => {
    await add('FIND-000500', 'FIND-000999', 500);
    const hit = await findRangeBySerial(t.app.ctx.db, ' find-000 777');
    expect(hit?.range).toMatchObject({ startSerial: 'FIND-000500', endSerial: 'FIND-000999' });
    expect(hit?.product).toMatchObject({ id: productId, name: 'Range Product' });
    for (const miss of ['FIND-000499', 'FIND-001000', 'FIND-00777', 'FIND-', '', 'x'.repeat(500)]) {
      expect(await findRangeBySerial(t.app.ctx.db, miss), miss).toBeNull();
    }
    expect((await findRangeBySerial(t.app.ctx.db, 'FIND-000500'))?.range.startSerial).toBe('FIND-000500');
    expect((await findRangeBySerial(t.app.ctx.db, 'FIND-000999'))?.range.startSerial).toBe('FIND-000500');
  });

  it('lists with every sort, filters by product and finds a range by any serial inside it', async () => {
    const other = await addProduct(t.app, cookie, { name: 'Other Product' });
    await postRange(t.app, cookie, rangeBody(other.id, 'OTH-01', 'OTH-10', 10));
    for (const sort of SERIAL_RANGE_SORTS) {
      for (const order of ['asc', 'desc']) {
        const res = await t.app.inject({ url: `/api/v1/serial-ranges?sort=${sort}&order=${order}&pageSize=all`, headers: { cookie } });
        expect(res.statusCode, `${sort} ${order}`).toBe(200);
      }
    }
    const list = (qs: string) => t.app.inject({ url: `/api/v1/serial-ranges?${qs}`, headers: { cookie } }).then((r) => r.json().data);
    const mine = await list(`productId=${other.id}`);
    expect(mine.total).toBe(1);
    expect(mine.items[0]).toMatchObject({ startSerial: 'OTH-01', productName: 'Other Product' });
    // Moving a range to another product moves its count too (the totals come from those counts).
    const count = async (id: string) => (await t.app.inject({ url: `/api/v1/products/${id}`, headers: { cookie } })).json().data.rangeCount;
    const before = await count(productId);
    const moved = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/serial-ranges/${mine.items[0].id}`,
      headers: { cookie },
      payload: rangeBody(productId, 'OTH-01', 'OTH-10', 10),
    });
    expect(moved.statusCode).toBe(200);
    expect([await count(productId), await count(other.id)]).toEqual([before + 1, 0]);
    expect((await list(`productId=${other.id}`)).total).toBe(0);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/serial-ranges/${mine.items[0].id}`,
      headers: { cookie },
      payload: rangeBody(other.id, 'OTH-01', 'OTH-10', 10),
    });
    expect((await list('q=find-000600')).items.map((r: { startSerial: string }) => r.startSerial)).toEqual(['FIND-000500']);
    expect((await list('serial=FIND-000600')).total).toBe(1);
    expect((await list('q=other%20prod')).total).toBe(1);
    expect((await list('q=AD-')).total).toBe(4);
    expect((await list('productId=junk')).total).toBe(0);
    expect((await list('serial=junk')).total).toBe(0);
    const all = await list('pageSize=100');
    const sorted = await list('sort=productName&order=desc&pageSize=100');
    expect(sorted.total).toBe(all.total);
    expect(sorted.items[0].productName).toBe('Range Product');
  });

  it('deletes, and keeps the history of create, update and delete', async () => {
    const r = (await add('HIS-1', 'HIS-5', 5)).json().data;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/serial-ranges/${r.id}`,
      headers: { cookie },
      payload: rangeBody(productId, 'HIS-1', 'HIS-6', 6, { productionDate: '2024-03-02' }),
    });
    const history = (await t.app.inject({ url: `/api/v1/serial-ranges/${r.id}/history`, headers: { cookie } })).json().data;
    expect(history.map((h: { action: string }) => h.action)).toEqual(['update', 'create']);
    expect(history[0].changes).toEqual(
      expect.arrayContaining([
        { field: 'endSerial', before: 'HIS-5', after: 'HIS-6' },
        { field: 'totalUnits', before: 5, after: 6 },
        { field: 'productionDate', before: '2024-03-01', after: '2024-03-02' },
      ]),
    );
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/serial-ranges/${r.id}`, headers: { cookie } });
    expect(del.json().message).toBe('Serial Number Deleted Successfully');
    expect((await t.app.inject({ url: `/api/v1/serial-ranges/${r.id}`, headers: { cookie } })).statusCode).toBe(404);
    expect(await findRangeBySerial(t.app.ctx.db, 'HIS-3')).toBeNull();
  });
});
