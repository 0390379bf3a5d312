/**
 * The query of a server-paged list, in the shape the shared DataTable reads. A numbered page is one
 * request; "All" is fetched in chunks of LIST_CHUNK rows, the next one when the reader scrolls near the end
 * (see LoadMore), so 100,000 rows never arrive or render at once.
 *
 * An "All" list's chunks reach the table through useDeferredValue, as a numbered page does inside the
 * DataTable: a chunk that arrives is drawn as a transition (React yields to the browser while it draws), and
 * the count under the list follows the rows drawn, so its sentinel asks for the next chunk only once the rows
 * above it are there (docs/decisions/0068).
 *
 * Usually reached through useList; call it directly when the list state comes from elsewhere:
 *   const { query, more } = useListQuery<Row>(['things', 'list'], '/things', params, { kind: 'a' });
 */
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useDeferredValue, useMemo } from 'react';
import { api } from '../../lib/api';
import { toListQuery, type ListParams, type ListResult } from '../data-table/list-params';

export const LIST_CHUNK = 100;

/** Filters sent with the list's query, by the API's parameter name; undefined leaves one out. */
export type ListFilters = Record<string, string | undefined>;

/** The state of an "All" list's chunks, for LoadMore. `active` is false on a numbered page. */
export interface MoreRows {
  active: boolean;
  loaded: number;
  total: number;
  hasMore: boolean;
  loading: boolean;
  loadMore: () => void;
}

/** A numbered page's query: the hook's, and a route's prefetch of it (prefetchList), under one key. */
export function pagedListQuery<T>(key: readonly unknown[], path: string, params: ListParams, filters: ListFilters = {}) {
  return queryOptions({
    queryKey: [...key, 'page', params, filters],
    queryFn: ({ signal }) => api.get<ListResult<T>>(path, { query: { ...toListQuery(params), ...filters }, signal }),
  });
}

/** The query of an "All" list's chunks, as pagedListQuery is of a numbered page. */
export function chunkedListQuery<T>(key: readonly unknown[], path: string, params: ListParams, filters: ListFilters = {}) {
  const base = { ...toListQuery(params), ...filters };
  return infiniteQueryOptions({
    queryKey: [...key, 'all', { ...params, page: 1 }, filters],
    queryFn: ({ signal, pageParam }) => api.get<ListResult<T>>(path, { query: { ...base, page: pageParam, pageSize: LIST_CHUNK }, signal }),
    initialPageParam: 1,
    getNextPageParam: (last: ListResult<T>, pages: ListResult<T>[]) =>
      pages.length * LIST_CHUNK < last.total ? pages.length + 1 : undefined,
  });
}

export function useListQuery<T>(key: readonly unknown[], path: string, params: ListParams, filters: ListFilters = {}) {
  const all = params.pageSize === 'all';
  const paged = useQuery({ ...pagedListQuery<T>(key, path, params, filters), placeholderData: keepPreviousData, enabled: !all });
  const chunks = useInfiniteQuery({ ...chunkedListQuery<T>(key, path, params, filters), enabled: all });

  // The chunks as one list, made again only when a chunk arrives (a new object each render would be a new
  // deferred value each render).
  const joined = useMemo(
    () =>
      chunks.data
        ? {
            items: chunks.data.pages.flatMap((p) => p.items),
            total: chunks.data.pages.at(-1)?.total ?? 0,
            totalEstimated: chunks.data.pages.at(-1)?.totalEstimated,
          }
        : undefined,
    [chunks.data],
  );
  // A numbered page is deferred by the DataTable that draws it; the chunks here, so that the count and the
  // sentinel under the table follow the rows drawn.
  const allShown = useDeferredValue(joined);

  if (!all) {
    const more: MoreRows = { active: false, loaded: 0, total: 0, hasMore: false, loading: false, loadMore: () => undefined };
    return { query: paged, more };
  }
  const drawn = allShown === joined;
  const query = {
    ...chunks,
    data: allShown,
    isFetching: chunks.isFetching && !chunks.isFetchingNextPage,
  } as unknown as UseQueryResult<ListResult<T>>;
  const more: MoreRows = {
    active: true,
    loaded: allShown?.items.length ?? 0,
    total: allShown?.total ?? 0,
    // While an arrived chunk is still being drawn the sentinel is where the last rows will be: it waits.
    hasMore: drawn && !!chunks.hasNextPage,
    loading: chunks.isFetchingNextPage || !drawn,
    loadMore: () => {
      if (drawn && chunks.hasNextPage && !chunks.isFetchingNextPage) void chunks.fetchNextPage();
    },
  };
  return { query, more };
}

/** The list's CSV export address (`/api/v1<path>/export.csv?…`): the same filters, search and sort as the table. */
export function exportHref(path: string, params: ListParams, filters: ListFilters = {}): string {
  const q = new URLSearchParams();
  const { sort, order, q: search } = toListQuery(params);
  for (const [k, v] of Object.entries({ sort, order, q: search, ...filters })) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `/api/v1${path}/export.csv${s ? `?${s}` : ''}`;
}
