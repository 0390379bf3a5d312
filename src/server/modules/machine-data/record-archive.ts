/**
 * The record archive (migration 0051, docs/decisions/0072-record-archive.md): when the operator sets a
 * retention, the records of every unit whose last test is older than it move from test_records to
 * test_records_archive, a unit at a time, never part of one. Moving is one statement per batch (DELETE …
 * RETURNING into the archive), so a batch moves whole or not at all, and the statement triggers of
 * test_records keep their counters, kept outcomes and open disagreements as for any delete. Several
 * instances may run it at once: a row locked by one is skipped by the other, and a row is deleted once.
 */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client';
import { settingsTable } from '../../db/schema/index';
import type { RecordArchiveInfo } from '../../../shared/contract/settings';
import type { ParsedSerial } from '../../../shared/serial';

/** Records per statement: as a bench's batch, so one move costs what one ingestion does. */
export const ARCHIVE_BATCH = 5000;

export interface ArchiveRun {
  /** records moved */
  moved: number;
  /** whether it stopped at the time budget with more to move (the next run goes on) */
  more: boolean;
}

/** The cut-off: units last tested before it are archived; null when every record is kept. */
export async function archiveCutoff(db: Executor, now: Date): Promise<Date | null> {
  const [row] = await db.select({ years: settingsTable.recordRetentionYears }).from(settingsTable);
  const years = row?.years ?? null;
  if (years === null) return null;
  const cut = new Date(now.getTime());
  cut.setUTCFullYear(cut.getUTCFullYear() - years);
  return cut;
}

/**
 * Moves the records of units last tested before the retention, oldest first, in batches, until none is left
 * or `budgetMs` has passed. The walk goes on from the last record it looked at (tested_at, id), so a unit kept
 * for a newer test is passed once per run, not read again by every batch.
 */
export async function archiveOldRecords(
  db: Executor,
  { now = new Date(), budgetMs = 60_000, batch = ARCHIVE_BATCH }: { now?: Date; budgetMs?: number; batch?: number } = {},
): Promise<ArchiveRun> {
  const cut = await archiveCutoff(db, now);
  if (!cut) return { moved: 0, more: false };
  const started = performance.now();
  let after: { testedAt: string; id: string } | null = null;
  let moved = 0;
  for (;;) {
    const from: SQL = after ? sql`AND (r.tested_at, r.id) > (${after.testedAt}::timestamptz, ${after.id}::bigint)` : sql``;
    // The candidates: the oldest records before the cut whose unit has no test since. The last of them is where
    // the next batch starts, whether it moved or was kept.
    const result: unknown = await db.execute(sql`
      WITH candidates AS (
        SELECT r.id, r.tested_at FROM test_records r
         WHERE r.tested_at < ${cut} ${from}
         ORDER BY r.tested_at, r.id
         LIMIT ${batch}),
      chosen AS (
        SELECT r.id FROM test_records r JOIN candidates c ON c.id = r.id
         WHERE NOT EXISTS (SELECT 1 FROM test_records n
                            WHERE n.prefix = r.prefix AND n.width = r.width AND n.serial_no = r.serial_no
                              AND n.tested_at >= ${cut})
           FOR UPDATE OF r SKIP LOCKED),
      moved AS (
        DELETE FROM test_records r USING chosen WHERE r.id = chosen.id RETURNING r.*),
      stored AS (
        INSERT INTO test_records_archive SELECT moved.*, now() FROM moved RETURNING tested_at),
      summed AS (
        UPDATE record_archive_summary SET records = records + n, last_archived_at = now(),
               newest_tested_at = greatest(newest_tested_at, newest)
          FROM (SELECT count(*) AS n, max(tested_at) AS newest FROM stored) AS batch WHERE batch.n > 0)
      SELECT (SELECT count(*) FROM stored) AS moved, (SELECT count(*) FROM candidates) AS walked,
             last.tested_at::text AS tested_at, last.id::text AS id
        FROM (SELECT 1) AS one
        LEFT JOIN LATERAL (SELECT tested_at, id FROM candidates ORDER BY tested_at DESC, id DESC LIMIT 1) AS last ON true`);
    const [row] = rowsOf<{ moved: unknown; walked: unknown; tested_at: string | null; id: string | null }>(result);
    moved += Number(row?.moved ?? 0);
    const walked = Number(row?.walked ?? 0);
    if (walked < batch || !row?.tested_at || !row.id) return { moved, more: false };
    after = { testedAt: row.tested_at, id: row.id };
    if (performance.now() - started > budgetMs) return { moved, more: true };
  }
}

/**
 * What the archive holds: how many records, the newest test among them and when the last were moved; kept
 * by each batch's statement in record_archive_summary (migration 0053), so asking reads one row.
 */
export async function archiveInfo(db: Executor): Promise<RecordArchiveInfo> {
  const [row] = rowsOf<{ n: unknown; newest: Date | string | null; last: Date | string | null }>(
    await db.execute(sql`SELECT records AS n, newest_tested_at AS newest, last_archived_at AS last FROM record_archive_summary`),
  );
  const iso = (v: Date | string | null | undefined) => (v ? new Date(v).toISOString() : null);
  return { records: Number(row?.n ?? 0), newestTestedAt: iso(row?.newest), lastArchivedAt: iso(row?.last) };
}

/** Whether a unit has archived records (the public lookup then answers with its stored certificate). */
export async function hasArchivedRecords(db: Executor, unit: ParsedSerial): Promise<boolean> {
  const rows = rowsOf<{ one: unknown }>(
    await db.execute(sql`SELECT 1 AS one FROM test_records_archive
      WHERE prefix = ${unit.prefix} AND width = ${unit.width} AND serial_no = ${unit.number.toString()}::bigint LIMIT 1`),
  );
  return rows.length > 0;
}
