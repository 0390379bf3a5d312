/**
 * Why a record does not conform: bits of `test_records.reasons` (migration 0010 computes them in SQL from
 * the product's requirement rows). The names are i18n keys under `standards.reason.*`.
 */
export const REASONS = [
  { bit: 1, code: 'pressure-low' },
  { bit: 2, code: 'pressure-high' },
  { bit: 4, code: 'hold-short' },
  { bit: 8, code: 'leakage-high' },
  { bit: 16, code: 'leakage-unit' },
  { bit: 32, code: 'no-rating' },
] as const;
export type ReasonCode = (typeof REASONS)[number]['code'];
export const REASON_CODES = REASONS.map((r) => r.code) as unknown as readonly [ReasonCode, ...ReasonCode[]];

export function reasonsOf(bits: number): ReasonCode[] {
  return REASONS.filter((r) => (bits & r.bit) !== 0).map((r) => r.code);
}

export const VERDICTS = ['conforms', 'nonconforming', 'not-assessed'] as const;
export type Verdict = (typeof VERDICTS)[number];
