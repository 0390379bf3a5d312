/** Quality analysis over hand-made records whose yields, counts and statistics are known exactly. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capability, type ControlChart, type QualitySummary } from '../src/shared/contract/quality';
import { describe as describeValues, pressureDrop } from '../src/server/modules/quality/quality.service';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';

let t: TestApp;
let staff: string;
let productA: { id: string; name: string };
let productB: { id: string; name: string };
let bench1: { id: string; name: string; key: string };
let bench2: { id: string; name: string; key: string };

const at = (day: number, hour = 8) => `2024-05-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;
const serial = (n: number) => `QA-${String(n).padStart(4, '0')}`;

async function send(key: string, recs: Record<string, unknown>[]) {
  const res = await postBatch(t.app, key, { records: recs });
  if (res.statusCode !== 200) throw new Error(res.body);
}

beforeAll(async () => {
  t = await buildTestApp();
  const admin = await adminCookie(t);
  staff = await staffCookie(t);
  bench1 = await createBench(t.app, admin, 'Quality Bench 1');
  bench2 = await createBench(t.app, admin, 'Quality Bench 2');
  productA = await addProduct(t.app, staff, { name: 'Quality Valve A', pressureFc: '', pressureWcb: 1.6, pressureSus: '' });
  productB = await addProduct(t.app, staff, { name: 'Quality Valve B', pressureFc: 1.0, pressureWcb: 1.6, pressureSus: '' });
  expect((await postRange(t.app, staff, rangeBody(productA.id, 'QA-0001', 'QA-0100', 100))).statusCode).toBe(201);
  expect((await postRange(t.app, staff, rangeBody(productB.id, 'QB-0001', 'QB-0100', 100))).statusCode).toBe(201);

  // Ten units of product A. Bench 1: units 1-4 and 8 on May 1; bench 2: units 5-7, 9 and 10 on May 2.
  // Unit 8's shell test fails, then passes an hour later; unit 9's seat test likewise; unit 10's shell test
  // fails and is never retested. Everything else passes at the first attempt.
  const onBench1 = [1, 2, 3, 4, 8];
  const b1: Record<string, unknown>[] = [];
  const b2: Record<string, unknown>[] = [];
  for (let n = 1; n <= 10; n++) {
    const day = onBench1.includes(n) ? 1 : 2;
    const list = onBench1.includes(n) ? b1 : b2;
    const shellFails = n === 8 || n === 10;
    list.push(record({ serial: serial(n), testType: 'shell', result: shellFails ? 'fail' : 'pass', testedAt: at(day, 8) }));
    if (n === 8) list.push(record({ serial: serial(n), testType: 'shell', result: 'pass', testedAt: at(day, 9) }));
    list.push(
      record({ serial: serial(n), testType: 'seat', testPressure: 1.76, result: n === 9 ? 'fail' : 'pass', testedAt: at(day, 10) }),
    );
    if (n === 9) list.push(record({ serial: serial(n), testType: 'seat', testPressure: 1.76, result: 'pass', testedAt: at(day, 11) }));
  }
  // Outside the range (April 20 and June 1): a failure that must neither count nor be listed.
  b1.push(record({ serial: serial(11), result: 'fail', testedAt: '2024-04-20T08:00:00.000Z' }));
  b1.push(record({ serial: serial(12), result: 'fail', testedAt: '2024-06-01T00:00:00.000Z' }));
  await send(bench1.key, b1);
  await send(bench2.key, b2);
});
afterAll(() => t.close());

const get = async <T>(url: string, cookie = staff) => {
  const res = await t.app.inject({ url, headers: { cookie } });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json().data as T;
};
const MAY = 'from=2024-05-01&to=2024-05-31';

describe('yields', () => {
  it('counts first-pass yield 7/10, final yield 9/10 and retests 2/10 over the range', async () => {
    const s = await get<QualitySummary>(`/api/v1/quality/summary?${MAY}`);
    expect(s.totals).toEqual({ units: 10, firstPass: 7, finalPass: 9, retested: 2, tests: 22, failures: 3 });
    expect(s.byProduct).toEqual([{ key: productA.id, label: 'Quality Valve A', units: 10, firstPass: 7, finalPass: 9, retested: 2 }]);
  });

  it('breaks the yields down by test type, by bench and by day or week', async () => {
    const s = await get<QualitySummary>(`/api/v1/quality/summary?${MAY}&interval=day`);
    expect(s.byTestType).toEqual([
      { key: 'seat', label: 'seat', units: 10, firstPass: 9, finalPass: 10, retested: 1 },
      { key: 'shell', label: 'shell', units: 10, firstPass: 8, finalPass: 9, retested: 1 },
    ]);
    expect(s.byMachine).toEqual([
      { key: bench1.id, label: 'Quality Bench 1', units: 5, firstPass: 4, finalPass: 5, retested: 1 },
      { key: bench2.id, label: 'Quality Bench 2', units: 5, firstPass: 3, finalPass: 4, retested: 1 },
    ]);
    expect(s.overTime).toEqual([
      { key: '2024-05-01', label: '2024-05-01', units: 5, firstPass: 4, finalPass: 5, retested: 1 },
      { key: '2024-05-02', label: '2024-05-02', units: 5, firstPass: 3, finalPass: 4, retested: 1 },
    ]);
    const weekly = await get<QualitySummary>(`/api/v1/quality/summary?${MAY}&interval=week`);
    // 2024-05-01 is a Wednesday: its week starts on Monday, April 29.
    expect(weekly.overTime).toEqual([{ key: '2024-04-29', label: '2024-04-29', units: 10, firstPass: 7, finalPass: 9, retested: 2 }]);
  });

  it('includes the whole last day and nothing after it', async () => {
    const s = await get<QualitySummary>('/api/v1/quality/summary?from=2024-05-02&to=2024-06-01');
    expect(s.totals.units).toBe(6); // units 5-7, 9, 10 and unit 12 at midnight starting June 1
    expect((await get<QualitySummary>('/api/v1/quality/summary?from=2024-05-02&to=2024-05-31')).totals.units).toBe(5);
  });

  it('answers an empty range with zeros and empty lists', async () => {
    const s = await get<QualitySummary>('/api/v1/quality/summary?from=2023-01-01&to=2023-01-31');
    expect(s.totals).toEqual({ units: 0, firstPass: 0, finalPass: 0, retested: 0, tests: 0, failures: 0 });
    expect([s.byProduct, s.byMachine, s.byTestType, s.overTime, s.pareto.testType]).toEqual([[], [], [], [], []]);
  });
});

describe('failures', () => {
  it('orders the Pareto by failures, most first, by test type, product and bench', async () => {
    const { pareto } = await get<QualitySummary>(`/api/v1/quality/summary?${MAY}`);
    expect(pareto.testType).toEqual([
      { key: 'shell', label: 'shell', failures: 2 },
      { key: 'seat', label: 'seat', failures: 1 },
    ]);
    expect(pareto.product).toEqual([{ key: productA.id, label: 'Quality Valve A', failures: 3 }]);
    expect(pareto.machine).toEqual([
      { key: bench2.id, label: 'Quality Bench 2', failures: 2 },
      { key: bench1.id, label: 'Quality Bench 1', failures: 1 },
    ]);
  });

  it('lists the failures never retested: unit 10 in May; the April failure only for April', async () => {
    const may = await get<{
      items: { serial: string; testType: string; productName: string; machineName: string; failedAt: string }[];
      total: number;
    }>(`/api/v1/quality/open-failures?${MAY}`);
    expect(may.total).toBe(1);
    expect(may.items).toEqual([
      expect.objectContaining({
        serial: 'QA-0010',
        testType: 'shell',
        productName: 'Quality Valve A',
        machineName: 'Quality Bench 2',
        failedAt: at(2, 8),
      }),
    ]);
    const april = await get<{ items: { serial: string }[]; total: number }>('/api/v1/quality/open-failures?from=2024-04-01&to=2024-04-30');
    expect(april.items.map((i) => i.serial)).toEqual(['QA-0011']);
  });

  it('drops a failure from the list once the unit is retested, even after the range', async () => {
    await send(bench2.key, [record({ serial: serial(11), result: 'pass', testedAt: '2024-07-01T08:00:00.000Z' })]);
    expect((await get<{ total: number }>('/api/v1/quality/open-failures?from=2024-04-01&to=2024-04-30')).total).toBe(0);
  });
});

describe('control chart', () => {
  beforeAll(async () => {
    // Product B, shell: test pressures 2.40 … 2.48 in time order; leakage 0.1, 0.2, 0.3 ml/min and one in
    // another unit; samples whose hold loses 0.02 and 0.04 MPa.
    const pressures = [2.4, 2.42, 2.44, 2.46, 2.48];
    const samples = (drop: number) => [
      { t: 0, p: 0 },
      { t: 1, p: 2.4 },
      { t: 30, p: 2.4 - drop / 2 },
      { t: 60, p: 2.4 - drop },
      { t: 90, p: 0 },
    ];
    await send(bench1.key, [
      ...pressures.map((p, i) =>
        record({
          serial: `QB-${String(i + 1).padStart(4, '0')}`,
          testPressure: p,
          testedAt: at(3 + i),
          holdingSeconds: 60 + i,
          samples: [],
        }),
      ),
      ...[0.1, 0.2, 0.3].map((v, i) =>
        record({
          serial: `QB-001${i}`,
          testType: 'seat',
          testPressure: 1.76,
          leakageValue: v,
          leakageUnit: 'ml/min',
          testedAt: at(10 + i),
        }),
      ),
      record({ serial: 'QB-0020', testType: 'seat', testPressure: 1.76, leakageValue: 5, leakageUnit: 'bubbles/min', testedAt: at(14) }),
      record({ serial: 'QB-0030', testType: 'backseat', testPressure: 1.76, testedAt: at(15), samples: samples(0.02) }),
      record({ serial: 'QB-0031', testType: 'backseat', testPressure: 1.76, testedAt: at(16), samples: samples(0.04) }),
    ]);
  });

  const chart = (q: string) => get<ControlChart>(`/api/v1/quality/control-chart?${MAY}&productId=${productB.id}&${q}`);

  it('gives mean, σ, σ within, ±3σ limits, and Cpk against 1.5 × the rating', async () => {
    const c = await chart('testType=shell&measure=testPressure&material=wcb');
    expect(c.n).toBe(5);
    expect(c.mean).toBeCloseTo(2.44, 9);
    expect(c.sigma).toBeCloseTo(Math.sqrt(0.001), 9);
    expect(c.sigmaWithin).toBeCloseTo(0.02 / 1.128, 9);
    expect(c.ucl).toBeCloseTo(2.44 + (3 * 0.02) / 1.128, 9);
    expect(c.lcl).toBeCloseTo(2.44 - (3 * 0.02) / 1.128, 9);
    expect(c.spec).toEqual({ material: 'wcb', rating: 1.6, lsl: 2.4, usl: 2.64 });
    expect(c.cpk).toBeCloseTo(0.04 / ((3 * 0.02) / 1.128), 9);
    expect(c.ppk).toBeCloseTo(0.04 / (3 * Math.sqrt(0.001)), 9);
    expect(c.points.reduce((n, p) => n + p.n, 0)).toBe(5);
    expect(c.points.map((p) => p.mean)).toEqual(pressures());
  });

  it('asks for a material when the product has several ratings, and uses the only one otherwise', async () => {
    const c = await chart('testType=shell&measure=testPressure');
    expect(c.materials).toEqual(['fc', 'wcb']);
    expect([c.spec, c.cpk]).toEqual([null, null]);
    expect((await chart('testType=shell&measure=testPressure&material=fc')).spec).toEqual({
      material: 'fc',
      rating: 1,
      lsl: 1.5,
      usl: 1.65,
    });
    const onlyWcb = await get<ControlChart>(
      `/api/v1/quality/control-chart?${MAY}&productId=${productA.id}&testType=seat&measure=testPressure`,
    );
    expect(onlyWcb.spec).toEqual({ material: 'wcb', rating: 1.6, lsl: 1.76, usl: 1.936 });
  });

  it('has no limits for holding time, leakage or air-seat tests', async () => {
    const h = await chart('testType=shell&measure=holdingSeconds');
    expect([h.n, h.mean, h.unit, h.spec, h.cpk]).toEqual([5, 62, 's', null, null]);
    const l = await chart('testType=seat&measure=leakage');
    expect([l.n, l.unit, l.spec]).toEqual([3, 'ml/min', null]);
    expect(l.mean).toBeCloseTo(0.2, 9);
  });

  it('computes the pressure drop during the hold from the samples', async () => {
    const d = await chart('testType=backseat&measure=pressureDrop');
    expect(d.n).toBe(2);
    expect(d.points.map((p) => p.mean).map((v) => Number(v.toFixed(9)))).toEqual([0.02, 0.04]);
    expect(d.mean).toBeCloseTo(0.03, 9);
    expect(d.limited).toBe(false);
  });

  it('answers 404 for an unknown product', async () => {
    const res = await t.app.inject({
      url: `/api/v1/quality/control-chart?${MAY}&productId=00000000-0000-4000-8000-000000000000&testType=shell&measure=testPressure`,
      headers: { cookie: staff },
    });
    expect(res.statusCode).toBe(404);
  });
});

function pressures() {
  return [2.4, 2.42, 2.44, 2.46, 2.48];
}

describe('requests held by the release gate', () => {
  it('lists held requests of the range, newest first, with what holds each unit now by the release gate', async () => {
    await t.app.ctx.db.execute(sql`
      INSERT INTO search_requests (group_id, source, serial, recipient_email, language, status, created_at) VALUES
        (gen_random_uuid(), 'request', 'QA-0012', 'a@example.com', 'en', 'held', '2024-06-02T08:00:00Z'),
        (gen_random_uuid(), 'request', 'ZZ-0001', 'b@example.com', 'zh', 'held', '2024-06-03T08:00:00Z'),
        (gen_random_uuid(), 'request', 'QA-0001', 'c@example.com', 'en', 'held', '2024-06-04T08:00:00Z'),
        (gen_random_uuid(), 'request', 'QA-0002', 'd@example.com', 'en', 'sent', '2024-06-04T09:00:00Z'),
        (gen_random_uuid(), 'request', 'QA-0003', 'e@example.com', 'en', 'held', '2024-07-04T09:00:00Z'),
        (gen_random_uuid(), 'request', 'QA-0010', 'f@example.com', 'en', 'held', '2024-06-05T08:00:00Z')`);
    const held = await get<{
      items: { serial: string; reason: string; latestTestedAt: string | null; heldFor: unknown[] }[];
      total: number;
    }>('/api/v1/quality/held-requests?from=2024-06-01&to=2024-06-30');
    expect(held.total).toBe(4);
    expect(held.items.map((i) => [i.serial, i.reason, i.latestTestedAt, i.heldFor])).toEqual([
      // Its shell test failed and was never retested; its later seat test passed: the gate still holds it,
      // and the panel must not say it passed.
      ['QA-0010', 'stillHeld', at(2, 10), [{ testType: 'shell', kind: 'failed', testedAt: at(2, 8), bench: 'fail', reasons: [] }]],
      ['QA-0001', 'releasable', at(1, 10), []],
      ['ZZ-0001', 'noTests', null, []],
      [
        'QA-0012',
        'stillHeld',
        '2024-06-01T00:00:00.000Z',
        [{ testType: 'shell', kind: 'failed', testedAt: '2024-06-01T00:00:00.000Z', bench: 'fail', reasons: [] }],
      ],
    ]);
    expect(JSON.stringify(held)).not.toContain('@example.com');
  });
});

describe('statistics on known values', () => {
  it('Cpk is the nearer limit over 3σ; one-sided with one limit; null without σ or limits', () => {
    expect(capability(10, 1, 7, 13)).toBeCloseTo(1, 12);
    expect(capability(10, 0.5, 7, 13)).toBeCloseTo(2, 12);
    expect(capability(11, 0.5, 7, 13)).toBeCloseTo(4 / 3, 12);
    expect(capability(10, 1, 6, null)).toBeCloseTo(4 / 3, 12);
    expect(capability(10, 0, 7, 13)).toBeNull();
    expect(capability(10, 1, null, null)).toBeNull();
  });

  it('σ within is the mean moving range over d2 = 1.128', () => {
    const d = describeValues([1, 3, 2, 4]);
    expect(d.mean).toBe(2.5);
    expect(d.sigma).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(d.sigmaWithin).toBeCloseTo(5 / 3 / 1.128, 12);
    expect(describeValues([5])).toEqual({ n: 1, mean: 5, sigma: null, sigmaWithin: null });
  });

  it('the pressure drop starts where the curve reaches the test pressure and ends with the hold', () => {
    const s = [
      { t: 0, p: 0 },
      { t: 2, p: 1.5 },
      { t: 4, p: 1.6 },
      { t: 10, p: 1.55 },
      { t: 20, p: 1.5 },
    ];
    expect(pressureDrop(s, 1.6, 6)).toBeCloseTo(0.05, 12); // hold 4..10
    expect(pressureDrop([], 1.6, 6)).toBeNull();
  });
});

describe('input and access', () => {
  const status = async (url: string, cookie?: string) => {
    const res = await t.app.inject({ url, headers: cookie ? { cookie } : {} });
    return { code: res.statusCode, fields: (res.json().error?.fields ?? []).map((f: { field: string }) => f.field) };
  };

  it('lets staff and admins read; refuses visitors', async () => {
    expect((await status(`/api/v1/quality/summary?${MAY}`, staff)).code).toBe(200);
    expect((await status(`/api/v1/quality/summary?${MAY}`, await adminCookie(t))).code).toBe(200);
    expect((await status(`/api/v1/quality/summary?${MAY}`)).code).toBe(401);
    expect((await status(`/api/v1/quality/open-failures?${MAY}`)).code).toBe(401);
  });

  it('names the field of a bad range, measure or product', async () => {
    expect(await status('/api/v1/quality/summary?to=2024-05-01', staff)).toEqual({ code: 400, fields: ['from'] });
    expect(await status('/api/v1/quality/summary?from=2024-02-30&to=2024-05-01', staff)).toEqual({ code: 400, fields: ['from'] });
    expect(await status('/api/v1/quality/summary?from=2024-05-02&to=2024-05-01', staff)).toEqual({ code: 400, fields: ['to'] });
    expect(await status('/api/v1/quality/summary?from=2023-01-01&to=2024-05-01', staff)).toEqual({ code: 400, fields: ['to'] });
    expect(await status(`/api/v1/quality/summary?${MAY}&interval=year`, staff)).toEqual({ code: 400, fields: ['interval'] });
    expect(await status(`/api/v1/quality/control-chart?${MAY}&productId=x&testType=shell&measure=testPressure`, staff)).toEqual({
      code: 400,
      fields: ['productId'],
    });
    expect(await status(`/api/v1/quality/control-chart?${MAY}&productId=${productA.id}&testType=shell&measure=torque`, staff)).toEqual({
      code: 400,
      fields: ['measure'],
    });
    expect(await status(`/api/v1/quality/open-failures?${MAY}&pageSize=7`, staff)).toEqual({ code: 400, fields: ['pageSize'] });
  });
});
