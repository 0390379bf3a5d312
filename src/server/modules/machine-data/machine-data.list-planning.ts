/**
 * How the Machine Data list reads a filtered and sorted page: by walking the sort's index (or merging its
 * parts, machine-data.list.ts) or by reading the filtered rows through their own index and sorting them. The
 * planner's estimate of the filtered rows decides (docs/decisions/0030-lists-at-a-year.md, 0070).
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
 * (docs/decisions/0030-lists-at-a-year.md). Test type, medium and result are merges of index ranges that
 * end in tested_at (0014); the serial index holds tested_at, so its walk tests the range on index entries
 * (17 ms for a week against 69 ms sorting the week); tested-at is the range's own index.
 */
const WALKS_PAST_DATES: ReadonlySet<TestRecordSort> = new Set<TestRecordSort>(['recordId', 'receivedAt', 'testPressure']);

/** When the filtered rows are sorted rather than the sort's index walked (filteredToSort); tests set them to 0 to walk. */
export interface ListPlanning {
  /** a tested-at range under a sort that does not bound it */
  sortRangeAtMost: number;
  /** any other filter */
  sortFilteredAtMost: number;
}

export const LIST_PLANNING: ListPlanning = {
  // a week (60,480 rows) is measured in decision 0030
  sortRangeAtMost: 100_000,
  // A product's records sorted by test type walked each (test type, medium) range past the other products'
  // records (48 ms at 1,000,000 records), a series' sorted by pressure each test type's pressures (310 ms);
  // at ten years, the largest product's 60,000 by pressure 14 s. Sorting is bounded by the rows (50,000 in
  // about 40 ms) where a walk is not; but the fails of ten years (170,000) sort in 260 ms and merge their
  // parts in a few.
  sortFilteredAtMost: 100_000,
};

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
): Promise<number | null> {
  if (!q.sort || q.sort === 'testedAt' || !where) return null;
  const dated = WALKS_PAST_DATES.has(q.sort) && (q.testedFrom || q.testedTo);
  const planned = await estimateRows(db, where);
  return planned <= (dated ? planning.sortRangeAtMost : planning.sortFilteredAtMost) ? planned : null;
}

/** The planner's estimate of the rows `where` leaves. */
export async function estimateRows(db: Executor, where: SQL | undefined): Promise<number> {
  const plan = rowsOf<Record<string, unknown>>(await db.execute(sql`explain (format json) select 1 from ${t} where ${where ?? sql`true`}`));
  const raw = plan[0]?.['QUERY PLAN'];
  const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[];
  return Math.round(Number(doc[0]?.Plan?.['Plan Rows'] ?? 0));
}
