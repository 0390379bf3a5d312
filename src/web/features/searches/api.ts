/** Searches (staff, admin): the list of public requests with its filters, one request's detail, resend. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SEARCH_SORTS,
  SEARCH_STATUSES,
  type SearchRequest,
  type SearchRequestDetail,
  type SearchSort,
} from '../../../shared/contract/searches';
import { useList, type FilterSpec, type UseListOptions } from '../../components/list-kit';
import { api } from '../../lib/api';

export const searchKeys = {
  all: ['searches'] as const,
  lists: () => [...searchKeys.all, 'list'] as const,
  detail: (id: string) => [...searchKeys.all, 'detail', id] as const,
};

export const SEARCH_FILTERS = ['status', 'from', 'to', 'email'] as const;
export type SearchFilter = (typeof SEARCH_FILTERS)[number];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The list's filters as the address keeps them (the serial is the search box, `q`). */
export const SEARCH_FILTER_SPECS: readonly FilterSpec<SearchFilter>[] = [
  { url: 'status', parse: (raw) => ((SEARCH_STATUSES as readonly string[]).includes(raw) ? raw : undefined) },
  { url: 'from', parse: (raw) => (DATE.test(raw) ? raw : undefined) },
  { url: 'to', parse: (raw) => (DATE.test(raw) ? raw : undefined) },
  { url: 'email', parse: (raw) => (raw.length <= 254 ? raw : undefined) },
];

/** The list's query as its screen reads it and its route prefetches it. */
export const SEARCH_LIST: UseListOptions<SearchSort, SearchFilter> = {
  key: searchKeys.lists(),
  path: '/search-requests',
  sorts: SEARCH_SORTS,
  defaultSort: 'createdAt',
  defaultOrder: 'desc',
  filters: SEARCH_FILTER_SPECS,
};

/** Newest request first; page, size, order, search and filters in the URL. */
export function useSearchList() {
  return useList<SearchRequest, SearchSort, SearchFilter>(SEARCH_LIST);
}

export function useSearchRequest(id: string | undefined) {
  return useQuery({
    queryKey: searchKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<SearchRequestDetail>(`/search-requests/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: !!id,
    // While its email is on its way the open request is read again, so that it turns sent (or failed).
    refetchInterval: (q) => (q.state.data?.status === 'queued' ? 2000 : false),
  });
}

/** Resend a request's report email; the list and the detail are read again. */
export function useResend() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<SearchRequestDetail>(`/search-requests/${encodeURIComponent(id)}/resend`),
    onSuccess: (detail) => {
      qc.setQueryData(searchKeys.detail(detail.id), detail);
      void qc.invalidateQueries({ queryKey: searchKeys.all });
    },
  });
}
