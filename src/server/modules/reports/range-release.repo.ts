/** SQL of a range's release (migration 0034): read it, store it once, and the gate's summary of its units. */
import { eq, sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client';
import { rangeReleases, type RangeReleaseRow } from '../../db/schema/index';

export async function findRelease(db: Executor, rangeId: string): Promise<RangeReleaseRow | null> {
  const [row] = await db.select().from(rangeReleases).where(eq(rangeReleases.rangeId, rangeId)).limit(1);
  return row ?? null;
}

export interface NewRelease {
  rangeId: string;
  /** null: released by the demo's inspector, who has no account */
  releasedBy: string | null;
  inspectorName: string;
  inspectorTitle: string;
  unitsNoData: number;
  unitsHeld: number;
  unitsPassed: number;
  /** the stamp the inspector released it with (stamp_images); null: none */
  stampSha256: string | null;
}

/** Stores the release unless the range has one: the row stored, or null when another release came first. */
export async function insertRelease(tx: Executor, r: NewRelease): Promise<RangeReleaseRow | null> {
  const rows = await tx
    .insert(rangeReleases)
    .values({ ...r, source: 'inspector', releasedAt: sql`now()` })
    .onConflictDoNothing({ target: rangeReleases.rangeId })
    .returning();
  return rows[0] ?? null;
}

/**
 * The units of a range that have test records, one row each, as gatesOf (reports/gate-batch.ts) reads them:
 * a unit without records has no data, so only these need the gate.
 */
export function unitsWithRecords(range: { prefix: string; width: number; startNo: bigint; endNo: bigint }) {
  return sql`SELECT DISTINCT serial_no::text AS key, prefix, width, serial_no FROM test_records
    WHERE prefix = ${range.prefix} AND width = ${range.width}
      AND serial_no BETWEEN ${range.startNo.toString()}::bigint AND ${range.endNo.toString()}::bigint`;
}

/** Whether a range exists (a release of a deleted range is a 404). */
export async function rangeExists(db: Executor, id: string): Promise<boolean> {
  return rowsOf(await db.execute(sql`SELECT 1 FROM serial_ranges WHERE id = ${id}`)).length > 0;
}
