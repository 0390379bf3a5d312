/**
 * Reducing a pressure curve to what a given width can show without changing its shape: the time axis is cut
 * into buckets (one or two per pixel column) and each bucket keeps its lowest and highest sample, in time
 * order. Unlike averaging or LTTB this never loses a spike or a drop, so a leak or an overshoot looks the
 * same on screen and in the PDF as in the raw data; the first and last samples are always kept.
 */

export interface Sample {
  /** seconds */
  t: number;
  /** MPa */
  p: number;
}

/** Samples in ascending time; a copy sorted by t (stable) when the input is not, finite values only. */
export function orderedSamples(samples: readonly Sample[]): Sample[] {
  const clean = samples.filter((s) => Number.isFinite(s.t) && Number.isFinite(s.p));
  for (let i = 1; i < clean.length; i += 1) {
    if (clean[i]!.t < clean[i - 1]!.t) return clean.sort((a, b) => a.t - b.t);
  }
  return clean;
}

/**
 * At most `budget` samples (budget ≥ 4) that keep the first, the last and each bucket's extremes.
 * Input must be in ascending t (see orderedSamples); the output is too.
 */
export function downsample(samples: readonly Sample[], budget: number): Sample[] {
  const n = samples.length;
  const limit = Math.max(4, Math.floor(budget));
  if (n <= limit) return samples.slice();
  const first = samples[0]!;
  const last = samples[n - 1]!;
  // Two samples per bucket plus the first and last: never more than the budget.
  const buckets = Math.floor((limit - 2) / 2);
  const t0 = first.t;
  const span = last.t - t0;
  const minIdx = new Int32Array(buckets).fill(-1);
  const maxIdx = new Int32Array(buckets).fill(-1);
  for (let i = 0; i < n; i += 1) {
    const s = samples[i]!;
    // Buckets by time, not by index, so that irregular sampling still gives one column per time slice.
    const b = span > 0 ? Math.min(buckets - 1, Math.floor(((s.t - t0) / span) * buckets)) : 0;
    const lo = minIdx[b]!;
    const hi = maxIdx[b]!;
    if (lo < 0 || s.p < samples[lo]!.p) minIdx[b] = i;
    if (hi < 0 || s.p > samples[hi]!.p) maxIdx[b] = i;
  }
  const keep: number[] = [0];
  for (let b = 0; b < buckets; b += 1) {
    const lo = minIdx[b]!;
    const hi = maxIdx[b]!;
    if (lo < 0) continue;
    const a = Math.min(lo, hi);
    const c = Math.max(lo, hi);
    if (a > keep[keep.length - 1]!) keep.push(a);
    if (c > keep[keep.length - 1]!) keep.push(c);
  }
  if (keep[keep.length - 1] !== n - 1) keep.push(n - 1);
  return keep.map((i) => samples[i]!);
}
