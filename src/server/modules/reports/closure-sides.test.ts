import { describe, expect, it } from 'vitest';
import { certificateRecords, closureSideGaps, latestPerSide, type SidedRecord } from './closure-sides';
import { TEST_TYPES } from '../../../shared/contract/test-types';

let id = 0;
const rec = (o: Partial<SidedRecord> & Pick<SidedRecord, 'side'>, minute = ++id): SidedRecord => ({
  id: ++id,
  testType: 'seat',
  testedAt: new Date(Date.UTC(2024, 4, 1, 8, minute)),
  outcome: 'pass',
  ...o,
});

describe('closure tests on each side', () => {
  it('asks each closure test type the unit has for a conforming record on side A and side B', () => {
    expect(closureSideGaps([rec({ side: 'A' })])).toEqual([{ testType: 'seat', side: 'B' }]);
    expect(closureSideGaps([rec({ side: 'A' }), rec({ side: 'B' })])).toEqual([]);
    expect(closureSideGaps([rec({ side: 'both' })])).toEqual([]);
    // A record stating no side counts for neither.
    expect(closureSideGaps([rec({ side: null })])).toEqual([
      { testType: 'seat', side: 'A' },
      { testType: 'seat', side: 'B' },
    ]);
    // Other tests, and closure types the unit has no record of, are not asked here.
    expect(closureSideGaps([rec({ testType: 'shell', side: null })])).toEqual([]);
    expect(closureSideGaps([rec({ side: 'both' }), rec({ testType: 'air-seat', side: 'B' })])).toEqual([
      { testType: 'air-seat', side: 'A' },
    ]);
  });

  it("reads each side's latest record, and does not name twice a side the gate holds as failed", () => {
    const failedA = rec({ side: 'A', outcome: 'fail' });
    const passA = rec({ side: 'A' });
    const b = rec({ side: 'B' });
    expect(closureSideGaps([failedA, b])).toEqual([{ testType: 'seat', side: 'A' }]);
    expect(closureSideGaps([failedA, passA, b])).toEqual([]);
    expect(closureSideGaps([passA, b, rec({ side: 'both', outcome: 'fail' })])).toEqual([
      { testType: 'seat', side: 'A' },
      { testType: 'seat', side: 'B' },
    ]);
    const latestFail = rec({ side: 'B', outcome: 'fail' });
    expect(closureSideGaps([passA, latestFail], new Set([latestFail.id]))).toEqual([]);
    expect(latestPerSide([passA, b, latestFail], 'seat')).toEqual({ A: passA, B: latestFail });
  });

  it("prints the latest record of each type, and a bidirectional valve's closure record on each side", () => {
    const shell = rec({ testType: 'shell', side: 'both' });
    const a1 = rec({ side: 'A', outcome: 'fail' });
    const a2 = rec({ side: 'A' });
    const b = rec({ side: 'B' });
    const ids = (bidirectional: boolean) =>
      certificateRecords([shell, a1, a2, b], bidirectional, TEST_TYPES).map((p) => [p.record.id, p.earlierTests]);
    expect(ids(false)).toEqual([
      [shell.id, 0],
      [b.id, 2],
    ]);
    expect(ids(true)).toEqual([
      [shell.id, 0],
      [a2.id, 1],
      [b.id, 0],
    ]);
  });
});
