/**
 * SQL of test records: the batch insert of the bench API, one record, a unit's history and the newest
 * received-at. The list and the export live in machine-data.list.ts.
 */
import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { RecordRange, TestRecord, TestRecordValues } from '../../../shared/contract/machine-data';
import { formatSerial, type ParsedSerial } from '../../../shared/serial';
import { rowsOf, type Executor } from '../../db/client';
import { machines, products, serialRanges, testRecords } from '../../db/schema/index';

const t = testRecords;

/** A validated record ready to store: its values, parsed serial, encoded samples and content hash. */
export interface PreparedRecord {
  values: TestRecordValues;
  serial: ParsedSerial;
  samples: Buffer | null;
  hash: Buffer;
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
  sampleCount: t.sampleCount,
  machineId: t.machineId,
  machineName: machines.name,
  receivedAt: t.receivedAt,
  productId: t.productId,
  productName: products.name,
  rangeId: t.rangeId,
};

type RecordRow = {
  [K in keyof typeof recordFields]: unknown;
} & { id: number | string; testedAt: Date; receivedAt: Date };

export function toTestRecord(r: RecordRow): TestRecord {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: String(r.id),
    recordId: r.recordId as string,
    serial: r.serial as string,
    testType: r.testType as TestRecord['testType'],
    medium: r.medium as TestRecord['medium'],
    testPressure: Number(r.testPressure),
    holdingSeconds: Number(r.holdingSeconds),
    leakageValue: num(r.leakageValue),
    leakageUnit: (r.leakageUnit as string | null) ?? null,
    result: r.result as TestRecord['result'],
    testedAt: r.testedAt.toISOString(),
    operator: r.operator as string,
    sampleCount: Number(r.sampleCount),
    machineId: (r.machineId as string | null) ?? null,
    machineName: (r.machineName as string | null) ?? null,
    receivedAt: r.receivedAt.toISOString(),
    productId: (r.productId as string | null) ?? null,
    productName: (r.productName as string | null) ?? null,
    rangeId: (r.rangeId as string | null) ?? null,
  };
}

/** The records joined to their bench and product names. */
export function selectRecords(db: Executor, extra: Record<string, unknown> = {}) {
  return db
    .select({ ...recordFields, ...(extra as object) })
    .from(t)
    .leftJoin(machines, eq(machines.id, t.machineId))
    .leftJoin(products, eq(products.id, t.productId));
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

/** The statement of insertRecords (exported for EXPLAIN in benchmarks). */
export function insertRecordsSql(machineId: string | null, rows: PreparedRecord[]): SQL {
  const col = <T>(f: (r: PreparedRecord) => T) => sql.param(rows.map(f));
  return sql`
    INSERT INTO test_records (machine_id, record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure,
      holding_seconds, leakage_value, leakage_unit, result, tested_at, operator, samples, sample_count, content_hash,
      range_id, product_id)
    SELECT ${machineId}::uuid, i.record_id, i.serial, i.prefix, i.width, i.serial_no, i.test_type, i.medium, i.test_pressure,
      i.holding_seconds, i.leakage_value, i.leakage_unit, i.result, i.tested_at, i.operator, decode(i.samples, 'base64'),
      i.sample_count, decode(i.content_hash, 'hex'), h.id, h.product_id
    FROM unnest(
      ${col((r) => r.values.recordId)}::text[], ${col((r) => r.values.serial)}::text[], ${col((r) => r.serial.prefix)}::text[],
      ${col((r) => r.serial.width)}::smallint[], ${col((r) => r.serial.number.toString())}::bigint[],
      ${col((r) => r.values.testType)}::text[], ${col((r) => r.values.medium)}::text[],
      ${col((r) => r.values.testPressure)}::numeric[], ${col((r) => r.values.holdingSeconds)}::integer[],
      ${col((r) => r.values.leakageValue)}::numeric[], ${col((r) => r.values.leakageUnit)}::text[],
      ${col((r) => r.values.result)}::text[], ${col((r) => r.values.testedAt)}::timestamptz[],
      ${col((r) => r.values.operator)}::text[], ${col((r) => r.samples?.toString('base64') ?? null)}::text[],
      ${col((r) => r.values.samples.length)}::integer[], ${col((r) => r.hash.toString('hex'))}::text[]
    ) AS i (record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure, holding_seconds, leakage_value,
      leakage_unit, result, tested_at, operator, samples, sample_count, content_hash)
    LEFT JOIN LATERAL (
      SELECT s.id, s.product_id, s.end_no FROM serial_ranges s
       WHERE s.prefix = i.prefix AND s.width = i.width AND s.start_no <= i.serial_no
       ORDER BY s.start_no DESC LIMIT 1
    ) h0 ON true
    LEFT JOIN LATERAL (SELECT h0.id, h0.product_id WHERE h0.end_no >= i.serial_no) h ON true
    ORDER BY i.record_id COLLATE "C"
    ON CONFLICT (machine_id, record_id) DO NOTHING
    RETURNING record_id`;
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

export function rangeOf(row: { id: string; prefix: string; width: number; startNo: bigint; endNo: bigint; productionDate: string }): RecordRange {
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
  return rows.map((r) => toTestRecord(r as RecordRow));
}

/** The newest received-at, or null: one step from the end of the received_at index. */
export async function lastReceivedAt(db: Executor): Promise<Date | null> {
  const [row] = await db.select({ at: t.receivedAt }).from(t).orderBy(desc(t.receivedAt)).limit(1);
  return row?.at ?? null;
}
