/** Quality analysis (staff, admin): the summary, the failures never retested, a control chart. */
import { keepPreviousData, queryOptions, useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import type {
  ControlChart,
  ControlMeasure,
  HeldRequest,
  HeldUnit,
  HoldKind,
  OpenFailure,
  QualityInterval,
  QualitySummary,
  RatingMaterial,
  UnitRelease,
} from '../../../shared/contract/quality';
import type { TestType } from '../../../shared/contract/machine-data';
import { api } from '../../lib/api';
import type { RuleSet } from '../../../shared/chart/run-rules';

export interface QualityRange {
  from: string;
  to: string;
}

export const qualityKeys = {
  all: ['quality'] as const,
  summary: (r: QualityRange, interval: QualityInterval) => [...qualityKeys.all, 'summary', r.from, r.to, interval] as const,
  open: (r: QualityRange) => [...qualityKeys.all, 'open', r.from, r.to] as const,
  chart: (q: ControlChartParams) => [...qualityKeys.all, 'chart', q] as const,
};

const summaryQuery = (range: QualityRange, interval: QualityInterval) =>
  queryOptions({
    queryKey: qualityKeys.summary(range, interval),
    queryFn: ({ signal }) => api.get<QualitySummary>('/quality/summary', { signal, query: { ...range, interval } }),
  });

export function useQualitySummary(range: QualityRange, interval: QualityInterval) {
  return useQuery({ ...summaryQuery(range, interval), placeholderData: keepPreviousData });
}

/** The summary of the days and period an address names, asked for as the screen's code arrives. */
export function prefetchQualitySummary(client: QueryClient, range: QualityRange, interval: QualityInterval): Promise<void> {
  return client.prefetchQuery(summaryQuery(range, interval));
}

const OPEN_PAGE = 20;

/** The failures never retested, newest first, a page at a time ("show more"). */
export function useOpenFailures(range: QualityRange) {
  return useInfiniteQuery({
    queryKey: qualityKeys.open(range),
    initialPageParam: 1,
    queryFn: ({ signal, pageParam }) =>
      api.get<{ items: OpenFailure[]; total: number }>('/quality/open-failures', {
        signal,
        query: { ...range, page: pageParam, pageSize: OPEN_PAGE },
      }),
    getNextPageParam: (last, pages) => (pages.length * OPEN_PAGE < last.total ? pages.length + 1 : undefined),
  });
}

export interface ControlChartParams extends QualityRange {
  productId?: string;
  testType: TestType;
  measure: ControlMeasure;
  material?: RatingMaterial;
  rules?: RuleSet;
  machineId?: string;
  baselineFrom?: string;
  baselineTo?: string;
}

export function useControlChart(params: ControlChartParams | null) {
  return useQuery({
    queryKey: qualityKeys.chart(params ?? ({} as ControlChartParams)),
    queryFn: ({ signal }) => api.get<ControlChart>('/quality/control-chart', { signal, query: { ...params } }),
    enabled: params !== null,
    placeholderData: keepPreviousData,
  });
}

/** Report requests the release gate held over the days, newest first, a page at a time. */
export function useHeldRequests(range: QualityRange) {
  return useInfiniteQuery({
    queryKey: [...qualityKeys.all, 'held', range.from, range.to] as const,
    initialPageParam: 1,
    queryFn: ({ signal, pageParam }) =>
      api.get<{ items: HeldRequest[]; total: number }>('/quality/held-requests', {
        signal,
        query: { ...range, page: pageParam, pageSize: OPEN_PAGE },
      }),
    getNextPageParam: (last, pages) => (pages.length * OPEN_PAGE < last.total ? pages.length + 1 : undefined),
  });
}

/** The held-units worklist's filters (held-units-page.tsx keeps them in the URL). */
export interface HeldUnitsFilters extends QualityRange {
  productId?: string;
  machineId?: string;
  reason?: HoldKind;
}

const HELD_PAGE = 50;

/** The query string of the filters, without the empty ones: the list's and the CSV's. */
export function heldUnitsQuery(f: HeldUnitsFilters): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) q.set(k, String(v));
  return q.toString();
}

/** The list's address with these filters: the dashboard's cards and the quality screen link to it. */
export function heldUnitsPath(f: Partial<HeldUnitsFilters> = {}): string {
  const q = heldUnitsQuery({ from: '', to: '', ...f });
  return `/machine-data/held-units${q ? `?${q}` : ''}`;
}

/** Every unit the release gate holds, newest test first, a page at a time. */
export function useHeldUnits(f: HeldUnitsFilters, enabled = true) {
  return useInfiniteQuery({
    enabled,
    queryKey: [...qualityKeys.all, 'held-units', heldUnitsQuery(f)] as const,
    initialPageParam: 1,
    queryFn: async ({ signal, pageParam }) => {
      const page = await api.get<{ items: HeldUnit[]; total: number }>('/held-units', {
        signal,
        query: { ...f, page: pageParam, pageSize: HELD_PAGE },
      });
      return { ...page, items: page.items.map((u) => ({ ...u, id: u.serial })) };
    },
    getNextPageParam: (last, pages) => (pages.length * HELD_PAGE < last.total ? pages.length + 1 : undefined),
  });
}

/** The release gate's answer for one unit now (the top of its page). */
export function useUnitRelease(serial: string) {
  return useQuery({
    queryKey: [...qualityKeys.all, 'unit-release', serial] as const,
    queryFn: ({ signal }) => api.get<UnitRelease>(`/held-units/${encodeURIComponent(serial)}`, { signal }),
  });
}
