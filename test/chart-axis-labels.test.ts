/** Axis labels that thin themselves to the width, in English and Chinese (src/shared/chart/axis-labels.ts). */
import { describe, expect, it } from 'vitest';
import { estimateTextWidth, thinAxisLabels, type AxisLabel } from '../src/shared/chart';
import { formatShortDay } from '../src/shared/format/dates';

const FONT = 11;

function days(n: number): string[] {
  return Array.from({ length: n }, (_, i) => new Date(Date.UTC(2026, 9, 27 + i)).toISOString().slice(0, 10));
}

/** Where each drawn label lies, as the SVG would put it. */
function extents(positions: number[], labels: string[], kept: AxisLabel[]): [number, number][] {
  return kept.map(({ index, anchor }) => {
    const w = estimateTextWidth(labels[index]!, FONT);
    const x = positions[index]!;
    return anchor === 'start' ? [x, x + w] : anchor === 'end' ? [x - w, x] : [x - w / 2, x + w / 2];
  });
}

describe('thinAxisLabels', () => {
  it('counts a CJK character about twice as wide as a Latin one', () => {
    expect(estimateTextWidth('11月15日', 10)).toBeGreaterThan(estimateTextWidth('15 Nov', 10));
    expect(estimateTextWidth('月', 10)).toBe(10);
  });

  for (const lang of ['en', 'zh'] as const) {
    for (const [width, count] of [
      [390, 30],
      [1440, 30],
      [390, 90],
      [1440, 365],
      [390, 2],
      [390, 1],
    ] as const) {
      it(`${lang} at ${width} px with ${count} days: no two labels touch, the first and last shown, inside the plot`, () => {
        const left = 48;
        const right = width - 40;
        const labels = days(count).map((d) => formatShortDay(lang, d));
        const positions = labels.map((_, i) => (count === 1 ? (left + right) / 2 : left + (i * (right - left)) / (count - 1)));
        const kept = thinAxisLabels(positions, labels, { fontSize: FONT, anchorEnds: true });
        expect(kept.length).toBeGreaterThan(0);
        expect(kept[0]!.index).toBe(0);
        expect(kept.at(-1)!.index).toBe(count - 1);
        const boxes = extents(positions, labels, kept);
        for (let i = 1; i < boxes.length; i += 1) expect(boxes[i]![0]).toBeGreaterThanOrEqual(boxes[i - 1]![1] + FONT);
        for (const [a, b] of boxes) {
          expect(a).toBeGreaterThanOrEqual(left - (count === 1 ? 40 : 0));
          expect(b).toBeLessThanOrEqual(right + (count === 1 ? 40 : 0));
        }
        // Thinning keeps as many as fit: a wide chart of a month labels more than a phone does.
        if (count === 30 && width === 1440) expect(kept.length).toBeGreaterThanOrEqual(10);
        if (count > 2) expect(kept.length).toBeGreaterThanOrEqual(2);
      });
    }
  }

  it('keeps every label when they all fit, and evenly spaced ones otherwise', () => {
    const labels = ['a', 'b', 'c', 'd'];
    expect(thinAxisLabels([0, 100, 200, 300], labels, { fontSize: FONT }).map((l) => l.index)).toEqual([0, 1, 2, 3]);
    const many = Array.from({ length: 10 }, (_, i) => `${i}月${i}日`);
    const kept = thinAxisLabels(
      many.map((_, i) => i * 40),
      many,
      { fontSize: FONT },
    ).map((l) => l.index);
    expect(kept).toEqual([0, 2, 4, 6, 9]);
  });
});
