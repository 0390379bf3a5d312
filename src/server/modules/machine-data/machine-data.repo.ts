/**
 * SQL of test records: the batch insert of the bench API, one record, a unit's history and the newest
 * received-at. The list and the export live in machine-data.list.ts.
 */
import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Assessment, RecordRange, TestRecord, TestRecordValues } from '../../../shared/contract/machine-data';
import { reasonsOf } from '../../../shared/standards/reasons';
import { editionOf, STANDARDS } from '../../../shared/standards/requirement';
import { formatSerial, type ParsedSerial } from '../../../shared/serial';
import { rowsOf, type Executor } from '../../db/client';
import { machines, productRequirements, products, recordUploads, serialRanges, testRecords } from '../../db/schema/index';
import { toRequirementView } from '../../../shared/standards/requirement-view';

const t = testRecords;

/** A validated record ready to store: its values, parsed serial, encoded samples and content hash. */
export interface PreparedRecord {
  values: TestRecordValues;
  serial: ParsedSerial;
  samples: Buffer | null;
  hash: Buffer;
  /** seconds the samples held at the test pressure (src/shared/standards/sample-checks.ts); null without samples */
  heldSeconds: number | null;
  /** what the samples say against the record (sample-checks.ts SAMPLE_REASON_BITS); null without samples */
  sampleReasons: number | null;
  /** what its instrument says (src/shared/standards/calibration.ts); 0 until the batch's instrument book is read */
  instrumentReasons: number;
}

/** The columns every read of a record shows (the list's item). */
export const recordFields = {
  id: t.id,
  recordId: t.recordId,
  serial: t.serial,
  testType: t.testType,
  medium: t.medium,
  testPressure: t.testPressure,
  holdingSeconds: t.holdingSeconds,
  leakageValue: t.leakageValue,
  leakageUnit: t.leakageUnit,
  result: t.result,
  testedAt: t.testedAt,
  operator: t.operator,
  instrumentId: t.instrumentId,
  fluidTemperature: t.fluidTemperature,
  side: t.side,
  sampleCount: t.sampleCount,
  machineId: t.machineId,
  machineName: machines.name,
  uploadId: t.uploadId,
  uploadBy: recordUploads.userLabel,
  uploadFile: recordUploads.fileName,
  uploadSha256: recordUploads.sha256,
  uploadedAt: recordUploads.uploadedAt,
  receivedAt: t.receivedAt,
  productId: t.productId,
  productName: products.name,
  productNameZh: products.nameZh,
  rangeId: t.rangeId,
  verdict: t.verdict,
  reasons: t.reasons,
  heldSeconds: t.heldSeconds,
  testStandard: products.testStandard,
  reqEdition: productRequirements.edition,
  reqRequired: productRequirements.required,
  reqUnrated: productRequirements.unrated,
  reqPressureMin: productRequirements.pressureMin,
  reqPressureMax: productRequirements.pressureMax,
  reqPressureFactor: productRequirements.pressureFactor,
  reqPressureRated: productRequirements.pressureRated,
  reqPressureExact: productRequirements.pressureExact,
  reqPressureRounding: productRequirements.pressureRounding,
  reqHoldMin: productRequirements.holdMin,
  reqHoldUnconfirmed: productRequirements.holdUnconfirmed,
  reqLeakKind: productRequirements.leakKind,
  reqLeakMax: productRequirements.leakMax,
};

/**
 * A row of selectRecords as the schema types it: the record's own columns as declared, and the bench's,
 * product's and requirement's null where the left join found nothing.
 */
type RecordRow = Awaited<ReturnType<typeof selectRecords>>[number];

/** The product's judgement of a record as the API shows it, from the record's verdict and its requirement row. */
function assessmentOf(r: RecordRow): Assessment {
  const num = (v: string | number | null) => (v === null ? null : Number(v));
  const standardId = r.testStandard;
  // The edition the row was derived from (the one in force for the product on the day of the test).
  const standard = standardId ? ((r.reqEdition ? editionOf(standardId, r.reqEdition) : null) ?? STANDARDS[standardId]) : null;
  const verdict = r.verdict;
  return {
    verdict,
    reasons: reasonsOf(r.reasons),
    requirement:
      standard && r.reqLeakKind
        ? toRequirementView(standard, {
            required: Boolean(r.reqRequired),
            pressureMin: num(r.reqPressureMin),
            pressureMax: num(r.reqPressureMax),
            unrated: Boolean(r.reqUnrated),
            pressureBasis:
              r.reqPressureFactor !== null && r.reqPressureRated !== null && r.reqPressureExact !== null
                ? {
                    factor: Number(r.reqPressureFactor),
                    rated: Number(r.reqPressureRated),
                    exact: Number(r.reqPressureExact),
                    roundedBy: r.reqPressureRounding || null,
                  }
                : null,
            holdMin: Number(r.reqHoldMin),
            holdUnconfirmed: Boolean(r.reqHoldUnconfirmed),
            leakage: { kind: r.reqLeakKind, max: num(r.reqLeakMax) },
          })
        : null,
    heldSeconds: num(r.heldSeconds),
    disagreement: verdict === 'nonconforming' && r.result === 'pass',
  };
}

export function toTestRecord(r: RecordRow): TestRecord {
  const num = (v: string | number | null) => (v === null ? null : Number(v));
  return {
    id: String(r.id),
    recordId: r.recordId,
    serial: r.serial,
    testType: r.testType,
    medium: r.medium,
    testPressure: Number(r.testPressure),
    holdingSeconds: Number(r.holdingSeconds),
    leakageValue: num(r.leakageValue),
    leakageUnit: r.leakageUnit,
    result: r.result,
    testedAt: r.testedAt.toISOString(),
    operator: r.operator,
    instrumentId: r.instrumentId,
    fluidTemperature: num(r.fluidTemperature),
    side: r.side,
    sampleCount: Number(r.sampleCount),
    machineId: r.machineId,
    machineName: r.machineName,
    upload:
      r.uploadId && r.uploadedAt
        ? {
            id: r.uploadId,
            by: r.uploadBy ?? '',
            fileName: r.uploadFile ?? '',
            sha256: r.uploadSha256 ? r.uploadSha256.toString('hex') : null,
            uploadedAt: r.uploadedAt.toISOString(),
          }
        : null,
    receivedAt: r.receivedAt.toISOString(),
    productId: r.productId,
    productName: r.productName,
    productNameZh: r.productNameZh,
    rangeId: r.rangeId,
    assessment: assessmentOf(r),
  };
}

/** The records joined to their bench and product names. */
export function selectRecords(db: Executor, extra: Record<string, unknown> = {}) {
  return db
    .select({ ...recordFields, ...(extra as object) })
    .from(t)
    .leftJoin(machines, eq(machines.id, t.machineId))
    .leftJoin(recordUploads, eq(recordUploads.id, t.uploadId))
    .leftJoin(products, eq(products.id, t.productId))
    .leftJoin(serialRanges, eq(serialRanges.id, t.rangeId))
    .leftJoin(
      productRequirements,
      and(
        eq(productRequirements.productId, t.productId),
        eq(productRequirements.bodyMaterial, sql`coalesce(${serialRanges.bodyMaterial}, '')`),
        eq(productRequirements.testType, t.testType),
        sql`(${productRequirements.inForceFrom} IS NULL OR ${t.testedAt} >= ${productRequirements.inForceFrom})`,
        sql`(${productRequirements.inForceTo} IS NULL OR ${t.testedAt} < ${productRequirements.inForceTo})`,
      ),
    );
}

/**
 * The advisory lock that orders record writers against range changes (0004_machine_data.sql): every
 * transaction that inserts test records takes it shared first (holdMatchLock), the range triggers exclusive.
 */
export const MATCH_LOCK = 7_347_008;

export async function holdMatchLock(db: Executor): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock_shared(${MATCH_LOCK})`);
}

/**
 * Stores the records that are new for this bench in one statement over unnest()ed arrays, each matched to
 * the range holding its serial on the way in (the public lookup's index step). Rows go in recordId order (bytewise: any
 * fixed order does, and it compares fastest), so that concurrent batches with common ids wait on each other instead of deadlocking. Returns the
 * recordIds stored; the others already existed (ON CONFLICT DO NOTHING).
 */
export async function insertRecords(db: Executor, machineId: string | null, rows: PreparedRecord[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const result = await db.execute(insertRecordsSql(machineId, rows));
  return new Set(rowsOf<{ record_id: string }>(result).map((r) => r.record_id));
}

/** Characters that must be escaped inside a double-quoted element of an array literal. */
const ARRAY_ESCAPE = /[\\"]/g;

/**
 * One column of a batch as the text of a PostgreSQL array (`{"a","b",NULL}`), cast in the statement. Built
 * here in one pass rather than by the driver's general array encoder, which took a batch of 5,000 records
 * half as long as validating it (docs/decisions/0035-ingestion-kept-outcomes.md). Every element is quoted, so
 * an empty text, `NULL` as text, commas, braces and spaces stay text; `"` and `\` are escaped.
 */
export function arrayLiteral(values: readonly (string | number | null)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'number') out += `"${v}"`;
    else out += `"${v.includes('\\') || v.includes('"') ? v.replace(ARRAY_ESCAPE, '\\$&') : v}"`;
  }
  return `${out}}`;
}

/** The statement of insertRecords (exported for EXPLAIN in benchmarks). */
export function insertRecordsSql(machineId: string | null, rows: PreparedRecord[]): SQL {
  const col = (f: (r: PreparedRecord) => string | number | null) => sql.param(arrayLiteral(rows.map(f)));
  return sql`
    INSERT INTO test_records (machine_id, record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure,
      holding_seconds, leakage_value, leakage_unit, result, tested_at, operator, samples, sample_count, content_hash,
      sample_reasons, instrument_id, instrument_reasons, fluid_temperature, side, range_id, product_id, held_seconds, verdict,
      reasons)
    SELECT ${machineId}::uuid, i.record_id, i.serial, i.prefix, i.width, i.serial_no, i.test_type, i.medium, i.test_pressure,
      i.holding_seconds, i.leakage_value, i.leakage_unit, i.result, i.tested_at, i.operator, decode(i.samples, 'base64'),
      i.sample_count, decode(i.content_hash, 'hex'), i.sample_reasons, i.instrument_id, i.instrument_reasons, i.fluid_temperature,
      i.side, ${judgedValues('i')}
    FROM unnest(
      ${col((r) => r.values.recordId)}::text[], ${col((r) => r.values.serial)}::text[], ${col((r) => r.serial.prefix)}::text[],
      ${col((r) => r.serial.width)}::smallint[], ${col((r) => r.serial.number.toString())}::bigint[],
      ${col((r) => r.values.testType)}::text[], ${col((r) => r.values.medium)}::text[],
      ${col((r) => r.values.testPressure)}::numeric[], ${col((r) => r.values.holdingSeconds)}::integer[],
      ${col((r) => r.values.leakageValue)}::numeric[], ${col((r) => r.values.leakageUnit)}::text[],
      ${col((r) => r.values.result)}::text[], ${col((r) => r.values.testedAt)}::timestamptz[],
      ${col((r) => r.values.operator)}::text[], ${col((r) => r.samples?.toString('base64') ?? null)}::text[],
      ${col((r) => r.values.samples.length)}::integer[], ${col((r) => r.hash.toString('hex'))}::text[],
      ${col((r) => r.heldSeconds)}::numeric[], ${col((r) => r.sampleReasons)}::smallint[],
      ${col((r) => r.values.instrumentId)}::text[], ${col((r) => r.instrumentReasons)}::smallint[],
      ${col((r) => r.values.fluidTemperature)}::numeric[], ${col((r) => r.values.side)}::text[]
    ) AS i (record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure, holding_seconds, leakage_value,
      leakage_unit, result, tested_at, operator, samples, sample_count, content_hash, held_seconds, sample_reasons,
      instrument_id, instrument_reasons, fluid_temperature, side)
    ${rangeAndRequirementJoins('i')}
    ORDER BY i.record_id COLLATE "C"
    ON CONFLICT (machine_id, record_id) DO NOTHING
    RETURNING record_id`;
}

/**
 * The joins that match a staged record (alias `a`) to the range holding its serial (h: id, product_id) and
 * to the requirement of its test (q: a row of product_requirements, or NULLs), for an INSERT … SELECT into
 * test_records. The range is found as the public lookup finds it: the last range of the series starting at
 * or below the number (one index step), then its end is checked; the requirement row is the one of the edition
 * in force for the product on the day of the test (migration 0027). Shared by the bench API and the CSV import.
 */
export function rangeAndRequirementJoins(a: string): SQL {
  return sql.raw(`
    LEFT JOIN LATERAL (
      SELECT s.id, s.product_id, s.end_no, s.body_material, s.production_date FROM serial_ranges s
       WHERE s.prefix = ${a}.prefix AND s.width = ${a}.width AND s.start_no <= ${a}.serial_no
       ORDER BY s.start_no DESC LIMIT 1
    ) h0 ON true
    LEFT JOIN LATERAL (SELECT h0.id, h0.product_id, h0.body_material, h0.production_date WHERE h0.end_no >= ${a}.serial_no) h ON true
    LEFT JOIN product_requirements q
      ON q.product_id = h.product_id AND q.body_material = coalesce(h.body_material, '') AND q.test_type = ${a}.test_type
     AND (q.in_force_from IS NULL OR ${a}.tested_at::timestamptz >= q.in_force_from)
     AND (q.in_force_to IS NULL OR ${a}.tested_at::timestamptz < q.in_force_to)`);
}

/**
 * The values of range_id, product_id, held_seconds, verdict, reasons for a staged record `a` joined by
 * rangeAndRequirementJoins: the judgement of migration 0019's functions (inlined by the planner), in the
 * statement that stores the record.
 */
export function judgedValues(a: string): SQL {
  const reasons = `test_record_all_reasons(q.product_id IS NOT NULL, ${a}.test_pressure::numeric, ${a}.holding_seconds,
      ${a}.held_seconds::numeric, ${a}.leakage_value::numeric, ${a}.leakage_unit, q.unrated, q.pressure_min, q.pressure_max,
      q.hold_min, q.leak_kind, q.leak_max, ${a}.sample_reasons::smallint, ${a}.tested_at, h.production_date,
      ${a}.instrument_reasons::smallint, ${a}.fluid_temperature::numeric, q.fluid_temp_min, q.fluid_temp_max)`;
  return sql.raw(`h.id, h.product_id, ${a}.held_seconds::numeric, test_record_verdict(q.product_id IS NOT NULL, ${reasons}), ${reasons}`);
}

/** The content hashes stored for these recordIds of a bench (NULL: CSV uploads). */
export async function storedHashes(db: Executor, machineId: string | null, recordIds: string[]): Promise<Map<string, Buffer>> {
  if (recordIds.length === 0) return new Map();
  const rows = await db
    .select({ recordId: t.recordId, hash: t.contentHash })
    .from(t)
    .where(and(machineId === null ? isNull(t.machineId) : eq(t.machineId, machineId), inArray(t.recordId, recordIds)));
  return new Map(rows.map((r) => [r.recordId, r.hash]));
}

export function rangeOf(row: {
  id: string;
  prefix: string;
  width: number;
  startNo: bigint;
  endNo: bigint;
  productionDate: string;
}): RecordRange {
  return {
    id: row.id,
    startSerial: formatSerial({ prefix: row.prefix, width: row.width, number: BigInt(row.startNo) }),
    endSerial: formatSerial({ prefix: row.prefix, width: row.width, number: BigInt(row.endNo) }),
    productionDate: row.productionDate,
  };
}

const rangeFields = {
  id: serialRanges.id,
  prefix: serialRanges.prefix,
  width: serialRanges.width,
  startNo: serialRanges.startNo,
  endNo: serialRanges.endNo,
  productionDate: serialRanges.productionDate,
};

export async function findRecord(db: Executor, id: number) {
  const [row] = await selectRecords(db, { samples: t.samples }).where(eq(t.id, id)).limit(1);
  if (!row) return undefined;
  const [range] = row.rangeId ? await db.select(rangeFields).from(serialRanges).where(eq(serialRanges.id, row.rangeId)) : [];
  return { row: row as RecordRow & { samples: Buffer | null }, range: range ? rangeOf(range) : null };
}

/** Every record of one unit, newest test first: one step on the series index. */
export async function recordsOfUnit(db: Executor, s: ParsedSerial): Promise<TestRecord[]> {
  const rows = await selectRecords(db)
    .where(and(eq(t.prefix, s.prefix), eq(t.width, s.width), eq(t.serialNo, s.number)))
    .orderBy(desc(t.testedAt), desc(t.id));
  return rows.map((r) => toTestRecord(r));
}

/** The newest received-at, or null: one step from the end of the received_at index. */
export async function lastReceivedAt(db: Executor): Promise<Date | null> {
  const [row] = await db.select({ at: t.receivedAt }).from(t).orderBy(desc(t.receivedAt)).limit(1);
  return row?.at ?? null;
}
