/**
 * The holding period and the test-pressure reference of a test, as data: where the chart shades the hold and
 * draws the reference line. One statement for the web and the PDF.
 */
import type { Sample } from './downsample';

export interface HoldPeriod {
  /** seconds */
  start: number;
  end: number;
  /** false when the curve never reached the test pressure and the hold was placed at its peak */
  reached: boolean;
}

/**
 * Pressure within this fraction below the test pressure counts as reached: benches regulate to the set
 * point with a small undershoot, and a gauge's class accuracy is of this order.
 */
export const HOLD_TOLERANCE = 0.02;

/**
 * The hold starts when the pressure first reaches the test pressure (less the tolerance) and lasts the
 * declared holding time, cut at the last sample. A curve that never reaches it holds from its peak, and
 * `reached` says so. No samples, no positive holding time or no positive test pressure: no hold.
 */
export function holdPeriod(
  samples: readonly Sample[],
  testPressure: number | null | undefined,
  holdingSeconds: number | null | undefined,
  tolerance = HOLD_TOLERANCE,
): HoldPeriod | null {
  if (samples.length === 0 || !(holdingSeconds! > 0) || !(testPressure! > 0)) return null;
  const threshold = testPressure! * (1 - tolerance);
  let startIndex = samples.findIndex((s) => s.p >= threshold);
  const reached = startIndex >= 0;
  if (!reached) {
    startIndex = 0;
    for (let i = 1; i < samples.length; i += 1) if (samples[i]!.p > samples[startIndex]!.p) startIndex = i;
  }
  const start = samples[startIndex]!.t;
  const lastT = samples[samples.length - 1]!.t;
  return { start, end: Math.min(start + holdingSeconds!, Math.max(start, lastT)), reached };
}
