/** Stored reports: the reuse lookup, the numbering, and the verification lookups. */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client';
import type { ParsedSerial } from '../../../shared/serial';
import { reportCertificates, reportCounters, reports, type ReportRow } from '../../db/schema/index';
import type { ReportLanguage } from '../../../shared/contract/reports';

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
  deliveryUnitId: reports.deliveryUnitId,
};
export type ReportFacts = Omit<ReportRow, 'bytes'>;

export async function findReusable(
  db: Executor,
  k: { serial: string; language: ReportLanguage; sourceVersion: string },
): Promise<ReportRow | null> {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.serial, k.serial), eq(reports.language, k.language), eq(reports.sourceVersion, k.sourceVersion)))
    .limit(1);
  return row ?? null;
}

/**
 * The newest certificate of a unit issued without an order, in the language asked for if there is one (else
 * in another): what answers for a unit whose records are archived (record-archive.ts).
 */
export async function newestStandalone(db: Executor, serial: string, language: ReportLanguage): Promise<ReportRow | null> {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.serial, serial), isNull(reports.supersededBy), isNull(reports.deliveryUnitId)))
    .orderBy(desc(sql`${reports.language} = ${language}`), desc(reports.issuedAt))
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

/**
 * The certificate's number and issue date: those its rendering in another language took, else the year's next
 * number, kept for the renderings to come. The caller holds the certificate's advisory lock.
 */
export async function certificateNumber(
  tx: Executor,
  k: { serial: string; sourceVersion: string },
  now: Date,
): Promise<{ number: string; issuedAt: Date }> {
  const [taken] = await tx
    .select({ number: reportCertificates.number, issuedAt: reportCertificates.issuedAt })
    .from(reportCertificates)
    .where(and(eq(reportCertificates.serial, k.serial), eq(reportCertificates.sourceVersion, k.sourceVersion)))
    .limit(1);
  if (taken) return taken;
  const year = now.getUTCFullYear();
  const number = `TR-${year}-${String(await nextNumber(tx, year)).padStart(6, '0')}`;
  await tx.insert(reportCertificates).values({ serial: k.serial, sourceVersion: k.sourceVersion, number, issuedAt: now });
  return { number, issuedAt: now };
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
  r: { id: string; serial: string; language: string; dataVersion: string; deliveryUnitId: number | null },
): Promise<{ id: string; number: string }[]> {
  // An order's certificate replaces the earlier ones of the same delivery unit; the unit's certificate
  // without an order replaces only its own kind: the two are different documents of one unit.
  const result = await db.execute(sql`UPDATE reports SET superseded_by = ${r.id},
      superseded_reason = CASE WHEN data_version = ${r.dataVersion} THEN 'document' ELSE 'data' END
    WHERE serial = ${r.serial} AND language = ${r.language} AND id <> ${r.id} AND superseded_by IS NULL
      AND delivery_unit_id IS NOT DISTINCT FROM ${r.deliveryUnitId}::bigint
    RETURNING id, number`);
  // The ones it superseded, for the customer's webhook events (webhooks/certificate-events.ts).
  return rowsOf<{ id: string; number: string }>(result);
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

/** The stored report of a reuse key, without its bytes. */
export async function findReusableFacts(
  db: Executor,
  k: { serial: string; language: ReportLanguage; sourceVersion: string },
): Promise<ReportFacts | null> {
  const [row] = await db
    .select(facts)
    .from(reports)
    .where(and(eq(reports.serial, k.serial), eq(reports.language, k.language), eq(reports.sourceVersion, k.sourceVersion)))
    .limit(1);
  return row ?? null;
}

/**
 * Every input of the reuse key of a unit's report, in one statement: the range holding the serial and its
 * product (as findRangeHolding finds them), the settings revision and certificate, and the data version of
 * the unit's records (computed here as report-data.ts's dataVersion computes it). Null when no range holds the serial.
 */
export async function reuseInputs(
  db: Executor,
  s: ParsedSerial,
  serial: string,
  language: ReportLanguage,
): Promise<{
  rangeId: string;
  rangeUpdatedAt: Date;
  productId: string;
  productUpdatedAt: Date;
  revision: number;
  fingerprint: string | null;
  dataVersion: string;
  traceVersion: string | null;
  newest: {
    id: string;
    number: string;
    code: string;
    sha256: string;
    issuedAt: Date;
    flags: ReportRow['flags'];
    sourceVersion: string;
  } | null;
} | null> {
  const n = s.number.toString();
  const result = await db.execute(sql`
    SELECT h.id::text AS range_id, floor(extract(epoch FROM h.updated_at) * 1000)::float8 AS range_at, p.id::text AS product_id,
           floor(extract(epoch FROM p.updated_at) * 1000)::float8 AS product_at, st.revision,
           rep.id AS stored_id, rep.number AS stored_number, rep.code AS stored_code, encode(rep.sha256, 'hex') AS stored_sha256,
           rep.issued_at AS stored_issued_at, rep.flags AS stored_flags, rep.source_version AS stored_version,
           CASE WHEN st.cert_pem IS NOT NULL AND st.key_pem IS NOT NULL THEN st.cert_fingerprint END AS fingerprint,
           -- the unit's parts and heats (NULL when it traces none: three index probes spare the function then)
           CASE WHEN EXISTS (SELECT 1 FROM product_parts pp WHERE pp.product_id = p.id)
                  OR EXISTS (SELECT 1 FROM range_heats rh WHERE rh.range_id = h.id)
                  OR EXISTS (SELECT 1 FROM unit_heats uh WHERE uh.prefix = ${s.prefix} AND uh.width = ${s.width} AND uh.serial_no = ${n}::bigint)
                THEN unit_trace_version(${s.prefix}::text, ${s.width}::smallint, ${n}::bigint, p.id) END AS trace_version,
           -- dataVersion (report-data.ts) of the unit's records, the same bytes hashed
           (SELECT encode(sha256(coalesce(string_agg(convert_to(r.id || ':' || r.verdict || ':' || r.reasons || ':', 'UTF8')
                                                     || r.content_hash || '\x0a'::bytea, ''::bytea ORDER BY r.id), ''::bytea)), 'hex')
              FROM test_records r WHERE r.prefix = ${s.prefix} AND r.width = ${s.width} AND r.serial_no = ${n}::bigint
                AND (NOT st.bench_records_only OR (r.upload_id IS NULL AND r.machine_id IS NOT NULL))) AS data_version
      FROM (SELECT id, product_id, end_no, updated_at FROM serial_ranges
             WHERE prefix = ${s.prefix} AND width = ${s.width} AND start_no <= ${n}::bigint
             ORDER BY start_no DESC LIMIT 1) h
      JOIN products p ON p.id = h.product_id
      CROSS JOIN settings st
      -- The newest report of the unit in the language: the reuse key's match in the common case (checked by the caller).
      LEFT JOIN LATERAL (SELECT id, number, code, sha256, issued_at, flags, source_version FROM reports
                          WHERE serial = ${serial} AND language = ${language} AND superseded_by IS NULL
                            AND delivery_unit_id IS NULL
                          ORDER BY issued_at DESC LIMIT 1) rep ON true
     WHERE h.end_no >= ${n}::bigint`);
  const row = rowsOf<{
    range_id: string;
    range_at: number;
    product_id: string;
    product_at: number;
    revision: number;
    fingerprint: string | null;
    data_version: string;
    trace_version: string | null;
    stored_id: string | null;
    stored_number: string;
    stored_code: string;
    stored_sha256: string;
    stored_issued_at: Date | string;
    stored_flags: ReportRow['flags'] | string;
    stored_version: string;
  }>(result)[0];
  if (!row) return null;
  return {
    rangeId: row.range_id,
    rangeUpdatedAt: new Date(Number(row.range_at)),
    productId: row.product_id,
    productUpdatedAt: new Date(Number(row.product_at)),
    revision: Number(row.revision),
    fingerprint: row.fingerprint,
    dataVersion: row.data_version,
    traceVersion: row.trace_version,
    newest: row.stored_id
      ? {
          id: row.stored_id,
          number: row.stored_number,
          code: row.stored_code,
          sha256: row.stored_sha256,
          issuedAt: new Date(row.stored_issued_at),
          flags: typeof row.stored_flags === 'string' ? (JSON.parse(row.stored_flags) as ReportRow['flags']) : row.stored_flags,
          sourceVersion: row.stored_version,
        }
      : null,
  };
}
