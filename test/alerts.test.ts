/**
 * Quality alerts from worked examples with known points: a disagreement names its unit at once, a run rule
 * broken by a chart's newest point against a baseline, first-pass yield of the last N units below its
 * threshold, a bench silent in its working hours, a calibration due; each raised once, also when two
 * evaluations run at once; the inbox's filters and its acknowledgement with cause and action.
 */
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, auditLog, type AlertRow } from '../src/server/db/schema/index';
import type { AlertItem } from '../src/shared/contract/alerts';
import { evaluateAlerts } from '../src/server/modules/alerts/evaluator';
import { ruleAlerts } from '../src/server/modules/alerts/record-checks';
import type { AlertSinks } from '../src/server/modules/alerts/raise';
import { workingMinutesBetween } from '../src/server/modules/alerts/working-hours';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';
import { API598_GATE } from './helpers/reports';
import { rowsOf } from '../src/server/db/client';

let t: TestApp;
let admin: string;
let staff: string;
let staffZh: string;
const raised: AlertRow[] = [];
const sinks: AlertSinks = {
  raised: async (_tx, a) => void raised.push(a),
  acknowledged: async () => {},
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminCookie(t);
  staff = await staffCookie(t);
  staffZh = await staffCookie(t, { language: 'zh' });
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, cookie = staff) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload !== undefined ? { payload: payload as object } : {}) });

async function send(key: string, recs: Record<string, unknown>[]) {
  const res = await postBatch(t.app, key, { records: recs });
  expect(res.statusCode, res.body).toBe(200);
}

async function inbox(query = ''): Promise<{ items: AlertItem[]; total: number }> {
  const res = await api('GET', `/api/v1/alerts?pageSize=100${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const tag = () => randomBytes(2).toString('hex').toUpperCase();

describe('working hours', () => {
  const hours = { days: [1, 2, 3, 4, 5], start: '08:00', end: '17:00', timeZone: 'Asia/Taipei' };
  it('counts only the minutes of working days and hours, in the bench time zone', () => {
    // Friday 2024-05-03 16:30 Taipei (08:30 UTC) to Monday 2024-05-06 08:45 Taipei (00:45 UTC): 30 + 45 minutes.
    expect(workingMinutesBetween(new Date('2024-05-03T08:30:00Z'), new Date('2024-05-06T00:45:00Z'), hours, 10_000)).toBe(75);
    // Within one working day, every minute counts; the count stops at the cap.
    expect(workingMinutesBetween(new Date('2024-05-07T01:00:00Z'), new Date('2024-05-07T03:00:00Z'), hours, 10_000)).toBe(120);
    expect(workingMinutesBetween(new Date('2024-05-07T01:00:00Z'), new Date('2024-05-07T03:00:00Z'), hours, 30)).toBe(30);
    // The night between two working days counts nothing.
    expect(workingMinutesBetween(new Date('2024-05-07T09:00:00Z'), new Date('2024-05-07T23:59:00Z'), hours, 10_000)).toBe(0);
  });
});

describe('alerts raised from new records', () => {
  it('raises a disagreement naming its unit, once, also when two evaluations run at once', async () => {
    const admin2 = await adminCookie(t);
    const bench = await createBench(t.app, admin2, `Alert Bench ${tag()}`);
    const product = await addProduct(t.app, staff, { name: `Alert Valve ${tag()}` });
    const p = `A${tag()}`;
    expect((await postRange(t.app, staff, rangeBody(product.id, `${p}-0001`, `${p}-0100`, 100))).statusCode).toBe(201);
    await send(bench.key, [record({ serial: `${p}-0001` }), record({ serial: `${p}-0002` })]);
    await t.app.ctx.db.execute(sql`UPDATE test_records SET verdict = 'nonconforming', reasons = 1 WHERE serial = ${`${p}-0002`}`);

    raised.length = 0;
    await Promise.all([evaluateAlerts(t.app.ctx.db, sinks), evaluateAlerts(t.app.ctx.db, sinks)]);
    const mine = raised.filter((a) => a.serial?.startsWith(p));
    expect(mine.map((a) => [a.kind, a.serial])).toEqual([['disagreement', `${p}-0002`]]);
    await evaluateAlerts(t.app.ctx.db, sinks);
    expect(raised.filter((a) => a.serial?.startsWith(p))).toHaveLength(1);

    const { items } = await inbox(`&kind=disagreement&productId=${product.id}`);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: 'disagreement', status: 'open', serial: `${p}-0002`, machineId: bench.id, acknowledged: null });
    expect(items[0]!.summary).toContain(`${p}-0002`);
    expect(items[0]!.summary).toMatch(/bench passed the Shell test/);
    expect(items[0]!.links.unit).toBe(`/units/${p}-0002`);
    expect(items[0]!.links.records).toMatch(/^\/machine-data\/\d+$/);
    const zh = await t.app.inject({ url: `/api/v1/alerts?kind=disagreement&productId=${product.id}`, headers: { cookie: staffZh } });
    expect(zh.json().data.items[0].summary).toMatch(/^[A-Z0-9]+-0002：測試機台判定.+測試合格，但標準判定不合格/);
  });

  it('raises a run rule when the newest point breaks one against the baseline, and not again while it lasts', async () => {
    const bench = await createBench(t.app, admin, `Rule Bench ${tag()}`);
    const product = await addProduct(t.app, staff, { name: `Rule Valve ${tag()}`, pressureFc: '', pressureWcb: 1.6, pressureSus: '' });
    const p = `R${tag()}`;
    expect((await postRange(t.app, staff, rangeBody(product.id, `${p}-0001`, `${p}-0100`, 100))).statusCode).toBe(201);
    // Baseline (February): 2.40 and 2.42 alternating: centre 2.41, σ within 0.02 / 1.128. May, a test a day:
    // z = 0, 1.13, 1.69, 2.26, 2.82, 5.08 (as in control-rules.test.ts).
    const day = (m: number, d: number) => `2024-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}T08:00:00.000Z`;
    const drift = [2.41, 2.43, 2.44, 2.45, 2.46, 2.5];
    await send(bench.key, [
      ...Array.from({ length: 20 }, (_, i) =>
        record({ serial: `${p}-${String(i + 1).padStart(4, '0')}`, testPressure: i % 2 ? 2.42 : 2.4, testedAt: day(2, i + 1) }),
      ),
      ...drift.map((v, i) => record({ serial: `${p}-${String(i + 51).padStart(4, '0')}`, testPressure: v, testedAt: day(5, i + 1) })),
    ]);
    const group = { productId: product.id, machineId: bench.id, testType: 'shell' as const };
    const ruleAlertsOn = async (d: number) => {
      raised.length = 0;
      await ruleAlerts(t.app.ctx.db, group, new Date(`2024-05-0${d}T12:00:00Z`), sinks);
      return raised.filter((a) => a.kind === 'rule').map((a) => a.detail as { measure: string; rules: string[] });
    };
    // 4 May: the newest point (z = 2.26) breaks nothing; 5 May (z = 2.82): WE 2 and 3; 6 May (z = 5.08): still
    // broken, so no new alert.
    expect(await ruleAlertsOn(4)).toEqual([]);
    expect(await ruleAlertsOn(5)).toEqual([expect.objectContaining({ measure: 'testPressure', rules: ['we2', 'we3'] })]);
    expect(await ruleAlertsOn(6)).toEqual([]);
    const { items } = await inbox(`&kind=rule&machineId=${bench.id}`);
    expect(items).toHaveLength(1);
    expect(items[0]!.summary).toMatch(/WE 2: 2 of 3 beyond 2σ on one side; WE 3: 4 of 5 beyond 1σ on one side/);
    expect(items[0]!.links.chart).toContain(`bench=${bench.id}`);
    expect(items[0]!.links.chart).toContain('baselineFrom=2024-01-07');
  });

  it('raises first-pass yield below its threshold over the last N units, once per fall', async () => {
    const bench = await createBench(t.app, admin, `Yield Bench ${tag()}`);
    const product = await addProduct(t.app, staff, { name: `Yield Valve ${tag()}` });
    const p = `Y${tag()}`;
    expect((await postRange(t.app, staff, rangeBody(product.id, `${p}-0001`, `${p}-0100`, 100))).statusCode).toBe(201);
    const bad = await api('PUT', `/api/v1/products/${product.id}/alert-thresholds`, { yieldUnits: 5, yieldMinPercent: null });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual([expect.objectContaining({ field: 'yieldMinPercent', key: 'alerts.validation.yieldBoth' })]);
    // A positive figure smaller than the stored fraction keeps (0.01 %) is refused, not stored as 0 (it was a 500).
    // Nor a figure finer than hundredths, which would be stored rounded (0.015 as 0.02).
    for (const tiny of [5e-323, 0.004, 0.015, 99.999]) {
      const small = await api('PUT', `/api/v1/products/${product.id}/alert-thresholds`, { yieldUnits: 5, yieldMinPercent: tiny });
      expect(small.statusCode, String(tiny)).toBe(400);
      expect(small.json().error.fields).toEqual([expect.objectContaining({ field: 'yieldMinPercent', key: 'alerts.validation.percent' })]);
    }
    // A day that does not exist is a field error (it threw while checking: a 500).
    for (const day of ['0000-00-00', '2024-13-45'])
      for (const field of ['baselineFrom', 'baselineTo']) {
        const res = await api('PUT', `/api/v1/products/${product.id}/alert-thresholds`, {
          yieldUnits: 5,
          yieldMinPercent: 80,
          [field]: day,
        });
        expect(res.statusCode, `${field} ${day}`).toBe(400);
        expect(res.json().error.fields).toContainEqual(expect.objectContaining({ field, key: 'validation.date' }));
      }
    const ok = await api('PUT', `/api/v1/products/${product.id}/alert-thresholds`, { yieldUnits: 5, yieldMinPercent: 80 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ yieldUnits: 5, yieldMinPercent: 80 });
    // Five units, two failing their first shell test (one retested and passed): 3 of 5 = 60 % < 80 %.
    const at = (h: number) => `2024-06-03T${String(h).padStart(2, '0')}:00:00.000Z`;
    await send(bench.key, [
      record({ serial: `${p}-0001`, testedAt: at(1) }),
      record({ serial: `${p}-0002`, testedAt: at(2), result: 'fail' }),
      record({ serial: `${p}-0002`, testedAt: at(3) }),
      record({ serial: `${p}-0003`, testedAt: at(4) }),
      record({ serial: `${p}-0004`, testedAt: at(5), result: 'fail' }),
      record({ serial: `${p}-0005`, testedAt: at(6) }),
    ]);
    raised.length = 0;
    await Promise.all([evaluateAlerts(t.app.ctx.db, sinks), evaluateAlerts(t.app.ctx.db, sinks)]);
    const mine = () => raised.filter((a) => a.kind === 'yield' && a.productId === product.id);
    expect(mine().map((a) => a.detail)).toEqual([{ units: 5, firstPass: 3, threshold: 0.8 }]);
    await evaluateAlerts(t.app.ctx.db, sinks);
    expect(mine()).toHaveLength(1);
    const { items } = await inbox(`&kind=yield&productId=${product.id}`);
    expect(items[0]!.summary).toBe(
      `First-pass yield of ${items[0]!.productName}: 3 of the last 5 units (60.0 %), below the threshold of 80.0 %`,
    );
  });

  it('raises a silent bench in its working hours, and a calibration due within 30 days', async () => {
    const bench = await createBench(t.app, admin, `Silent Bench ${tag()}`);
    const product = await addProduct(t.app, staff, { name: `Silent Valve ${tag()}` });
    const p = `S${tag()}`;
    expect((await postRange(t.app, staff, rangeBody(product.id, `${p}-0001`, `${p}-0100`, 100))).statusCode).toBe(201);
    const now = new Date('2024-05-08T04:00:00Z'); // a Wednesday, 12:00 in Taipei
    await send(bench.key, [record({ serial: `${p}-0001`, testedAt: new Date(now.getTime() - 3 * 3600_000).toISOString() })]);
    const byStaff = await api('PUT', `/api/v1/machines/${bench.id}/alert-thresholds`, {
      yieldUnits: null,
      yieldMinPercent: null,
      silenceMinutes: 60,
    });
    expect(byStaff.statusCode).toBe(403);
    const set = await api(
      'PUT',
      `/api/v1/machines/${bench.id}/alert-thresholds`,
      { yieldUnits: null, yieldMinPercent: null, silenceMinutes: 60, workStart: '08:00', workEnd: '18:00' },
      admin,
    );
    expect(set.statusCode, set.body).toBe(200);
    const cal = await t.app.inject({
      method: 'POST',
      url: `/api/v1/machines/${bench.id}/instruments`,
      headers: { cookie: admin },
      payload: {
        instrumentId: 'PG-77',
        kind: 'gauge',
        rangeMax: 10,
        accuracy: 0.5,
        calibrationCertificate: 'CAL-77',
        calibratedOn: '2023-11-20',
        dueOn: '2024-05-20',
      },
    });
    expect(cal.statusCode, cal.body).toBe(201);

    raised.length = 0;
    await Promise.all([evaluateAlerts(t.app.ctx.db, sinks, now), evaluateAlerts(t.app.ctx.db, sinks, now)]);
    const mine = raised.filter((a) => a.machineId === bench.id);
    expect(mine.map((a) => a.kind).sort()).toEqual(['calibration', 'silence']);
    expect(mine.find((a) => a.kind === 'calibration')!.detail).toEqual({ instrument: 'PG-77', dueOn: '2024-05-20', overdue: false });
    expect(mine.find((a) => a.kind === 'silence')!.detail).toMatchObject({ gapMinutes: 60, minutes: 180 });
    // Still silent an hour later: the same episode, no new alert; past the due day: overdue, a new one.
    raised.length = 0;
    await evaluateAlerts(t.app.ctx.db, sinks, new Date('2024-05-21T05:00:00Z'));
    expect(raised.filter((a) => a.machineId === bench.id).map((a) => [a.kind, (a.detail as { overdue?: boolean }).overdue])).toEqual([
      ['calibration', true],
    ]);
    const zh = await t.app.inject({ url: `/api/v1/alerts?kind=silence&machineId=${bench.id}`, headers: { cookie: staffZh } });
    expect(zh.json().data.items[0].summary).toMatch(/已超過 60 分鐘工作時間未送出測試/);
  });
});

describe('the pressure ratio across products', () => {
  it("charts a bench's tests of every product as test pressure over the required minimum", async () => {
    const bench = await createBench(t.app, admin, `Ratio Bench ${tag()}`);
    const a = await addProduct(t.app, staff, { name: `Ratio A ${tag()}`, ...API598_GATE });
    const b = await addProduct(t.app, staff, { name: `Ratio B ${tag()}`, ...API598_GATE, pressureWcb: 2.5 });
    const pa = `PA${tag()}`;
    const pb = `PB${tag()}`;
    expect((await postRange(t.app, staff, rangeBody(a.id, `${pa}-0001`, `${pa}-0100`, 100, { bodyMaterial: 'wcb' }))).statusCode).toBe(201);
    expect((await postRange(t.app, staff, rangeBody(b.id, `${pb}-0001`, `${pb}-0100`, 100, { bodyMaterial: 'wcb' }))).statusCode).toBe(201);
    const required = async (productId: string) => {
      const [row] = rowsOf<{ p: string }>(
        await t.app.ctx.db.execute(
          sql`SELECT pressure_min::text AS p FROM product_requirements WHERE product_id = ${productId} AND test_type = 'shell' AND body_material = 'wcb'`,
        ),
      );
      return Number(row!.p);
    };
    const [minA, minB] = [await required(a.id), await required(b.id)];
    expect(minB).toBeGreaterThan(minA);
    const round3 = (v: number) => Math.round(v * 1000) / 1000;
    await send(bench.key, [
      record({ serial: `${pa}-0001`, testPressure: round3(minA * 1.03), testedAt: '2024-07-01T08:00:00.000Z' }),
      record({ serial: `${pb}-0001`, testPressure: round3(minB * 1.05), testedAt: '2024-07-02T08:00:00.000Z' }),
    ]);
    const res = await api(
      'GET',
      `/api/v1/quality/control-chart?from=2024-07-01&to=2024-07-31&testType=shell&measure=pressureRatio&machineId=${bench.id}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const chart = res.json().data as { points: { mean: number }[]; unit: string | null; spec: unknown };
    expect(chart.points.map((p) => p.mean)).toEqual([
      expect.closeTo(round3(minA * 1.03) / minA, 9),
      expect.closeTo(round3(minB * 1.05) / minB, 9),
    ]);
    expect(chart).toMatchObject({ unit: null, spec: null });
    // Every other measure still needs a product.
    const noProduct = await api('GET', '/api/v1/quality/control-chart?from=2024-07-01&to=2024-07-31&testType=shell&measure=testPressure');
    expect(noProduct.statusCode).toBe(400);
    expect(noProduct.json().error.fields).toEqual([expect.objectContaining({ field: 'productId', key: 'validation.required' })]);
  });
});

describe('the alert inbox', () => {
  it('acknowledges with a cause and an action, once, keeping who and when in the audit trail', async () => {
    const { items } = await inbox('&status=open');
    const target = items[0]!;
    const before = (await api('GET', '/api/v1/alerts/count')).json().data.open as number;

    const empty = await api('POST', `/api/v1/alerts/${target.id}/acknowledge`, { cause: ' ', action: '' });
    expect(empty.statusCode).toBe(400);
    expect(
      empty
        .json()
        .error.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['action', 'cause']);
    const emptyZh = await api('POST', `/api/v1/alerts/${target.id}/acknowledge`, { cause: '', action: 'x' }, staffZh);
    expect(emptyZh.json().error.fields[0].message).toMatch(/[\u4e00-\u9fff]/);

    const body = { cause: 'Gauge PG-01 drifted after a knock', action: 'Gauge replaced; units since Monday retested' };
    const results = await Promise.all(Array.from({ length: 5 }, () => api('POST', `/api/v1/alerts/${target.id}/acknowledge`, body)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    const done = results.find((r) => r.statusCode === 200)!.json().data as AlertItem;
    expect(done.status).toBe('acknowledged');
    expect(done.acknowledged).toMatchObject({ cause: body.cause, action: body.action, by: expect.stringContaining('@') });
    expect((await api('GET', '/api/v1/alerts/count')).json().data.open).toBe(before - 1);
    expect((await inbox('&status=acknowledged')).items.map((a) => a.id)).toContain(target.id);

    const trail = await t.app.ctx.db.select().from(auditLog).where(eq(auditLog.entityId, target.id));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ action: 'acknowledge', entity: 'alert' });
    const [row] = await t.app.ctx.db.select().from(alerts).where(eq(alerts.id, target.id));
    expect(row!.acknowledgedAt).toBeInstanceOf(Date);
  });

  it('answers unknown and malformed ids 404, bad filters 400, and strangers 401', async () => {
    expect((await api('GET', '/api/v1/alerts/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await api('POST', '/api/v1/alerts/not-an-id/acknowledge', { cause: 'a', action: 'b' })).statusCode).toBe(404);
    expect((await api('GET', '/api/v1/alerts?kind=nope')).statusCode).toBe(400);
    expect((await api('GET', '/api/v1/alerts?machineId=nope')).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/v1/alerts' })).statusCode).toBe(401);
    expect(
      (await api('PUT', '/api/v1/products/00000000-0000-4000-8000-000000000000/alert-thresholds', { yieldUnits: 5, yieldMinPercent: 50 }))
        .statusCode,
    ).toBe(404);
  });
});
