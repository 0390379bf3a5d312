/**
 * The list query of a catalogue table. A numbered page is one request; "All" is fetched in chunks of
 * CHUNK rows, the next one when the reader scrolls near the end (see LoadMore), so 100,000 rows never
 * arrive or render at once. The answer has the shape the shared DataTable reads.
 */
import { keepPreviousData, useInfiniteQuery, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { toListQuery, type ListParams, type ListResult } from '../../../components/data-table';
import { api } from '../../../lib/api';

export const CHUNK = 100;

export type Extra = Record<string, string | undefined>;

export interface MoreRows {
  active: boolean;
  loaded: number;
  total: number;
  hasMore: boolean;
  loading: boolean;
  loadMore: () => void;
}

export function useCatalogueList<T>(key: readonly unknown[], path: string, params: ListParams, extra: Extra = {}) {
  const all = params.pageSize === 'all';
  const base = { ...toListQuery(params), ...extra };

  const paged = useQuery({
    queryKey: [...key, 'page', params, extra],
    queryFn: ({ signal }) => api.get<ListResult<T>>(path, { query: base, signal }),
    placeholderData: keepPreviousData,
    enabled: !all,
  });

  const chunks = useInfiniteQuery({
    queryKey: [...key, 'all', { ...params, page: 1 }, extra],
    queryFn: ({ signal, pageParam }) => api.get<ListResult<T>>(path, { query: { ...base, page: pageParam, pageSize: CHUNK }, signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * CHUNK < last.total ? pages.length + 1 : undefined),
    enabled: all,
  });

  if (!all) {
    const more: MoreRows = { active: false, loaded: 0, total: 0, hasMore: false, loading: false, loadMore: () => undefined };
    return { query: paged, more };
  }
  const items = chunks.data?.pages.flatMap((p) => p.items) ?? [];
  const total = chunks.data?.pages.at(-1)?.total ?? 0;
  const query = {
    ...chunks,
    data: chunks.data ? { items, total } : undefined,
    isFetching: chunks.isFetching && !chunks.isFetchingNextPage,
  } as unknown as UseQueryResult<ListResult<T>>;
  const more: MoreRows = {
    active: true,
    loaded: items.length,
    total,
    hasMore: !!chunks.hasNextPage,
    loading: chunks.isFetchingNextPage,
    loadMore: () => {
      if (chunks.hasNextPage && !chunks.isFetchingNextPage) void chunks.fetchNextPage();
    },
  };
  return { query, more };
}

/** The list's query string for the CSV export: the same filter, search and sort as the table. */
export function exportHref(path: string, params: ListParams, extra: Extra = {}): string {
  const q = new URLSearchParams();
  const { sort, order, q: search } = toListQuery(params);
  for (const [k, v] of Object.entries({ sort, order, q: search, ...extra })) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `/api/v1${path}/export.csv${s ? `?${s}` : ''}`;
}
