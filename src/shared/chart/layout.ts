/**
 * The pressure–time chart as plain drawing primitives in a given box: the web draws them as SVG and the
 * report PDF as vector paths, so both show the same axes, ticks, curve, reference line and hold band.
 * Coordinates are in the box's units (px on screen, pt in the PDF), y growing downwards as in both.
 */
import { downsample, orderedSamples, type Sample } from './downsample';
import { holdPeriod, type HoldPeriod } from './hold';
import { formatTick, linearScale, niceTicks } from './scale';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Line {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export type TextAnchor = 'start' | 'middle' | 'end';
export type TextBaseline = 'top' | 'middle' | 'bottom';

export interface ChartText {
  x: number;
  y: number;
  text: string;
  anchor: TextAnchor;
  baseline: TextBaseline;
  /** degrees, about (x, y); the y-axis title is turned -90 */
  rotate?: number;
  role: 'xTick' | 'yTick' | 'xTitle' | 'yTitle' | 'reference' | 'hold';
}

export interface ChartTick {
  value: number;
  /** position along the axis (x for the time axis, y for the pressure axis) */
  pos: number;
  label: string;
}

export interface ChartPrimitives {
  box: Box;
  /** the plotting area inside the axes */
  plot: Box;
  xAxis: { line: Line; ticks: ChartTick[]; domain: [number, number] };
  yAxis: { line: Line; ticks: ChartTick[]; domain: [number, number] };
  /** light lines across the plot at each tick, inside the plot */
  grid: Line[];
  /** the curve as [x, y] pairs, downsampled to the plot's width; empty without samples */
  curve: Array<[number, number]>;
  /** the test pressure as a horizontal line across the plot, or null */
  reference: (Line & { value: number }) | null;
  /** the shaded hold period, full plot height, or null */
  hold: (Box & HoldPeriod) | null;
  texts: ChartText[];
  /** how many samples went in and how many are drawn */
  sampleCount: number;
  drawnCount: number;
}

export interface ChartInput {
  samples: readonly Sample[];
  testPressure?: number | null;
  holdingSeconds?: number | null;
}

export interface ChartOptions {
  /** axis titles and labels, already translated by the caller: e.g. { x: 'Time (s)', y: 'Pressure (MPa)' } */
  labels?: { x?: string; y?: string; reference?: string; hold?: string };
  /** font size used to reserve room for tick labels (same unit as the box) */
  fontSize?: number;
  /** most points drawn; default two per unit of plot width */
  budget?: number;
  /** about how many units between ticks */
  xTickSpacing?: number;
  yTickSpacing?: number;
}

const CHAR_WIDTH = 0.6; // of the font size: a safe average for digits in sans-serif fonts
const TICK = 4;

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

/** Lays out the chart of `input` in `box`; see ChartPrimitives. */
export function buildChart(input: ChartInput, box: Box, options: ChartOptions = {}): ChartPrimitives {
  const fontSize = options.fontSize ?? 11;
  const labels = options.labels ?? {};
  const samples = orderedSamples(input.samples);
  const testPressure = input.testPressure != null && input.testPressure > 0 ? input.testPressure : null;
  const hold = holdPeriod(samples, testPressure, input.holdingSeconds);

  // Domains: time over the samples (and the hold), pressure from 0 to the peak or the test pressure.
  let tMin = samples[0]?.t ?? 0;
  let tMax = samples[samples.length - 1]?.t ?? input.holdingSeconds ?? 1;
  if (hold) tMax = Math.max(tMax, hold.end);
  if (samples.length === 0) tMin = 0;
  let pMin = 0;
  let pMax = testPressure ?? 0;
  for (const s of samples) {
    if (s.p < pMin) pMin = s.p;
    if (s.p > pMax) pMax = s.p;
  }
  // Headroom above the test pressure so the reference line does not sit on the top edge.
  if (testPressure !== null && pMax <= testPressure * 1.05) pMax = testPressure * 1.1;

  const yCount = Math.max(2, Math.round(box.height / (options.yTickSpacing ?? fontSize * 4)));
  // A reading a little below zero (a gauge's offset before the pump starts) is drawn as it is, but does not
  // stretch the axis a whole step below zero (0 to 3 MPa drawn from -0.5 for a reading of -0.01): the axis
  // then starts at that reading and the ticks at 0. Readings well below zero (a vacuum) get ticks of their own.
  const fromZero = niceTicks(0, pMax, yCount);
  const yTicks = pMin >= -0.25 * fromZero.step ? fromZero : niceTicks(pMin, pMax, yCount);
  const yLow = Math.min(yTicks.min, pMin);
  const yLabels = yTicks.values.map((v) => formatTick(v, yTicks.step));
  const yLabelWidth = Math.max(...yLabels.map((l) => l.length)) * fontSize * CHAR_WIDTH;

  const left = box.x + yLabelWidth + TICK + 4 + (labels.y ? fontSize * 1.6 : 0);
  const right = box.x + box.width - fontSize * 1.5;
  const top = box.y + fontSize;
  const bottom = box.y + box.height - (fontSize + TICK + 4) - (labels.x ? fontSize * 1.6 : 0);
  const plot: Box = { x: round(left), y: round(top), width: round(Math.max(1, right - left)), height: round(Math.max(1, bottom - top)) };

  const xCount = Math.max(2, Math.round(plot.width / (options.xTickSpacing ?? fontSize * 7)));
  const xTicks = niceTicks(tMin, tMax, xCount);
  const sx = linearScale([xTicks.min, xTicks.max], [plot.x, plot.x + plot.width]);
  const sy = linearScale([yLow, yTicks.max], [plot.y + plot.height, plot.y]);
  const x0 = plot.x;
  const y0 = plot.y + plot.height;

  const texts: ChartText[] = [];
  const xAxisTicks: ChartTick[] = xTicks.values.map((v) => ({ value: v, pos: round(sx(v)), label: formatTick(v, xTicks.step) }));
  const yAxisTicks: ChartTick[] = yTicks.values.map((v, i) => ({ value: v, pos: round(sy(v)), label: yLabels[i]! }));
  for (const t of xAxisTicks)
    texts.push({ x: t.pos, y: round(y0 + TICK + 2), text: t.label, anchor: 'middle', baseline: 'top', role: 'xTick' });
  for (const t of yAxisTicks)
    texts.push({ x: round(x0 - TICK - 2), y: t.pos, text: t.label, anchor: 'end', baseline: 'middle', role: 'yTick' });
  if (labels.x) {
    texts.push({
      x: round(plot.x + plot.width / 2),
      y: round(box.y + box.height),
      text: labels.x,
      anchor: 'middle',
      baseline: 'bottom',
      role: 'xTitle',
    });
  }
  if (labels.y) {
    texts.push({
      x: round(box.x),
      y: round(plot.y + plot.height / 2),
      text: labels.y,
      anchor: 'middle',
      baseline: 'top',
      rotate: -90,
      role: 'yTitle',
    });
  }

  const grid: Line[] = [
    ...xAxisTicks.slice(1).map((t) => ({ x1: t.pos, y1: plot.y, x2: t.pos, y2: round(y0) })),
    // Every tick above the x axis (the 0 tick too, when a reading below zero lowered the axis).
    ...yAxisTicks.filter((t) => t.pos < round(y0)).map((t) => ({ x1: plot.x, y1: t.pos, x2: round(plot.x + plot.width), y2: t.pos })),
  ];

  const drawn = downsample(samples, options.budget ?? Math.max(4, Math.round(plot.width * 2)));
  const curve = drawn.map((s): [number, number] => [round(sx(s.t)), round(sy(s.p))]);

  let reference: ChartPrimitives['reference'] = null;
  if (testPressure !== null) {
    const y = round(sy(testPressure));
    reference = { x1: plot.x, y1: y, x2: round(plot.x + plot.width), y2: y, value: testPressure };
    if (labels.reference) {
      texts.push({
        x: round(plot.x + plot.width - 4),
        y: round(y - 2),
        text: labels.reference,
        anchor: 'end',
        baseline: 'bottom',
        role: 'reference',
      });
    }
  }

  let holdBox: ChartPrimitives['hold'] = null;
  if (hold) {
    const hx = round(sx(hold.start));
    holdBox = { ...hold, x: hx, y: plot.y, width: round(Math.max(1, sx(hold.end) - hx)), height: plot.height };
    if (labels.hold) {
      texts.push({
        x: round(hx + holdBox.width / 2),
        y: round(plot.y + 2),
        text: labels.hold,
        anchor: 'middle',
        baseline: 'top',
        role: 'hold',
      });
    }
  }

  return {
    box,
    plot,
    xAxis: {
      line: { x1: plot.x, y1: round(y0), x2: round(plot.x + plot.width), y2: round(y0) },
      ticks: xAxisTicks,
      domain: [xTicks.min, xTicks.max],
    },
    yAxis: { line: { x1: plot.x, y1: plot.y, x2: plot.x, y2: round(y0) }, ticks: yAxisTicks, domain: [yLow, yTicks.max] },
    grid,
    curve,
    reference,
    hold: holdBox,
    texts,
    sampleCount: samples.length,
    drawnCount: drawn.length,
  };
}
