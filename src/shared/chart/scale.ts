/**
 * Linear scales with "nice" ticks (steps of 1, 2 or 5 × 10^k), shared by the web chart (SVG) and the report
 * PDF so that both show the same axes. Pure arithmetic: no DOM, no fonts.
 */

export interface Ticks {
  /** the axis domain, widened to whole steps so that the first and last tick sit on the axis ends */
  min: number;
  max: number;
  step: number;
  values: number[];
}

/** The nice step (1, 2 or 5 × 10^k) nearest to `span / count`. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  // Thresholds at the geometric means between candidates: the nearest nice step, so the tick count stays
  // within about 1.6 × of the one asked for either way.
  const nice = fraction <= Math.sqrt(2) ? 1 : fraction <= Math.sqrt(10) ? 2 : fraction <= Math.sqrt(50) ? 5 : 10;
  return nice * power;
}

/** Decimals needed to print multiples of `step` exactly (0.25 → 2, 5 → 0). */
export function stepDecimals(step: number): number {
  if (!(step > 0) || !Number.isFinite(step)) return 0;
  for (let d = 0; d < 12; d += 1) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return d;
  }
  return 12;
}

/**
 * Ticks that cover [min, max] with about `count` intervals. A degenerate or empty domain is widened
 * (one point at 5 → 4..6, at 0 → 0..1) so that an axis can always be drawn.
 */
export function niceTicks(min: number, max: number, count = 5): Ticks {
  let lo = Number.isFinite(min) ? min : 0;
  let hi = Number.isFinite(max) ? max : lo + 1;
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.2;
    lo = lo === 0 ? 0 : lo - pad;
    hi += pad;
  }
  const step = niceStep(hi - lo, count);
  // The epsilon keeps values that are already on a step (e.g. 0.3 / 0.1 = 2.9999999999999996) where they are.
  let first = Math.floor(lo / step + 1e-9);
  let last = Math.ceil(hi / step - 1e-9);
  const decimals = stepDecimals(step);
  // At large values the epsilon (or the division itself) can put the end tick a rounding error inside the
  // data (999999.9999999999 with a step of 0.0001 gave a first tick of 1000000): one more step then covers it.
  if (roundTo(first * step, decimals) > lo + 1e-9 * step) first -= 1;
  if (roundTo(last * step, decimals) < hi - 1e-9 * step) last += 1;
  const values: number[] = [];
  for (let i = first; i <= last; i += 1) values.push(roundTo(i * step, decimals));
  return { min: values[0] ?? lo, max: values[values.length - 1] ?? hi, step, values };
}

function roundTo(value: number, decimals: number): number {
  const rounded = Number(value.toFixed(Math.min(decimals, 20)));
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** Maps a domain onto a pixel range (which may run backwards, as a y axis does). */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): (value: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  if (span === 0) return () => (r0 + r1) / 2;
  const k = (r1 - r0) / span;
  return (value) => r0 + (value - d0) * k;
}

/** A tick label: exactly as many decimals as the step needs, a dot as separator (the same in en and zh). */
export function formatTick(value: number, step: number): string {
  return value.toFixed(stepDecimals(step));
}
