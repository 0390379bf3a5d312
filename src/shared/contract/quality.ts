/**
 * Quality analysis of the test data (docs/product.md §3): yields, failures as a Pareto, retests, the failures nobody
 * retested, and control charts with process capability. One statement of the definitions, read by the
 * server's SQL, the screen and the tests:
 *
 * - A unit is a serial. Over a date range, only the unit's tests in that range count.
 * - First-pass: every test type's first attempt passed. Final: every test type's latest attempt passed.
 * - Retested: some test type was attempted more than once. Retest rate = retested units / units tested.
 * - By bench: the unit's tests on that bench (a unit tested on two benches counts on both).
 * - Failures (the Pareto) are failed test records: each failed attempt counts.
 * - Never retested: a failed test of a unit with no later test of the same type, at any date.
 */
import { z } from 'zod';
import { PRESSURE_PARTS } from './materials';
import { REASON_CODES } from '../standards/reasons';
import { RULE_SETS, RUN_RULES } from '../chart/run-rules';
import { envelope, listEnvelope, listQuery } from './common';
import { TEST_TYPES, type TestType } from './machine-data';
import { isDay } from './days';
import { HELD_UNITS_MAX_DAYS, QUALITY_MAX_DAYS } from './quality-limits';

export { HELD_UNITS_MAX_DAYS, QUALITY_MAX_DAYS, rate } from './quality-limits';

const dateField = z.string({ error: 'validation.required' }).trim().refine(isDay, { error: 'validation.date' });

/** `from` and `to` are UTC days, both included. */
const rangeFields = { from: dateField, to: dateField };

/** The UTC days `from`..`to`, both included (0 or less when `to` is before `from`). */
export function daysIn(from: string, to: string): number {
  return (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
}

function checkRange(v: { from: string; to: string }, ctx: z.RefinementCtx, field = 'to'): void {
  if (!isDay(v.from) || !isDay(v.to)) return;
  const days = daysIn(v.from, v.to);
  if (days < 1) ctx.addIssue({ code: 'custom', path: [field], message: 'quality.validation.toBeforeFrom' });
  else if (days > QUALITY_MAX_DAYS) ctx.addIssue({ code: 'custom', path: [field], message: 'quality.validation.rangeTooLong' });
}

export const QUALITY_INTERVALS = ['day', 'week'] as const;
export type QualityInterval = (typeof QUALITY_INTERVALS)[number];

export const qualitySummaryQuery = z
  .object({ ...rangeFields, interval: z.enum(QUALITY_INTERVALS, { error: 'validation.oneOf' }).default('day') })
  .superRefine(checkRange);
export type QualitySummaryQuery = z.output<typeof qualitySummaryQuery>;

/** Counts of one group; the rates are derived from them (never stored). */
export const yieldCounts = z.object({
  units: z.number().int(),
  firstPass: z.number().int(),
  finalPass: z.number().int(),
  retested: z.number().int(),
});
export type YieldCounts = z.infer<typeof yieldCounts>;

export const yieldGroup = yieldCounts.extend({
  /** product or bench id, test type, or the period's first day; null: unmatched records or CSV uploads */
  key: z.string().nullable(),
  label: z.string().nullable(),
});
export type YieldGroup = z.infer<typeof yieldGroup>;

export const paretoItem = z.object({ key: z.string().nullable(), label: z.string().nullable(), failures: z.number().int() });
export type ParetoItem = z.infer<typeof paretoItem>;

export const qualitySummary = z.object({
  totals: yieldCounts.extend({ tests: z.number().int(), failures: z.number().int() }),
  byProduct: z.array(yieldGroup),
  byMachine: z.array(yieldGroup),
  byTestType: z.array(yieldGroup),
  /** a period per day or week (weeks start on Monday) that has tests, oldest first; key = its first day */
  overTime: z.array(yieldGroup),
  /** failures, most first (ties by label) */
  pareto: z.object({ testType: z.array(paretoItem), product: z.array(paretoItem), machine: z.array(paretoItem) }),
});
export type QualitySummary = z.infer<typeof qualitySummary>;
export const qualitySummaryEnvelope = envelope(qualitySummary);

export const openFailuresQuery = listQuery(['failedAt'] as const)
  .pick({ page: true, pageSize: true })
  .extend(rangeFields)
  .superRefine(checkRange);
export type OpenFailuresQuery = z.output<typeof openFailuresQuery>;

export const openFailure = z.object({
  recordId: z.string(),
  /** the server's id of the failed record (for its detail page) */
  id: z.string(),
  serial: z.string(),
  testType: z.enum(TEST_TYPES),
  failedAt: z.string(),
  productId: z.string().nullable(),
  productName: z.string().nullable(),
  productNameZh: z.string().nullable(),
  machineId: z.string().nullable(),
  machineName: z.string().nullable(),
});
export type OpenFailure = z.infer<typeof openFailure>;
export const openFailuresEnvelope = listEnvelope(openFailure);

/**
 * pressureRatio: the test pressure divided by the minimum the product's standard requires of that test (its
 * requirement row in force on the test day, for the range's body material): one scale for every product, so
 * that a bench's drift shows across all it tests (a product is optional for it).
 */
export const CONTROL_MEASURES = ['testPressure', 'pressureRatio', 'holdingSeconds', 'leakage', 'pressureDrop'] as const;
/** The measures that need a product chosen (the ratio is read across products). */
export const measureNeedsProduct = (m: ControlMeasure) => m !== 'pressureRatio';
export type ControlMeasure = (typeof CONTROL_MEASURES)[number];
export const RATING_MATERIALS = ['fc', 'wcb', 'sus'] as const;
export type RatingMaterial = (typeof RATING_MATERIALS)[number];

/**
 * Specification limits of the test pressure, as multiples of the product's pressure rating: the shell test
 * at 1.5 × and the seat and backseat tests at 1.1 × the rating (API 598, ISO 5208, EN 12266-1). The lower
 * limit is that required pressure; the upper allows 10 % over it (over-pressure beyond that stresses the
 * body more than the standard test means to). Air-seat tests run at a fixed low pressure and functional
 * tests have none: no limits, no Cpk. Holding time and leakage limits depend on the valve size, which the
 * catalogue does not hold: no Cpk for them either.
 */
export const TEST_PRESSURE_FACTORS: Partial<Record<TestType, number>> = { shell: 1.5, seat: 1.1, backseat: 1.1 };
export const TEST_PRESSURE_UPPER_MARGIN = 0.1;
/** Cpk at or above this is capable; below CPK_MARGINAL is not. */
export const CPK_CAPABLE = 1.33;
export const CPK_MARGINAL = 1.0;
/** Tukey's d2 for moving ranges of two: σ within = mean moving range / d2 (the individuals chart's σ). */
export const D2 = 1.128;
/** The points drawn: the range is cut into at most this many equal time buckets (mean, min, max of each). */
export const CONTROL_BUCKETS = 200;
/** Pressure drop is computed from the samples of at most this many of the newest tests in the range. */
export const PRESSURE_DROP_LIMIT = 500;

export const controlChartQuery = z
  .object({
    ...rangeFields,
    /** required, except for the pressure ratio (measureNeedsProduct) */
    productId: z.uuid({ error: 'validation.invalid' }).optional(),
    testType: z.enum(TEST_TYPES, { error: 'validation.oneOf' }),
    measure: z.enum(CONTROL_MEASURES, { error: 'validation.oneOf' }),
    /** which of the product's ratings the limits use; by default the only one it has */
    material: z.enum(RATING_MATERIALS, { error: 'validation.oneOf' }).optional(),
    /** one bench's tests only; by default every bench's */
    machineId: z.uuid({ error: 'validation.invalid' }).optional(),
    /** the run rules read on the points (src/shared/chart/run-rules.ts) */
    rules: z.enum(RULE_SETS, { error: 'validation.oneOf' }).default('western-electric'),
    /** the days the centre line, the control limits and the rules' σ come from (both or neither) */
    baselineFrom: dateField.optional(),
    baselineTo: dateField.optional(),
  })
  .superRefine(checkRange)
  .superRefine((v, ctx) => {
    if (v.productId === undefined && measureNeedsProduct(v.measure))
      ctx.addIssue({ code: 'custom', path: ['productId'], message: 'validation.required' });
    if (v.baselineFrom === undefined && v.baselineTo === undefined) return;
    if (v.baselineFrom === undefined) ctx.addIssue({ code: 'custom', path: ['baselineFrom'], message: 'validation.required' });
    else if (v.baselineTo === undefined) ctx.addIssue({ code: 'custom', path: ['baselineTo'], message: 'validation.required' });
    else checkRange({ from: v.baselineFrom, to: v.baselineTo }, ctx, 'baselineTo');
  });
export type ControlChartQuery = z.output<typeof controlChartQuery>;

export const controlChart = z.object({
  measure: z.enum(CONTROL_MEASURES),
  /** MPa, s, the leakage unit used most in the range, or MPa for the pressure drop */
  unit: z.string().nullable(),
  n: z.number().int(),
  mean: z.number().nullable(),
  /** σ of all values (for Ppk) */
  sigma: z.number().nullable(),
  /** σ from the mean moving range (for the limits and Cpk) */
  sigmaWithin: z.number().nullable(),
  /** the centre line: the baseline's mean when one is set, else the shown days' mean */
  centre: z.number().nullable(),
  /** centre ± 3σ within, of the baseline when one is set */
  ucl: z.number().nullable(),
  lcl: z.number().nullable(),
  /** the days the limits come from, with their number of values; null: the shown days */
  baseline: z.object({ from: z.string(), to: z.string(), n: z.number().int() }).nullable(),
  rules: z.enum(RULE_SETS),
  /** the points (indexes into `points`) that break a run rule, with the rules each breaks */
  breaks: z.array(z.object({ index: z.number().int(), rules: z.array(z.enum(RUN_RULES)) })),
  spec: z
    .object({ lsl: z.number().nullable(), usl: z.number().nullable(), material: z.enum(RATING_MATERIALS), rating: z.number() })
    .nullable(),
  /** the standard the limits come from ("API 598, 10th edition, 2016"); null: the product has none */
  standard: z.string().nullable(),
  /** the materials the product has a rating for (the limits need one chosen when there are several) */
  materials: z.array(z.enum(RATING_MATERIALS)),
  cpk: z.number().nullable(),
  ppk: z.number().nullable(),
  /** true when only the newest PRESSURE_DROP_LIMIT tests were used */
  limited: z.boolean(),
  points: z.array(z.object({ at: z.string(), n: z.number().int(), mean: z.number(), min: z.number(), max: z.number() })),
});
export type ControlChart = z.infer<typeof controlChart>;
export const controlChartEnvelope = envelope(controlChart);

/** Cpk (or Ppk with the overall σ) against whichever limits are known; null without σ or limits. */
export function capability(mean: number | null, sigma: number | null, lsl: number | null, usl: number | null): number | null {
  if (mean === null || sigma === null || !(sigma > 0) || (lsl === null && usl === null)) return null;
  const sides = [usl !== null ? (usl - mean) / (3 * sigma) : Infinity, lsl !== null ? (mean - lsl) / (3 * sigma) : Infinity];
  return Math.min(...sides);
}

/** Report requests the release gate held over the range (newest first), with what the unit's tests say now. */
export const heldRequestsQuery = listQuery(['createdAt'] as const)
  .pick({ page: true, pageSize: true })
  .extend(rangeFields)
  .superRefine(checkRange);
export type HeldRequestsQuery = z.output<typeof heldRequestsQuery>;

/** The unit now, by the release gate's own judgement: still held (with why), no tests yet, or releasable. */
export const HELD_REASONS = ['stillHeld', 'noTests', 'releasable'] as const;
/**
 * One thing the gate holds the unit for: a test whose latest attempt failed (bench or standard), a missing
 * one, a pressure-retaining part without a heat (heat null) or with its heat on hold (its number), a
 * bidirectional valve's closure test not shown conforming on one side (`side`), or (no test) a 3.1
 * certificate whose range no authorised inspector has released yet.
 */
export const heldFor = z.object({
  testType: z.enum(TEST_TYPES).nullable(),
  kind: z.enum(['failed', 'missing', 'untraced', 'unreleased', 'closure-one-side']),
  /** closure-one-side: the side without a conforming closure record */
  side: z.enum(['A', 'B']).optional(),
  part: z.enum(PRESSURE_PARTS).optional(),
  heat: z.string().nullable().optional(),
  testedAt: z.string().nullable(),
  /** the bench's own result of that latest attempt (a 'pass' here is a disagreement) */
  bench: z.enum(['pass', 'fail']).nullable(),
  reasons: z.array(z.enum(REASON_CODES)),
});
export const heldRequest = z.object({
  id: z.string(),
  serial: z.string(),
  requestedAt: z.string(),
  language: z.string(),
  reason: z.enum(HELD_REASONS),
  /** what holds the unit now (empty unless stillHeld) */
  heldFor: z.array(heldFor),
  latestTestedAt: z.string().nullable(),
});
export type HeldRequest = z.infer<typeof heldRequest>;
export const heldRequestsEnvelope = listEnvelope(heldRequest);

/**
 * What holds a unit, as the held-units worklist names and filters it: a test the bench failed, one the bench
 * passed and the product's standard rejects (a disagreement), a missing test, an untraced part, a range
 * no authorised inspector has released, or a bidirectional valve's closure shown on one side only.
 */
export const HOLD_KINDS = ['failed', 'nonconforming', 'missing', 'untraced', 'unreleased', 'closure-one-side'] as const;
export type HoldKind = (typeof HOLD_KINDS)[number];
export type HeldFor = z.infer<typeof heldFor>;
export function holdKindOf(h: HeldFor): HoldKind {
  return h.kind === 'failed' && h.bench === 'pass' ? 'nonconforming' : h.kind;
}

const optionalId = z.uuid({ error: 'validation.invalid' }).optional();

/**
 * Every unit tested over the range (UTC days) that the release gate holds now, for the certificate type in
 * Settings, requested or not: newest test first. Product and bench narrow the units to those with a test of
 * that product or on that bench in the range.
 */
export const heldUnitsQuery = listQuery(['latestTestedAt'] as const)
  .pick({ page: true, pageSize: true })
  .extend({
    ...rangeFields,
    productId: optionalId,
    machineId: optionalId,
    reason: z.enum(HOLD_KINDS, { error: 'validation.oneOf' }).optional(),
  })
  .superRefine(checkRange)
  .superRefine((v, ctx) => {
    if (!isDay(v.from) || !isDay(v.to)) return;
    const days = daysIn(v.from, v.to);
    if (days > HELD_UNITS_MAX_DAYS && days <= QUALITY_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'quality.validation.heldRangeTooLong' });
  });
export type HeldUnitsQuery = z.output<typeof heldUnitsQuery>;

export const heldUnit = z.object({
  serial: z.string(),
  productId: z.string().nullable(),
  productName: z.string().nullable(),
  productNameZh: z.string().nullable(),
  latestTestedAt: z.string(),
  heldFor: z.array(heldFor),
});
export type HeldUnit = z.infer<typeof heldUnit>;
export const heldUnitsEnvelope = listEnvelope(heldUnit);

/** The release gate's answer for one unit now: releasable, held (with why), or no tests yet. */
export const UNIT_RELEASE_STATUSES = ['releasable', 'held', 'noTests'] as const;
export const unitRelease = z.object({
  serial: z.string(),
  status: z.enum(UNIT_RELEASE_STATUSES),
  heldFor: z.array(heldFor),
});
export type UnitRelease = z.infer<typeof unitRelease>;
export const unitReleaseEnvelope = envelope(unitRelease);
