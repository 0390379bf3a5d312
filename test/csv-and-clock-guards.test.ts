/**
 * What imports refuse: a CSV that is not UTF-8 (named by its row, nothing stored, instead of replacement
 * characters stored silently), and test records dated more than a few minutes in the future, from the bench
 * API and from the CSV import alike, with a message in the user's language.
 */
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TESTED_AT_SKEW_MINUTES } from '../src/shared/contract/machine-data';
import { rowsOf } from '../src/server/db/client';
import { CsvEncodingError, readCsv } from '../src/server/lib/csv';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie, upload } from './helpers/catalogue';
import { adminCookie, createBench, postBatch, problemsOf, record } from './helpers/machine-data';

let t: TestApp;
let cookie: string;
let zh: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await staffCookie(t);
  zh = await staffCookie(t, { language: 'zh' });
});
afterAll(() => t.close());

const HEADER = 'recordId,serial,testType,medium,testPressure,holdingSeconds,leakageValue,leakageUnit,result,testedAt,operator,machine';
const row = (id: string, testedAt = '2024-05-01T08:30:00Z', operator = 'Op') =>
  `${id},SER-${id},shell,water,2.4,60,,,pass,${testedAt},${operator},`;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const stored = async (prefix: string) =>
  rowsOf<{ record_id: string }>(await t.app.ctx.db.execute(sql`SELECT record_id FROM test_records WHERE record_id LIKE ${`${prefix}%`}`));
type RowError = { row: number; key: string; message: string };

async function* chunks(...parts: Buffer[]) {
  for (const p of parts) yield new Uint8Array(p);
}
async function readAll(...parts: Buffer[]) {
  const out: number[] = [];
  try {
    for await (const rec of readCsv(chunks(...parts))) out.push(rec.row);
  } catch (err) {
    return { rows: out, error: err };
  }
  return { rows: out, error: null };
}

describe('the CSV reader', () => {
  it('stops at the record that holds a byte that is not UTF-8, naming it, after the records before it', async () => {
    const latin1 = Buffer.concat([Buffer.from('a,b\r\nc,d\r\ne,'), Buffer.from([0x4a, 0xe9, 0x72]), Buffer.from('\r\nf,g\r\n')]);
    const { rows, error } = await readAll(latin1);
    expect(rows).toEqual([1, 2]);
    expect(error).toBeInstanceOf(CsvEncodingError);
    expect((error as CsvEncodingError).row).toBe(3);
  });

  it('reads a character split across two chunks, and catches a broken one at the very end', async () => {
    const text = Buffer.from('name\r\n王小明\r\n');
    const split = text.indexOf(Buffer.from('王')) + 1;
    expect(await readAll(text.subarray(0, split), text.subarray(split))).toEqual({ rows: [1, 2], error: null });
    const truncated = await readAll(Buffer.from('name\r\nab'), Buffer.from([0xe7, 0x8e]));
    expect(truncated.rows).toEqual([1]);
    expect((truncated.error as CsvEncodingError).row).toBe(2);
  });
});

describe('CSV imports refuse a file that is not UTF-8', () => {
  it('machine data: the row named, in en and zh, nothing stored', async () => {
    const prefix = `ENC${randomBytes(3).toString('hex')}-`;
    const file = Buffer.concat([
      Buffer.from(`${HEADER}\r\n${row(`${prefix}1`)}\r\n${row(`${prefix}2`, undefined, 'J')}`),
      Buffer.from([0xe9]), // é in Latin-1 / Windows-1252
      Buffer.from(`rome\r\n${row(`${prefix}3`)}\r\n`),
    ]);
    const res = await upload(t.app, cookie, '/api/v1/machine-data/import', file);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ stored: 0, valid: false });
    const errors: RowError[] = res.json().data.errors;
    expect(errors).toEqual([expect.objectContaining({ row: 3, key: 'csvImport.invalidUtf8' })]);
    expect(errors[0]!.message).toMatch(/not valid UTF-8/);
    expect(await stored(prefix)).toEqual([]);
    const inZh = await upload(t.app, zh, '/api/v1/machine-data/import?dryRun=true', file);
    expect(inZh.json().data.errors[0]).toMatchObject({ row: 3, message: expect.stringContaining('UTF-8') });
    expect(inZh.json().data.errors[0].message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('products: a broken header is said once, as the encoding', async () => {
    const file = Buffer.concat([Buffer.from('name,fluid'), Buffer.from([0xff, 0xfe]), Buffer.from('\r\nValve,water\r\n')]);
    const res = await upload(t.app, cookie, '/api/v1/products/import?dryRun=true', file);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.errors).toEqual([expect.objectContaining({ row: 1, key: 'csvImport.invalidUtf8' })]);
  });
});

describe(`test records more than ${TESTED_AT_SKEW_MINUTES} minutes in the future`, () => {
  it('are refused by the bench API with a clear reason; a clock a minute or two ahead is not', async () => {
    const bench = await createBench(t.app, await adminCookie(t));
    const ahead = await postBatch(t.app, bench.key, {
      records: [record({ testedAt: inMinutes(24 * 60) }), record({ testedAt: inMinutes(10) })],
    });
    expect(ahead.statusCode).toBe(400);
    expect(problemsOf(ahead)).toEqual([
      '0:testedAt:machineData.validation.testedAtFuture',
      '1:testedAt:machineData.validation.testedAtFuture',
    ]);
    expect(ahead.json().error.records[0].reason).toBe(
      `The test time lies more than ${TESTED_AT_SKEW_MINUTES} minutes in the future: check the clock of the bench or of the file's source`,
    );
    const zhAhead = await postBatch(t.app, bench.key, { records: [record({ testedAt: inMinutes(60) })] }, { 'accept-language': 'zh' });
    expect(zhAhead.json().error.records[0].reason).toContain(`${TESTED_AT_SKEW_MINUTES} 分鐘`);
    const slightly = await postBatch(t.app, bench.key, { records: [record({ testedAt: inMinutes(2) })] });
    expect(slightly.statusCode).toBe(200);
  });

  it('are refused by the CSV import, naming the row', async () => {
    const prefix = `FUT${randomBytes(3).toString('hex')}-`;
    const file = [HEADER, row(`${prefix}1`), row(`${prefix}2`, inMinutes(24 * 60)), row(`${prefix}3`, inMinutes(1))].join('\r\n');
    const res = await upload(t.app, cookie, '/api/v1/machine-data/import', file);
    expect(res.json().data).toMatchObject({ stored: 0, valid: false });
    expect(res.json().data.errors).toEqual([
      expect.objectContaining({ row: 3, field: 'testedAt', key: 'machineData.validation.testedAtFuture' }),
    ]);
    const inZh = await upload(t.app, zh, '/api/v1/machine-data/import?dryRun=true', file);
    expect(inZh.json().data.errors[0].message).toContain('分鐘');
    expect(await stored(prefix)).toEqual([]);
  });
});
