/**
 * The quality screen's state in the URL (so Back, reload and a shared link show the same analysis): the
 * days, the period, the Pareto's dimension and the control chart's product, test type, measure and
 * material. Unknown values fall back to the defaults rather than erroring.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { TEST_TYPES, type TestType } from '../../../../shared/contract/machine-data';
import {
  CONTROL_MEASURES,
  QUALITY_INTERVALS,
  RATING_MATERIALS,
  type ControlMeasure,
  type QualityInterval,
  type RatingMaterial,
} from '../../../../shared/contract/quality';
import { RULE_SETS, type RuleSet } from '../../../../shared/chart/run-rules';

export const PARETO_DIMENSIONS = ['testType', 'product', 'machine'] as const;
export type ParetoDimension = (typeof PARETO_DIMENSIONS)[number];

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY = 86_400_000;

export const oneOf = <T extends string>(values: readonly T[], raw: string | null, fallback: T): T =>
  raw !== null && (values as readonly string[]).includes(raw) ? (raw as T) : fallback;

/** The default days: the last 30, today (UTC) included. */
export function defaultRange(now = Date.now()): { from: string; to: string } {
  const to = new Date(now).toISOString().slice(0, 10);
  return { from: new Date(now - 29 * DAY).toISOString().slice(0, 10), to };
}

export interface QualityParams {
  from: string;
  to: string;
  interval: QualityInterval;
  by: ParetoDimension;
  product: string | undefined;
  type: TestType;
  measure: ControlMeasure;
  material: RatingMaterial | undefined;
  /** the control chart's run rules and the days its limits come from (both or neither) */
  rules: RuleSet;
  /** the control chart split by bench: one bench's tests */
  bench: string | undefined;
  baselineFrom: string | undefined;
  baselineTo: string | undefined;
}

/** The days in the address (`from`, `to`), or the last 30 when they are missing or not dates. */
export function daysOf(search: URLSearchParams): { from: string; to: string } {
  const d = defaultRange();
  const from = search.get('from');
  const to = search.get('to');
  return { from: from && DATE.test(from) ? from : d.from, to: to && DATE.test(to) ? to : d.to };
}

/** An id from the address, or undefined when it is missing or not one. */
export const idOf = (raw: string | null): string | undefined => (raw && /^[\w-]{1,100}$/.test(raw) ? raw : undefined);

/** The address's parameters read with `read`, and `set` to change some (an empty value removes one), replacing history. */
export function useAddressState<P>(read: (search: URLSearchParams) => P) {
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => read(search), [read, search]);
  const set = useCallback(
    (patch: Partial<Record<keyof P, string | undefined>>) =>
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch) as [string, string | undefined][]) {
            if (v === undefined || v === '') next.delete(k);
            else next.set(k, v);
          }
          return next;
        },
        { replace: true },
      ),
    [setSearch],
  );
  return { params, set };
}

export function readQualityParams(search: URLSearchParams): QualityParams {
  const material = search.get('material');
  const baselineFrom = search.get('baselineFrom');
  const baselineTo = search.get('baselineTo');
  const baseline = baselineFrom && baselineTo && DATE.test(baselineFrom) && DATE.test(baselineTo);
  return {
    ...daysOf(search),
    interval: oneOf(QUALITY_INTERVALS, search.get('interval'), 'day'),
    by: oneOf(PARETO_DIMENSIONS, search.get('by'), 'testType'),
    product: idOf(search.get('product')),
    type: oneOf(TEST_TYPES, search.get('type'), 'shell'),
    measure: oneOf(CONTROL_MEASURES, search.get('measure'), 'testPressure'),
    material: material && (RATING_MATERIALS as readonly string[]).includes(material) ? (material as RatingMaterial) : undefined,
    rules: oneOf(RULE_SETS, search.get('rules'), 'western-electric'),
    bench: idOf(search.get('bench')),
    baselineFrom: baseline ? baselineFrom : undefined,
    baselineTo: baseline ? baselineTo : undefined,
  };
}

export function useQualityParams() {
  return useAddressState(readQualityParams);
}
