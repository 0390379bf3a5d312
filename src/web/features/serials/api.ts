/** Serial-number ranges: the query keys (the list itself is useList's), read, history, add, update, delete, release. */
import type { SerialRange, SerialRangeInput } from '../../../shared/contract/serials';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RangeReleaseView } from '../../../shared/contract/range-release';
import { recordApi } from '../../components/list-kit';
import { api } from '../../lib/api';

export const serialKeys = {
  all: ['serials'] as const,
  lists: () => [...serialKeys.all, 'list'] as const,
  detail: (id: string) => [...serialKeys.all, 'detail', id] as const,
  history: (id: string) => [...serialKeys.all, 'history', id] as const,
};

/** Products show how many ranges use them: a range change refreshes them too. */
const ranges = recordApi<SerialRange, SerialRangeInput>({ path: '/serial-ranges', keys: serialKeys, also: [['products']] });

export const {
  useOne: useSerialRange,
  useHistory: useSerialRangeHistory,
  useAdd: useAddSerialRange,
  useUpdate: useUpdateSerialRange,
  useRemove: useDeleteSerialRange,
} = ranges;

/** A range's release by an authorised inspector, with the gate's summary of its units (decision 0052). */
export function useRangeRelease(id: string | null) {
  return useQuery({
    queryKey: [...serialKeys.all, 'release', id ?? ''],
    queryFn: ({ signal }) => api.get<RangeReleaseView>(`/serial-ranges/${id}/release`, { signal }),
    enabled: !!id,
  });
}

export function useReleaseRange() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<RangeReleaseView>(`/serial-ranges/${id}/release`, {}),
    onSettled: () => qc.invalidateQueries({ queryKey: [...serialKeys.all, 'release'] }),
  });
}
