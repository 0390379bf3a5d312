/** Nominal sizes: DN (millimetres) and the NPS (inches) printed beside it. */

/** NPS of the common DNs (ASME B36.10 / EN ISO 6708 pairs); others are DN / 25. */
const NPS_OF_DN: Record<number, number> = {
  8: 0.25,
  10: 0.375,
  15: 0.5,
  20: 0.75,
  25: 1,
  32: 1.25,
  40: 1.5,
  50: 2,
  65: 2.5,
  80: 3,
  90: 3.5,
  100: 4,
  125: 5,
  150: 6,
  200: 8,
  250: 10,
  300: 12,
  350: 14,
  400: 16,
  450: 18,
  500: 20,
  550: 22,
  600: 24,
  650: 26,
  700: 28,
  750: 30,
  800: 32,
  850: 34,
  900: 36,
  1000: 40,
  1050: 42,
  1200: 48,
};

export function npsOf(dn: number): number {
  return NPS_OF_DN[dn] ?? Math.round((dn / 25) * 4) / 4;
}

/** "NPS 2½", "NPS 4", "NPS ¾". */
export function npsLabel(dn: number): string {
  const nps = npsOf(dn);
  const whole = Math.floor(nps);
  const frac = nps - whole;
  const f = frac === 0.25 ? '¼' : frac === 0.5 ? '½' : frac === 0.75 ? '¾' : frac === 0.375 ? '⅜' : frac ? String(frac).slice(1) : '';
  return `NPS ${whole === 0 && f ? '' : whole}${f}`;
}

/** The first band holding `dn` (bands in ascending order, the last open-ended). */
export function bandAt<B extends { maxDn: number | null }>(bands: ReadonlyArray<B>, dn: number): B {
  for (const b of bands) if (b.maxDn === null || dn <= b.maxDn) return b;
  return bands[bands.length - 1]!;
}

/** The value of the first band holding `dn`. */
export function bandOf<T>(bands: ReadonlyArray<{ maxDn: number | null; value: T }>, dn: number): T {
  return bandAt(bands, dn).value;
}

/** The same bands, each marked as a figure no source confirms. */
export function unconfirmed<T>(
  bands: ReadonlyArray<{ maxDn: number | null; value: T }>,
): Array<{ maxDn: number | null; value: T; unconfirmed: true }> {
  return bands.map((b) => ({ maxDn: b.maxDn, value: b.value, unconfirmed: true }));
}
