/** The canonical-record shortcut never disagrees with the contract's schema (record-fast-path.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testRecordInput } from '../src/shared/contract/machine-data';
import { fastCsvRecord, fastRecord } from '../src/server/modules/machine-data/record-fast-path';
import { record } from './helpers/machine-data';

// Each field: canonical values, near misses and junk, so that both paths are exercised on the same input.
const field = {
  recordId: fc.oneof(
    fc.string({ maxLength: 110 }),
    fc.constantFrom('R-1', ' R-1', 'R\u0001', '', 'x'.repeat(100), 'x'.repeat(101)),
    fc.integer(),
  ),
  serial: fc.oneof(
    fc.constantFrom('VB-0001', 'vb-0001', 'VB 0001', '0', 'A1234567890123456789', 'A123456789012345678', '１２３', 'VB-', ''),
    fc.stringMatching(/^[A-Z0-9\-_/. ]{0,70}$/),
    fc.integer(),
  ),
  testType: fc.constantFrom('shell', 'seat', 'backseat', 'air-seat', 'functional', 'air seat', 'Shell', undefined),
  medium: fc.constantFrom('water', 'air', 'nitrogen', 'oil', 'steam', undefined),
  testPressure: fc.oneof(
    fc.double({ min: -1, max: 1001 }),
    fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 1000),
    fc.constantFrom('2.4', '', null, -0, 0.0001, NaN),
  ),
  holdingSeconds: fc.oneof(fc.integer({ min: -2, max: 700_000 }), fc.constantFrom(1.5, '60', null, NaN)),
  leakageValue: fc.oneof(
    fc.constantFrom(null, undefined, '', '0.2', -0.1, 0.12345),
    fc.integer({ min: 0, max: 1e6 }).map((n) => n / 10_000),
  ),
  leakageUnit: fc.constantFrom(null, undefined, '', 'ml/min', ' ml/min', 'x'.repeat(21), 'bar\u0000'),
  result: fc.constantFrom('pass', 'fail', 'ok', undefined),
  testedAt: fc.oneof(
    fc.date({ min: new Date('1960-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
    fc.constantFrom('2024-05-01T08:30:00Z', '2024-05-01T16:30:00+08:00', '2024-02-30T08:00:00.000Z', '2024-05-01T08:30:00.000z', 'now', ''),
  ),
  operator: fc.constantFrom(undefined, '', 'Chen', ' Chen', '陳大文', 'o'.repeat(121), null),
  instrumentId: fc.constantFrom(undefined, null, '', 'PG-01', ' PG-01', 'PG\u0001'),
  fluidTemperature: fc.oneof(
    fc.constantFrom(undefined, null, '', '20', 20.05, -60.1, 200.1, -0, NaN),
    fc.integer({ min: -600, max: 2000 }).map((n) => n / 10),
  ),
  side: fc.constantFrom(undefined, null, '', 'A', 'B', 'both', 'a', 'Both', ' A', 1),
  samples: fc.oneof(
    fc.constant(undefined),
    fc.array(fc.record({ t: fc.double({ min: -1, max: 700_000 }), p: fc.double({ min: -1001, max: 1001 }) }), { maxLength: 6 }),
    fc
      .array(fc.integer({ min: 0, max: 100 }), { maxLength: 6 })
      .map((ts) => [...new Set(ts)].sort((a, b) => a - b).map((t) => ({ t, p: 1 }))),
    fc.constantFrom(null, 'x', [{ t: 0 }], [1]),
  ),
};

// A valid canonical record with one field drawn from the arbitraries above (often still valid).
const oneFieldChanged = fc
  .tuple(fc.constantFrom(...(Object.keys(field) as (keyof typeof field)[])), fc.nat())
  .chain(([k]) => field[k].map((v) => ({ ...record(), [k]: v })));

let accepted = 0;

describe('fast path', () => {
  it('accepts only what the schema accepts, and gives the same values', () => {
    fc.assert(
      fc.property(fc.oneof(fc.record(field, { requiredKeys: [] }), oneFieldChanged), fc.boolean(), (partial, extra) => {
        const raw = { ...partial, ...(extra ? { unknownField: 1 } : {}) };
        const fast = fastRecord(raw);
        if (fast === null) return;
        accepted++;
        const slow = testRecordInput.safeParse(raw);
        expect(slow.success).toBe(true);
        expect(fast).toEqual(slow.data);
      }),
      { numRuns: 3000 },
    );
    // The property must have compared many accepted records, not only refusals.
    expect(accepted).toBeGreaterThan(300);
  });

  it('takes the records benches send', () => {
    expect(fastRecord(record())).not.toBeNull();
    expect(fastRecord(record({ leakageValue: 0.2, leakageUnit: 'ml/min', operator: undefined, samples: undefined }))).not.toBeNull();
    expect(fastRecord(record({ serial: 'vb2311-000123' }))).toBeNull();
    expect(fastRecord([])).toBeNull();
  });
});

// CSV cells: every value is text (or the column is missing); canonical cells, near misses and junk.
const cell = {
  recordId: fc.oneof(fc.string({ maxLength: 110 }), fc.constantFrom('R-1', ' R-1', 'R\u0001', '', 'x'.repeat(100), 'x'.repeat(101))),
  serial: fc.oneof(
    fc.constantFrom('VB-0001', 'vb-0001', 'VB 0001', '0', 'A1234567890123456789', 'A123456789012345678', '１２３', 'VB-', ''),
    fc.stringMatching(/^[A-Z0-9\-_/. ]{0,70}$/),
  ),
  testType: fc.constantFrom('shell', 'seat', 'backseat', 'air-seat', 'functional', 'air seat', 'Shell', ''),
  medium: fc.constantFrom('water', 'air', 'nitrogen', 'oil', 'steam', ''),
  testPressure: fc.oneof(
    fc.double({ min: -1, max: 1001, noNaN: true }).map(String),
    fc.integer({ min: 0, max: 1_000_000 }).map((n) => (n / 1000).toFixed(n % 3)),
    fc.constantFrom('2.4', '2,4', ' 2.4', '+2.4', '2.', '.5', '1e2', '', '0', '-0', '0.0001', '1000', '1000.001', '007.50', 'NaN'),
  ),
  holdingSeconds: fc.oneof(
    fc.integer({ min: -2, max: 700_000 }).map(String),
    fc.constantFrom('1.5', '60', ' 60', '+60', '060', '', '604800', '604801', '9999999999'),
  ),
  leakageValue: fc.oneof(
    fc.constantFrom('', '0.2', '-0.1', '0.12345', ' 0.2', '1,5', '1000000000', '1000000001'),
    fc.integer({ min: 0, max: 1e6 }).map((n) => (n / 10_000).toFixed(n % 5)),
  ),
  leakageUnit: fc.constantFrom('', 'ml/min', ' ml/min', 'x'.repeat(21), 'bar\u0000'),
  result: fc.constantFrom('pass', 'fail', 'ok', ''),
  testedAt: fc.oneof(
    fc.date({ min: new Date('1960-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
    fc.constantFrom('2024-05-01T08:30:00Z', '2024-05-01T16:30:00+08:00', '2024-02-30T08:00:00.000Z', '2024-05-01T08:30:00.000z', 'now', ''),
  ),
  operator: fc.constantFrom('', 'Chen', ' Chen', '陳大文', 'Lin, Wei', 'o'.repeat(121)),
  machine: fc.constantFrom('', 'Bench 1'),
};

const canonicalCells = (): Record<string, string> => ({
  recordId: 'R-1',
  serial: 'VB2311-000123',
  testType: 'shell',
  medium: 'water',
  testPressure: '2.40',
  holdingSeconds: '60',
  leakageValue: '',
  leakageUnit: '',
  result: 'pass',
  testedAt: '2024-05-01T08:30:00.000Z',
  operator: 'Chen Mei',
  machine: '',
});

const oneCellChanged = fc
  .constantFrom(...(Object.keys(cell) as (keyof typeof cell)[]))
  .chain((k) => (cell[k] as fc.Arbitrary<string>).map((v) => ({ ...canonicalCells(), [k]: v })));

describe('CSV fast path', () => {
  it('accepts only rows the schema accepts, and gives the same values', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof(fc.record(cell, { requiredKeys: [] }), oneCellChanged), (cells) => {
        const fast = fastCsvRecord(cells);
        if (fast === null) return;
        taken++;
        const slow = testRecordInput.safeParse(cells);
        expect(slow.success).toBe(true);
        expect(fast).toEqual(slow.data);
      }),
      { numRuns: 5000 },
    );
    expect(taken).toBeGreaterThan(500);
  });

  it('takes the rows of the generated import files, and leaves bad and non-canonical rows to zod', () => {
    expect(fastCsvRecord(canonicalCells())).toEqual(testRecordInput.parse(canonicalCells()));
    const leak = { ...canonicalCells(), leakageValue: '1.234', leakageUnit: 'ml/min', operator: 'Lin, Wei' };
    expect(fastCsvRecord(leak)).toEqual(testRecordInput.parse(leak));
    const { operator: _o, leakageValue: _v, leakageUnit: _u, ...without } = canonicalCells();
    expect(fastCsvRecord(without)).toEqual(testRecordInput.parse(without));
    for (const bad of [
      { testPressure: '' },
      { testPressure: '2.4567' },
      { holdingSeconds: '-1' },
      { leakageValue: '0.5' },
      { leakageUnit: 'ml/min' },
      { serial: 'vb2311-000123' },
      { testedAt: '2999-01-01T00:00:00.000Z' },
      { recordId: '' },
    ]) {
      expect(fastCsvRecord({ ...canonicalCells(), ...bad })).toBeNull();
    }
  });
});
