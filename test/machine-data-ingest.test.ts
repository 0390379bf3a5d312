/** POST /api/v1/machine-data: validation of every record, all-or-nothing, idempotency, limits. */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH_RECORDS, MAX_SAMPLES } from '../src/shared/contract/machine-data';
import { machines, testRecords } from '../src/server/db/schema/index';
import { INGEST_RATE_LIMIT } from '../src/server/modules/machine-data/machine-data.routes';
import { buildApp } from '../src/server/app';
import { buildTestApp, type TestApp } from './helpers/app';
import { adminCookie, createBench, postBatch, problemsOf, record, records } from './helpers/machine-data';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminCookie(t);
});
afterAll(() => t.close());

async function storedOf(machineId: string): Promise<number> {
  const [row] = await t.app.ctx.db.select({ n: count() }).from(testRecords).where(eq(testRecords.machineId, machineId));
  return Number(row!.n);
}

describe('idempotency', () => {
  it('stores a batch once: sent again, every record is a duplicate', async () => {
    const bench = await createBench(t.app, admin);
    const batch = records(20);
    expect((await postBatch(t.app, bench.key, { records: batch })).json()).toEqual({ data: { stored: 20, duplicates: [] } });
    const again = await postBatch(t.app, bench.key, { records: batch });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.stored).toBe(0);
    expect([...again.json().data.duplicates].sort()).toEqual(batch.map((r) => r.recordId).sort());
    // A batch mixing old and new stores only the new.
    const mixed = await postBatch(t.app, bench.key, { records: [...batch.slice(0, 5), record()] });
    expect(mixed.json().data).toMatchObject({ stored: 1 });
    expect(mixed.json().data.duplicates).toHaveLength(5);
    expect(await storedOf(bench.id)).toBe(21);
    const [m] = await t.app.ctx.db.select().from(machines).where(eq(machines.id, bench.id));
    expect(m!.recordCount).toBe(21);
  });

  it('treats a differently written but equal record as a duplicate (time zone, serial case, number form)', async () => {
    const bench = await createBench(t.app, admin);
    const r = record({ testedAt: '2024-05-01T08:30:00Z', serial: 'VB2311-000777', testPressure: 2.5 });
    await postBatch(t.app, bench.key, { records: [r] });
    const same = { ...r, testedAt: '2024-05-01T16:30:00+08:00', serial: ' vb2311-000 777', testPressure: '2.500' };
    expect((await postBatch(t.app, bench.key, { records: [same] })).json().data).toEqual({ stored: 0, duplicates: [r.recordId] });
  });

  it('answers 409 naming every record sent before with other content, and stores nothing of the batch', async () => {
    const bench = await createBench(t.app, admin);
    const batch = records(4);
    await postBatch(t.app, bench.key, { records: batch });
    const changed = [record(), { ...batch[1], result: 'fail' }, batch[2], { ...batch[3], samples: [{ t: 0, p: 1 }] }];
    const res = await postBatch(t.app, bench.key, { records: changed });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ status: 'ABORTED', key: 'machineData.conflict', params: { count: 2 } });
    expect(problemsOf(res)).toEqual(['1:recordId:machineData.validation.conflict', '3:recordId:machineData.validation.conflict']);
    expect(res.json().error.records[0].recordId).toBe(batch[1]!.recordId);
    expect(await storedOf(bench.id)).toBe(4);
  });

  it('keeps the same recordId of two benches apart', async () => {
    const a = await createBench(t.app, admin);
    const b = await createBench(t.app, admin);
    const r = record();
    expect((await postBatch(t.app, a.key, { records: [r] })).json().data.stored).toBe(1);
    expect((await postBatch(t.app, b.key, { records: [{ ...r, result: 'fail' }] })).json().data.stored).toBe(1);
  });

  it('a recordId twice in one batch: once if equal, refused if different', async () => {
    const bench = await createBench(t.app, admin);
    const r = record();
    expect((await postBatch(t.app, bench.key, { records: [r, r] })).json().data).toEqual({ stored: 1, duplicates: [r.recordId] });
    const s = record();
    const res = await postBatch(t.app, bench.key, { records: [s, { ...s, operator: 'Other' }] });
    expect(res.statusCode).toBe(400);
    expect(problemsOf(res)).toEqual(['1:recordId:machineData.validation.duplicateInBatch']);
  });

  it('stores each record once when 50 identical batches arrive at once', async () => {
    const bench = await createBench(t.app, admin);
    const batch = records(40);
    const answers = await Promise.all(Array.from({ length: 50 }, () => postBatch(t.app, bench.key, { records: batch })));
    expect(answers.map((r) => r.statusCode).every((s) => s === 200)).toBe(true);
    const stored = answers.reduce((n, r) => n + (r.json().data.stored as number), 0);
    expect(stored).toBe(40);
    expect(answers.every((r) => r.json().data.stored + r.json().data.duplicates.length === 40)).toBe(true);
    expect(await storedOf(bench.id)).toBe(40);
    const [m] = await t.app.ctx.db.select().from(machines).where(eq(machines.id, bench.id));
    expect(m!.recordCount).toBe(40);
  });
});

describe('validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['missing recordId', { recordId: undefined }, 'recordId:validation.required'],
    ['blank recordId', { recordId: '  ' }, 'recordId:validation.required'],
    ['long recordId', { recordId: 'x'.repeat(101) }, 'recordId:validation.tooLong'],
    ['control character in recordId', { recordId: 'a\u0001b' }, 'recordId:validation.invalid'],
    ['missing serial', { serial: undefined }, 'serial:validation.required'],
    ['serial not following the grammar', { serial: 'VB-12X' }, 'serial:serials.validation.serial'],
    ['unknown test type', { testType: 'pressure' }, 'testType:validation.oneOf'],
    ['air seat spelled wrong', { testType: 'air seat' }, 'testType:validation.oneOf'],
    ['unknown medium', { medium: 'steam' }, 'medium:validation.oneOf'],
    ['missing pressure', { testPressure: undefined }, 'testPressure:validation.required'],
    ['negative pressure', { testPressure: -1 }, 'testPressure:validation.min'],
    ['pressure with 4 decimals', { testPressure: 1.2345 }, 'testPressure:products.validation.decimals3'],
    ['pressure as words', { testPressure: 'high' }, 'testPressure:validation.number'],
    ['fractional holding time', { holdingSeconds: 1.5 }, 'holdingSeconds:validation.number'],
    ['negative holding time', { holdingSeconds: -1 }, 'holdingSeconds:validation.min'],
    ['holding time beyond a week', { holdingSeconds: 604801 }, 'holdingSeconds:validation.max'],
    ['leakage without unit', { leakageValue: 0.2 }, 'leakageUnit:machineData.validation.leakageUnitRequired'],
    ['unit without leakage', { leakageUnit: 'ml/min' }, 'leakageValue:machineData.validation.leakageValueRequired'],
    ['negative leakage', { leakageValue: -0.1, leakageUnit: 'ml/min' }, 'leakageValue:validation.min'],
    ['unknown result', { result: 'ok' }, 'result:validation.oneOf'],
    ['date without time zone', { testedAt: '2024-05-01T08:30:00' }, 'testedAt:machineData.validation.testedAt'],
    ['not a date', { testedAt: 'yesterday' }, 'testedAt:machineData.validation.testedAt'],
    ['impossible date', { testedAt: '2024-02-30T08:00:00Z' }, 'testedAt:machineData.validation.testedAt'],
    ['test in the future', { testedAt: '2999-01-01T00:00:00Z' }, 'testedAt:machineData.validation.testedAtFuture'],
    ['long operator', { operator: 'o'.repeat(121) }, 'operator:validation.tooLong'],
    ['samples not a list', { samples: 'none' }, 'samples:validation.invalid'],
    ['sample without p', { samples: [{ t: 0 }] }, 'samples.0.p:validation.number'],
    ['negative sample time', { samples: [{ t: -1, p: 0 }] }, 'samples.0.t:validation.min'],
    [
      'sample times not ascending',
      {
        samples: [
          { t: 0, p: 0 },
          { t: 2, p: 1 },
          { t: 2, p: 1 },
        ],
      },
      'samples.2.t:machineData.validation.samplesOrder',
    ],
    [
      'too many samples',
      { samples: Array.from({ length: MAX_SAMPLES + 1 }, (_, i) => ({ t: i, p: 1 })) },
      'samples:machineData.validation.tooManySamples',
    ],
  ];
  it.each(cases)('%s', async (_name, override, expected) => {
    const bench = await createBench(t.app, admin);
    const res = await postBatch(t.app, bench.key, { records: [record(), record(override)] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ status: 'INVALID_ARGUMENT', key: 'machineData.invalidRecords', params: { count: 1 } });
    expect(problemsOf(res)).toEqual([`1:${expected}`]);
    expect(res.json().error.records[0].reason).toEqual(expect.any(String));
    expect(await storedOf(bench.id)).toBe(0);
  });

  it('lists every bad record of a batch, in the request language, and stores none of it', async () => {
    const bench = await createBench(t.app, admin);
    const batch = [
      record(),
      record({ serial: '' }),
      record(),
      record({ result: 'x', testType: 'y' }),
      'not a record',
      record({ testedAt: 'soon' }),
    ];
    const res = await postBatch(t.app, bench.key, { records: batch }, { 'accept-language': 'zh-TW' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.params).toEqual({ count: 4 });
    expect(problemsOf(res)).toEqual([
      '1:serial:validation.required',
      '3:testType:validation.oneOf',
      '3:result:validation.oneOf',
      '4::validation.invalid',
      '5:testedAt:machineData.validation.testedAt',
    ]);
    expect(res.json().error.records[0]).toMatchObject({
      index: 1,
      recordId: (batch[1] as { recordId: string }).recordId,
      reason: '此欄位為必填',
    });
    expect(await storedOf(bench.id)).toBe(0);
  });

  it('accepts a record without optional fields, and 10,000 samples', async () => {
    const bench = await createBench(t.app, admin);
    const { leakageValue: _l, leakageUnit: _u, operator: _o, samples: _s, ...bare } = record();
    const full = record({ samples: Array.from({ length: MAX_SAMPLES }, (_, i) => ({ t: i / 10, p: 1 + Math.sin(i) })) });
    expect((await postBatch(t.app, bench.key, { records: [bare, full] })).json().data.stored).toBe(2);
  });
});

describe('limits', () => {
  it(`stores ${MAX_BATCH_RECORDS} records in one batch and refuses one more with 413`, async () => {
    const bench = await createBench(t.app, admin);
    const full = records(MAX_BATCH_RECORDS, (i) => ({ serial: `LIM-${String(i).padStart(5, '0')}`, samples: [] }));
    const res = await postBatch(t.app, bench.key, { records: full });
    expect(res.json()).toEqual({ data: { stored: MAX_BATCH_RECORDS, duplicates: [] } });
    const over = await postBatch(t.app, bench.key, { records: records(MAX_BATCH_RECORDS + 1, () => ({ samples: [] })) });
    expect(over.statusCode).toBe(413);
    expect(over.json().error).toMatchObject({
      status: 'OUT_OF_RANGE',
      key: 'machineData.tooManyRecords',
      params: { max: MAX_BATCH_RECORDS },
    });
    expect(await storedOf(bench.id)).toBe(MAX_BATCH_RECORDS);
  });

  it('refuses a body over the limit with 413, malformed JSON and a wrong shape with 400', async () => {
    const bench = await createBench(t.app, admin);
    const huge = `{"records":[],"pad":"${'x'.repeat(65 * 1024 * 1024)}"}`;
    const big = await postBatch(t.app, bench.key, huge);
    expect(big.statusCode).toBe(413);
    expect(big.json().error.status).toBe('OUT_OF_RANGE');
    const broken = await postBatch(t.app, bench.key, '{"records": [');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.key).toBe('errors.malformedJson');
    const shape = await postBatch(t.app, bench.key, { records: 'all' });
    expect(shape.statusCode).toBe(400);
    expect(shape.json().error.fields).toEqual([expect.objectContaining({ field: 'records' })]);
    const text = await postBatch(t.app, bench.key, 'records', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
  });

  it('answers 429 with Retry-After once a key sends too many batches; another key is not affected', async () => {
    const bench = await createBench(t.app, admin);
    const other = await createBench(t.app, admin);
    const statuses: number[] = [];
    for (let i = 0; i < INGEST_RATE_LIMIT.max; i += 50) {
      const some = await Promise.all(Array.from({ length: 50 }, () => postBatch(t.app, bench.key, { records: [] })));
      statuses.push(...some.map((r) => r.statusCode));
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const limited = await postBatch(t.app, bench.key, { records: [record()] });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error.status).toBe('RESOURCE_EXHAUSTED');
    expect((await postBatch(t.app, other.key, { records: [] })).statusCode).toBe(200);
    expect(await storedOf(bench.id)).toBe(0);
  });

  it.runIf(process.env.TEST_REDIS_URL)('holds across app instances sharing Redis (REDIS_URL)', async () => {
    // Two instances of one deployment: one database, one Redis.
    const a = await buildTestApp({ REDIS_URL: process.env.TEST_REDIS_URL! });
    const b = await buildApp({ config: a.config, database: a.testDb.database, logger: false });
    try {
      const bench = await createBench(a.app, await adminCookie(a));
      // Half the allowance through each instance: the counter is one, keyed by the verified bench.
      for (const [app, n] of [
        [a.app, INGEST_RATE_LIMIT.max / 2],
        [b, INGEST_RATE_LIMIT.max / 2],
      ] as const) {
        for (let i = 0; i < n; i += 50) await Promise.all(Array.from({ length: 50 }, () => postBatch(app, bench.key, { records: [] })));
      }
      const limited = await postBatch(a.app, bench.key, { records: [] });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('texts', () => {
  it('stores texts exactly as sent, whatever the array literal of the statement must escape', async () => {
    // insertRecordsSql sends each column as the text of an array (arrayLiteral): quotes, backslashes, commas,
    // braces, NULL and an empty-looking value must come back as sent.
    const bench = await createBench(t.app, admin);
    const texts = ['a"b', 'back\\slash', 'x,y', '{z}', 'NULL', 'tab\\t "q" \\\\', 'Chén 陳', '  inner  space'];
    const batch = texts.map((s, i) => record({ recordId: `T${i} ${s}`, operator: s, leakageValue: 0.1, leakageUnit: s }));
    expect((await postBatch(t.app, bench.key, { records: batch })).json()).toEqual({ data: { stored: texts.length, duplicates: [] } });
    const rows = await t.app.ctx.db
      .select({ recordId: testRecords.recordId, operator: testRecords.operator, unit: testRecords.leakageUnit })
      .from(testRecords)
      .where(eq(testRecords.machineId, bench.id));
    const sent = batch.map((r) => ({
      recordId: String(r.recordId).trim(),
      operator: String(r.operator).trim(),
      unit: String(r.leakageUnit).trim(),
    }));
    const byId = (a: { recordId: string }, b: { recordId: string }) => a.recordId.localeCompare(b.recordId);
    expect(rows.sort(byId)).toEqual(sent.sort(byId));
    // Sent again: every record a duplicate (the stored content hash matches the texts as stored).
    expect((await postBatch(t.app, bench.key, { records: batch })).json().data.stored).toBe(0);
  });
});
