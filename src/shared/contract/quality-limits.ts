/**
 * Quality's limits and its rate, apart from its schemas (quality.ts re-exports them): a screen that only
 * shows a figure, as the dashboard does, loads them without building every schema of the contract.
 */

/** The longest range one request may ask for: a year (and a leap day). */
export const QUALITY_MAX_DAYS = 366;

/**
 * The longest range of the held-units list: each unit tested in it is judged by the release gate, about 2 s
 * for 30 days of a year of 1,000,000 records (docs/benchmarks.md; decision 0064).
 */
export const HELD_UNITS_MAX_DAYS = 31;

/** A rate as a share (0..1), or null when nothing was counted. */
export function rate(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}
