/**
 * Which labels of a category or date axis to draw so that none runs into the next, in either language:
 * widths are estimated per character (CJK characters are about a font size wide, Latin letters and digits
 * about 0.6 of it), every k-th label is kept for the smallest k that leaves `gap` between neighbours, and
 * the last label replaces the kept one before it when the two would touch. The first and last labels are
 * anchored at their ends ('start' / 'end'), the others centred.
 */

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** Estimated width of `text` at `fontSize` in a sans-serif font (an overestimate for narrow letters). */
export function estimateTextWidth(text: string, fontSize: number): number {
  let w = 0;
  for (const ch of text) w += WIDE.test(ch) ? fontSize : fontSize * 0.62;
  return w;
}

export type LabelAnchor = 'start' | 'middle' | 'end';

export interface AxisLabel {
  index: number;
  anchor: LabelAnchor;
}

function extent(pos: number, width: number, anchor: LabelAnchor): [number, number] {
  if (anchor === 'start') return [pos, pos + width];
  if (anchor === 'end') return [pos - width, pos];
  return [pos - width / 2, pos + width / 2];
}

/**
 * The labels to draw at `positions` (ascending x, one per label). `anchorEnds` anchors the first label at
 * its start and the last at its end, so both stay inside the plot.
 */
export function thinAxisLabels(
  positions: readonly number[],
  labels: readonly string[],
  opts: { fontSize: number; gap?: number; anchorEnds?: boolean },
): AxisLabel[] {
  const n = Math.min(positions.length, labels.length);
  if (n === 0) return [];
  const gap = opts.gap ?? opts.fontSize;
  const widths = labels.slice(0, n).map((l) => estimateTextWidth(l, opts.fontSize));
  const anchorOf = (i: number): LabelAnchor => (opts.anchorEnds && n > 1 ? (i === 0 ? 'start' : i === n - 1 ? 'end' : 'middle') : 'middle');
  const clear = (a: number, b: number) =>
    extent(positions[a]!, widths[a]!, anchorOf(a))[1] + gap <= extent(positions[b]!, widths[b]!, anchorOf(b))[0];
  for (let every = 1; every <= n; every += 1) {
    const kept: number[] = [];
    for (let i = 0; i < n; i += every) kept.push(i);
    if (kept[kept.length - 1] !== n - 1 && n > 1) {
      // The last label always shows; it replaces the kept one before it when they would touch.
      if (!clear(kept[kept.length - 1]!, n - 1)) kept.pop();
      kept.push(n - 1);
    }
    let ok = true;
    for (let k = 1; k < kept.length && ok; k += 1) ok = clear(kept[k - 1]!, kept[k]!);
    if (ok || kept.length <= 1) return kept.map((index) => ({ index, anchor: anchorOf(index) }));
  }
  return [{ index: 0, anchor: anchorOf(0) }];
}
