/**
 * The control chart's run rules through the API: limits from a baseline period, not from the points judged,
 * and the points a drift breaks the Western Electric and Nelson rules on, from a worked example.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlChart } from '../src/shared/contract/quality';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';

let t: TestApp;
let staff: string;
let productId: string;
let benchId: string;
let otherBenchId: string;

// Baseline (April): 2.40 and 2.42 alternating, so the centre is 2.41 and every moving range 0.02: σ within
// = 0.02 / 1.128 = 0.017730. Shown (May), one test a day: 2.41, 2.43, 2.44, 2.45, 2.46, 2.50, that is
// z = 0, 1.13, 1.69, 2.26, 2.82, 5.08 against the baseline.
const BASELINE = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 2.4 : 2.42));
const DRIFT = [2.41, 2.43, 2.44, 2.45, 2.46, 2.5];
const SIGMA = 0.02 / 1.128;

beforeAll(async () => {
  t = await buildTestApp();
  const admin = await adminCookie(t);
  staff = await staffCookie(t);
  const bench = await createBench(t.app, admin, 'Rules Bench');
  benchId = bench.id;
  otherBenchId = (await createBench(t.app, admin, 'Rules Bench 2')).id;
  productId = (await addProduct(t.app, staff, { name: 'Rules Valve', pressureFc: '', pressureWcb: 1.6, pressureSus: '' })).id;
  expect((await postRange(t.app, staff, rangeBody(productId, 'RR-0001', 'RR-0100', 100))).statusCode).toBe(201);
  const day = (month: number, d: number) => `2024-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}T08:00:00.000Z`;
  const recs = [
    ...BASELINE.map((p, i) => record({ serial: `RR-${String(i + 1).padStart(4, '0')}`, testPressure: p, testedAt: day(4, i + 1) })),
    ...DRIFT.map((p, i) => record({ serial: `RR-${String(i + 51).padStart(4, '0')}`, testPressure: p, testedAt: day(5, i + 1) })),
  ];
  const res = await postBatch(t.app, bench.key, { records: recs });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => t.close());

async function chart(extra: string): Promise<ControlChart> {
  const res = await t.app.inject({
    url: `/api/v1/quality/control-chart?from=2024-05-01&to=2024-05-31&productId=${productId}&testType=shell&measure=testPressure${extra}`,
    headers: { cookie: staff },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const marks = (c: ControlChart) => Object.fromEntries(c.breaks.map((b) => [b.index, b.rules]));

describe('control chart run rules', () => {
  it('takes the centre and limits from the baseline, and marks where the drift breaks Western Electric rules', async () => {
    const c = await chart('&baselineFrom=2024-04-01&baselineTo=2024-04-30');
    expect(c.points.map((p) => p.mean)).toEqual(DRIFT.map((v) => expect.closeTo(v, 9)));
    expect(c.baseline).toEqual({ from: '2024-04-01', to: '2024-04-30', n: 20 });
    expect(c.centre).toBeCloseTo(2.41, 9);
    expect(c.ucl).toBeCloseTo(2.41 + 3 * SIGMA, 9);
    expect(c.lcl).toBeCloseTo(2.41 - 3 * SIGMA, 9);
    // The shown days' own statistics stay as they were (Cpk reads them).
    expect(c.mean).toBeCloseTo(DRIFT.reduce((a, b) => a + b) / DRIFT.length, 9);
    expect(c.rules).toBe('western-electric');
    expect(marks(c)).toEqual({ 4: ['we2', 'we3'], 5: ['we1', 'we2', 'we3'] });
  });

  it("reads Nelson's rules when asked: the six rising points are a trend", async () => {
    const c = await chart('&rules=nelson&baselineFrom=2024-04-01&baselineTo=2024-04-30');
    expect(marks(c)).toEqual({ 4: ['n5', 'n6'], 5: ['n1', 'n3', 'n5', 'n6'] });
  });

  it('without a baseline, the shown days give the centre and limits', async () => {
    const c = await chart('');
    expect(c.baseline).toBeNull();
    // Mean 14.69 / 6; moving ranges 0.02, 0.01, 0.01, 0.01, 0.04: σ within 0.018 / 1.128.
    expect(c.centre).toBeCloseTo(14.69 / 6, 9);
    expect(c.ucl).toBeCloseTo(14.69 / 6 + (3 * 0.018) / 1.128, 9);
    // 2.50 is 3.24 σ above: the last point still breaks rule 1, the others none.
    expect(marks(c)).toEqual({ 5: ['we1'] });
  });

  it("splits by bench: one bench's tests, its baseline from the same bench", async () => {
    const mine = await chart(`&machineId=${benchId}&baselineFrom=2024-04-01&baselineTo=2024-04-30`);
    expect(mine.n).toBe(6);
    expect(mine.baseline?.n).toBe(20);
    const other = await chart(`&machineId=${otherBenchId}&baselineFrom=2024-04-01&baselineTo=2024-04-30`);
    expect(other).toMatchObject({ n: 0, points: [], breaks: [], baseline: { n: 0 } });
  });

  it('refuses a half or reversed baseline and an unknown rule set, by field', async () => {
    const base = `/api/v1/quality/control-chart?from=2024-05-01&to=2024-05-31&productId=${productId}&testType=shell&measure=testPressure`;
    for (const [q, field] of [
      ['&baselineFrom=2024-04-01', 'baselineTo'],
      ['&baselineTo=2024-04-01', 'baselineFrom'],
      ['&baselineFrom=2024-04-30&baselineTo=2024-04-01', 'baselineTo'],
      ['&baselineFrom=2024-02-30&baselineTo=2024-04-01', 'baselineFrom'],
      ['&rules=shewhart', 'rules'],
      ['&machineId=bench-2', 'machineId'],
    ] as const) {
      const res = await t.app.inject({ url: base + q, headers: { cookie: staff } });
      expect(res.statusCode, q).toBe(400);
      expect(
        res.json().error.fields.map((f: { field: string }) => f.field),
        q,
      ).toContain(field);
    }
  });
});
