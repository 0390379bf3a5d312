/**
 * The kept quality outcomes (migration 0012) against the same figures grouped from test_records directly,
 * after a scripted series of inserts, edits, deletes, re-matching, re-judgement and rolled-back transactions,
 * over ranges that contain whole units and ranges that cut through them.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QualityInterval } from '../src/shared/contract/quality';
import { rowsOf, type Db, type Executor } from '../src/server/db/client';
import * as repo from '../src/server/modules/quality/quality.repo';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';

let t: TestApp;
let db: Db;
let staff: string;
let productA: { id: string };
let productB: { id: string };
let bench: { id: string; key: string };

/** A small deterministic generator, so that a failure can be replayed. */
function lcg(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** The summary as it was computed before the kept outcomes: every record of the range grouped per view. */
async function referenceSummary(x: Executor, range: repo.Range, interval: QualityInterval) {
  const counts = (fp: string, fin: string, re: string) =>
    sql.raw(`count(*)::int AS units, (count(*) FILTER (WHERE ${fp}))::int AS first_pass,
    (count(*) FILTER (WHERE ${fin}))::int AS final_pass, (count(*) FILTER (WHERE ${re}))::int AS retested,
    sum(n)::int AS tests, sum(nfail)::int AS failures`);
  const unitPass = counts('fp', 'fin', 're');
  const result = await x.execute(sql`
    WITH b AS MATERIALIZED (
      SELECT serial, product_id, machine_id, test_type, count(*) AS n, count(*) FILTER (WHERE outcome = 'fail') AS nfail,
             min(tested_at) AS min_at, max(tested_at) AS max_at,
             min(tested_at) FILTER (WHERE outcome = 'fail') AS min_fail, max(tested_at) FILTER (WHERE outcome = 'fail') AS max_fail
        FROM test_records WHERE tested_at >= ${range.from} AND tested_at < ${range.to}
       GROUP BY serial, product_id, machine_id, test_type),
    ut AS MATERIALIZED (
      SELECT serial, product_id, test_type, sum(n) AS n, sum(nfail) AS nfail, min(min_at) AS first_at,
             coalesce(min(min_fail) = min(min_at), false) AS first_failed, coalesce(max(max_fail) = max(max_at), false) AS last_failed
        FROM b GROUP BY serial, product_id, test_type),
    u AS MATERIALIZED (
      SELECT serial, product_id, min(first_at) AS first_at, bool_and(NOT first_failed) AS fp, bool_and(NOT last_failed) AS fin,
             bool_or(n > 1) AS re, sum(n) AS n, sum(nfail) AS nfail
        FROM ut GROUP BY serial, product_id),
    um AS (
      SELECT machine_id, bool_and(coalesce(min_fail <> min_at, true)) AS fp, bool_and(coalesce(max_fail <> max_at, true)) AS fin,
             bool_or(n > 1) AS re, sum(n) AS n, sum(nfail) AS nfail
        FROM b GROUP BY serial, machine_id)
    SELECT 'total' AS dim, NULL::text AS key, ${unitPass} FROM u HAVING count(*) > 0
    UNION ALL SELECT 'product', product_id::text, ${unitPass} FROM u GROUP BY product_id
    UNION ALL SELECT 'period', to_char(date_trunc(${interval}, first_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD'), ${unitPass} FROM u GROUP BY 2
    UNION ALL SELECT 'testType', test_type, ${counts('NOT first_failed', 'NOT last_failed', 'n > 1')} FROM ut GROUP BY test_type
    UNION ALL SELECT 'machine', machine_id::text, ${unitPass} FROM um GROUP BY machine_id`);
  return rowsOf<repo.SummaryRow>(result);
}

async function referenceOpenFailures(x: Executor, range: repo.Range) {
  const result = await x.execute(sql`
    SELECT r.id::text AS id FROM test_records r
     WHERE r.outcome = 'fail' AND r.tested_at >= ${range.from} AND r.tested_at < ${range.to}
       AND NOT EXISTS (SELECT 1 FROM test_records l WHERE l.prefix = r.prefix AND l.width = r.width AND l.serial_no = r.serial_no
                          AND l.test_type = r.test_type AND (l.tested_at, l.id) > (r.tested_at, r.id))
     ORDER BY r.tested_at DESC, r.id DESC`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

const sorted = (rows: repo.SummaryRow[]) =>
  rows.map((r) => ({ ...r, key: r.key ?? null })).sort((a, b) => `${a.dim}|${a.key}`.localeCompare(`${b.dim}|${b.key}`));

const day = (d: number) => new Date(Date.UTC(2024, 6, d));
/** Ranges inside, around and across the generated days (July 1-10), cutting units that span midnight. */
const RANGES: repo.Range[] = [
  { from: day(1), to: day(11) },
  { from: day(3), to: day(4) },
  { from: day(2), to: day(6) },
  { from: day(5), to: day(9) },
  { from: day(9), to: day(12) },
  { from: day(1), to: day(2) },
  { from: new Date(Date.UTC(2024, 5, 1)), to: new Date(Date.UTC(2024, 8, 1)) },
];

/** Every kept figure equals the reference, for every range and period length. */
async function expectExact(x: Executor = db) {
  for (const range of RANGES) {
    for (const interval of ['day', 'week'] as const) {
      expect(sorted(await repo.summary(x, range, interval)), `${range.from.toISOString()} ${interval}`).toEqual(
        sorted(await referenceSummary(x, range, interval)),
      );
    }
    const reference = await referenceOpenFailures(x, range);
    const kept = await repo.openFailures(x, range, 10_000, 0);
    expect(kept.rows.map((r) => r.id)).toEqual(reference);
    expect(kept.total).toBe(reference.length);
  }
}

const TYPES = ['shell', 'seat', 'backseat'] as const;

/** One INSERT of `rows`, each a `(machine_id, record_id, serial, …, content_hash)` tuple: one statement, so one trigger call. */
async function insertRows(x: Executor, rows: ReturnType<typeof sql>[]) {
  await x.execute(sql`
    INSERT INTO test_records (machine_id, record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure,
                              holding_seconds, result, tested_at, content_hash)
    VALUES ${sql.join(rows, sql`, `)}`);
}

/** Inserts `n` records of random units (QK-0001..QK-0040 matched to product A, QZ-… unmatched) in one statement. */
async function insertRandom(x: Executor, rand: () => number, n: number, tag: string) {
  const rows = Array.from({ length: n }, (_, i) => {
    const matched = rand() < 0.7;
    const no = 1 + Math.floor(rand() * 40);
    const prefix = matched ? 'QK-' : 'QZ-';
    // Days 1-10, any hour: a unit's tests often span midnight and several days.
    const at = new Date(day(1).getTime() + Math.floor(rand() * 10 * 24) * 3_600_000 + Math.floor(rand() * 4) * 900_000);
    return sql`(${matched ? bench.id : null}::uuid, ${`${tag}-${i}`}, ${prefix + String(no).padStart(4, '0')}, ${prefix}, 4, ${no},
      ${TYPES[Math.floor(rand() * 3)]}, 'water', 2.4, 60, ${rand() < 0.25 ? 'fail' : 'pass'}, ${at}, decode(repeat('00', 32), 'hex'))`;
  });
  await insertRows(x, rows);
  // Matching as the writers do (the range lookup): the records of QK- join product A's range.
  await x.execute(sql`SELECT test_records_rematch(ARRAY['QK-'], ARRAY[4]::smallint[], ARRAY[0]::bigint[], ARRAY[9999]::bigint[])`);
}

beforeAll(async () => {
  t = await buildTestApp();
  db = t.app.ctx.db;
  const admin = await adminCookie(t);
  staff = await staffCookie(t);
  bench = await createBench(t.app, admin, 'Kept Bench');
  productA = await addProduct(t.app, staff, { name: 'Kept Valve A', pressureFc: '', pressureWcb: 1.6, pressureSus: '' });
  productB = await addProduct(t.app, staff, { name: 'Kept Valve B', pressureFc: '', pressureWcb: 1.6, pressureSus: '' });
  expect((await postRange(t.app, staff, rangeBody(productA.id, 'QK-0001', 'QK-0040', 40))).statusCode).toBe(201);
});
afterAll(() => t.close());

describe('kept quality outcomes', () => {
  it('match the records after batches through the API and SQL inserts', async () => {
    const rand = lcg(7);
    const recs = Array.from({ length: 30 }, (_, i) =>
      record({
        serial: `QK-${String(1 + (i % 12)).padStart(4, '0')}`,
        testType: TYPES[i % 3],
        result: i % 5 === 0 ? 'fail' : 'pass',
        testedAt: new Date(day(2 + (i % 4)).getTime() + (i % 7) * 3_600_000 + 20 * 3_600_000).toISOString(),
      }),
    );
    const res = await postBatch(t.app, bench.key, { records: recs });
    expect(res.statusCode).toBe(200);
    await insertRandom(db, rand, 120, 'a');
    await insertRandom(db, rand, 1, 'b');
    await expectExact();
    const total = (await repo.summary(db, RANGES[0]!, 'day')).find((r) => r.dim === 'total');
    expect(total?.tests).toBe(151);
  });

  it('match the records after batches whose units are new and tested once each (migration 0015)', async () => {
    // Through the API: 40 new units of product A, one test each, some failed, over four days and their midnights.
    const once = Array.from({ length: 40 }, (_, i) =>
      record({
        serial: `QK-${String(100 + i).padStart(4, '0')}`,
        testType: TYPES[i % 3],
        result: i % 6 === 0 ? 'fail' : 'pass',
        testedAt: new Date(day(3 + (i % 4)).getTime() + (i % 5) * 5 * 3_600_000 + 1_800_000).toISOString(),
      }),
    );
    expect((await postBatch(t.app, bench.key, { records: once })).statusCode).toBe(200);
    await expectExact();
    // The same units tested again (not new: the general path), then new unmatched units once each in SQL.
    const again = once.slice(0, 10).map((r, i) => ({ ...r, recordId: `${r.recordId}-again`, result: i % 2 ? 'fail' : 'pass' }));
    expect((await postBatch(t.app, bench.key, { records: again })).statusCode).toBe(200);
    const rows = Array.from({ length: 12 }, (_, i) => {
      const no = 200 + i;
      return sql`(NULL::uuid, ${`once-${i}`}, ${`QZ-${String(no).padStart(4, '0')}`}, 'QZ-', 4, ${no}, ${TYPES[i % 3]}, 'water', 2.4, 60,
        ${i % 4 === 0 ? 'fail' : 'pass'}, ${new Date(day(8).getTime() + i * 3_600_000)}, decode(repeat('00', 32), 'hex'))`;
    });
    await insertRows(db, rows);
    await expectExact();
  });

  it('match the records after an insert mixing new units tested several times with units seen before (migration 0017)', async () => {
    // One statement: new units QK-0300..0307 with two to four tests each (failures, retests, midnights),
    // new units QK-0308..0311 tested once, and units stored by the tests above (QK-0001..0004) tested again.
    // The new ones' figures come from the inserted rows; the known ones' from their records before and after.
    const rows = [];
    for (let u = 0; u < 12; u++) {
      const no = 300 + u;
      for (let k = 0; k < (u < 8 ? 2 + (u % 3) : 1); k++) {
        const at = new Date(day(4 + (u % 3)).getTime() + (22 + k * 3) * 3_600_000);
        rows.push(sql`(${bench.id}::uuid, ${`mixed-${u}-${k}`}, ${`QK-${String(no).padStart(4, '0')}`}, 'QK-', 4, ${no}, ${TYPES[(u + k) % 2]},
          'water', 2.4, 60, ${k === 0 && u % 2 === 0 ? 'fail' : 'pass'}, ${at}, decode(repeat('00', 32), 'hex'))`);
      }
    }
    for (let no = 1; no <= 4; no++) {
      rows.push(sql`(${bench.id}::uuid, ${`mixed-known-${no}`}, ${`QK-${String(no).padStart(4, '0')}`}, 'QK-', 4, ${no}, 'backseat',
        'water', 2.4, 60, ${no === 2 ? 'fail' : 'pass'}, ${new Date(day(9).getTime() + no * 3_600_000)}, decode(repeat('00', 32), 'hex'))`);
    }
    await insertRows(db, rows);
    await db.execute(sql`SELECT test_records_rematch(ARRAY['QK-'], ARRAY[4]::smallint[], ARRAY[0]::bigint[], ARRAY[9999]::bigint[])`);
    await expectExact();
  });

  it('match the records after an insert of new units only, some tested once and some several times (migration 0018)', async () => {
    // One statement of units never seen: QK-0400..0405 tested two or three times (a failure first, retests,
    // a midnight between), QK-0406..0411 tested once. No unit seen before, so no record is read back.
    const rows = [];
    for (let u = 0; u < 12; u++) {
      const no = 400 + u;
      for (let k = 0; k < (u < 6 ? 2 + (u % 2) : 1); k++) {
        const at = new Date(day(5 + (u % 2)).getTime() + (21 + k * 2) * 3_600_000);
        rows.push(sql`(${bench.id}::uuid, ${`fresh-${u}-${k}`}, ${`QK-${String(no).padStart(4, '0')}`}, 'QK-', 4, ${no}, ${TYPES[(u + k) % 3]},
          'water', 2.4, 60, ${(k === 0 && u % 2 === 0) || u === 7 ? 'fail' : 'pass'}, ${at}, decode(repeat('00', 32), 'hex'))`);
      }
    }
    await insertRows(db, rows);
    await db.execute(sql`SELECT test_records_rematch(ARRAY['QK-'], ARRAY[4]::smallint[], ARRAY[0]::bigint[], ARRAY[9999]::bigint[])`);
    await expectExact();
  });

  it('stay exact through edits, deletes, re-judgement and re-matching', async () => {
    // Edits of time and test type move units across days and edges.
    await db.execute(sql`UPDATE test_records SET tested_at = tested_at + interval '30 hours' WHERE id % 7 = 0`);
    await expectExact();
    await db.execute(sql`UPDATE test_records SET test_type = 'seat' WHERE id % 11 = 0 AND test_type <> 'seat'`);
    await expectExact();
    // Re-judgement turns bench passes into failures by outcome, and back.
    await db.execute(sql`UPDATE test_records SET verdict = 'nonconforming', reasons = 1 WHERE id % 5 = 1 AND result = 'pass'`);
    await expectExact();
    await db.execute(sql`UPDATE test_records SET verdict = 'conforms', reasons = 0 WHERE id % 10 = 1`);
    await expectExact();
    // A range moves to product B (re-matching through the range trigger), then is deleted (unmatched).
    await db.execute(sql`UPDATE serial_ranges SET product_id = ${productB.id} WHERE prefix = 'QK-'`);
    await expectExact();
    const byProduct = (await repo.summary(db, RANGES[0]!, 'day')).filter((r) => r.dim === 'product').map((r) => r.key);
    expect(byProduct).toContain(productB.id);
    expect(byProduct).not.toContain(productA.id);
    // Deletes: single records, then whole units.
    await db.execute(sql`DELETE FROM test_records WHERE id % 9 = 0`);
    await expectExact();
    await db.execute(sql`DELETE FROM test_records WHERE serial_no BETWEEN 1 AND 5`);
    await expectExact();
  });

  it('stay as they were after rolled-back transactions', async () => {
    const before = sorted(await repo.summary(db, RANGES[0]!, 'week'));
    const keptRows = async () =>
      rowsOf<{ n: string }>(
        await db.execute(sql`SELECT count(*)::text || ':' || coalesce(sum(units), 0)::text AS n FROM quality_day_counts`),
      );
    const keptBefore = await keptRows();
    await expect(
      db.transaction(async (tx) => {
        await insertRandom(tx, lcg(11), 50, 'rolled');
        await tx.execute(sql`DELETE FROM test_records WHERE id % 3 = 0`);
        await tx.execute(sql`UPDATE test_records SET verdict = 'nonconforming', reasons = 1 WHERE id % 4 = 0`);
        // Inside the transaction the kept figures already follow the records.
        await expectExact(tx);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(sorted(await repo.summary(db, RANGES[0]!, 'week'))).toEqual(before);
    expect(await keptRows()).toEqual(keptBefore);
    await expectExact();
  });

  it('answer the known figures of a unit straddling the range edge', async () => {
    // One unit: shell fails at 23:00 on July 20, passes at 01:00 on July 21. Seen from July 21 alone it
    // first-passed; from July 20 alone it failed and was never retested inside the range.
    const recs = [
      record({ serial: 'QK-0039', testType: 'backseat', result: 'fail', testedAt: '2024-07-20T23:00:00.000Z' }),
      record({ serial: 'QK-0039', testType: 'backseat', result: 'pass', testedAt: '2024-07-21T01:00:00.000Z' }),
    ];
    await db.execute(sql`DELETE FROM test_records WHERE serial = 'QK-0039'`);
    expect((await postBatch(t.app, bench.key, { records: recs })).statusCode).toBe(200);
    const totalOf = async (from: number, to: number) =>
      (await repo.summary(db, { from: day(from), to: day(to) }, 'day')).find((r) => r.dim === 'total');
    expect(await totalOf(21, 22)).toMatchObject({ units: 1, first_pass: 1, final_pass: 1, retested: 0, tests: 1, failures: 0 });
    expect(await totalOf(20, 21)).toMatchObject({ units: 1, first_pass: 0, final_pass: 0, retested: 0, tests: 1, failures: 1 });
    expect(await totalOf(20, 22)).toMatchObject({ units: 1, first_pass: 0, final_pass: 1, retested: 1, tests: 2, failures: 1 });
    // Never retested: the failure has a later test, so it is listed in no range.
    expect((await repo.openFailures(db, { from: day(20), to: day(21) }, 10, 0)).total).toBe(0);
  });
});
