/**
 * What a report is made of: the unit (serial, range, product), its test records, the release gate, and
 * the data version. The gate and the versions need only a light read of the records (no samples), so a
 * request that is held or reuses a stored report never loads a chart's worth of samples.
 */
import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { reasonsOf, type ReasonCode, type Verdict } from '../../../shared/standards/reasons';
import { alternativesOf, requiredTests } from '../../../shared/standards/requirement';
import type { StandardEdition } from '../../../shared/standards/types';
import { judgedProduct } from '../standards/standards.service';
import type { TestType } from '../../../shared/contract/machine-data';
import { formatSerial, parseSerial, type ParsedSerial } from '../../../shared/serial';
import type { Executor } from '../../db/client';
import { testRecords, type ProductRow, type TestRecordRow } from '../../db/schema/index';
import { findRangeHolding, type RangeRow } from '../serials/serials.service';
import { needsTrace, traceHolds, unitTrace, type TraceHold, type UnitTrace } from '../materials/traceability';
import type { DocumentType } from '../../../shared/contract/settings';
import type { TestSide } from '../../../shared/contract/test-conditions';
import { closureSideGaps, type ClosureSide } from './closure-sides';

export interface RecordHead {
  id: number;
  testType: TestType;
  result: 'pass' | 'fail';
  /** 'fail' when the bench failed it or the product finds it nonconforming (migration 0010) */
  outcome: 'pass' | 'fail';
  verdict: Verdict;
  /** bits of src/shared/standards/reasons.ts */
  reasons: number;
  testedAt: Date;
  contentHash: Buffer;
  /** the side pressurised, as the record states it (null: not stated); read for a bidirectional valve's closure tests */
  side: TestSide | null;
}

export interface UnitData {
  serial: string;
  parsed: ParsedSerial;
  range: RangeRow & { startSerial: string; endSerial: string };
  product: ProductRow;
  /** every record of the unit, oldest test first */
  heads: RecordHead[];
  /** its parts, their materials and heats, and the document type of its certificate without an order */
  trace: UnitTrace;
}

/** The latest record of each test type (by tested-at, then id), in a fixed test-type order. */
export function latestByType(heads: readonly RecordHead[]): Map<TestType, { latest: RecordHead; count: number }> {
  const out = new Map<TestType, { latest: RecordHead; count: number }>();
  for (const h of heads) {
    const cur = out.get(h.testType);
    const later =
      !cur ||
      h.testedAt.getTime() > cur.latest.testedAt.getTime() ||
      (h.testedAt.getTime() === cur.latest.testedAt.getTime() && h.id > cur.latest.id);
    out.set(h.testType, { latest: later ? h : cur!.latest, count: (cur?.count ?? 0) + 1 });
  }
  return out;
}

/**
 * Why the release gate holds a unit: a test that failed (by the bench or by the standard), one missing, or,
 * for a 3.1 or 3.2 certificate, a pressure-retaining part without a heat or with its heat on hold.
 */
export type HoldReason =
  | { testType: TestType; kind: 'failed'; testedAt: Date; bench: 'pass' | 'fail'; reasons: ReasonCode[] }
  | { testType: TestType; kind: 'missing' }
  | TraceHold
  /** a bidirectional valve's closure test without a conforming record on this side (closure-sides.ts) */
  | { testType: TestType; kind: 'closure-one-side'; side: ClosureSide }
  /** a 3.1 certificate for a unit whose range no authorised inspector has released (release-rule.ts) */
  | { testType: null; kind: 'unreleased' };

export interface GateResult {
  status: 'pass' | 'held' | 'no-data';
  held: HoldReason[];
}

/**
 * The release gate: a report is issued only when the unit has every test its product's standard requires
 * (or an alternative the standard allows) and the latest of each test type it has passes — by the bench
 * and, where the product has a standard, by the product's judgement (the record's outcome). Without a
 * standard, the bench's latest results decide, as before standards were kept. A bidirectional valve's
 * closure tests must, besides, be shown conforming on side A and on side B (closure-sides.ts).
 */
export function gate(
  heads: readonly RecordHead[],
  required: readonly TestType[] = [],
  alternatives: StandardEdition['alternatives'] = {},
  bidirectional = false,
): GateResult {
  if (heads.length === 0) return { status: 'no-data', held: [] };
  const latest = latestByType(heads);
  const held: HoldReason[] = [];
  for (const [testType, { latest: h }] of latest) {
    if (h.outcome !== 'pass') held.push({ testType, kind: 'failed', testedAt: h.testedAt, bench: h.result, reasons: reasonsOf(h.reasons) });
  }
  for (const testType of required) {
    const standIns = [testType, ...(alternatives?.[testType] ?? [])];
    if (!standIns.some((t) => latest.has(t))) held.push({ testType, kind: 'missing' });
  }
  if (bidirectional) {
    // A side whose latest record is the failed latest of its type is already held above, with its reasons.
    const failed = new Set(held.flatMap((h) => (h.kind === 'failed' ? [latest.get(h.testType)!.latest.id] : [])));
    for (const g of closureSideGaps(heads, failed)) held.push({ testType: g.testType, kind: 'closure-one-side', side: g.side });
  }
  return { status: held.length ? 'held' : 'pass', held };
}

/**
 * The gate of a unit read by readUnit: its product's required tests come from the product's standard. A
 * certificate of a type that traces materials (3.1, 3.2: the order's, else the Settings') is also held for
 * its parts (materials/traceability.ts); a unit without test data stays 'no-data'.
 */
export function gateOf(unit: UnitData, documentType: DocumentType | '2.2' | '3.1' | '3.2' = unit.trace.settingsType): GateResult {
  const g = gateOfProduct(unit.product, unit.heads);
  if (g.status === 'no-data' || !needsTrace(documentType)) return g;
  const held = [...g.held, ...traceHolds(unit.trace.parts)];
  return { status: held.length ? 'held' : 'pass', held };
}

/** The gate of a unit of `product` with these records (gate-batch.ts reads many units' at once). */
export function gateOfProduct(product: GatedProduct, heads: readonly RecordHead[]): GateResult {
  return productGate(product)(heads);
}

/** What the gate reads of a product: what its standard's requirement depends on, and its directions. */
export type GatedProduct = Parameters<typeof judgedProduct>[0] & { bidirectional: boolean };

/** The gate of `product`'s units, its requirement derived once: for judging many units of one product. */
export function productGate(product: GatedProduct): (heads: readonly RecordHead[]) => GateResult {
  const p = judgedProduct(product);
  const required = requiredTests(p);
  const alternatives = alternativesOf(p);
  return (heads) => gate(heads, required, alternatives, product.bidirectional);
}

/** SHA-256 over the unit's record ids and content hashes: changes when a record is added, changed or removed. */
export function dataVersion(heads: readonly Pick<RecordHead, 'id' | 'verdict' | 'reasons' | 'contentHash'>[]): string {
  const h = createHash('sha256');
  // The judgement is part of the data: a re-judged record (its product's standard or size changed) gives a new report.
  for (const r of [...heads].sort((a, b) => a.id - b.id)) h.update(`${r.id}:${r.verdict}:${r.reasons}:`).update(r.contentHash).update('\n');
  return h.digest('hex');
}

/**
 * The records a certificate may use: all of them, or, when Settings ask for bench-sent records only, those
 * a bench sent through its key (no staff upload). reports.repo.ts's data version reads the same rule.
 */
export const BENCH_RECORDS_WHEN_ASKED = sql`(NOT (SELECT bench_records_only FROM settings) OR (${testRecords.uploadId} IS NULL AND ${testRecords.machineId} IS NOT NULL))`;

export async function readHeads(db: Executor, p: ParsedSerial): Promise<RecordHead[]> {
  const rows = await db
    .select({
      id: testRecords.id,
      testType: testRecords.testType,
      result: testRecords.result,
      outcome: sql<'pass' | 'fail'>`${testRecords.outcome}`,
      verdict: testRecords.verdict,
      reasons: testRecords.reasons,
      testedAt: testRecords.testedAt,
      contentHash: testRecords.contentHash,
      side: testRecords.side,
    })
    .from(testRecords)
    .where(
      and(eq(testRecords.prefix, p.prefix), eq(testRecords.width, p.width), eq(testRecords.serialNo, p.number), BENCH_RECORDS_WHEN_ASKED),
    )
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
    trace: await unitTrace(db, parsed, product.id),
  };
}

/** The full rows (samples included) of the given records. */
export async function readRecords(db: Executor, ids: number[]): Promise<TestRecordRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(testRecords).where(inArray(testRecords.id, ids));
}
