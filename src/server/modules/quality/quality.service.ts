/** The quality analysis: the repo's rows shaped into the contract, limits and capability added. */
import {
  capability,
  CONTROL_BUCKETS,
  D2,
  PRESSURE_DROP_LIMIT,
  TEST_PRESSURE_FACTORS,
  TEST_PRESSURE_UPPER_MARGIN,
  type ControlChart,
  type ControlChartQuery,
  type ControlMeasure,
  type OpenFailure,
  type OpenFailuresQuery,
  type ParetoItem,
  type QualitySummary,
  type QualitySummaryQuery,
  type RatingMaterial,
  type YieldGroup,
} from '../../../shared/contract/quality';
import { pageWindow } from '../../../shared/contract/common';
import { holdPeriod } from '../../../shared/chart';
import { ruleBreaks } from '../../../shared/chart/run-rules';
import { AppError } from '../../../shared/errors';
import type { Db } from '../../db/client';
import { decodeSamples } from '../machine-data/record-codec';
import { BODY_MATERIALS, deriveRequirement, ratingOf } from '../../../shared/standards/requirement';
import * as repo from './quality.repo';

const DAY = 86_400_000;

/** The UTC days `from`..`to` (both included) as a half-open instant range. */
export function rangeOf(q: { from: string; to: string }): repo.Range {
  return { from: new Date(`${q.from}T00:00:00Z`), to: new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY) };
}

const iso = (v: Date | string) => new Date(v).toISOString();

/** The summary from the kept outcomes (quality.repo.ts): a few hundred kept rows and the range's edge units. */
export async function summary(db: Db, q: QualitySummaryQuery): Promise<QualitySummary> {
  const rows = await repo.summary(db, rangeOf(q), q.interval);
  const of = (dim: repo.SummaryRow['dim']) => rows.filter((r) => r.dim === dim);
  const ids = (dim: repo.SummaryRow['dim']) => of(dim).flatMap((r) => (r.key ? [r.key] : []));
  const names = await repo.names(db, ids('product'), ids('machine'));
  const group = (r: repo.SummaryRow, label: (key: string) => string | null): YieldGroup => ({
    key: r.key,
    label: r.key === null ? null : label(r.key),
    units: r.units,
    firstPass: r.first_pass,
    finalPass: r.final_pass,
    retested: r.retested,
  });
  const byName = (key: string) => names.get(key) ?? null;
  const itself = (key: string) => key;
  const sortByLabel = (a: YieldGroup, b: YieldGroup) => (a.label ?? '\uffff').localeCompare(b.label ?? '\uffff');
  const pareto = (dim: repo.SummaryRow['dim'], label: (key: string) => string | null): ParetoItem[] =>
    of(dim)
      .filter((r) => r.failures > 0)
      .map((r) => ({ key: r.key, label: r.key === null ? null : label(r.key), failures: r.failures }))
      .sort((a, b) => b.failures - a.failures || (a.label ?? '\uffff').localeCompare(b.label ?? '\uffff'));
  const total = of('total')[0];
  return {
    totals: {
      units: total?.units ?? 0,
      firstPass: total?.first_pass ?? 0,
      finalPass: total?.final_pass ?? 0,
      retested: total?.retested ?? 0,
      tests: total?.tests ?? 0,
      failures: total?.failures ?? 0,
    },
    byProduct: of('product')
      .map((r) => group(r, byName))
      .sort(sortByLabel),
    byMachine: of('machine')
      .map((r) => group(r, byName))
      .sort(sortByLabel),
    byTestType: of('testType')
      .map((r) => group(r, itself))
      .sort(sortByLabel),
    overTime: of('period')
      .map((r) => group(r, itself))
      .sort((a, b) => (a.key ?? '').localeCompare(b.key ?? '')),
    pareto: { testType: pareto('testType', itself), product: pareto('product', byName), machine: pareto('machine', byName) },
  };
}

export async function openFailures(db: Db, q: OpenFailuresQuery): Promise<{ items: OpenFailure[]; total: number }> {
  const { limit, offset } = pageWindow(q);
  const { rows, total } = await repo.openFailures(db, rangeOf(q), limit, offset);
  return {
    total,
    items: rows.map((r) => ({
      id: r.id,
      recordId: r.record_id,
      serial: r.serial,
      testType: r.test_type,
      failedAt: iso(r.tested_at),
      productId: r.product_id,
      productName: r.product_name,
      productNameZh: r.product_name_zh,
      machineId: r.machine_id,
      machineName: r.machine_name,
    })),
  };
}

/** n, mean, σ (sample) and σ within (mean moving range / d2) of values in time order. */
export function describe(values: readonly number[]): { n: number; mean: number | null; sigma: number | null; sigmaWithin: number | null } {
  const n = values.length;
  if (n === 0) return { n, mean: null, sigma: null, sigmaWithin: null };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { n, mean, sigma: null, sigmaWithin: null };
  const sigma = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  let mr = 0;
  for (let i = 1; i < n; i++) mr += Math.abs(values[i]! - values[i - 1]!);
  return { n, mean, sigma, sigmaWithin: mr / (n - 1) / D2 };
}

/**
 * The pressure lost during the hold (src/shared/chart's holdPeriod): the pressure at the hold's start less
 * the last pressure within it. Null when the test has no hold (no samples reaching a positive pressure).
 */
export function pressureDrop(samples: readonly { t: number; p: number }[], testPressure: number, holdingSeconds: number): number | null {
  const hold = holdPeriod(samples, testPressure, holdingSeconds);
  if (!hold) return null;
  const inHold = samples.filter((s) => s.t >= hold.start && s.t <= hold.end);
  if (inHold.length === 0) return null;
  return inHold[0]!.p - inHold[inHold.length - 1]!.p;
}

const UNITS = { testPressure: 'MPa', pressureRatio: null, holdingSeconds: 's', pressureDrop: 'MPa' } as const;

interface Series {
  unit: string | null;
  stats: ReturnType<typeof describe>;
  points: ControlChart['points'];
  limited: boolean;
}

/**
 * The measure's points over a filter's days, with their statistics. `leakageUnit` is the unit already chosen
 * for the chart (a baseline's leakage is read in the chart's unit); left out, the range's most used one.
 */
async function seriesOf(db: Db, f: repo.ChartFilter, measure: ControlMeasure, leakageUnit?: string | null): Promise<Series> {
  if (measure === 'pressureDrop') {
    const rows = (await repo.newestWithSamples(db, f, PRESSURE_DROP_LIMIT)).reverse();
    const drops = rows.flatMap((r) => {
      const d = pressureDrop(decodeSamples(r.samples), r.test_pressure, r.holding_seconds);
      return d === null ? [] : [{ at: iso(r.tested_at), v: d }];
    });
    return {
      unit: UNITS.pressureDrop,
      stats: describe(drops.map((d) => d.v)),
      points: drops.map((d) => ({ at: d.at, n: 1, mean: d.v, min: d.v, max: d.v })),
      limited: rows.length === PRESSURE_DROP_LIMIT,
    };
  }
  const unit = measure === 'leakage' ? (leakageUnit !== undefined ? leakageUnit : await repo.leakageUnit(db, f)) : UNITS[measure];
  const rows =
    measure === 'leakage' && unit === null
      ? []
      : await repo.chartBuckets(db, f, measure, measure === 'leakage' ? unit : null, CONTROL_BUCKETS);
  const all = rows.find((r) => r.total);
  const n = all?.n ?? 0;
  return {
    unit,
    stats: {
      n,
      mean: n > 0 ? all!.mean : null,
      sigma: n > 1 ? all!.sigma : null,
      sigmaWithin: n > 1 && all!.mr !== null ? all!.mr / D2 : null,
    },
    points: rows.filter((r) => !r.total).map((r) => ({ at: iso(r.at), n: r.n, mean: r.mean, min: r.min, max: r.max })),
    limited: false,
  };
}

export async function controlChart(db: Db, q: ControlChartQuery): Promise<ControlChart> {
  const judged = q.productId ? await repo.judgedProductOf(db, q.productId) : undefined;
  if (q.productId && !judged) throw new AppError('not-found', 'errors.productNotFound');
  const f: repo.ChartFilter = { ...rangeOf(q), productId: q.productId, testType: q.testType, machineId: q.machineId };
  const { unit, stats, points, limited } = await seriesOf(db, f, q.measure);
  // The limits and the run rules read a baseline's centre and σ when one is set, so that the points judged
  // do not move their own limits; without one, the shown days' own (as Shewhart's first look at a process).
  const baseline =
    q.baselineFrom && q.baselineTo
      ? await seriesOf(db, { ...f, ...rangeOf({ from: q.baselineFrom, to: q.baselineTo }) }, q.measure, unit)
      : null;
  const limits = baseline ? baseline.stats : stats;
  const centre = limits.mean;
  const sigmaLimits = limits.sigmaWithin;
  const breaks =
    centre !== null && sigmaLimits !== null
      ? ruleBreaks(
          points.map((p) => p.mean),
          centre,
          sigmaLimits,
          q.rules,
          points.map((p) => p.n),
        )
      : [];
  const common = {
    measure: q.measure,
    unit,
    n: stats.n,
    mean: stats.mean,
    sigma: stats.sigma,
    sigmaWithin: stats.sigmaWithin,
    centre,
    ucl: centre !== null && sigmaLimits !== null ? centre + 3 * sigmaLimits : null,
    lcl: centre !== null && sigmaLimits !== null ? centre - 3 * sigmaLimits : null,
    baseline: baseline && q.baselineFrom && q.baselineTo ? { from: q.baselineFrom, to: q.baselineTo, n: baseline.stats.n } : null,
    rules: q.rules,
    breaks,
    limited,
    points,
  };
  // The ratio across products is read against the standards' own scale (1 = the required minimum), with no
  // one product's limits or capability.
  if (!judged || q.measure === 'pressureRatio') return { ...common, spec: null, standard: null, materials: [], cpk: null, ppk: null };
  const materials = BODY_MATERIALS.filter((m) => (ratingOf(judged, m) ?? 0) > 0);
  const material: RatingMaterial | undefined =
    q.material && materials.includes(q.material) ? q.material : materials.length === 1 ? materials[0] : undefined;
  // With a standard, the limits are what it requires of this product (src/shared/standards); without one, the
  // usual factors of the rating stand in, and the chart says so.
  const requirement = deriveRequirement(judged, material ?? null);
  const testReq = requirement?.tests.find((x) => x.testType === q.testType);
  const factor = TEST_PRESSURE_FACTORS[q.testType];
  let spec: ControlChart['spec'] = null;
  if (q.measure === 'testPressure' && material !== undefined) {
    const rating = ratingOf(judged, material)!;
    if (requirement) {
      if (testReq?.pressureMin != null) {
        spec = {
          material,
          rating,
          lsl: testReq.pressureMin,
          usl: testReq.pressureMax ?? round(testReq.pressureMin * (1 + TEST_PRESSURE_UPPER_MARGIN)),
        };
      }
    } else if (factor !== undefined) {
      const lsl = round(rating * factor);
      spec = { material, rating, lsl, usl: round(lsl * (1 + TEST_PRESSURE_UPPER_MARGIN)) };
    }
  } else if (q.measure === 'holdingSeconds' && testReq && testReq.holdMin > 0 && material !== undefined) {
    spec = { material, rating: ratingOf(judged, material)!, lsl: testReq.holdMin, usl: null };
  }
  const standard = requirement ? `${requirement.standard.name}, ${requirement.standard.edition}` : null;
  const { mean, sigma, sigmaWithin } = stats;
  return {
    ...common,
    spec,
    standard,
    materials,
    cpk: spec ? capability(mean, sigmaWithin, spec.lsl, spec.usl) : null,
    ppk: spec ? capability(mean, sigma, spec.lsl, spec.usl) : null,
  };
}

/** Limits to the test pressure's own precision (three decimals), so 1.6 × 1.5 is 2.4, not 2.4000000000000004. */
const round = (v: number) => Math.round(v * 1000) / 1000;
