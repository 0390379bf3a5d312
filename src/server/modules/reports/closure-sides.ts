/**
 * Closure tests on each side of a bidirectional valve (docs/decisions/0054-test-conditions.md): a valve
 * designed to seal against pressure from either direction has its closure test applied "successively to each
 * side of the closed valve" (API 598) — "Repeat the procedure for the other valve port" (ISO 5208) — as the
 * sources in docs/standards-sources.md quote them. The release gate then asks, of every closure test type the
 * unit was tested with, for a conforming record on side A and one on side B. Pure: the gate (report-data.ts)
 * and the certificate's choice of records (report-build.ts) both read it.
 */
import type { TestType } from '../../../shared/contract/machine-data';
import type { TestSide } from '../../../shared/contract/test-conditions';

/** The closure (seat) tests: the high-pressure liquid one and the low-pressure gas one. */
export const CLOSURE_TEST_TYPES: readonly TestType[] = ['seat', 'air-seat'];
/** The two sides a bidirectional valve's closure is tested from. */
export const CLOSURE_SIDES = ['A', 'B'] as const;
export type ClosureSide = (typeof CLOSURE_SIDES)[number];

export function isClosureTest(t: TestType): boolean {
  return CLOSURE_TEST_TYPES.includes(t);
}

/** What the per-side rule reads of a record. */
export interface SidedRecord {
  id: number;
  testType: TestType;
  testedAt: Date;
  /** null: the record states no side, and counts for neither */
  side: TestSide | null;
  outcome: 'pass' | 'fail';
}

/** Whether a record pressurised `side`: a record stating both sides counts for each. */
export function covers(r: Pick<SidedRecord, 'side'>, side: ClosureSide): boolean {
  return r.side === side || r.side === 'both';
}

const later = (a: SidedRecord, b: SidedRecord) =>
  a.testedAt.getTime() > b.testedAt.getTime() || (a.testedAt.getTime() === b.testedAt.getTime() && a.id > b.id);

/**
 * The latest record of `testType` that covers each side (by tested-at, then id, as latestByType orders),
 * or null for a side no record covers.
 */
export function latestPerSide<R extends SidedRecord>(records: readonly R[], testType: TestType): Record<ClosureSide, R | null> {
  const out: Record<ClosureSide, R | null> = { A: null, B: null };
  for (const r of records) {
    if (r.testType !== testType) continue;
    for (const side of CLOSURE_SIDES) {
      const cur = out[side];
      if (covers(r, side) && (!cur || later(r, cur))) out[side] = r;
    }
  }
  return out;
}

/** A closure test type without a conforming latest record on one side. */
export interface ClosureSideGap {
  testType: TestType;
  side: ClosureSide;
}

/**
 * The sides left unshown, per closure test type the unit has records of: a side no record covers, or one
 * whose latest covering record does not conform. A test type the unit has no record of is not asked here
 * (the gate's "missing" rule asks for the required ones). `failedLatest` are the ids of records the gate
 * already holds the unit for (the latest of their type failed): a side whose latest record is one of them
 * is not named twice.
 */
export function closureSideGaps(records: readonly SidedRecord[], failedLatest: ReadonlySet<number> = new Set()): ClosureSideGap[] {
  const gaps: ClosureSideGap[] = [];
  for (const testType of CLOSURE_TEST_TYPES) {
    if (!records.some((r) => r.testType === testType)) continue;
    const latest = latestPerSide(records, testType);
    for (const side of CLOSURE_SIDES) {
      const r = latest[side];
      if (r && (r.outcome === 'pass' || failedLatest.has(r.id))) continue;
      gaps.push({ testType, side });
    }
  }
  return gaps;
}

/** A record a certificate prints, and how many earlier tests of its kind it supersedes. */
export interface PrintedRecord<R> {
  record: R;
  earlierTests: number;
}

/**
 * The records a certificate prints: the latest of each test type, and, for a bidirectional valve's closure
 * tests, also the latest conforming record covering each side (else the latest covering it), so that side
 * A's test is not hidden by side B's later one. A record printed alone counts every other record of its type
 * as an earlier test; one of several counts the earlier records of its type stating the same side. In
 * test-type order of `types`, then oldest test first.
 */
export function certificateRecords<R extends SidedRecord>(
  records: readonly R[],
  bidirectional: boolean,
  types: readonly TestType[],
): PrintedRecord<R>[] {
  const out: PrintedRecord<R>[] = [];
  for (const testType of types) {
    const ofType = records.filter((r) => r.testType === testType);
    if (ofType.length === 0) continue;
    const latest = ofType.reduce((a, b) => (later(b, a) ? b : a));
    const chosen = new Map<number, R>([[latest.id, latest]]);
    if (bidirectional && isClosureTest(testType)) {
      for (const side of CLOSURE_SIDES) {
        const covering = ofType.filter((r) => covers(r, side));
        const pick = (rs: R[]) => (rs.length ? rs.reduce((a, b) => (later(b, a) ? b : a)) : null);
        const r = pick(covering.filter((x) => x.outcome === 'pass')) ?? pick(covering);
        if (r) chosen.set(r.id, r);
      }
    }
    const printed = [...chosen.values()].sort((a, b) => (later(a, b) ? 1 : -1));
    for (const r of printed) {
      const earlier = printed.length === 1 ? ofType.length - 1 : ofType.filter((x) => x.side === r.side && later(r, x)).length;
      out.push({ record: r, earlierTests: earlier });
    }
  }
  return out;
}
