/** Property: any valid batch comes back unchanged through the API (POST it, then GET each record by id). */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH_RECORDS, TEST_MEDIA, TEST_RESULTS, TEST_TYPES } from '../src/shared/contract/machine-data';
import { buildTestApp, type TestApp } from './helpers/app';
import { adminCookie, createBench, postBatch } from './helpers/machine-data';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminCookie(t);
});
afterAll(() => t.close());

// Values in their canonical form (what the schema would turn any accepted spelling into).
const serial = fc
  .tuple(fc.stringMatching(/^([A-Z0-9]{0,4}[A-Z\-_/.])?$/), fc.stringMatching(/^\d{1,12}$/))
  .map(([prefix, digits]) => prefix + digits);
const text = (max: number) =>
  fc.stringMatching(new RegExp(`^([A-Za-z0-9\u4e00-\u4e2f]([A-Za-z0-9 ./\u4e00-\u4e2f]{0,${max - 2}}[A-Za-z0-9\u4e00-\u4e2f])?)?$`));
const samples = fc
  .uniqueArray(fc.double({ min: 0, max: 604_800, noNaN: true }), { maxLength: 40 })
  .chain((ts) =>
    fc
      .array(fc.double({ min: -1000, max: 1000, noNaN: true }), { minLength: ts.length, maxLength: ts.length })
      .map((ps) => [...ts].sort((a, b) => a - b).map((t, i) => ({ t: t === 0 ? 0 : t, p: ps[i] === 0 ? 0 : ps[i]! }))),
  );
const leakage = fc.option(
  fc.record({ value: fc.integer({ min: 0, max: 100_000_000 }).map((n) => n / 10_000), unit: fc.stringMatching(/^[a-z/]{1,10}$/) }),
  { nil: null },
);
const testRecord = fc
  .record({
    recordId: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_\-.:/]{0,30}$/),
    serial,
    testType: fc.constantFrom(...TEST_TYPES),
    medium: fc.constantFrom(...TEST_MEDIA),
    testPressure: fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 1000),
    holdingSeconds: fc.integer({ min: 0, max: 604_800 }),
    leakage,
    result: fc.constantFrom(...TEST_RESULTS),
    testedAt: fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date(), noInvalidDate: true }).map((d) => d.toISOString()),
    operator: text(40),
    samples,
  })
  .map(({ leakage: l, ...r }) => ({ ...r, leakageValue: l?.value ?? null, leakageUnit: l?.unit ?? null }));

describe('round trip', () => {
  it('any valid batch reads back unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(testRecord, { minLength: 1, maxLength: 15, selector: (r) => r.recordId }), async (batch) => {
        expect(batch.length).toBeLessThanOrEqual(MAX_BATCH_RECORDS);
        const bench = await createBench(t.app, admin);
        const res = await postBatch(t.app, bench.key, { records: batch });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data).toEqual({ stored: batch.length, duplicates: [] });
        const listed = await t.app.inject({ url: `/api/v1/machine-data?machineId=${bench.id}&pageSize=100`, headers: { cookie: admin } });
        const ids = new Map<string, string>(listed.json().data.items.map((i: { recordId: string; id: string }) => [i.recordId, i.id]));
        for (const sent of batch) {
          const got = await t.app.inject({ url: `/api/v1/machine-data/${ids.get(sent.recordId)}`, headers: { cookie: admin } });
          const data = got.json().data;
          const back = Object.fromEntries(Object.keys(sent).map((k) => [k, data[k]]));
          expect(back).toEqual(JSON.parse(JSON.stringify(sent)));
          expect(data.sampleCount).toBe(sent.samples.length);
        }
      }),
      { numRuns: 25 },
    );
  });
});
