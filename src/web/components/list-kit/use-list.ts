/**
 * Everything a list screen keeps: page, size, sort, search and its own filters, all in the URL (Back,
 * reload and a shared link show the same list), the server query glue ("All" in chunks), and the CSV
 * export address of exactly what is shown.
 *
 *   const list = useList<Product, ProductSort, 'fluid'>({
 *     key: productKeys.lists(), path: '/products', sorts: PRODUCT_SORTS, defaultSort: 'name',
 *     filters: [{ url: 'fluid', parse: (v) => (isFluid(v) ? v : undefined) }],
 *   });
 *   <ListView list={list} columns={columns} … />      // or DataTable with list.query / list.params
 *   list.filters.fluid; list.setFilter('fluid', 'water'); list.setFilters({ from: a, to: b });
 *
 * A filter's `api` names the list endpoint's parameter when it differs from the URL's (`product` in the
 * address, `productId` for the API). Changing a filter goes back to page 1.
 */
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { readListParams, useListParams, type ListParams, type ListParamsOptions } from '../data-table/list-params';
import { chunkedListQuery, exportHref, pagedListQuery, useListQuery, type ListFilters, type MoreRows } from './use-list-query';

export interface FilterSpec<F extends string = string> {
  /** the URL parameter */
  url: F;
  /** the list API's parameter; the URL's name when left out */
  api?: string;
  /** a raw URL value → the value used, or undefined to ignore it (an old or hand-edited link) */
  parse?: (raw: string) => string | undefined;
}

export interface UseListOptions<S extends string, F extends string> extends ListParamsOptions<S> {
  /** the query-key prefix of the feature's lists (mutations invalidate it) */
  key: readonly unknown[];
  /** the list endpoint under /api/v1, e.g. `/products`; also `<path>/export.csv`, `/template.csv`, `/import` */
  path: string;
  filters?: readonly FilterSpec<F>[];
}

export interface ListState<T, S extends string = string, F extends string = string> {
  path: string;
  params: ListParams<S>;
  /** the list's own order (UseListOptions) */
  defaultSort: S;
  setParams: (patch: Partial<ListParams<S>>, opts?: { replace?: boolean }) => void;
  /** the filters' current values by URL name (undefined when not set) */
  filters: Partial<Record<F, string>>;
  setFilter: (name: F, value: string | undefined) => void;
  setFilters: (patch: Partial<Record<F, string | undefined>>) => void;
  query: ReturnType<typeof useListQuery<T>>['query'];
  more: MoreRows;
  /** `/api/v1<path>/export.csv?…` with the table's filters, search and sort */
  exportHref: string;
}

/** The filters in an address: by URL name (what the screen shows) and by API name (what the query sends). */
function readListFilters<F extends string>(search: URLSearchParams, specs: readonly FilterSpec<F>[]) {
  const filters: Partial<Record<F, string>> = {};
  const sent: ListFilters = {};
  for (const spec of specs) {
    const raw = search.get(spec.url);
    const value = raw === null || raw === '' ? undefined : spec.parse ? spec.parse(raw) : raw;
    if (value === undefined) continue;
    filters[spec.url] = value;
    sent[spec.api ?? spec.url] = value;
  }
  return { filters, sent };
}

/**
 * Asks for the list an address shows before its screen is drawn, under the key useList will read: a route
 * calls it as the screen's code arrives, so the rows are on their way while the screen starts, and the
 * screen's first draw finds its query already fetching instead of starting it (which drew it twice).
 */
export function prefetchList<S extends string, F extends string>(
  client: QueryClient,
  options: UseListOptions<S, F>,
  url: URL,
): Promise<void> {
  const { key, path, filters: specs = [], ...paramOptions } = options;
  const params = readListParams<S>(url.searchParams, paramOptions);
  const { sent } = readListFilters(url.searchParams, specs);
  if (params.pageSize === 'all') return client.prefetchInfiniteQuery(chunkedListQuery(key, path, params, sent));
  return client.prefetchQuery(pagedListQuery(key, path, params, sent));
}

/** A page module's `prefetch` for its list (src/web/app/router.tsx): `export const prefetch = listPrefetch(LIST)`. */
export function listPrefetch<S extends string, F extends string>(options: UseListOptions<S, F>) {
  return (client: QueryClient, url: URL): Promise<void> => prefetchList(client, options, url);
}

export function useList<T, S extends string = string, F extends string = string>(options: UseListOptions<S, F>): ListState<T, S, F> {
  const { key, path, filters: specs = [], ...paramOptions } = options;
  const [params, setParams] = useListParams<S>(paramOptions);
  const [search, setSearch] = useSearchParams();

  const { filters, sent } = readListFilters(search, specs);

  const setFilters = useCallback(
    (patch: Partial<Record<F, string | undefined>>) => {
      setSearch((prev) => {
        const next = new URLSearchParams(prev);
        for (const [name, value] of Object.entries(patch) as [string, string | undefined][]) {
          if (value === undefined || value === '') next.delete(name);
          else next.set(name, value);
        }
        next.delete('page');
        return next;
      });
    },
    [setSearch],
  );
  const setFilter = useCallback(
    (name: F, value: string | undefined) => setFilters({ [name]: value } as Partial<Record<F, string>>),
    [setFilters],
  );

  const { query, more } = useListQuery<T>(key, path, params, sent);
  return {
    path,
    params,
    defaultSort: options.defaultSort,
    setParams,
    filters,
    setFilter,
    setFilters,
    query,
    more,
    exportHref: exportHref(path, params, sent),
  };
}
