/**
 * The list of test records and its CSV export: filters, sorts, the page and its total. Every filter has an
 * index that serves it in tested-at order (0004_machine_data.sql), every sort an index or a merge of index
 * ranges (0014, sortParts below), and the unfiltered total is read from counters kept by triggers, so the
 * first page stays an index walk at a million records.
 */
import { and, eq, gte, inArray, isNotNull, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import { ALL_PAGE_LIMIT, pageWindow } from '../../../shared/contract/common';
import {
  TEST_MEDIA,
  TEST_RESULTS,
  TEST_TYPES,
  TOTAL_COUNT_LIMIT,
  type TestRecord,
  type TestRecordListQuery,
  type TestRecordSort,
} from '../../../shared/contract/machine-data';
import { normaliseSerial, parseSerial } from '../../../shared/serial';
import { rowsOf, type Executor } from '../../db/client';
import { machines, testRecords, testRecordTotals } from '../../db/schema/index';
import { isUuid, MAX_OFFSET, withoutNul } from '../../db/errors';
import { selectRecords, toTestRecord } from './machine-data.repo';
import { countPlan, filteredToSort, LIST_PLANNING, type CountPlan, type ListPlanning } from './machine-data.list-planning';

const t = testRecords;

type Filter = Omit<TestRecordListQuery, 'page' | 'pageSize' | 'sort' | 'order'>;

/** A serial finds that unit's records (any serial, normalised); other text finds a series by its prefix. */
function serialCondition(text: string): SQL {
  const s = parseSerial(text);
  if (s) return and(eq(t.prefix, s.prefix), eq(t.width, s.width), eq(t.serialNo, s.number))!;
  return eq(t.prefix, withoutNul(normaliseSerial(text)).slice(0, 200));
}

/** The upper bound of a date (a whole UTC day) or a date-time. */
function bound(text: string, end: boolean): { op: 'gte' | 'lte' | 'lt'; at: Date } {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const day = new Date(`${text}T00:00:00Z`);
    return end ? { op: 'lt', at: new Date(day.getTime() + 86_400_000) } : { op: 'gte', at: day };
  }
  return { op: end ? 'lte' : 'gte', at: new Date(text) };
}

function whereOf(q: Filter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (q.q) parts.push(serialCondition(q.q));
  if (q.serial) parts.push(serialCondition(q.serial));
  if (q.productId !== undefined) parts.push(isUuid(q.productId) ? eq(t.productId, q.productId) : sql`false`);
  if (q.machineId !== undefined) parts.push(isUuid(q.machineId) ? eq(t.machineId, q.machineId) : sql`false`);
  if (q.result) parts.push(eq(t.result, q.result));
  // disagreement: the partial index test_records_disagree_idx holds exactly these rows (migration 0010).
  if (q.verdict === 'disagreement') parts.push(and(eq(t.result, 'pass'), eq(t.verdict, 'nonconforming')));
  // nonconforming: the partial test_records_nonconforming_idx (0014) holds exactly these rows, and counts them
  // without reading the table.
  else if (q.verdict) parts.push(eq(t.verdict, q.verdict));
  if (q.testType) parts.push(eq(t.testType, q.testType));
  // product_id is set exactly when range_id is (a CHECK says so), and the product index serves IS NULL.
  if (q.matched === true) parts.push(isNotNull(t.productId));
  if (q.matched === false) parts.push(isNull(t.productId));
  for (const [text, end] of [
    [q.testedFrom, false],
    [q.testedTo, true],
  ] as const) {
    if (!text) continue;
    const b = bound(text, end);
    parts.push(b.op === 'gte' ? gte(t.testedAt, b.at) : b.op === 'lt' ? lt(t.testedAt, b.at) : lte(t.testedAt, b.at));
  }
  return and(...parts);
}

interface SortKey {
  expr: SQL;
  /** the SQL type a cursor value is cast back to */
  type: string;
}
const key = (expr: unknown, type: string): SortKey => ({ expr: sql`${expr}`, type });
const ID = key(t.id, 'bigint');
const TESTED = key(t.testedAt, 'timestamptz');
const SORT_KEYS: Record<TestRecordSort, SortKey[]> = {
  testedAt: [TESTED, ID],
  receivedAt: [key(t.receivedAt, 'timestamptz'), ID],
  serial: [key(t.prefix, 'text'), key(t.width, 'smallint'), key(t.serialNo, 'bigint'), TESTED, ID],
  recordId: [key(t.recordId, 'text'), ID],
  testType: [key(t.testType, 'text'), TESTED, ID],
  medium: [key(t.medium, 'text'), TESTED, ID],
  testPressure: [key(t.testPressure, 'numeric'), ID],
  result: [key(t.result, 'text'), TESTED, ID],
};

/** Without a sort: newest test first. */
function sortOf(q: Pick<TestRecordListQuery, 'sort' | 'order'>): { keys: SortKey[]; desc: boolean } {
  return q.sort ? { keys: SORT_KEYS[q.sort], desc: q.order === 'desc' } : { keys: SORT_KEYS.testedAt, desc: true };
}

function orderOf(keys: SortKey[], desc: boolean): SQL[] {
  return keys.map((k) => sql`${k.expr} ${desc ? sql`desc` : sql`asc`}`);
}

const MAX_BENCH_PARTS = 64;

/**
 * Sorts that no index gives in one walk, but whose order is a merge of parts that an index each serves in
 * that order (docs/decisions/0030-lists-at-a-year.md): test type, one range per (test type, medium) of
 * test_records_type_medium_idx, and medium, one range per test type (the CHECKs of 0004 name every value);
 * test pressure, one range per test type of test_records_type_pressure_idx (0049);
 * result, the failures on the partial test_records_fail_idx and the passes on the tested-at index; record
 * id, one range per bench of the
 * unique (bench, record id) index, and the CSV-uploaded records (no bench). Benches holding records are
 * never deleted (machines.service.ts), so the benches table names every bench of a record (up to
 * MAX_BENCH_PARTS of them; beyond, planning a part per bench costs more than it saves). Null: one ORDER BY
 * serves the sort (an index of its own, or the filtered set sorted).
 */
async function sortParts(db: Executor, q: Pick<TestRecordListQuery, 'sort' | 'testType' | 'result' | 'machineId'>): Promise<SQL[] | null> {
  // A part the filter excludes is left out, not planned: a contradiction the planner finds only late can
  // still be planned as a parallel scan, whose workers cost more than the page (26 ms).
  const types = q.testType ? [q.testType] : TEST_TYPES;
  switch (q.sort) {
    case 'testType':
      return types.flatMap((type) => TEST_MEDIA.map((medium) => and(eq(t.testType, type), eq(t.medium, medium))!));
    case 'medium':
      // Within one test type the index is already in (medium, tested_at, id) order.
      return types.map((type) => eq(t.testType, type));
    case 'testPressure':
      // test_records_type_pressure_idx (0049): one range of (test_pressure, id) per test type.
      return types.map((type) => eq(t.testType, type));
    case 'result':
      return (q.result ? [q.result] : TEST_RESULTS).map((result) => eq(t.result, result));
    case 'recordId': {
      if (q.machineId !== undefined) return isUuid(q.machineId) ? [eq(t.machineId, q.machineId)] : null;
      const benches = await db
        .select({ id: machines.id })
        .from(machines)
        .limit(MAX_BENCH_PARTS + 1);
      if (benches.length > MAX_BENCH_PARTS) return null;
      return [...benches.map((b) => eq(t.machineId, b.id)), isNull(t.machineId)];
    }
    default:
      return null;
  }
}

/**
 * The ids of one page in the keys' order: `candidates(fields)` is a select of `id` and of the sort keys as
 * `fields` names them (`k0, k1, …`); the page is ordered by those names outside it. Only the ids and sort
 * keys are carried; the page's rows are read by id afterwards.
 */
async function pageIdsOver(
  db: Executor,
  keys: SortKey[],
  desc: boolean,
  limit: number,
  offset: number,
  candidates: (fields: SQL) => SQL,
): Promise<number[]> {
  const dir = desc ? sql`desc` : sql`asc`;
  const fields = sql.join(
    keys.map((k, i) => sql`${k.expr} as ${sql.raw(`k${i}`)}`),
    sql`, `,
  );
  const outer = sql.join(
    keys.map((_, i) => sql`${sql.raw(`k${i}`)} ${dir}`),
    sql`, `,
  );
  const rows = rowsOf<{ id: string | number }>(
    await db.execute(sql`select id from (${candidates(fields)}) as candidates order by ${outer} limit ${limit} offset ${offset}`),
  );
  return rows.map((r) => Number(r.id));
}

/**
 * The ids of one page, in order, merged from the parts: each part's first `offset + limit` rows in the
 * sort's order (an index walk that stops there), then the page among them.
 */
function pageIdsOfParts(
  db: Executor,
  where: SQL | undefined,
  parts: SQL[],
  keys: SortKey[],
  desc: boolean,
  limit: number,
  offset: number,
): Promise<number[]> {
  return pageIdsOver(db, keys, desc, limit, offset, (fields) =>
    sql.join(
      parts.map(
        (part) =>
          sql`(select ${t.id} as id, ${fields} from ${t} where ${and(where, part)} order by ${sql.join(orderOf(keys, desc), sql`, `)} limit ${offset + limit})`,
      ),
      sql` union all `,
    ),
  );
}

/** The rows of these ids, in this order. */
async function recordsByIds(db: Executor, ids: number[], extra: Record<string, unknown> = {}) {
  if (ids.length === 0) return [];
  const rows = await selectRecords(db, extra).where(inArray(t.id, ids));
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
}

/** Past this many rows a merge of parts would read more than sorting the filtered set once. */
const PARTS_WINDOW = ALL_PAGE_LIMIT;

/**
 * The ids of one page of the filtered rows sorted by the keys, the filter read first. OFFSET 0 keeps the
 * subquery apart, so it is planned on its own (the range's index) and the page is a top-N sort of its rows,
 * never a walk of the sort's index.
 */
function pageIdsOfFilteredSort(
  db: Executor,
  where: SQL | undefined,
  keys: SortKey[],
  desc: boolean,
  limit: number,
  offset: number,
): Promise<number[]> {
  return pageIdsOver(
    db,
    keys,
    desc,
    limit,
    offset,
    (fields) => sql`select ${t.id} as id, ${fields} from ${t} ${where ? sql`where ${where}` : sql``} offset 0`,
  );
}

export async function listRecords(
  db: Executor,
  q: TestRecordListQuery,
  planning: ListPlanning = LIST_PLANNING,
): Promise<{ items: TestRecord[]; total: number; totalEstimated?: boolean }> {
  const { limit, offset } = pageWindow(q);
  const { keys, desc } = sortOf(q);
  if (offset > MAX_OFFSET) return { items: [], ...(await countRecords(db, q, planning)) };
  const where = whereOf(q);
  // One EXPLAIN for both questions: whether to sort the filtered rows, and whether to count them.
  let planned: Promise<CountPlan> | undefined;
  const plan = () => (planned ??= countPlan(db, where, TOTAL_COUNT_LIMIT + 1));
  const ranged = await filteredToSort(db, q, where, planning, async () => (await plan()).rows);
  const parts = ranged === null && offset + limit <= PARTS_WINDOW ? await sortParts(db, q) : null;
  const rows =
    ranged !== null
      ? pageIdsOfFilteredSort(db, where, keys, desc, limit, offset).then((ids) => recordsByIds(db, ids))
      : parts
        ? pageIdsOfParts(db, where, parts, keys, desc, limit, offset).then((ids) => recordsByIds(db, ids))
        : selectRecords(db)
            .where(where)
            .orderBy(...orderOf(keys, desc))
            .limit(limit)
            .offset(offset);
  const [items, count] = await Promise.all([rows, countRecords(db, q, planning, plan)]);
  return { items: items.map((r) => toTestRecord(r)), ...withinPage(count, items.length, limit, offset) };
}

/**
 * An estimated total corrected by the page itself: a page shorter than asked for ends the list, so the total is
 * exact; a full page means at least that many (the planner's estimate of two filters it thinks independent can
 * be far off either way: a bench and a product it never tested, 2,881 expected, none there).
 */
function withinPage(
  count: { total: number; totalEstimated?: boolean },
  rows: number,
  limit: number,
  offset: number,
): { total: number; totalEstimated?: boolean } {
  if (!count.totalEstimated) return count;
  if (rows < limit && (rows > 0 || offset === 0)) return { total: offset + rows };
  return { total: Math.max(count.total, offset + rows), totalEstimated: true };
}

const isUnfiltered = (q: Filter) =>
  !q.q &&
  !q.serial &&
  q.productId === undefined &&
  q.result === undefined &&
  q.verdict === undefined &&
  q.testType === undefined &&
  q.matched === undefined &&
  !q.testedFrom &&
  !q.testedTo;

/**
 * Unfiltered, by bench only, or "matched" only: the counters the triggers keep ("matched" is that total less
 * the unmatched records, which the product index counts; they are the few). Any other filter counts its
 * matches up to TOTAL_COUNT_LIMIT; beyond, the planner's estimate stands in (totalEstimated).
 */
async function countRecords(
  db: Executor,
  q: Filter,
  planning: ListPlanning,
  plan: () => Promise<CountPlan> = () => countPlan(db, whereOf(q), TOTAL_COUNT_LIMIT + 1),
): Promise<{ total: number; totalEstimated?: boolean }> {
  const bySelf = isUnfiltered({ ...q, matched: undefined });
  if (bySelf && (q.matched === undefined || (q.matched === true && q.machineId === undefined))) {
    const total = await countAll(db, q.machineId);
    if (q.matched !== true) return { total };
    const [row] = await db
      .select({ n: sql<string>`count(*)` })
      .from(t)
      .where(isNull(t.productId));
    return { total: total - Number(row?.n ?? 0) };
  }
  const where = whereOf(q);
  // A filter the planner expects to match far more than the limit is not counted at all: counting even up to
  // the limit walks rows no index holds (a test type, "pass") and costs more than the page. Nor is one whose
  // count the planner costs above countCostAtMost: two filters with no index of both read a bitmap of each, or
  // test one on every row of the other, and at ten years that took 53–393 ms for a few thousand matches.
  const { rows: planned, cost } = await plan();
  if (planned > ESTIMATE_ONLY_ABOVE || cost > planning.countCostAtMost) return { total: planned, totalEstimated: true };
  const [row] = await db.select({ n: sql<string>`count(*)` }).from(
    sql`(${db
      .select({ one: sql`1` })
      .from(t)
      .where(where)
      .limit(TOTAL_COUNT_LIMIT + 1)}) as capped`,
  );
  const n = Number(row?.n ?? 0);
  if (n <= TOTAL_COUNT_LIMIT) return { total: n };
  return { total: Math.max(planned, n), totalEstimated: true };
}

/** Ten times the limit: a planner's estimate this far above it is not a small set misjudged. */
const ESTIMATE_ONLY_ABOVE = TOTAL_COUNT_LIMIT * 10;

async function countAll(db: Executor, machineId: string | undefined): Promise<number> {
  if (machineId !== undefined) {
    if (!isUuid(machineId)) return 0;
    const [row] = await db.select({ n: machines.recordCount }).from(machines).where(eq(machines.id, machineId));
    return Number(row?.n ?? 0);
  }
  const [row] = await db
    .select({
      n: sql<string>`(select coalesce(sum(${machines.recordCount}), 0) from ${machines}) + (select ${testRecordTotals.uploaded} from ${testRecordTotals})`,
    })
    .from(sql`(select 1) as one`);
  return Number(row?.n ?? 0);
}

/** The filtered, sorted list in pages for the CSV export, walked by keyset so each page is an index step. */
export async function* recordPages(
  db: Executor,
  q: TestRecordListQuery,
  size = 2000,
  planning: ListPlanning = LIST_PLANNING,
): AsyncGenerator<TestRecord[]> {
  const { keys, desc } = sortOf(q);
  const cursorFields = Object.fromEntries(keys.map((k, i) => [`k${i}`, sql<string>`${k.expr}::text`]));
  // Each page of the export sorts the filtered rows itself when the list's first page would (filteredToSort).
  const ranged = (await filteredToSort(db, q, whereOf(q), planning)) !== null;
  const parts = ranged ? null : await sortParts(db, q);
  let after: string[] | null = null;
  for (;;) {
    const cursor: SQL | undefined = after
      ? sql`(${sql.join(
          keys.map((k) => k.expr),
          sql`, `,
        )}) ${desc ? sql`<` : sql`>`} (${sql.join(
          keys.map((k, i) => sql`${after![i]}::${sql.raw(k.type)}`),
          sql`, `,
        )})`
      : undefined;
    const where = and(whereOf(q), cursor);
    const rows = ranged
      ? await recordsByIds(db, await pageIdsOfFilteredSort(db, where, keys, desc, size, 0), cursorFields)
      : parts
        ? await recordsByIds(db, await pageIdsOfParts(db, where, parts, keys, desc, size, 0), cursorFields)
        : await selectRecords(db, cursorFields)
            .where(where)
            .orderBy(...orderOf(keys, desc))
            .limit(size);
    if (rows.length > 0) yield rows.map((r) => toTestRecord(r));
    if (rows.length < size) return;
    const last = rows[rows.length - 1] as Record<string, unknown>;
    after = keys.map((_, i) => String(last[`k${i}`]));
  }
}
