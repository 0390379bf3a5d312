/**
 * The content hash of a test record (record-codec.ts): stored in test_records.content_hash, so it must never
 * change for the same record (a resent record would become a conflict). Fixed values computed by the code
 * before recordContentHashHex was added, and the CSV import's hex form equal to the bench API's bytes for
 * any record, with and without samples.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeSamples, recordContentHash, recordContentHashHex } from '../src/server/modules/machine-data/record-codec';

const plain = {
  serial: 'VB2311-000123',
  testType: 'shell',
  medium: 'water',
  testPressure: 2.4,
  holdingSeconds: 60,
  leakageValue: null,
  leakageUnit: null,
  result: 'pass',
  testedAt: '2024-05-01T08:30:00.000Z',
  operator: 'Chen, Mei',
} as const;
const leaky = { ...plain, leakageValue: 0.125, leakageUnit: 'ml/min', operator: '王小明', result: 'fail' } as const;
const points = encodeSamples([
  { t: 0, p: 2.4 },
  { t: 1.5, p: 2.39 },
]);

describe('record content hash', () => {
  it('keeps the values records were stored with', () => {
    const a = '7eacbc89dc390bb98d6cbeaa79a8186288983570764bec9b254cbb24ae2d9078';
    const b = '90fa5f7e5beca835c05016e37b8c2cea5bfacf72d9617eaece4e8d0c00bd1637';
    expect(recordContentHash(plain, null).toString('hex')).toBe(a);
    expect(recordContentHashHex(plain, null)).toBe(a);
    expect(recordContentHash(leaky, points).toString('hex')).toBe(b);
    expect(recordContentHashHex(leaky, points)).toBe(b);
  });

  it('gives the same hash as hex as recordContentHash does as bytes', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom('王小明', '"q"', 'a\\b', '\n'));
    const num = fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }));
    fc.assert(
      fc.property(
        fc.record({
          serial: text,
          testType: text,
          medium: text,
          testPressure: num,
          holdingSeconds: fc.integer(),
          leakageValue: num,
          leakageUnit: fc.option(text),
          result: text,
          testedAt: text,
          operator: text,
        }),
        fc.array(fc.record({ t: fc.double({ noNaN: true }), p: fc.double({ noNaN: true }) }), { maxLength: 4 }),
        (v, samples) => {
          const bytes = encodeSamples(samples);
          expect(recordContentHashHex(v as never, bytes)).toBe(recordContentHash(v as never, bytes).toString('hex'));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
