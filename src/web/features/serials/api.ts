/** Serial-number ranges: the list's query key (the list itself is useList's), read, history, add, update, delete. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HistoryEntry } from '../../../shared/contract/record-history';
import type { SerialRange, SerialRangeInput } from '../../../shared/contract/serials';
import { api } from '../../lib/api';

export const serialKeys = {
  all: ['serials'] as const,
  lists: () => [...serialKeys.all, 'list'] as const,
  detail: (id: string) => [...serialKeys.all, 'detail', id] as const,
  history: (id: string) => [...serialKeys.all, 'history', id] as const,
};

/** Products show how many ranges use them: a range change refreshes them too. */
const PRODUCT_KEYS = ['products'] as const;

export function useSerialRange(id: string | undefined) {
  return useQuery({
    queryKey: serialKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<SerialRange>(`/serial-ranges/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: !!id,
  });
}

export function useSerialRangeHistory(id: string) {
  return useQuery({
    queryKey: serialKeys.history(id),
    queryFn: ({ signal }) => api.get<HistoryEntry[]>(`/serial-ranges/${encodeURIComponent(id)}/history`, { signal }),
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: serialKeys.all }), qc.invalidateQueries({ queryKey: PRODUCT_KEYS })]);
}

export function useAddSerialRange() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (input: SerialRangeInput) => api.post<SerialRange>('/serial-ranges', input), onSuccess: invalidate });
}

export function useUpdateSerialRange(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: SerialRangeInput) => api.put<SerialRange>(`/serial-ranges/${encodeURIComponent(id)}`, input),
    onSuccess: invalidate,
  });
}

export function useDeleteSerialRange() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.delete(`/serial-ranges/${encodeURIComponent(id)}`), onSuccess: invalidate });
}
