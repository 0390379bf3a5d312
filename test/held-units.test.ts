/**
 * The held-units worklist (GET /api/v1/held-units, its CSV, and one unit's answer): every unit the release
 * gate holds now, requested or not, over hand-made records whose holds are known.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeldUnit, UnitRelease } from '../src/shared/contract/quality';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { certificatesOfType31 } from './helpers/inspectors';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';

let t: TestApp;
let staff: string;
let productA: { id: string };
let productB: { id: string };
let bench1: { id: string; key: string };
let bench2: { id: string; key: string };

const at = (day: number, hour = 8) => `2024-05-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;
const MAY = 'from=2024-05-01&to=2024-05-31';

async function send(key: string, recs: Record<string, unknown>[]) {
  const res = await postBatch(t.app, key, { records: recs });
  if (res.statusCode !== 200) throw new Error(res.body);
}

async function list(query: string): Promise<{ items: HeldUnit[]; total: number }> {
  const res = await t.app.inject({ url: `/api/v1/held-units?${query}`, headers: { cookie: staff } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

beforeAll(async () => {
  t = await buildTestApp();
  const admin = await adminCookie(t);
  staff = await staffCookie(t);
  bench1 = await createBench(t.app, admin, 'Held Bench 1');
  bench2 = await createBench(t.app, admin, 'Held Bench 2');
  productA = await addProduct(t.app, staff, { name: 'Held Valve A', nameZh: '保留閥 A' });
  productB = await addProduct(t.app, staff, { name: 'Held Valve B' });
  expect((await postRange(t.app, staff, rangeBody(productA.id, 'QH-0001', 'QH-0100', 100))).statusCode).toBe(201);
  expect((await postRange(t.app, staff, rangeBody(productB.id, 'QJ-0001', 'QJ-0100', 100))).statusCode).toBe(201);
  // QH-0001 passes; QH-0002 fails its shell test; QH-0003's shell test passes on the bench and is then found
  // nonconforming (a disagreement); QH-0004 fails and passes its retest; QH-0005 fails on bench 2; QH-0011
  // failed in April (outside the range); QJ-0001 (product B) fails.
  await send(bench1.key, [
    record({ serial: 'QH-0001', testedAt: at(1) }),
    record({ serial: 'QH-0002', result: 'fail', testedAt: at(2) }),
    record({ serial: 'QH-0003', testedAt: at(3) }),
    record({ serial: 'QH-0004', result: 'fail', testedAt: at(4, 8) }),
    record({ serial: 'QH-0004', testedAt: at(4, 9) }),
    record({ serial: 'QH-0011', result: 'fail', testedAt: '2024-04-20T08:00:00.000Z' }),
    record({ serial: 'QJ-0001', result: 'fail', testedAt: at(6) }),
  ]);
  await send(bench2.key, [record({ serial: 'QH-0005', result: 'fail', testedAt: at(5) })]);
  await t.app.ctx.db.execute(sql`UPDATE test_records SET verdict = 'nonconforming', reasons = 1 WHERE serial = 'QH-0003'`);
});
afterAll(() => t.close());

describe('the held-units worklist', () => {
  it('lists every held unit of the range, requested or not, newest test first, with what holds it', async () => {
    const { items, total } = await list(MAY);
    expect(items.map((u) => u.serial)).toEqual(['QJ-0001', 'QH-0005', 'QH-0003', 'QH-0002']);
    expect(total).toBe(4);
    const byId = new Map(items.map((u) => [u.serial, u]));
    expect(byId.get('QH-0002')!.heldFor).toEqual([{ testType: 'shell', kind: 'failed', testedAt: at(2), bench: 'fail', reasons: [] }]);
    // The bench passed it and the standard did not: a disagreement, with the reason.
    const disagreement = byId.get('QH-0003')!.heldFor[0]!;
    expect(disagreement).toMatchObject({ testType: 'shell', kind: 'failed', bench: 'pass' });
    expect(disagreement.reasons.length).toBe(1);
    expect(byId.get('QH-0002')).toMatchObject({ productId: productA.id, productName: 'Held Valve A', productNameZh: '保留閥 A' });
    expect(byId.get('QJ-0001')!.productNameZh).toBeNull();
    expect(byId.get('QH-0002')!.latestTestedAt).toBe(at(2));
  });

  it('filters by reason, product and bench, and pages', async () => {
    expect((await list(`${MAY}&reason=nonconforming`)).items.map((u) => u.serial)).toEqual(['QH-0003']);
    expect((await list(`${MAY}&reason=failed`)).items.map((u) => u.serial)).toEqual(['QJ-0001', 'QH-0005', 'QH-0002']);
    expect((await list(`${MAY}&reason=missing`)).total).toBe(0);
    expect((await list(`${MAY}&productId=${productB.id}`)).items.map((u) => u.serial)).toEqual(['QJ-0001']);
    expect((await list(`${MAY}&machineId=${bench2.id}`)).items.map((u) => u.serial)).toEqual(['QH-0005']);
    expect((await list(`${MAY}&machineId=${bench1.id}&productId=${productA.id}`)).items.map((u) => u.serial)).toEqual([
      'QH-0003',
      'QH-0002',
    ]);
    const second = await list(`${MAY}&page=2&pageSize=10`);
    expect(second).toEqual({ items: [], total: 4 });
    // A retest that passes takes the unit off the list.
    await send(bench1.key, [record({ serial: 'QH-0002', testedAt: at(7) })]);
    expect((await list(MAY)).items.map((u) => u.serial)).not.toContain('QH-0002');
    // April's failure is in April's list.
    expect((await list('from=2024-04-01&to=2024-04-30')).items.map((u) => u.serial)).toEqual(['QH-0011']);
  });

  it('holds every tested unit of an unreleased range when certificates are 3.1, and says why', async () => {
    await certificatesOfType31(t);
    const unreleased = await list(`${MAY}&reason=unreleased&productId=${productA.id}`);
    expect(unreleased.items.map((u) => u.serial)).toEqual(['QH-0002', 'QH-0005', 'QH-0004', 'QH-0003', 'QH-0001']);
    expect(unreleased.items.find((u) => u.serial === 'QH-0001')!.heldFor).toContainEqual(
      expect.objectContaining({ kind: 'unreleased', testType: null }),
    );
  });

  it('exports the same units as CSV, with the holds in words', async () => {
    const res = await t.app.inject({ url: `/api/v1/held-units/export.csv?${MAY}&reason=failed`, headers: { cookie: staff } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('serial,product,latestTestedAt,heldFor');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['QJ-0001', 'QH-0005']);
    expect(lines[2]).toContain('failed shell');
  });

  it('refuses bad filters with field errors, and anonymous callers', async () => {
    for (const [q, field] of [
      ['from=2024-05-31&to=2024-05-01', 'to'],
      [`${MAY}&reason=broken`, 'reason'],
      [`${MAY}&productId=not-an-id`, 'productId'],
      ['from=2024-13-01&to=2024-05-01', 'from'],
      ['from=2024-04-01&to=2024-05-31', 'to'],
    ] as const) {
      const res = await t.app.inject({ url: `/api/v1/held-units?${q}`, headers: { cookie: staff } });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect((await t.app.inject({ url: `/api/v1/held-units?${MAY}` })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/v1/held-units/QH-0001' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: `/api/v1/held-units/export.csv?${MAY}` })).statusCode).toBe(401);
  });
});

describe("one unit's answer", () => {
  const release = async (serial: string): Promise<UnitRelease> => {
    const res = await t.app.inject({ url: `/api/v1/held-units/${encodeURIComponent(serial)}`, headers: { cookie: staff } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('says releasable, held with why, or no tests, by the same gate', async () => {
    expect(await release('QH-0003')).toMatchObject({ serial: 'QH-0003', status: 'held' });
    expect((await release('QH-0003')).heldFor.map((h) => h.kind)).toContain('failed');
    expect(await release('QH-0099')).toEqual({ serial: 'QH-0099', status: 'noTests', heldFor: [] });
    expect(await release('ZZ-0001')).toEqual({ serial: 'ZZ-0001', status: 'noTests', heldFor: [] });
    // Settings are 3.1 from the test above: QH-0001 waits only for its range's release.
    expect(await release('QH-0001')).toEqual({
      serial: 'QH-0001',
      status: 'held',
      heldFor: [{ testType: null, kind: 'unreleased', testedAt: null, bench: null, reasons: [] }],
    });
    const bad = await t.app.inject({ url: '/api/v1/held-units/%20%20', headers: { cookie: staff } });
    expect(bad.statusCode).toBe(400);
  });
});
