/**
 * What a report is made of: the unit (serial, range, product), its test records, the release gate, and
 * the data version. The gate and the versions need only a light read of the records (no samples), so a
 * request that is held or reuses a stored report never loads a chart's worth of samples.
 */
import { createHash } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { TestType } from '../../shared/contract/machine-data';
import { formatSerial, parseSerial, type ParsedSerial } from '../../shared/serial';
import type { Executor } from '../db/client';
import { testRecords, type ProductRow, type TestRecordRow } from '../db/schema/index';
import { findRangeHolding, type RangeRow } from '../modules/serials/serials.repo';

export interface RecordHead {
  id: number;
  testType: TestType;
  result: 'pass' | 'fail';
  testedAt: Date;
  contentHash: Buffer;
}

export interface UnitData {
  serial: string;
  parsed: ParsedSerial;
  range: RangeRow & { startSerial: string; endSerial: string };
  product: ProductRow;
  /** every record of the unit, oldest test first */
  heads: RecordHead[];
}

/** The latest record of each test type (by tested-at, then id), in a fixed test-type order. */
export function latestByType(heads: readonly RecordHead[]): Map<TestType, { latest: RecordHead; count: number }> {
  const out = new Map<TestType, { latest: RecordHead; count: number }>();
  for (const h of heads) {
    const cur = out.get(h.testType);
    const later = !cur || h.testedAt.getTime() > cur.latest.testedAt.getTime() || (h.testedAt.getTime() === cur.latest.testedAt.getTime() && h.id > cur.latest.id);
    out.set(h.testType, { latest: later ? h : cur!.latest, count: (cur?.count ?? 0) + 1 });
  }
  return out;
}

/** The release gate: issued only when the latest result of every test type the unit has is a pass. */
export function gate(heads: readonly RecordHead[]): 'pass' | 'held' | 'no-data' {
  if (heads.length === 0) return 'no-data';
  for (const { latest } of latestByType(heads).values()) if (latest.result !== 'pass') return 'held';
  return 'pass';
}

/** SHA-256 over the unit's record ids and content hashes: changes when a record is added, changed or removed. */
export function dataVersion(heads: readonly RecordHead[]): string {
  const h = createHash('sha256');
  for (const r of [...heads].sort((a, b) => a.id - b.id)) h.update(`${r.id}:`).update(r.contentHash).update('\n');
  return h.digest('hex');
}

export async function readHeads(db: Executor, p: ParsedSerial): Promise<RecordHead[]> {
  const rows = await db
    .select({ id: testRecords.id, testType: testRecords.testType, result: testRecords.result, testedAt: testRecords.testedAt, contentHash: testRecords.contentHash })
    .from(testRecords)
    .where(and(eq(testRecords.prefix, p.prefix), eq(testRecords.width, p.width), eq(testRecords.serialNo, p.number)))
    .orderBy(asc(testRecords.testedAt), asc(testRecords.id));
  return rows;
}

/** The unit of a serial, or null when the serial is malformed or no range holds it. */
export async function readUnit(db: Executor, serialInput: string): Promise<UnitData | null> {
  const parsed = parseSerial(serialInput);
  if (!parsed) return null;
  const held = await findRangeHolding(db, parsed);
  if (!held) return null;
  const { range, product } = held;
  const part = (n: bigint) => formatSerial({ prefix: range.prefix, width: range.width, number: BigInt(n) });
  return {
    serial: formatSerial(parsed),
    parsed,
    range: { ...range, startSerial: part(range.startNo), endSerial: part(range.endNo) },
    product,
    heads: await readHeads(db, parsed),
  };
}

/** The full rows (samples included) of the given records. */
export async function readRecords(db: Executor, ids: number[]): Promise<TestRecordRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(testRecords).where(inArray(testRecords.id, ids));
}
