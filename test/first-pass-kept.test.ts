/**
 * The kept first attempts (test_unit_firsts) and units (test_units) of the dashboard's first-pass yield
 * (migrations 0009, 0010, 0016) against the same rows derived from test_records directly, after inserts that
 * take 0016's path for units all new (claimed in test_units, pairs inserted without the cascade) and inserts
 * that mix new and known units, out-of-order attempts, ties, deletes and rolled-back transactions.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Db, type Executor } from '../src/server/db/client';
import { buildTestApp, type TestApp } from './helpers/app';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';

let t: TestApp;
let db: Db;
let bench: { id: string; key: string };

interface Row {
  serial: string;
  test_type?: string;
  first_at: string;
  failed: string;
}

/** The kept pairs and units, and the same derived from every record (0009's definition, by outcome). */
async function keptAndReference(x: Executor) {
  const q = async (query: ReturnType<typeof sql>) => rowsOf<Row>(await x.execute(query));
  const firsts = sql`SELECT DISTINCT ON (serial, test_type) serial, test_type, tested_at AS first_at, outcome = 'fail' AS first_failed
    FROM test_records ORDER BY serial, test_type, tested_at, (outcome = 'fail') DESC`;
  return {
    keptPairs: await q(sql`SELECT serial, test_type, first_at::text, first_failed::text AS failed FROM test_unit_firsts ORDER BY 1, 2`),
    pairs: await q(sql`SELECT serial, test_type, first_at::text, first_failed::text AS failed FROM (${firsts}) f ORDER BY 1, 2`),
    keptUnits: await q(sql`SELECT serial, first_at::text, failed_types::text AS failed FROM test_units ORDER BY 1`),
    units: await q(sql`SELECT serial, min(first_at)::text AS first_at, (count(*) FILTER (WHERE first_failed))::text AS failed
      FROM (${firsts}) f GROUP BY serial ORDER BY 1`),
  };
}

async function expectExact(x: Executor = db) {
  const r = await keptAndReference(x);
  expect(r.keptPairs).toEqual(r.pairs);
  expect(r.keptUnits).toEqual(r.units);
  return r;
}

const at = (h: number) => new Date(Date.UTC(2024, 7, 1) + h * 3_600_000).toISOString();

/**
 * Records in one SQL statement: [serial, test type, hour, result]. Without a bench they count on one row
 * (test_record_totals), which two transactions update one after the other; with two benches they can overlap.
 */
async function insertSql(x: Executor, tag: string, rows: [string, string, number, 'pass' | 'fail'][], machineId: string | null = null) {
  const values = rows.map(
    ([serial, type, h, result], i) => sql`(${machineId}::uuid, ${`${tag}-${i}`}, ${serial}, 'FP-', 4, ${Number(serial.slice(3))}, ${type},
      'water', 2.4, 60, ${result}, ${at(h)}::timestamptz, decode(repeat('00', 32), 'hex'))`,
  );
  await x.execute(sql`
    INSERT INTO test_records (machine_id, record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure,
                              holding_seconds, result, tested_at, content_hash)
    VALUES ${sql.join(values, sql`, `)}`);
}

const unit = (n: number) => `FP-${String(n).padStart(4, '0')}`;

beforeAll(async () => {
  t = await buildTestApp();
  db = t.app.ctx.db;
  bench = await createBench(t.app, await adminCookie(t), 'First-pass Bench');
});
afterAll(() => t.close());

describe('kept first attempts', () => {
  it('match the records after a batch of new units tested once each', async () => {
    const recs = Array.from({ length: 30 }, (_, i) =>
      record({
        serial: unit(1 + i),
        testType: ['shell', 'seat', 'backseat'][i % 3],
        result: i % 4 === 0 ? 'fail' : 'pass',
        testedAt: at(i),
      }),
    );
    expect((await postBatch(t.app, bench.key, { records: recs })).statusCode).toBe(200);
    const r = await expectExact();
    expect(r.keptUnits).toHaveLength(30);
    expect(r.keptUnits.filter((u) => u.failed === '1')).toHaveLength(8);
  });

  it('match the records when new units are tested more than once in one statement, ties and failures first', async () => {
    await insertSql(db, 'multi', [
      // Three types, the seat failed at its first attempt and passed later (listed first: order must not matter).
      [unit(101), 'seat', 5, 'pass'],
      [unit(101), 'shell', 2, 'pass'],
      [unit(101), 'seat', 3, 'fail'],
      [unit(101), 'backseat', 4, 'pass'],
      // A pass and a failure at one instant: the failure counts first.
      [unit(102), 'shell', 7, 'pass'],
      [unit(102), 'shell', 7, 'fail'],
      // Failed, then passed.
      [unit(103), 'shell', 1, 'fail'],
      [unit(103), 'shell', 9, 'pass'],
      [unit(104), 'shell', 8, 'pass'],
    ]);
    const r = await expectExact();
    expect(r.keptUnits.find((u) => u.serial === unit(101))?.failed).toBe('1');
    expect(r.keptUnits.find((u) => u.serial === unit(102))?.failed).toBe('1');
    expect(r.keptUnits.find((u) => u.serial === unit(103))?.failed).toBe('1');
    expect(r.keptUnits.find((u) => u.serial === unit(104))?.failed).toBe('0');
  });

  it('match the records when a statement mixes new units with units seen before', async () => {
    await insertSql(db, 'mixed', [
      // Known units: an earlier failed attempt than the kept one (arrived late), a new test type, a later retest.
      [unit(104), 'shell', 6, 'fail'],
      [unit(101), 'functional', 1, 'fail'],
      [unit(2), 'seat', 40, 'fail'],
      // New units in the same statement, one of them twice.
      [unit(201), 'shell', 3, 'fail'],
      [unit(201), 'shell', 4, 'pass'],
      [unit(202), 'seat', 5, 'pass'],
    ]);
    const r = await expectExact();
    expect(r.keptUnits.find((u) => u.serial === unit(104))).toMatchObject({ failed: '1' });
    expect(r.keptUnits.find((u) => u.serial === unit(101))).toMatchObject({ failed: '2' });
    expect(r.keptUnits.find((u) => u.serial === unit(201))).toMatchObject({ failed: '1' });
    // A batch of known units only, through the API.
    const again = [
      record({ serial: unit(3), testType: 'backseat', result: 'fail', testedAt: at(0) }),
      record({ serial: unit(5), testType: 'seat', testedAt: at(90) }),
    ];
    expect((await postBatch(t.app, bench.key, { records: again })).statusCode).toBe(200);
    await expectExact();
  });

  it('count the next statement of a transaction in full after a statement of new units, and roll back', async () => {
    const before = await keptAndReference(db);
    await expect(
      db.transaction(async (tx) => {
        await insertSql(tx, 'tx1', [
          [unit(301), 'shell', 2, 'fail'],
          [unit(302), 'shell', 2, 'pass'],
        ]);
        // Known units right after, in the same transaction: their pairs go through the cascade again.
        await insertSql(tx, 'tx2', [
          [unit(301), 'seat', 1, 'fail'],
          [unit(302), 'seat', 3, 'fail'],
          [unit(7), 'functional', 0, 'fail'],
        ]);
        const r = await expectExact(tx);
        expect(r.keptUnits.find((u) => u.serial === unit(301))).toMatchObject({ failed: '2', first_at: await firstAt(tx, 1) });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await keptAndReference(db)).toEqual(before);
    await expectExact();
  });

  it('stay exact through deletes and re-judgement, and new units after them', async () => {
    await db.execute(sql`DELETE FROM test_records WHERE serial IN (${unit(101)}, ${unit(103)}) AND tested_at > ${at(2)}::timestamptz`);
    await expectExact();
    await db.execute(sql`DELETE FROM test_records WHERE serial = ${unit(102)}`);
    await expectExact();
    await db.execute(sql`UPDATE test_records SET verdict = 'nonconforming', reasons = 1 WHERE serial = ${unit(104)} AND result = 'pass'`);
    await expectExact();
    // The deleted unit is new again.
    await insertSql(db, 'again', [[unit(102), 'shell', 50, 'pass']]);
    await expectExact();
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'match the records when two transactions store the same new unit at once (the second falls back to the upsert)',
    async () => {
      const other = await createBench(t.app, await adminCookie(t), 'Second Bench');
      let storeSecond: Promise<unknown> | undefined;
      await db.transaction(async (tx) => {
        await insertSql(
          tx,
          'race1',
          [
            [unit(401), 'shell', 5, 'fail'],
            [unit(402), 'shell', 5, 'pass'],
          ],
          bench.id,
        );
        // Another connection stores the same unit (an earlier pass of the same type, another type) and a new
        // one: it sees no row of 401 yet, so it takes the new units' path and waits on 401's key.
        storeSecond = insertSql(
          db,
          'race2',
          [
            [unit(401), 'shell', 4, 'pass'],
            [unit(401), 'seat', 6, 'fail'],
            [unit(403), 'seat', 6, 'pass'],
          ],
          other.id,
        );
        await new Promise((r) => setTimeout(r, 500));
      });
      await storeSecond;
      const r = await expectExact();
      expect(r.keptUnits.find((u) => u.serial === unit(401))).toMatchObject({ failed: '1', first_at: await firstAt(db, 4) });
      expect(r.keptPairs.filter((p) => p.serial === unit(401))).toHaveLength(2);
    },
  );
});

async function firstAt(x: Executor, h: number): Promise<string> {
  const [row] = rowsOf<{ t: string }>(await x.execute(sql`SELECT ${at(h)}::timestamptz::text AS t`));
  return row!.t;
}
