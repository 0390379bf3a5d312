/** The pressure–time chart module shared by the web (SVG) and the report PDF: scales, downsampling, hold, layout. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildChart, downsample, formatTick, holdPeriod, niceStep, niceTicks, orderedSamples, type Sample } from '../src/shared/chart';

const NICE = [1, 2, 5];

function isNice(step: number): boolean {
  const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-12);
  return NICE.some((n) => Math.abs(mantissa - n) < 1e-9) || Math.abs(mantissa - 10) < 1e-9;
}

/** A typical test: ramp to the test pressure, hold, a small leak, vent. */
function testCurve(n: number, testPressure = 16, duration = 120): Sample[] {
  return Array.from({ length: n }, (_, i) => {
    const t = (i / (n - 1)) * duration;
    const ramp = Math.min(1, t / 20);
    const vent = t > 100 ? Math.max(0, 1 - (t - 100) / 10) : 1;
    return { t, p: testPressure * ramp * vent - (t > 20 && t < 100 ? (t - 20) * 0.001 : 0) };
  });
}

describe('niceTicks', () => {
  it.each([
    [0, 16.8, 5, 0, 20, 5],
    [0, 120, 6, 0, 120, 20],
    [0.3, 0.9, 5, 0.3, 0.9, 0.1],
    [-3, 7, 5, -4, 8, 2],
  ])('%s..%s in ~%s ticks: %s..%s step %s', (min, max, count, lo, hi, step) => {
    const ticks = niceTicks(min, max, count);
    expect(ticks).toMatchObject({ min: lo, max: hi, step });
    expect(ticks.values[0]).toBe(lo);
    expect(ticks.values.at(-1)).toBe(hi);
  });

  it('always gives a nice step, ticks on whole steps and covers the data', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: 1e-3, max: 1e6, noNaN: true }),
        fc.integer({ min: 2, max: 12 }),
        (min, span, count) => {
          const max = min + span;
          const t = niceTicks(min, max, count);
          expect(isNice(t.step)).toBe(true);
          // within a billionth of a step (values a rounding error from a tick count as on it)
          expect(t.min).toBeLessThanOrEqual(min + 1e-9 * t.step);
          expect(t.max).toBeGreaterThanOrEqual(max - 1e-9 * t.step);
          expect(t.values.length).toBeGreaterThanOrEqual(2);
          expect(t.values.length).toBeLessThanOrEqual(count * 2 + 3);
          for (let i = 1; i < t.values.length; i += 1) {
            expect(t.values[i]! - t.values[i - 1]!).toBeCloseTo(t.step, 6);
          }
        },
      ),
    );
  });

  it('covers data a rounding error below a tick at large values', () => {
    // fast-check found it: the first tick was 1000000, above the data.
    const t = niceTicks(999999.9999999999, 999999.9999999999 + 0.001, 4);
    expect(t.min).toBeLessThanOrEqual(999999.9999999999);
    expect(t.max).toBeGreaterThanOrEqual(999999.9999999999 + 0.001);
  });

  it('widens an empty or one-value domain so an axis can be drawn', () => {
    expect(niceTicks(0, 0)).toMatchObject({ min: 0, max: 1 });
    const five = niceTicks(5, 5);
    expect(five.min).toBeLessThan(5);
    expect(five.max).toBeGreaterThan(5);
    expect(niceTicks(Number.NaN, Number.NaN).values.length).toBeGreaterThanOrEqual(2);
  });

  it('prints labels with exactly the decimals the step needs', () => {
    expect(niceTicks(0, 1, 4).values.map((v) => formatTick(v, 0.2))).toEqual(['0.0', '0.2', '0.4', '0.6', '0.8', '1.0']);
    expect(formatTick(20, 5)).toBe('20');
    expect(formatTick(0.3, 0.05)).toBe('0.30');
    expect(niceStep(7, 1)).toBe(5);
    expect(niceStep(8, 1)).toBe(10);
    expect(niceStep(0, 5)).toBe(1);
  });
});

describe('downsample', () => {
  it('keeps the first, last and extreme samples and stays within the budget', () => {
    const samples = testCurve(10_000);
    samples[4321] = { t: samples[4321]!.t, p: 40 }; // an overshoot spike
    samples[7777] = { t: samples[7777]!.t, p: -1 }; // a drop below zero
    for (const budget of [4, 5, 100, 1000, 2048]) {
      const out = downsample(samples, budget);
      expect(out.length).toBeLessThanOrEqual(budget);
      expect(out[0]).toBe(samples[0]);
      expect(out.at(-1)).toBe(samples.at(-1));
      expect(out).toContain(samples[4321]);
      expect(out).toContain(samples[7777]);
    }
  });

  it('returns samples in ascending time, a subset of the input, for any input', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ t: fc.double({ min: 0, max: 1e4, noNaN: true }), p: fc.double({ min: -10, max: 100, noNaN: true }) }), {
          maxLength: 600,
        }),
        fc.integer({ min: 4, max: 300 }),
        (raw, budget) => {
          const ordered = orderedSamples(raw);
          const out = downsample(ordered, budget);
          expect(out.length).toBeLessThanOrEqual(Math.max(budget, 4));
          for (let i = 1; i < out.length; i += 1) expect(out[i]!.t).toBeGreaterThanOrEqual(out[i - 1]!.t);
          for (const s of out) expect(ordered).toContain(s);
          if (ordered.length > 0) {
            const maxP = Math.max(...ordered.map((s) => s.p));
            const minP = Math.min(...ordered.map((s) => s.p));
            expect(Math.max(...out.map((s) => s.p))).toBe(maxP);
            expect(Math.min(...out.map((s) => s.p))).toBe(minP);
          }
        },
      ),
    );
  });

  it('handles no samples, one sample and samples all at the same time', () => {
    expect(downsample([], 100)).toEqual([]);
    expect(downsample([{ t: 1, p: 2 }], 100)).toEqual([{ t: 1, p: 2 }]);
    const sameTime = Array.from({ length: 50 }, (_, i) => ({ t: 3, p: i % 7 }));
    const out = downsample(sameTime, 10);
    expect(out.length).toBeLessThanOrEqual(10);
    expect(out.map((s) => s.p)).toEqual(expect.arrayContaining([0, 6]));
  });

  it('orders samples by time and drops non-finite values', () => {
    expect(
      orderedSamples([
        { t: 2, p: 1 },
        { t: 1, p: 3 },
        { t: Number.NaN, p: 1 },
        { t: 3, p: Number.POSITIVE_INFINITY },
      ]),
    ).toEqual([
      { t: 1, p: 3 },
      { t: 2, p: 1 },
    ]);
  });
});

describe('holdPeriod', () => {
  it('starts when the test pressure is reached and lasts the holding time', () => {
    const hold = holdPeriod(testCurve(1201), 16, 60);
    expect(hold).toMatchObject({ reached: true });
    expect(hold!.start).toBeCloseTo(19.6, 0);
    expect(hold!.end - hold!.start).toBeCloseTo(60, 6);
  });

  it('is cut at the last sample and falls back to the peak when the pressure never gets there', () => {
    expect(
      holdPeriod(
        [
          { t: 0, p: 0 },
          { t: 10, p: 16 },
          { t: 15, p: 16 },
        ],
        16,
        60,
      ),
    ).toEqual({ start: 10, end: 15, reached: true });
    expect(
      holdPeriod(
        [
          { t: 0, p: 0 },
          { t: 5, p: 9 },
          { t: 9, p: 8 },
        ],
        16,
        3,
      ),
    ).toEqual({ start: 5, end: 8, reached: false });
  });

  it('is null without samples, holding time or test pressure', () => {
    expect(holdPeriod([], 16, 60)).toBeNull();
    expect(holdPeriod([{ t: 0, p: 1 }], 16, 0)).toBeNull();
    expect(holdPeriod([{ t: 0, p: 1 }], null, 60)).toBeNull();
  });
});

describe('buildChart', () => {
  const box = { x: 0, y: 0, width: 800, height: 360 };

  it('draws 10,000 samples as at most two points per unit of width, inside the plot', () => {
    const chart = buildChart({ samples: testCurve(10_000), testPressure: 16, holdingSeconds: 60 }, box, {
      labels: { x: 's', y: 'MPa', reference: '16 MPa', hold: 'hold' },
    });
    expect(chart.sampleCount).toBe(10_000);
    expect(chart.drawnCount).toBe(chart.curve.length);
    expect(chart.curve.length).toBeLessThanOrEqual(Math.round(chart.plot.width * 2));
    for (const [x, y] of chart.curve) {
      expect(x).toBeGreaterThanOrEqual(chart.plot.x - 0.01);
      expect(x).toBeLessThanOrEqual(chart.plot.x + chart.plot.width + 0.01);
      expect(y).toBeGreaterThanOrEqual(chart.plot.y - 0.01);
      expect(y).toBeLessThanOrEqual(chart.plot.y + chart.plot.height + 0.01);
    }
    expect(chart.plot.x).toBeGreaterThan(box.x);
    expect(chart.plot.x + chart.plot.width).toBeLessThanOrEqual(box.x + box.width);
    expect(chart.plot.y + chart.plot.height).toBeLessThanOrEqual(box.y + box.height);
  });

  it('draws a reading a little below zero without stretching the axis a whole step down; a vacuum gets ticks of its own', () => {
    const noisy = testCurve(1201, 2.4).map((s, i) => (i < 5 ? { t: s.t, p: -0.02 } : s));
    const chart = buildChart({ samples: noisy, testPressure: 2.4, holdingSeconds: 60 }, box, { labels: {} });
    const [low] = chart.yAxis.domain;
    expect(low).toBe(-0.02);
    expect(chart.yAxis.ticks[0]!.value).toBe(0);
    // The 0 tick sits just above the axis and gets its grid line; every point stays inside the plot.
    expect(chart.yAxis.ticks[0]!.pos).toBeLessThan(chart.plot.y + chart.plot.height);
    expect(chart.grid.some((g) => g.y1 === chart.yAxis.ticks[0]!.pos && g.y1 === g.y2)).toBe(true);
    for (const [, y] of chart.curve) expect(y).toBeLessThanOrEqual(chart.plot.y + chart.plot.height + 0.01);

    const vacuum = testCurve(1201, 0.3).map((s, i) => (i < 200 ? { t: s.t, p: -0.09 } : s));
    const v = buildChart({ samples: vacuum, testPressure: 0.3, holdingSeconds: 60 }, box, { labels: {} });
    expect(v.yAxis.ticks[0]!.value).toBeLessThan(0);
    expect(v.yAxis.domain[0]).toBe(v.yAxis.ticks[0]!.value);
  });

  it('places the reference line at the test pressure and the hold band over the hold', () => {
    const chart = buildChart({ samples: testCurve(1201), testPressure: 16, holdingSeconds: 60 }, box, {
      labels: { reference: 'Test pressure 16 MPa', hold: 'Hold 60 s' },
    });
    const [y0, y1] = chart.yAxis.domain;
    const expectedY = chart.plot.y + chart.plot.height - ((16 - y0) / (y1 - y0)) * chart.plot.height;
    expect(chart.reference!.y1).toBeCloseTo(expectedY, 1);
    expect(chart.reference).toMatchObject({ value: 16, x1: chart.plot.x });
    // The axis reaches above the test pressure, so the line is not drawn on the frame.
    expect(y1).toBeGreaterThan(16);
    const [t0, t1] = chart.xAxis.domain;
    const px = (t: number) => chart.plot.x + ((t - t0) / (t1 - t0)) * chart.plot.width;
    expect(chart.hold!.x).toBeCloseTo(px(chart.hold!.start), 1);
    expect(chart.hold!.x + chart.hold!.width).toBeCloseTo(px(chart.hold!.end), 1);
    expect(chart.texts.map((t) => t.role)).toEqual(expect.arrayContaining(['reference', 'hold', 'xTick', 'yTick']));
  });

  it('ticks cover the data and are nice on both axes', () => {
    const chart = buildChart({ samples: testCurve(500, 25, 90), testPressure: 25, holdingSeconds: 30 }, box);
    expect(chart.xAxis.domain[0]).toBeLessThanOrEqual(0);
    expect(chart.xAxis.domain[1]).toBeGreaterThanOrEqual(90);
    expect(chart.yAxis.domain[1]).toBeGreaterThanOrEqual(25);
    const xs = chart.xAxis.ticks.map((t) => t.value);
    expect(isNice(xs[1]! - xs[0]!)).toBe(true);
    expect(chart.xAxis.ticks.map((t) => t.label)).toContain('0');
    // tick positions run left to right and (pressure) bottom to top
    for (let i = 1; i < chart.xAxis.ticks.length; i += 1) expect(chart.xAxis.ticks[i]!.pos).toBeGreaterThan(chart.xAxis.ticks[i - 1]!.pos);
    for (let i = 1; i < chart.yAxis.ticks.length; i += 1) expect(chart.yAxis.ticks[i]!.pos).toBeLessThan(chart.yAxis.ticks[i - 1]!.pos);
  });

  it('draws axes without a curve for no samples, and a point for one', () => {
    const empty = buildChart({ samples: [], testPressure: 10, holdingSeconds: 30 }, box);
    expect(empty.curve).toEqual([]);
    expect(empty.hold).toBeNull();
    expect(empty.reference).not.toBeNull();
    expect(empty.xAxis.ticks.length).toBeGreaterThanOrEqual(2);
    const one = buildChart({ samples: [{ t: 5, p: 3 }] }, box);
    expect(one.curve).toHaveLength(1);
    expect(one.reference).toBeNull();
    expect(one.xAxis.domain[0]).toBeLessThan(5);
    expect(one.xAxis.domain[1]).toBeGreaterThan(5);
    for (const n of [one.curve[0]![0], one.curve[0]![1]]) expect(Number.isFinite(n)).toBe(true);
  });

  it('lays out in any box, e.g. a PDF area in points away from the origin', () => {
    const pdfBox = { x: 50, y: 400, width: 495, height: 200 };
    const chart = buildChart({ samples: testCurve(3000), testPressure: 16, holdingSeconds: 60 }, pdfBox, {
      fontSize: 8,
      labels: { x: 'Time (s)', y: 'Pressure (MPa)' },
    });
    expect(chart.plot.x).toBeGreaterThan(50);
    expect(chart.plot.y).toBeGreaterThanOrEqual(400);
    expect(chart.plot.y + chart.plot.height).toBeLessThanOrEqual(600);
    expect(chart.curve.length).toBeLessThanOrEqual(Math.round(chart.plot.width * 2));
    const title = chart.texts.find((t) => t.role === 'yTitle')!;
    expect(title).toMatchObject({ rotate: -90, x: 50 });
  });
});
