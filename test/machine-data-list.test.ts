/** Reading test records: matching to ranges, list filters and sorts, detail, a unit's history, export. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL_COUNT_LIMIT } from '../src/shared/contract/machine-data';
import { lastReceivedAt } from '../src/server/modules/machine-data/machine-data.service';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { adminCookie, createBench, HELD_SAMPLES, postBatch, record } from './helpers/machine-data';

let t: TestApp;
let admin: string;
let staff: string;
let bench: { id: string; name: string; key: string };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminCookie(t);
  staff = await staffCookie(t);
  bench = await createBench(t.app, admin, 'List Bench');
});
afterAll(() => t.close());

const list = async (query: string) => {
  const res = await t.app.inject({ url: `/api/v1/machine-data?${query}`, headers: { cookie: staff } });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json().data as {
    items: { id: string; recordId: string; serial: string; productName: string | null; rangeId: string | null }[];
    total: number;
    totalEstimated?: boolean;
  };
};
const idsOf = (d: { items: { recordId: string }[] }) => d.items.map((i) => i.recordId);
const send = async (recs: Record<string, unknown>[]) => {
  const res = await postBatch(t.app, bench.key, { records: recs });
  if (res.statusCode !== 200) throw new Error(res.body);
};

describe('matched and unmatched', () => {
  it('stores records no range covers as unmatched; they join when a range is added and leave when it is edited away', async () => {
    await send([
      record({ recordId: 'M-1', serial: 'MT-0005' }),
      record({ recordId: 'M-2', serial: 'MT-0015' }),
      record({ recordId: 'M-3', serial: 'MT-00015' }), // another width: another series
    ]);
    const unmatched = await list('serial=MT-0005');
    expect(unmatched.items[0]).toMatchObject({ productName: null, rangeId: null });
    expect(idsOf(await list('matched=false&q=MT-'))).toEqual(expect.arrayContaining(['M-1', 'M-2', 'M-3']));

    const product = await addProduct(t.app, staff, { name: 'Matched Valve' });
    const added = await postRange(t.app, staff, rangeBody(product.id, 'MT-0001', 'MT-0010', 10));
    expect(added.statusCode).toBe(201);
    const rangeId = added.json().data.id as string;
    expect((await list('serial=mt-0005')).items[0]).toMatchObject({ productName: 'Matched Valve', rangeId });
    expect(idsOf(await list(`productId=${product.id}`))).toEqual(['M-1']);
    expect(idsOf(await list('matched=true&q=MT-'))).toEqual(['M-1']);
    expect((await list('matched=true')).total).toBe(1);

    // Edited to cover M-2 instead: M-1 leaves, M-2 joins, in the same statement.
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/serial-ranges/${rangeId}`,
      headers: { cookie: staff },
      payload: rangeBody(product.id, 'MT-0011', 'MT-0020', 10),
    });
    expect(edited.statusCode).toBe(200);
    expect(idsOf(await list(`productId=${product.id}`))).toEqual(['M-2']);
    expect((await list('serial=MT-0005')).items[0]!.rangeId).toBeNull();

    // Records sent while a range covers them are matched on the way in.
    await send([record({ recordId: 'M-4', serial: 'MT-0012' })]);
    expect(idsOf(await list(`productId=${product.id}&sort=recordId`))).toEqual(['M-2', 'M-4']);

    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/serial-ranges/${rangeId}`, headers: { cookie: staff } });
    expect(del.statusCode).toBe(200);
    expect((await list(`productId=${product.id}`)).total).toBe(0);
    expect(idsOf(await list('matched=false&q=MT-'))).toHaveLength(4);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('matches a batch stored while a covering range is being added (no race)', async () => {
    const product = await addProduct(t.app, staff, { name: 'Race Valve' });
    const other = new pg.Client({ connectionString: t.testDb.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO serial_ranges (product_id, prefix, width, start_no, end_no, production_date)
        VALUES ($1, 'RC-', 4, 1, 10, '2024-01-01')`,
        [product.id],
      );
      // The range is written but not committed: the batch must wait for it rather than miss it.
      const posting = send([record({ recordId: 'RC-1', serial: 'RC-0005' })]);
      await new Promise((r) => setTimeout(r, 300));
      await other.query('COMMIT');
      await posting;
    } finally {
      await other.end();
    }
    expect((await list('serial=RC-0005')).items[0]).toMatchObject({ productName: 'Race Valve' });
  });
});

describe('list', () => {
  beforeAll(async () => {
    const other = await createBench(t.app, admin, 'Other Bench');
    await send([
      record({ recordId: 'L-1', serial: 'LS-0001', testType: 'shell', result: 'pass', testedAt: '2024-01-10T10:00:00Z', testPressure: 3 }),
      record({ recordId: 'L-2', serial: 'LS-0001', testType: 'seat', result: 'fail', testedAt: '2024-01-11T10:00:00Z', testPressure: 1 }),
      record({ recordId: 'L-3', serial: 'LS-0001', testType: 'seat', result: 'pass', testedAt: '2024-01-12T23:59:00Z', testPressure: 2 }),
    ]);
    await postBatch(t.app, other.key, {
      records: [record({ recordId: 'L-4', serial: 'LS-0002', testType: 'air-seat', testedAt: '2024-01-13T00:00:00Z' })],
    });
  });

  it('filters by serial (normalised), result, test type, bench and tested-at range', async () => {
    expect(idsOf(await list('serial=%20ls-000%201'))).toEqual(['L-3', 'L-2', 'L-1']);
    expect(idsOf(await list('q=LS-&result=fail'))).toEqual(['L-2']);
    expect(idsOf(await list('q=LS-&testType=seat'))).toEqual(['L-3', 'L-2']);
    expect(idsOf(await list('q=LS-&testType=air-seat'))).toEqual(['L-4']);
    expect(idsOf(await list(`q=LS-&machineId=${bench.id}`))).toEqual(['L-3', 'L-2', 'L-1']);
    expect(idsOf(await list('q=LS-&testedFrom=2024-01-11&testedTo=2024-01-12'))).toEqual(['L-3', 'L-2']);
    expect(idsOf(await list('q=LS-&testedFrom=2024-01-12T23:59:00Z'))).toEqual(['L-4', 'L-3']);
    expect((await list('q=LS-&testedFrom=2024-01-11')).total).toBe(3);
    expect((await list(`machineId=${bench.id}&pageSize=5`)).total).toBeGreaterThanOrEqual(7);
    expect((await list('productId=not-a-uuid')).total).toBe(0);
    expect((await list('serial=NOPE-9999')).total).toBe(0);
  });

  it('sorts, pages and names bench and product; refuses bad filters', async () => {
    const first = await list('q=LS-&sort=testPressure&order=desc&pageSize=5');
    expect(idsOf(first)).toEqual(['L-1', 'L-4', 'L-3', 'L-2']);
    expect((await list('q=LS-&sort=serial&order=asc')).items.map((i) => i.serial)).toEqual(['LS-0001', 'LS-0001', 'LS-0001', 'LS-0002']);
    const page2 = await list('q=LS-&pageSize=5&page=1&sort=recordId');
    expect(idsOf(page2)).toEqual(['L-1', 'L-2', 'L-3', 'L-4']);
    expect(page2.items[0]).toMatchObject({ machineName: 'List Bench', sampleCount: HELD_SAMPLES.length });
    expect(page2.items[0]).not.toHaveProperty('samples');
    for (const q of ['result=maybe', 'testType=x', 'matched=yes', 'testedFrom=2024-13-01', 'sort=samples']) {
      const res = await t.app.inject({ url: `/api/v1/machine-data?${q}`, headers: { cookie: staff } });
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('reads a record with every field and its samples; 404 for unknown ids', async () => {
    const samples = [
      { t: 0, p: 0.1 },
      { t: 0.25, p: 1.234567891234 },
      { t: 90, p: 2.5 },
    ];
    await send([record({ recordId: 'D-1', serial: 'DT-01', leakageValue: 0.25, leakageUnit: 'ml/min', samples })]);
    const id = (await list('serial=DT-01')).items[0]!.id;
    const res = await t.app.inject({ url: `/api/v1/machine-data/${id}`, headers: { cookie: staff } });
    expect(res.json().data).toMatchObject({
      recordId: 'D-1',
      leakageValue: 0.25,
      leakageUnit: 'ml/min',
      samples,
      machineName: 'List Bench',
      range: null,
    });
    expect(res.json().data.receivedAt).toEqual(expect.any(String));
    for (const bad of ['0', 'abc', '99999999', '1e3', '9'.repeat(30)]) {
      const r = await t.app.inject({ url: `/api/v1/machine-data/${bad}`, headers: { cookie: staff } });
      expect(r.statusCode, bad).toBe(404);
      expect(r.json().error.key).toBe('machineData.recordNotFound');
    }
  });

  it("shows a unit's history newest first with its product and range", async () => {
    const product = await addProduct(t.app, staff, { name: 'History Valve' });
    await postRange(t.app, staff, rangeBody(product.id, 'LS-0001', 'LS-0001', 1));
    const res = await t.app.inject({ url: '/api/v1/machine-data/units/ls-0001', headers: { cookie: staff } });
    expect(res.statusCode).toBe(200);
    const h = res.json().data;
    expect(h).toMatchObject({
      serial: 'LS-0001',
      product: { id: product.id, name: 'History Valve' },
      range: { startSerial: 'LS-0001', endSerial: 'LS-0001' },
    });
    expect(h.records.map((r: { recordId: string }) => r.recordId)).toEqual(['L-3', 'L-2', 'L-1']);
    const none = await t.app.inject({ url: '/api/v1/machine-data/units/ZZ-1', headers: { cookie: staff } });
    expect(none.json().data).toEqual({ serial: 'ZZ-1', product: null, range: null, records: [] });
    await send([record({ recordId: 'S-1', serial: 'AB/12-0001' })]);
    const slash = await t.app.inject({ url: '/api/v1/machine-data/units/ab%2F12-0001', headers: { cookie: staff } });
    expect(slash.json().data).toMatchObject({ serial: 'AB/12-0001', records: [{ recordId: 'S-1' }] });
    const bad = await t.app.inject({ url: '/api/v1/machine-data/units/%3F%3F', headers: { cookie: staff } });
    expect(bad.statusCode).toBe(400);
  });

  it('exports what the filter shows as CSV', async () => {
    const res = await t.app.inject({ url: '/api/v1/machine-data/export.csv?serial=LS-0001&result=pass', headers: { cookie: staff } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^recordId,serial,testType,/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['L-3', 'L-1']);
  });

  it('counts a filter exactly up to the limit and estimates beyond it', async () => {
    const many = await createBench(t.app, admin, 'Many Bench');
    for (let b = 0; b < 3; b++) {
      const res = await postBatch(t.app, many.key, {
        records: Array.from({ length: 3400 }, (_, i) =>
          record({ recordId: `E-${b}-${i}`, serial: `ES-${b * 10000 + i}`, testType: 'functional', samples: [] }),
        ),
      });
      expect(res.statusCode).toBe(200);
    }
    const exact = await list(`machineId=${many.id}`);
    expect(exact).toMatchObject({ total: 10200 });
    expect(exact).not.toHaveProperty('totalEstimated');
    const estimated = await list('testType=functional');
    expect(estimated.totalEstimated).toBe(true);
    expect(estimated.total).toBeGreaterThan(TOTAL_COUNT_LIMIT);
    const small = await list(`testType=functional&serial=ES-5`);
    expect(small).toMatchObject({ total: 1 });
    expect(small).not.toHaveProperty('totalEstimated');
  });

  it('knows when data last arrived', async () => {
    const before = await lastReceivedAt(t.app.ctx.db);
    await send([record()]);
    const after = await lastReceivedAt(t.app.ctx.db);
    expect(after).toBeInstanceOf(Date);
    expect(after!.getTime()).toBeGreaterThanOrEqual(before!.getTime());
  });
});
