/**
 * Why a record does not conform: bits of `test_records.reasons` (migrations 0010, 0019, 0023, 0031 and 0046 compute them in SQL
 * from the product's requirement rows, the samples' own reasons and the unit's production date). The names are i18n keys under `standards.reason.*`.
 */
export const REASONS = [
  { bit: 1, code: 'pressure-low' },
  { bit: 2, code: 'pressure-high' },
  { bit: 4, code: 'hold-short' },
  { bit: 8, code: 'leakage-high' },
  { bit: 16, code: 'leakage-unit' },
  { bit: 32, code: 'no-rating' },
  // From the samples (sample-checks.ts) and the unit's production date (migration 0019).
  { bit: 64, code: 'samples-not-reached' },
  { bit: 128, code: 'samples-hold-short' },
  { bit: 256, code: 'samples-gap' },
  { bit: 512, code: 'before-production' },
  // A count- or volume-limited test whose record states no leakage (migration 0023).
  { bit: 1024, code: 'leakage-not-recorded' },
  // Where Settings require calibrated instruments (calibration.ts, migration 0031): the record's instrument
  // was not in calibration on the test day, or the bench has no such instrument (or the record names none).
  { bit: 2048, code: 'instrument-not-calibrated' },
  { bit: 4096, code: 'instrument-unknown' },
  // The test fluid's temperature the record states is outside its standard's range (migration 0046).
  { bit: 8192, code: 'fluid-temperature-out-of-range' },
] as const;
export type ReasonCode = (typeof REASONS)[number]['code'];
export const REASON_CODES = REASONS.map((r) => r.code) as unknown as readonly [ReasonCode, ...ReasonCode[]];

export function reasonsOf(bits: number): ReasonCode[] {
  return REASONS.filter((r) => (bits & r.bit) !== 0).map((r) => r.code);
}

export const VERDICTS = ['conforms', 'nonconforming', 'not-assessed'] as const;
export type Verdict = (typeof VERDICTS)[number];
