/** Stored reports: the reuse lookup, the numbering, and the verification lookups. */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { reportCounters, reports, type ReportRow } from '../../db/schema/index';

/** Everything but the bytes, for lookups that answer with facts. */
const facts = {
  id: reports.id,
  code: reports.code,
  number: reports.number,
  serial: reports.serial,
  productId: reports.productId,
  productName: reports.productName,
  documentType: reports.documentType,
  language: reports.language,
  dataVersion: reports.dataVersion,
  sourceVersion: reports.sourceVersion,
  sha256: reports.sha256,
  size: reports.size,
  issuedAt: reports.issuedAt,
  certificateFingerprint: reports.certificateFingerprint,
  flags: reports.flags,
  supersededBy: reports.supersededBy,
  supersededReason: reports.supersededReason,
};
export type ReportFacts = Omit<ReportRow, 'bytes'>;

export async function findReusable(
  db: Executor,
  k: { serial: string; language: 'en' | 'zh'; sourceVersion: string },
): Promise<ReportRow | null> {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.serial, k.serial), eq(reports.language, k.language), eq(reports.sourceVersion, k.sourceVersion)))
    .limit(1);
  return row ?? null;
}

/** The next number of the year; the counter row stays locked until the transaction ends (no gaps, no twins). */
export async function nextNumber(tx: Executor, year: number): Promise<number> {
  const [row] = await tx
    .insert(reportCounters)
    .values({ year, last: 1 })
    .onConflictDoUpdate({ target: reportCounters.year, set: { last: sql`${reportCounters.last} + 1` } })
    .returning({ last: reportCounters.last });
  return row!.last;
}

export async function insertReport(tx: Executor, row: typeof reports.$inferInsert): Promise<void> {
  await tx.insert(reports).values(row);
}

export async function codeTaken(db: Executor, code: string): Promise<boolean> {
  const [row] = await db.select({ id: reports.id }).from(reports).where(eq(reports.code, code)).limit(1);
  return !!row;
}

export async function findFactsBy(db: Executor, by: { id: string } | { code: string } | { sha256: Buffer }): Promise<ReportFacts | null> {
  const where = 'id' in by ? eq(reports.id, by.id) : 'code' in by ? eq(reports.code, by.code) : eq(reports.sha256, by.sha256);
  const [row] = await db.select(facts).from(reports).where(where).limit(1);
  return row ?? null;
}

export async function findBytes(db: Executor, id: string): Promise<{ bytes: Buffer; serial: string; sha256: Buffer } | null> {
  const [row] = await db
    .select({ bytes: reports.bytes, serial: reports.serial, sha256: reports.sha256 })
    .from(reports)
    .where(eq(reports.id, id))
    .limit(1);
  return row ?? null;
}

/**
 * Marks the unit's earlier reports in the new one's language as superseded by it: 'data' when the unit's
 * test data or its judgement differ from the new report's, 'document' when only the layout, texts or
 * signing certificate changed. In the issuing transaction.
 */
export async function supersedeEarlier(
  db: Executor,
  r: { id: string; serial: string; language: string; dataVersion: string },
): Promise<void> {
  await db.execute(sql`UPDATE reports SET superseded_by = ${r.id},
      superseded_reason = CASE WHEN data_version = ${r.dataVersion} THEN 'document' ELSE 'data' END
    WHERE serial = ${r.serial} AND language = ${r.language} AND id <> ${r.id} AND superseded_by IS NULL`);
}

/** Number and issue date of a report (the one that superseded another). */
export async function findHead(db: Executor, id: string): Promise<{ id: string; number: string; issuedAt: Date } | null> {
  const [row] = await db
    .select({ id: reports.id, number: reports.number, issuedAt: reports.issuedAt })
    .from(reports)
    .where(eq(reports.id, id))
    .limit(1);
  return row ?? null;
}
