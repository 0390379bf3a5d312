/**
 * How the Machine Data list reads a filtered and sorted page: by walking the sort's index (or merging its
 * parts, machine-data.list.ts) or by reading the filtered rows through their own index and sorting them. The
 * planner's estimate of the filtered rows decides, with a lower bound for filters whose matches lie spread over
 * every sort's order (docs/decisions/0030-lists-at-a-year.md, 0070, 0079-spread-filters-walk.md).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { TestRecordListQuery, TestRecordSort } from '../../../shared/contract/machine-data';
import { rowsOf, type Executor } from '../../db/client';
import { testRecords as t } from '../../db/schema/index';

/**
 * Sorts whose index (or merged parts) does not hold tested_at, so a tested-at range is tested on each row
 * the walk fetches from the table. Record ids, received-at times and pressures follow the order of testing
 * (a bench numbers its records as it tests), so such a walk can fetch every record outside the range before
 * it finds a page: a week of tests sorted by record id fetched 93,000 rows per bench at 1,000,000 records
 * (docs/decisions/0030-lists-at-a-year.md). Medium is a merge of one range per test type, in (medium,
 * tested_at) order: the range is tested on every entry of a medium before the next, which at ten years read a
 * test type's ten years for the last month (671 ms). Test type and result are merges of index ranges that end
 * in tested_at (0014); the serial index holds tested_at, so its walk tests the range on index entries (17 ms
 * for a week against 69 ms sorting the week); tested-at is the range's own index.
 */
const WALKS_PAST_DATES: ReadonlySet<TestRecordSort> = new Set<TestRecordSort>(['recordId', 'receivedAt', 'testPressure', 'medium']);

/**
 * When the filtered rows are sorted rather than the sort's index walked (filteredToSort; tests set them to 0 to
 * walk), and when a total is counted rather than estimated (countPlan).
 */
export interface ListPlanning {
  /** a tested-at range under a sort that does not bound it */
  sortRangeAtMost: number;
  /** filters of a result, a verdict or a test type only (spreadOnly, FILTER_MATCHES) */
  sortSpreadAtMost: number;
  /** any other filter */
  sortFilteredAtMost: number;
  /** two filters or more, newest first: a set this small is read and sorted, not walked for */
  sortNewestAtMost: number;
  /** the planner's cost of counting up to TOTAL_COUNT_LIMIT matches, past which the total is its estimate */
  countCostAtMost: number;
}

export const LIST_PLANNING: ListPlanning = {
  // A week (60,480 rows) is measured in decision 0030. At ten years the last month held 100,554 records, and an
  // estimate a few rows either side of 100,000 decided between sorting them (50–97 ms) and walking the record
  // ids past ten years of other months (1.9–4.0 s): sorting grows with the range, a walk with what lies beyond
  // it, so the bound sits well above a month.
  sortRangeAtMost: 250_000,
  // A product's records sorted by test type walked each (test type, medium) range past the other products'
  // records (48 ms at 1,000,000 records), a series' sorted by pressure each test type's pressures (310 ms);
  // at ten years, the largest product's 60,000 by pressure 14 s. Sorting is bounded by the rows (50,000 in
  // about 40 ms) where a walk is not; but the fails of ten years (170,000) sort in 260 ms and merge their
  // parts in a few.
  sortFilteredAtMost: 100_000,
  // A result, a verdict or a test type is spread over every sort's order: a walk finds a page after about a
  // page over its share of the records, where sorting reads every match from the table. At ten years the
  // 68,807 fails sorted by serial took 425 ms read and sorted, 5 ms walked; sorting pays only for a set that
  // fits in the few milliseconds of a walk.
  sortSpreadAtMost: 5_000,
  // Newest first, two filters with no index of both walk one filter's index testing the other on each row: at
  // ten years a product's 59 disagreements lay far behind its newest records (163 ms walked; read and sorted,
  // 11 ms). A few hundred rows sort in well under a millisecond, however they are read.
  sortNewestAtMost: 1000,
  // At ten years (docs/decisions/0073-list-totals-by-cost.md): capped counts the planner costs under 5,000 took
  // up to 11 ms, those over 16,000 took 53–393 ms (two filters with no index of both, read through a bitmap
  // of each or row by row).
  countCostAtMost: 10_000,
};

type ListField = Exclude<keyof TestRecordListQuery, 'page' | 'pageSize' | 'sort' | 'order'>;

/** The filter each of the query's fields sets: a tested-at range is one filter of two fields. */
const FILTER_OF = {
  q: 'q',
  serial: 'serial',
  productId: 'product',
  machineId: 'bench',
  matched: 'matched',
  testedFrom: 'testedAt',
  testedTo: 'testedAt',
  result: 'result',
  verdict: 'verdict',
  testType: 'testType',
} as const satisfies Record<ListField, string>;
type ListFilter = (typeof FILTER_OF)[ListField];
const LIST_FIELDS = Object.keys(FILTER_OF) as ListField[];

/**
 * Where each of the list's filters has its matches in a sort's order: together in one part of it, as a
 * product's records lie among its series, a bench's in its record ids, or a week's in every order that follows
 * testing; or spread over all of it, as a test's result does not depend on its serial, record id, pressure or
 * arrival. Every filter of the query must be named here (the types say so).
 */
const FILTER_MATCHES: Readonly<Record<ListFilter, 'clustered' | 'spread'>> = {
  q: 'clustered',
  serial: 'clustered',
  product: 'clustered',
  bench: 'clustered',
  matched: 'clustered',
  testedAt: 'clustered',
  result: 'spread',
  verdict: 'spread',
  testType: 'spread',
};

/** The filters set, each once. */
export function filtersSet(q: TestRecordListQuery): ListFilter[] {
  return [...new Set(LIST_FIELDS.filter((f) => q[f] !== undefined && q[f] !== '').map((f) => FILTER_OF[f]))];
}

/** Whether every filter set has its matches spread over every sort's order. */
const spreadOnly = (q: TestRecordListQuery) => filtersSet(q).every((f) => FILTER_MATCHES[f] === 'spread');

/**
 * With a filter and a sort other than by test time, the planner's estimate of the filtered rows when it is
 * small enough that sorting them beats walking the sort's index (or merging its parts); otherwise null. The
 * planner costs that walk as if the filtered rows were spread evenly over the sort's order, so it cannot be
 * left to choose: a week of tests lies at one end of the record ids, a product's records among a few series.
 */
export async function filteredToSort(
  db: Executor,
  q: TestRecordListQuery,
  where: SQL | undefined,
  planning: ListPlanning,
  /** the planner's estimate of the filtered rows, when the caller has asked for it already (countPlan) */
  estimate: () => Promise<number> = () => estimateRows(db, where),
): Promise<number | null> {
  if (!where) return null;
  if (!q.sort || q.sort === 'testedAt') {
    if (filtersSet(q).length < 2) return null;
    const planned = await estimate();
    return planned <= planning.sortNewestAtMost ? planned : null;
  }
  const dated = WALKS_PAST_DATES.has(q.sort) && (q.testedFrom || q.testedTo);
  const planned = await estimate();
  const bound = dated ? planning.sortRangeAtMost : spreadOnly(q) ? planning.sortSpreadAtMost : planning.sortFilteredAtMost;
  return planned <= bound ? planned : null;
}

export interface CountPlan {
  /** the matches the planner expects, without the cap */
  rows: number;
  /** its cost of reading up to the cap */
  cost: number;
}

/**
 * The planner's view of counting the filter's matches up to `cap`: the matches it expects, and the cost of
 * reading up to `cap` of them. A count that would read far more rows than it finds (two filters with no index
 * of both) costs more than the page it is shown with.
 */
export async function countPlan(db: Executor, where: SQL | undefined, cap: number): Promise<CountPlan> {
  const capped = sql`select count(*) from (select 1 from ${t} where ${where ?? sql`true`} limit ${sql.raw(String(cap))}) as capped`;
  const top = await planOf(db, capped);
  // Aggregate → Limit → the scan: its rows are the matches expected without the cap.
  const scan = top?.Plans?.[0]?.Plans?.[0];
  return { rows: Math.round(Number(scan?.['Plan Rows'] ?? 0)), cost: Number(top?.['Total Cost'] ?? 0) };
}

/** The planner's estimate of the rows `where` leaves. */
export async function estimateRows(db: Executor, where: SQL | undefined): Promise<number> {
  const top = await planOf(db, sql`select 1 from ${t} where ${where ?? sql`true`}`);
  return Math.round(Number(top?.['Plan Rows'] ?? 0));
}

type PlanNode = { 'Plan Rows'?: number; 'Total Cost'?: number; Plans?: PlanNode[] };

/** The planner's plan of `query` (EXPLAIN in JSON, as both drivers return it): its top node. */
async function planOf(db: Executor, query: SQL): Promise<PlanNode | undefined> {
  const plan = rowsOf<Record<string, unknown>>(await db.execute(sql`explain (format json) ${query}`));
  const raw = plan[0]?.['QUERY PLAN'];
  const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: PlanNode }[];
  return doc[0]?.Plan;
}
