/**
 * Every sort of the Machine Data list, both ways, with and without filters, page by page and through the
 * export's keyset: the rows and their order are checked against the order worked out here from the
 * records themselves. The sorts by test type, medium, result and record id merge per-value index ranges
 * (docs/decisions/0030-lists-at-a-year.md); the data has ties in every key, all test types and media,
 * records of two benches with the same record ids, and CSV-uploaded records of no bench. A tested-at range
 * under the sorts whose index does not bound it is sorted itself (decision 0030): its pages are checked too.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_MEDIA,
  TEST_RECORD_SORTS,
  TEST_TYPES,
  testRecordListQuery,
  type TestRecord,
  type TestRecordSort,
} from '../src/shared/contract/machine-data';
import { listRecords, recordPages } from '../src/server/modules/machine-data/machine-data.list';
import { filteredToSort, LIST_PLANNING } from '../src/server/modules/machine-data/machine-data.list-planning';
import { buildTestApp, type TestApp } from './helpers/app';
import { staffCookie, upload } from './helpers/catalogue';
import { adminCookie, createBench, postBatch, record } from './helpers/machine-data';

let t: TestApp;
let staff: string;
let benches: { id: string; key: string }[];
let all: TestRecord[];

const TIMES = ['2024-03-01T08:00:00.000Z', '2024-03-01T09:00:00.000Z', '2024-03-02T08:00:00.000Z'];
const PRESSURES = [1.6, 2.4, 2.4, 10];

/** Record i of bench b: every combination of type and medium, repeated times and pressures. */
const fields = (i: number) => ({
  serial: `SRT-${String(i % 9).padStart(4, '0')}`,
  testType: TEST_TYPES[i % TEST_TYPES.length]!,
  medium: TEST_MEDIA[Math.floor(i / 2) % TEST_MEDIA.length]!,
  testPressure: PRESSURES[i % PRESSURES.length]!,
  result: i % 3 === 0 ? 'fail' : 'pass',
  testedAt: TIMES[i % TIMES.length]!,
});

beforeAll(async () => {
  t = await buildTestApp();
  const admin = await adminCookie(t);
  staff = await staffCookie(t);
  benches = [await createBench(t.app, admin, 'Sort Bench A'), await createBench(t.app, admin, 'Sort Bench B')];
  for (const [b, bench] of benches.entries()) {
    // The same record ids on both benches: the record-id sort breaks the tie by the stored id.
    const res = await postBatch(t.app, bench.key, {
      records: Array.from({ length: 24 }, (_, i) => record({ recordId: `r${String(i).padStart(3, '0')}`, ...fields(i + b * 7) })),
    });
    if (res.statusCode !== 200) throw new Error(res.body);
  }
  const header = 'recordId,serial,testType,medium,testPressure,holdingSeconds,leakageValue,leakageUnit,result,testedAt,operator,machine';
  const rows = Array.from({ length: 6 }, (_, i) => {
    const f = fields(i * 5 + 1);
    return `r${String(i * 4).padStart(3, '0')},${f.serial},${f.testType},${f.medium},${f.testPressure},60,,,${f.result},${f.testedAt},Op,`;
  });
  const res = await upload(t.app, staff, '/api/v1/machine-data/import', Buffer.from(`${header}\r\n${rows.join('\r\n')}\r\n`));
  if (res.statusCode !== 200 || res.json().data.stored !== 6) throw new Error(res.body);
  all = (await list('pageSize=100')).items;
});
afterAll(() => t.close());

async function list(query: string): Promise<{ items: TestRecord[]; total: number }> {
  const res = await t.app.inject({ url: `/api/v1/machine-data?${query}`, headers: { cookie: staff } });
  if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** The list's order of each sort (machine-data.list.ts SORT_KEYS), compared here from the records. */
const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
const byId = (a: TestRecord, b: TestRecord) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0);
const KEYS: Record<TestRecordSort, ((r: TestRecord) => string | number)[]> = {
  testedAt: [(r) => r.testedAt],
  receivedAt: [(r) => r.receivedAt],
  serial: [(r) => r.serial, (r) => r.testedAt],
  recordId: [(r) => r.recordId],
  testType: [(r) => r.testType, (r) => r.testedAt],
  medium: [(r) => r.medium, (r) => r.testedAt],
  testPressure: [(r) => r.testPressure],
  result: [(r) => r.result, (r) => r.testedAt],
};
function expected(sort: TestRecordSort, desc: boolean, keep: (r: TestRecord) => boolean): string[] {
  const sorted = all.filter(keep).sort((a, b) => {
    for (const k of KEYS[sort]) {
      const c = cmp(k(a), k(b));
      if (c !== 0) return c;
    }
    return byId(a, b);
  });
  return (desc ? sorted.reverse() : sorted).map((r) => r.id);
}

const FILTERS: [string, (r: TestRecord) => boolean][] = [
  ['', () => true],
  ['result=fail', (r) => r.result === 'fail'],
  ['testType=seat', (r) => r.testType === 'seat'],
  ['result=pass&testType=shell', (r) => r.result === 'pass' && r.testType === 'shell'],
  ['bench:0', (r) => r.machineId === benches[0]!.id],
  ['matched=false&testedFrom=2024-03-02', (r) => r.testedAt >= '2024-03-02'],
  ['serial=srt-0004', (r) => r.serial === 'SRT-0004'],
  // A tested-at range under the sorts whose index does not bound it: the range is read and sorted itself
  // (machine-data.list.ts filteredToSort).
  ['testedFrom=2024-03-01&testedTo=2024-03-01', (r) => r.testedAt < '2024-03-02'],
  ['testedFrom=2024-03-01T08:30:00Z&result=pass', (r) => r.testedAt >= '2024-03-01T08:30' && r.result === 'pass'],
];
const queryOf = (f: string) => (f === 'bench:0' ? `machineId=${benches[0]!.id}` : f);

describe('every sort of the Machine Data list', () => {
  it('has data with ties in every key, every test type and medium, and records of no bench', () => {
    expect(all).toHaveLength(54);
    expect(new Set(all.map((r) => `${r.testType}/${r.medium}`)).size).toBe(20);
    expect(all.filter((r) => r.machineId === null)).toHaveLength(6);
  });

  for (const sort of TEST_RECORD_SORTS)
    for (const order of ['asc', 'desc'] as const)
      it(`sorts by ${sort} ${order}, filtered or not, page by page`, async () => {
        for (const [filter, keep] of FILTERS) {
          const want = expected(sort, order === 'desc', keep);
          expect(want.length, filter).toBeGreaterThan(0);
          const got: string[] = [];
          for (let page = 1; page <= Math.ceil(want.length / 5) + 1; page++) {
            const q = `${queryOf(filter)}${filter ? '&' : ''}sort=${sort}&order=${order}&pageSize=5&page=${page}`;
            got.push(...(await list(q)).items.map((r) => r.id));
          }
          expect(got, `${filter} sort=${sort} ${order}`).toEqual(want);
        }
      });

  it("walks each sort's index, or merges its parts, under every filter as it does at a million records", async () => {
    // At a million records only the larger filters walk; here every one is made to (nothing sorted itself).
    const walk = { ...LIST_PLANNING, sortRangeAtMost: 0, sortSpreadAtMost: 0, sortFilteredAtMost: 0, sortNewestAtMost: 0 };
    for (const sort of TEST_RECORD_SORTS)
      for (const order of ['asc', 'desc'] as const)
        for (const [filter, keep] of FILTERS) {
          const params = Object.fromEntries(
            new URLSearchParams(`${queryOf(filter)}${filter ? '&' : ''}sort=${sort}&order=${order}&pageSize=5`),
          );
          const want = expected(sort, order === 'desc', keep);
          const got: string[] = [];
          for (let page = 1; page <= Math.ceil(want.length / 5) + 1; page++) {
            const q = testRecordListQuery.parse({ ...params, page: String(page) });
            got.push(...(await listRecords(t.app.ctx.db, q, walk)).items.map((r) => r.id));
          }
          expect(got, `${filter} sort=${sort} ${order}`).toEqual(want);
        }
  });

  it('walks a sort for a result, a verdict or a test type that a product of as many records would have sorted', async () => {
    // The planner's estimate stands in for ten years' data: 10,000 matches, above sortSpreadAtMost and below
    // sortFilteredAtMost.
    const decide = (params: Record<string, string | undefined>, estimate = 10_000) =>
      filteredToSort(t.app.ctx.db, testRecordListQuery.parse(params), sql`true`, LIST_PLANNING, async () => estimate);
    for (const spread of [
      { result: 'fail' },
      { verdict: 'nonconforming' },
      { verdict: 'disagreement' },
      { testType: 'seat', result: 'fail' },
    ])
      expect(await decide({ ...spread, sort: 'serial' }), JSON.stringify(spread)).toBeNull();
    const product = '00000000-0000-4000-8000-000000000001';
    for (const together of [{ productId: product }, { q: 'SRT' }, { machineId: product }, { result: 'fail', productId: product }])
      expect(await decide({ ...together, sort: 'serial' }), JSON.stringify(together)).toBe(10_000);
    // A few thousand are sorted, however they lie.
    expect(await decide({ result: 'fail', sort: 'serial' }, 4_000)).toBe(4_000);
  });

  /** A bench and a result of more than 5 records, not a multiple of 5: one full page of 5 and a shorter one. */
  function twoFilters(): { params: Record<string, string>; want: string[] } {
    for (const bench of benches)
      for (const result of ['pass', 'fail'] as const) {
        const want = expected('testedAt', true, (r) => r.machineId === bench.id && r.result === result);
        if (want.length > 5 && want.length % 5 !== 0) return { params: { machineId: bench.id, result, pageSize: '5' }, want };
      }
    throw new Error('no bench and result with such a count');
  }

  it('reads and sorts a small set of two filters newest first, and walks it when told to', async () => {
    const { params, want } = twoFilters();
    for (const planning of [LIST_PLANNING, { ...LIST_PLANNING, sortNewestAtMost: 0 }]) {
      const got: string[] = [];
      for (let page = 1; page <= Math.ceil(want.length / 5) + 1; page++) {
        const q = testRecordListQuery.parse({ ...params, page: String(page) });
        got.push(...(await listRecords(t.app.ctx.db, q, planning)).items.map((r) => r.id));
      }
      expect(got, `sortNewestAtMost ${planning.sortNewestAtMost}`).toEqual(want);
    }
  });

  it('gives an estimated total when counting would cost more than the page, and the exact one once the page ends the list', async () => {
    const estimating = { ...LIST_PLANNING, countCostAtMost: -1 };
    const { params, want } = twoFilters();
    const n = want.length;
    const first = await listRecords(t.app.ctx.db, testRecordListQuery.parse({ ...params, page: '1' }), estimating);
    expect(first.items).toHaveLength(5);
    expect(first.totalEstimated).toBe(true);
    expect(first.total).toBeGreaterThanOrEqual(5);
    const lastPage = Math.ceil(n / 5);
    const last = await listRecords(t.app.ctx.db, testRecordListQuery.parse({ ...params, page: String(lastPage) }), estimating);
    expect(last.items).toHaveLength(n % 5);
    expect(last.total).toBe(n);
    expect(last.totalEstimated).toBeUndefined();
    // A filter nothing matches ends on its first page: its total is 0, whatever the planner expected.
    const none = await listRecords(t.app.ctx.db, testRecordListQuery.parse({ ...params, serial: 'NONE-0001' }), estimating);
    expect(none).toMatchObject({ items: [], total: 0 });
    expect(none.totalEstimated).toBeUndefined();
    // Counted, under the product's planning.
    const exact = await listRecords(t.app.ctx.db, testRecordListQuery.parse({ ...params, page: '1' }));
    expect(exact.total).toBe(n);
    expect(exact.totalEstimated).toBeUndefined();
  });

  it('exports every sort in the same order, walking the keyset across merged parts', async () => {
    for (const sort of TEST_RECORD_SORTS)
      for (const order of ['asc', 'desc'] as const) {
        const q = testRecordListQuery.parse({ sort, order, pageSize: 'all' });
        const got: string[] = [];
        for await (const page of recordPages(t.app.ctx.db, q, 7)) got.push(...page.map((r) => r.id));
        expect(got, `${sort} ${order}`).toEqual(expected(sort, order === 'desc', () => true));
      }
  });

  it('exports a tested-at range in every sort, walking the keyset over the sorted range', async () => {
    for (const sort of TEST_RECORD_SORTS)
      for (const order of ['asc', 'desc'] as const) {
        const q = testRecordListQuery.parse({ sort, order, pageSize: 'all', testedFrom: '2024-03-01', testedTo: '2024-03-01' });
        const got: string[] = [];
        for await (const page of recordPages(t.app.ctx.db, q, 7)) got.push(...page.map((r) => r.id));
        const want = expected(sort, order === 'desc', (r) => r.testedAt < '2024-03-02');
        expect(want.length).toBeGreaterThan(7);
        expect(got, `${sort} ${order}`).toEqual(want);
      }
  });
});
