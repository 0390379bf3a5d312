/**
 * The state of a list (page, page size, sort, order, search) kept in the URL, so that Back, reload and a
 * shared link restore it. Values equal to the defaults are left out of the URL.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { PAGE_SIZES, type PageSize } from '../../../shared/contract/common';

export interface ListParams<S extends string = string> {
  page: number;
  pageSize: PageSize;
  sort: S;
  order: 'asc' | 'desc';
  q: string;
}

export interface ListParamsOptions<S extends string> {
  sorts: readonly S[];
  /** every list has an order of its own, so a page of it is the same page on every visit */
  defaultSort: S;
  defaultOrder?: 'asc' | 'desc';
  defaultPageSize?: PageSize;
}

export function parsePageSize(raw: string | null, fallback: PageSize): PageSize {
  if (raw === 'all') return 'all';
  const n = Number(raw);
  return (PAGE_SIZES as readonly number[]).includes(n) ? (n as PageSize) : fallback;
}

export function readListParams<S extends string>(search: URLSearchParams, o: ListParamsOptions<S>): ListParams<S> {
  const page = Math.max(1, Math.floor(Number(search.get('page'))) || 1);
  const sortRaw = search.get('sort');
  const sort = o.sorts.includes(sortRaw as S) ? (sortRaw as S) : o.defaultSort;
  const orderRaw = search.get('order');
  const order = orderRaw === 'asc' || orderRaw === 'desc' ? orderRaw : (o.defaultOrder ?? 'asc');
  return { page, pageSize: parsePageSize(search.get('size'), o.defaultPageSize ?? 10), sort, order, q: search.get('q') ?? '' };
}

export function useListParams<S extends string>(options: ListParamsOptions<S>) {
  const [search, setSearch] = useSearchParams();
  const { sorts, defaultSort, defaultOrder, defaultPageSize } = options;
  const params = useMemo(
    () => readListParams(search, { sorts, defaultSort, defaultOrder, defaultPageSize }),
    [search, sorts, defaultSort, defaultOrder, defaultPageSize],
  );

  const update = useCallback(
    (patch: Partial<ListParams<S>>, opts: { replace?: boolean } = {}) => {
      setSearch(
        (prev) => {
          const next = { ...readListParams(prev, { sorts, defaultSort, defaultOrder, defaultPageSize }), ...patch };
          const out = new URLSearchParams(prev);
          const put = (key: string, value: string | undefined, def: string | undefined) => {
            if (value === undefined || value === '' || value === def) out.delete(key);
            else out.set(key, value);
          };
          put('page', String(next.page), '1');
          put('size', String(next.pageSize), String(defaultPageSize ?? 10));
          put('sort', next.sort, defaultSort);
          put('order', next.order, defaultOrder ?? 'asc');
          put('q', next.q.trim(), '');
          return out;
        },
        { replace: opts.replace },
      );
    },
    [setSearch, sorts, defaultSort, defaultOrder, defaultPageSize],
  );

  return [params, update] as const;
}

/** The list endpoint's query (`page`, `pageSize`, `sort`, `order`, `q`). */
export function toListQuery(p: ListParams): Record<string, string | number | undefined> {
  return { page: p.page, pageSize: p.pageSize, sort: p.sort, order: p.order, q: p.q.trim() || undefined };
}

export interface ListResult<T> {
  items: T[];
  total: number;
  /** the total is the server's estimate (a filter matching too many rows to count per page): shown as "about N" */
  totalEstimated?: boolean;
}
