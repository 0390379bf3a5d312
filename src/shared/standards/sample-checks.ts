/**
 * What a test's samples say, checked against what the record states: the pressure reached, how long it
 * stayed at or above the test pressure without a gap in the evidence, and the pressure drop over the hold.
 * The samples decide the hold: a record whose samples never reach its stated pressure, or do not stay there
 * for its stated holding time, or leave a gap longer than `maxSampleGap` inside the hold, carries a sample
 * reason (SAMPLE_REASON_BITS, stored as test_records.sample_reasons) and is nonconforming whatever the bench
 * said (docs/decisions/0037-samples-decide-the-hold.md).
 */
import { HOLD_TOLERANCE, holdPeriod, orderedSamples, type Sample } from '../chart/index';

export interface SampleChecks {
  /** highest pressure in the samples, MPa */
  peak: number;
  /** longest time at or above the test pressure (less the hold tolerance) with no gap over the limit, seconds */
  heldSeconds: number;
  /** highest pressure during the hold minus the pressure at its end, MPa; null without a reached hold */
  drop: number | null;
  /** the samples reached the test pressure (less the tolerance) */
  reached: boolean;
  /** held for at least the stated holding time */
  holdMet: boolean;
  /** a gap between two samples longer than the limit broke the hold */
  gap: boolean;
  /** the longest gap between samples allowed inside the hold, seconds */
  gapLimit: number;
  /** seconds held as judged against a minimum: the stated time when met, else what the samples show */
  judgedHold: number;
  /** bits of SAMPLE_REASON_BITS (0: the samples agree with the record) */
  reasons: number;
}

/** test_records.reasons bits that come from the samples (src/shared/standards/reasons.ts names them). */
export const SAMPLE_REASON_BITS = { notReached: 64, holdShort: 128, gap: 256 } as const;

/**
 * The longest gap between two samples that a hold may contain: a tenth of the holding time, so that at
 * least ten samples evidence it, and never under 1 s (a bench sampling once a second always qualifies) nor
 * over 10 s (a long hold is still seen every 10 s). A drop shorter than the gap could go unseen between two
 * samples; with this limit it would be shorter than a tenth of the hold.
 */
export function maxSampleGap(holdingSeconds: number): number {
  return Math.max(1, Math.min(10, holdingSeconds / 10));
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

interface Run {
  start: number;
  end: number;
  /** index of the run's first and last sample */
  first: number;
  last: number;
}

/**
 * The longest run of consecutive samples at or above the threshold; with `gapLimit`, a gap longer than it
 * ends a run as a sample below the threshold does.
 */
function longestRun(s: readonly Sample[], threshold: number, gapLimit: number): Run | null {
  let best: Run | null = null;
  let cur: Run | null = null;
  for (let i = 0; i < s.length; i++) {
    const { t, p } = s[i]!;
    if (p < threshold) {
      cur = null;
      continue;
    }
    if (cur && t - s[i - 1]!.t > gapLimit) cur = null;
    if (!cur) cur = { start: t, end: t, first: i, last: i };
    else {
      cur.end = t;
      cur.last = i;
    }
    if (!best || cur.end - cur.start > best.end - best.start) best = { ...cur };
  }
  return best;
}

/** Checks of one test; null when it has no samples. */
export function checkSamples(samplesIn: readonly Sample[], testPressure: number, holdingSeconds: number): SampleChecks | null {
  const s = orderedSamples(samplesIn);
  if (s.length === 0) return null;
  const threshold = testPressure * (1 - HOLD_TOLERANCE);
  const gapLimit = maxSampleGap(holdingSeconds);
  let peak = -Infinity;
  for (const x of s) if (x.p > peak) peak = x.p;
  const hold = holdPeriod(s, testPressure, holdingSeconds);
  // The drop from the highest pressure inside the hold to the pressure at its end: the hold starts on the
  // ramp (first sample at the threshold), so its first sample is usually below the settled pressure.
  let drop: number | null = null;
  if (hold && hold.reached) {
    let top = pressureAt(s, hold.start);
    for (const x of s) if (x.t >= hold.start && x.t <= hold.end && x.p > top) top = x.p;
    drop = Math.max(0, top - pressureAt(s, hold.end));
  }
  // A test pressure of 0 (e.g. a functional test) has nothing to reach or hold.
  if (!(testPressure > 0)) {
    return { peak, heldSeconds: 0, drop, reached: true, holdMet: true, gap: false, gapLimit, judgedHold: holdingSeconds, reasons: 0 };
  }
  const reached = peak >= threshold;
  const run = reached ? longestRun(s, threshold, gapLimit) : null;
  const heldSeconds = run ? run.end - run.start : 0;
  // Samples are taken at intervals: the pressure may have reached the threshold up to one interval before
  // the run's first sample and left it up to one after its last. Allow the longer of those two intervals
  // (each at most the gap limit) and 1 % of the holding time, no more.
  let edge = 0;
  if (run) {
    if (run.first > 0) edge = Math.max(edge, s[run.first]!.t - s[run.first - 1]!.t);
    if (run.last < s.length - 1) edge = Math.max(edge, s[run.last + 1]!.t - s[run.last]!.t);
  }
  const slack = Math.max(Math.min(edge, gapLimit), holdingSeconds * 0.01);
  const holdMet = !(holdingSeconds > 0) || (reached && heldSeconds + slack >= holdingSeconds);
  // The gap is the reason when the samples, read across gaps, would have held.
  const across = reached && !holdMet ? longestRun(s, threshold, Infinity) : null;
  const gap = !!across && across.end - across.start + slack >= holdingSeconds;
  let reasons = 0;
  if (!reached) reasons |= SAMPLE_REASON_BITS.notReached;
  else if (gap) reasons |= SAMPLE_REASON_BITS.gap;
  else if (!holdMet) reasons |= SAMPLE_REASON_BITS.holdShort;
  const judgedHold = holdMet ? holdingSeconds : Math.min(holdingSeconds, heldSeconds);
  return { peak, heldSeconds, drop, reached, holdMet, gap, gapLimit, judgedHold, reasons };
}

/**
 * What a record's samples store beside it: the hold they show (test_records.held_seconds, never more than
 * the stated holding time) and their reasons (test_records.sample_reasons); nulls without samples.
 */
export function sampleVerdict(
  samples: readonly Sample[],
  testPressure: number,
  holdingSeconds: number,
): { heldSeconds: number | null; reasons: number | null } {
  const c = checkSamples(samples, testPressure, holdingSeconds);
  return c ? { heldSeconds: Math.round(c.judgedHold * 1000) / 1000, reasons: c.reasons } : { heldSeconds: null, reasons: null };
}
