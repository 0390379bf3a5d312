/**
 * What the report checks from a test's samples, beside the bench's own result: the pressure reached, how
 * long the pressure stayed at or above the test pressure, and the pressure drop over the hold. A bench
 * "pass" whose samples held for less than the stated holding time is flagged to staff.
 */
import { HOLD_TOLERANCE, holdPeriod, orderedSamples, type Sample } from '../chart/index';

export interface SampleChecks {
  /** highest pressure in the samples, MPa */
  peak: number;
  /** longest continuous time at or above the test pressure (less the hold tolerance), seconds */
  heldSeconds: number;
  /** highest pressure during the hold minus the pressure at its end, MPa; null without a reached hold */
  drop: number | null;
  /** the samples reached the test pressure (less the tolerance) */
  reached: boolean;
  /** held for at least the stated holding time */
  holdMet: boolean;
  /** seconds held as judged against a minimum: heldSeconds plus the sampling slack, at most the stated time */
  judgedHold: number;
}

/** Pressure at time t, linearly between the samples around it. */
function pressureAt(s: readonly Sample[], t: number): number {
  let lo = 0;
  let hi = s.length - 1;
  if (t <= s[0]!.t) return s[0]!.p;
  if (t >= s[hi]!.t) return s[hi]!.p;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (s[mid]!.t <= t) lo = mid;
    else hi = mid;
  }
  const a = s[lo]!;
  const b = s[hi]!;
  return a.p + ((b.p - a.p) * (t - a.t)) / (b.t - a.t);
}

/** Checks of one test; null when it has no samples. */
export function checkSamples(samplesIn: readonly Sample[], testPressure: number, holdingSeconds: number): SampleChecks | null {
  const s = orderedSamples(samplesIn);
  if (s.length === 0) return null;
  const threshold = testPressure * (1 - HOLD_TOLERANCE);
  let peak = -Infinity;
  let held = 0;
  let runStart: number | null = null;
  for (let i = 0; i < s.length; i++) {
    const { t, p } = s[i]!;
    if (p > peak) peak = p;
    if (p >= threshold) {
      if (runStart === null) runStart = t;
      held = Math.max(held, t - runStart);
    } else {
      runStart = null;
    }
  }
  const reached = testPressure > 0 && peak >= threshold;
  const hold = holdPeriod(s, testPressure, holdingSeconds);
  // The drop from the highest pressure inside the hold to the pressure at its end: the hold starts on the
  // ramp (first sample at the threshold), so its first sample is usually below the settled pressure.
  let drop: number | null = null;
  if (hold && hold.reached) {
    let top = pressureAt(s, hold.start);
    for (const x of s) if (x.t >= hold.start && x.t <= hold.end && x.p > top) top = x.p;
    drop = Math.max(0, top - pressureAt(s, hold.end));
  }
  // A test pressure of 0 (e.g. a functional test) has nothing to hold.
  const heldSeconds = reached ? held : 0;
  // Samples are taken at intervals: a hold of exactly the stated time measures up to one interval short.
  // Allow the largest interval in the run (and 1 % of the holding time), no more.
  let step = 0;
  for (let i = 1; i < s.length; i++) step = Math.max(step, Math.min(s[i]!.t - s[i - 1]!.t, holdingSeconds));
  const slack = Math.max(step, holdingSeconds * 0.01);
  const holdMet = testPressure <= 0 || holdingSeconds <= 0 || heldSeconds + slack >= holdingSeconds;
  const judgedHold = testPressure <= 0 ? holdingSeconds : holdMet ? holdingSeconds : Math.min(holdingSeconds, heldSeconds + slack);
  return { peak, heldSeconds, drop, reached, holdMet, judgedHold };
}

/**
 * The hold a record is judged by from its samples (stored as test_records.held_seconds): how long the
 * samples stayed at the test pressure, never more than the stated holding time; null without samples.
 */
export function sampledHold(samples: readonly Sample[], testPressure: number, holdingSeconds: number): number | null {
  const c = checkSamples(samples, testPressure, holdingSeconds);
  return c ? Math.round(c.judgedHold * 1000) / 1000 : null;
}
