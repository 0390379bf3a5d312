/**
 * A change of the standards data re-judges the records already stored, once: the stored requirement rows
 * name the data they were derived from (standards_state), and the start-time derivation
 * (src/server/modules/standards/standards-version.ts) derives every product's rows again when it differs.
 * The state before a rule change is made as the earlier build left it: its rows and its verdicts.
 */
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueReport } from '../src/server/modules/reports/issue';
import { rejudgeOnStandardsChange, STANDARDS_DATA_VERSION } from '../src/server/modules/standards/standards.service';
import { buildTestApp, type TestApp } from './helpers/app';
import { postBatch, record } from './helpers/machine-data';
import { API598_GATE, unitWithRecords, type Unit } from './helpers/reports';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const tests = [
  { testType: 'shell', testPressure: 2.95, holdingSeconds: 60, samples: [] },
  { testType: 'backseat', testPressure: 2.2, holdingSeconds: 60, leakageValue: 0, leakageUnit: 'drops/min', samples: [] },
  { testType: 'air-seat', medium: 'air', testPressure: 0.6, holdingSeconds: 60, leakageValue: 0, leakageUnit: 'bubbles/min', samples: [] },
];

async function shellOf(u: Unit) {
  const res = await t.app.inject({ url: `/api/v1/machine-data?serial=${u.serial}&pageSize=100`, headers: { cookie: u.admin } });
  expect(res.statusCode).toBe(200);
  const items = res.json().data.items as Array<{ testType: string; assessment: { verdict: string; reasons: string[] } }>;
  return items.filter((r) => r.testType === 'shell').map((r) => r.assessment);
}

/** The rows and verdicts an earlier build stored: shell at the bare 1.5 × rating, no basis, an older data version. */
async function asBeforeRoundingOf(productId: string) {
  await t.app.ctx.db
    .execute(sql`UPDATE product_requirements SET pressure_min = coalesce(pressure_exact, pressure_min), pressure_factor = NULL,
    pressure_rated = NULL, pressure_exact = NULL, pressure_rounding = '' WHERE product_id = ${productId}::uuid`);
  await t.app.ctx.db.execute(sql`SELECT test_records_judge(ARRAY[${productId}]::uuid[], NULL, NULL, NULL, NULL)`);
  await t.app.ctx.db.execute(sql`UPDATE standards_state SET data_version = 'an earlier build'`);
}

const issue = (u: Unit) => issueReport(t.app.ctx.db, { serial: u.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });

describe('a change of the standards data', () => {
  it('re-judges a stored record once: a shell test at 2.95 MPa met 2.94 MPa, and falls short of the rounded 3.0 MPa', async () => {
    const u = await unitWithRecords(t, tests, API598_GATE, { bodyMaterial: 'wcb' });
    await asBeforeRoundingOf(u.product.id);
    expect(await shellOf(u)).toMatchObject([{ verdict: 'conforms', reasons: [] }]);
    const first = await issue(u);
    expect(first.status).toBe('issued');
    if (first.status !== 'issued') return;

    const changed = await rejudgeOnStandardsChange(t.app.ctx.db);
    expect(changed).toContain(u.product.id);
    expect(await shellOf(u)).toMatchObject([{ verdict: 'nonconforming', reasons: ['pressure-low'] }]);
    expect(await issue(u)).toMatchObject({ status: 'held', held: [{ testType: 'shell', kind: 'failed', reasons: ['pressure-low'] }] });
    const [state] = (
      (await t.app.ctx.db.execute(sql`SELECT data_version FROM standards_state`)) as unknown as { rows: Array<{ data_version: string }> }
    ).rows;
    expect(state!.data_version).toBe(STANDARDS_DATA_VERSION);
    // Once: the next start finds the data current and derives nothing.
    expect(await rejudgeOnStandardsChange(t.app.ctx.db)).toBeNull();

    // Tested again at the rounded pressure, the unit conforms; its new certificate supersedes the first for its data.
    const again = await postBatch(t.app, u.bench.key, {
      records: [record({ serial: u.serial, ...tests[0], testPressure: 3.0, testedAt: new Date().toISOString() })],
    });
    expect(again.statusCode).toBe(200);
    const second = await issue(u);
    expect(second.status).toBe('issued');
    if (second.status !== 'issued') return;
    const v = await t.app.inject({ url: `/api/v1/public/reports/${first.report.id}` });
    expect(v.json().data.supersededBy).toMatchObject({ id: second.report.id, reason: 'data' });
  });

  it('leaves products whose rows the change does not touch as they are', async () => {
    const u = await unitWithRecords(
      t,
      [{ testType: 'shell', testPressure: 2.4, holdingSeconds: 60, samples: [] }],
      { ...API598_GATE, testStandard: 'en-12266-1', leakageRate: 'A', pressureWcb: 1.6 },
      { bodyMaterial: 'wcb' },
    );
    await t.app.ctx.db.execute(sql`UPDATE standards_state SET data_version = 'an earlier build'`);
    const changed = await rejudgeOnStandardsChange(t.app.ctx.db);
    expect(changed).not.toContain(u.product.id);
    // EN 12266-1 keeps the bare 1.5 × PS = 2.4 MPa.
    expect(await shellOf(u)).toMatchObject([{ verdict: 'conforms', reasons: [] }]);
  });
});

describe('a change of the judgement itself (migration 0023: a leakage the record does not state)', () => {
  it('judges the records stored before it again: a count-limited test without a leakage value no longer conforms', async () => {
    const u = await unitWithRecords(t, [{ ...tests[2], leakageValue: undefined, leakageUnit: undefined }], API598_GATE, {
      bodyMaterial: 'wcb',
    });
    // As the judgement before 0023 left it.
    await t.app.ctx.db.execute(sql`UPDATE test_records SET verdict = 'conforms', reasons = 0 WHERE serial = ${u.serial}`);
    const airSeat = async () => {
      const res = await t.app.inject({ url: `/api/v1/machine-data?serial=${u.serial}`, headers: { cookie: u.admin } });
      return res.json().data.items[0].assessment as { verdict: string; reasons: string[] };
    };
    expect(await airSeat()).toMatchObject({ verdict: 'conforms' });
    const migration = fs.readFileSync(new URL('../src/server/db/migrations/0023_leakage_not_recorded.sql', import.meta.url), 'utf8');
    await t.testDb.database.withSession((s) => s.exec(migration));
    expect(await airSeat()).toMatchObject({ verdict: 'nonconforming', reasons: ['leakage-not-recorded'] });
  });
});
