/** The pressure–time chart, one module for the web (SVG) and the report PDF (vector): see layout.ts. */
export {
  buildChart,
  type Box,
  type ChartInput,
  type ChartOptions,
  type ChartPrimitives,
  type ChartText,
  type ChartTick,
  type Line,
} from './layout';
export { downsample, orderedSamples, type Sample } from './downsample';
export { holdPeriod, HOLD_TOLERANCE, type HoldPeriod } from './hold';
export { formatTick, linearScale, niceStep, niceTicks, stepDecimals, type Ticks } from './scale';
export { estimateTextWidth, thinAxisLabels, type AxisLabel, type LabelAnchor } from './axis-labels';
