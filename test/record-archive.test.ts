/**
 * The record archive (migration 0051, docs/decisions/0072-record-archive.md): the retention setting, the move
 * of whole units past it, what the kept counters say afterwards, two runs at once, and the public lookup of a
 * unit whose records are archived. PGlite, and PostgreSQL when TEST_DATABASE_URL is set.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/server/db/client';
import { archiveOldRecords } from '../src/server/modules/machine-data/record-archive';
import { issueReport } from '../src/server/modules/reports/issue';
import { buildTestApp, type TestApp } from './helpers/app';
import { addProduct, postRange, rangeBody, staffCookie } from './helpers/catalogue';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';
import { series } from './helpers/public';

let t: TestApp;
let admin: string;
let staff: string;
let bench: { id: string; key: string };
/** The n-th unit of a range made in 1980, so that tests decades old are after its production. */
let serial: (n: number) => string;

const YEAR = 365.25 * 86_400_000;
const yearsAgo = (y: number) => new Date(Date.now() - y * YEAR).toISOString();

/** A shell and a seat test of `serial`, both passed, at `testedAt`. */
async function tested(serial: string, testedAt: string): Promise<void> {
  const res = await postBatch(t.app, bench.key, {
    records: [
      record({ serial, testType: 'shell', testedAt }),
      record({ serial, testType: 'seat', testPressure: 1.76, medium: 'air', testedAt }),
    ],
  });
  expect(res.statusCode).toBeLessThan(300);
}

const setRetention = (years: unknown, cookie = admin) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/settings/record-retention', headers: { cookie }, payload: { years } });

const count = async (table: 'test_records' | 'test_records_archive', serial: string) =>
  Number(
    rowsOf<{ n: unknown }>(await t.app.ctx.db.execute(sql`SELECT count(*) AS n FROM ${sql.raw(table)} WHERE serial = ${serial}`))[0]!.n,
  );

const benchRecords = async () => {
  const res = await t.app.inject({ url: `/api/v1/machine-data?machineId=${bench.id}&pageSize=10`, headers: { cookie: staff } });
  expect(res.statusCode).toBe(200);
  return res.json().data.total as number;
};

const issue = (serial: string) => issueReport(t.app.ctx.db, { serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });

beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminCookie(t);
  staff = await staffCookie(t);
  bench = await createBench(t.app, admin);
  const product = await addProduct(t.app, staff);
  const prefix = series();
  serial = (n) => `${prefix}${String(n).padStart(6, '0')}`;
  const range = await postRange(t.app, staff, rangeBody(product.id, serial(1), serial(100), 100, { productionDate: '1980-01-01' }));
  expect(range.statusCode).toBe(201);
});
afterAll(() => t.close());

describe('the record archive', () => {
  it('has the columns of test_records in their order, and when each row was moved', async () => {
    const columns = async (table: string) =>
      rowsOf<{ column_name: string; data_type: string }>(
        await t.app.ctx.db.execute(sql`SELECT column_name, data_type FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY ordinal_position`),
      );
    const live = await columns('test_records');
    const archive = await columns('test_records_archive');
    expect(archive.slice(0, live.length)).toEqual(live);
    expect(archive.slice(live.length)).toEqual([{ column_name: 'archived_at', data_type: 'timestamp with time zone' }]);
  });

  it('keeps every record by default; the retention is an admin setting, checked and audited', async () => {
    const settings = await t.app.inject({ url: '/api/v1/settings', headers: { cookie: staff } });
    expect(settings.json().data.recordRetentionYears).toBeNull();
    await tested(serial(1), yearsAgo(40));
    expect(await archiveOldRecords(t.app.ctx.db)).toEqual({ moved: 0, more: false });
    expect(await count('test_records', serial(1))).toBe(2);

    expect((await setRetention(10, staff)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: '/api/v1/settings/record-retention', payload: { years: 10 } })).statusCode).toBe(401);
    for (const bad of [0, 101, 2.5, 'ten', '', true, -3, '10']) {
      const res = await setRetention(bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().error.fields, String(bad)).toMatchObject([{ field: 'years', key: 'settings.validation.recordRetentionRange' }]);
    }
    const zh = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings/record-retention',
      headers: { cookie: await staffCookie(t, { role: 'admin', language: 'zh' }) },
      payload: { years: 0 },
    });
    expect(zh.json().error.fields[0].message).toMatch(/[\u4e00-\u9fff]/);
    expect((await t.app.inject({ url: '/api/v1/settings', headers: { cookie: staff } })).json().data.recordRetentionYears).toBeNull();

    const saved = await setRetention(30);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.recordRetentionYears).toBe(30);
    const audit = rowsOf<{ before: unknown; after: unknown }>(
      await t.app.ctx.db.execute(sql`SELECT before, after FROM audit_log WHERE entity = 'settings' AND entity_id = 'record-retention'
        ORDER BY at DESC LIMIT 1`),
    )[0]!;
    const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
    expect(parse(audit.before)).toEqual({ recordRetentionYears: null });
    expect(parse(audit.after)).toEqual({ recordRetentionYears: 30 });
  });

  it('moves the records of units last tested before the retention, whole units only', async () => {
    const old = serial(1); // 40 years ago (above)
    const retested = serial(2);
    const recent = serial(3);
    await tested(retested, yearsAgo(35));
    await tested(retested, yearsAgo(2));
    await tested(recent, yearsAgo(1));
    const before = await benchRecords();

    // One record a batch: the walk goes on past the unit it keeps.
    expect(await archiveOldRecords(t.app.ctx.db, { batch: 1 })).toEqual({ moved: 2, more: false });
    expect([await count('test_records', old), await count('test_records_archive', old)]).toEqual([0, 2]);
    expect([await count('test_records', retested), await count('test_records_archive', retested)]).toEqual([4, 0]);
    expect([await count('test_records', recent), await count('test_records_archive', recent)]).toEqual([2, 0]);
    // The bench's kept count follows the move, as for any delete.
    expect(await benchRecords()).toBe(before - 2);
    const info = await t.app.inject({ url: '/api/v1/settings/record-archive', headers: { cookie: staff } });
    expect(info.statusCode).toBe(200);
    expect(info.json().data).toMatchObject({ records: 2 });
    expect(Date.parse(info.json().data.newestTestedAt)).toBeLessThan(Date.now() - 39 * YEAR);
    expect((await t.app.inject({ url: '/api/v1/settings/record-archive' })).statusCode).toBe(401);

    // Nothing is left to move: a second run finds nothing.
    expect(await archiveOldRecords(t.app.ctx.db)).toEqual({ moved: 0, more: false });
  });

  it('moves each record once when runs overlap', async () => {
    const serials = [10, 11, 12, 13, 14].map((n) => serial(n));
    for (const s of serials) await tested(s, yearsAgo(31));
    const runs = await Promise.all([archiveOldRecords(t.app.ctx.db, { batch: 3 }), archiveOldRecords(t.app.ctx.db, { batch: 3 })]);
    expect(runs[0]!.moved + runs[1]!.moved).toBe(10);
    // The summary Settings reads counts each once too: as the archive itself.
    const [held] = rowsOf<{ n: unknown }>(await t.app.ctx.db.execute(sql`SELECT count(*) AS n FROM test_records_archive`));
    const info = await t.app.inject({ url: '/api/v1/settings/record-archive', headers: { cookie: staff } });
    expect(info.json().data.records).toBe(Number(held!.n));
    for (const s of serials) expect([await count('test_records', s), await count('test_records_archive', s)]).toEqual([0, 2]);
  });

  it('answers an archived unit with the certificate issued while its records were kept', async () => {
    const kept = serial(20);
    const never = serial(21);
    await tested(kept, yearsAgo(29));
    await tested(never, yearsAgo(29));
    const first = await issue(kept);
    expect(first.status).toBe('issued');
    const issued = first.status === 'issued' ? first.report : null;

    expect((await setRetention(25)).statusCode).toBe(200);
    expect((await archiveOldRecords(t.app.ctx.db)).moved).toBe(4);
    const again = await issue(kept);
    expect(again).toMatchObject({ status: 'issued', report: { id: issued!.id, number: issued!.number, reused: true } });
    // Its certificate still verifies by its code.
    const verify = await t.app.inject({ url: `/api/v1/public/reports/by-code/${issued!.code}` });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().data).toMatchObject({ genuine: true, number: issued!.number, serial: kept, newerDataExists: false });
    // A unit archived before any certificate was issued has no data to certify.
    expect(await issue(never)).toEqual({ status: 'no-data' });
  });
});
