/**
 * The CSV import's staging line of a record (stageLine, machine-data.import.ts) is the COPY text that
 * copyLine gives for the record's staging values, as the import wrote them before: same text, same escapes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testRecordInput, type Sample } from '../src/shared/contract/machine-data';
import { sampleVerdict } from '../src/shared/standards/sample-checks';
import { parseSerial } from '../src/shared/serial';
import { copyLine } from '../src/server/lib/copy';
import { stageLine } from '../src/server/modules/machine-data/machine-data.import';
import { encodeSamples, recordContentHash } from '../src/server/modules/machine-data/record-codec';

const hex = (b: Buffer | null) => (b ? `\\x${b.toString('hex')}` : null);

const text = (max: number) =>
  fc.oneof(fc.string({ maxLength: max }), fc.constantFrom('a\\b', '\\', '\\N', 'Lin, Wei', '王小明', '"q"', 'x\\ty'));

const raw = fc.record({
  recordId: text(20).map((s) => `R${s}`),
  serial: fc.constantFrom('VB2311-000123', 'vb 2311-000124', 'MD01-00001234', '0', 'A/B.C_D-99'),
  testType: fc.constantFrom('shell', 'seat', 'backseat', 'air-seat', 'functional'),
  medium: fc.constantFrom('water', 'air', 'nitrogen', 'oil'),
  testPressure: fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 1000),
  holdingSeconds: fc.integer({ min: 0, max: 604_800 }),
  leak: fc.option(
    fc.tuple(
      fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 10_000),
      text(20).map((s) => `u${s}`),
    ),
  ),
  result: fc.constantFrom('pass', 'fail'),
  testedAt: fc.date({ min: new Date('1970-01-01'), max: new Date('2025-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  operator: text(40),
  samples: fc
    .array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.double({ min: -10, max: 10, noNaN: true })), { maxLength: 5 })
    .map((pts) => [...new Map(pts).entries()].sort((a, b) => a[0] - b[0]).map(([t, p]) => ({ t: t / 10, p }))),
  machineId: fc.constantFrom(null, '6f1c1a4e-8d0a-4b1e-9a51-3c1f0c2b9d7e'),
  instrumentId: fc.option(text(20).map((s) => `PG${s}`)),
  instrumentReasons: fc.constantFrom(0, 2048, 4096),
  fluidTemperature: fc.option(fc.integer({ min: -600, max: 2000 }).map((n) => n / 10)),
  side: fc.option(fc.constantFrom('A', 'B', 'both')),
});

describe('stageLine', () => {
  it('writes what copyLine writes for the same staging values', () => {
    let compared = 0;
    fc.assert(
      fc.property(raw, (r) => {
        const parsed = testRecordInput.safeParse({
          ...r,
          leakageValue: r.leak?.[0] ?? null,
          leakageUnit: r.leak?.[1] ?? null,
          leak: undefined,
          machineId: undefined,
          instrumentReasons: undefined,
        });
        if (!parsed.success) return;
        compared++;
        const v = parsed.data;
        const points: Sample[] = v.samples;
        const s = parseSerial(v.serial)!;
        const bytes = encodeSamples(points);
        const expected = copyLine([
          r.machineId,
          v.recordId,
          v.serial,
          s.prefix,
          s.width,
          s.number,
          v.testType,
          v.medium,
          v.testPressure,
          v.holdingSeconds,
          v.leakageValue,
          v.leakageUnit,
          v.result,
          v.testedAt,
          v.operator,
          hex(bytes),
          points.length,
          hex(recordContentHash(v, bytes)),
          sampleVerdict(points, v.testPressure ?? 0, v.holdingSeconds).heldSeconds,
          sampleVerdict(points, v.testPressure ?? 0, v.holdingSeconds).reasons,
          v.instrumentId,
          r.instrumentReasons,
          v.fluidTemperature,
          v.side,
        ]);
        expect(`${stageLine(r.machineId, v, points, r.instrumentReasons)}\n`).toBe(expected);
      }),
      { numRuns: 2000 },
    );
    expect(compared).toBeGreaterThan(500);
  });
});
