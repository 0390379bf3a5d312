/** Serial-number ranges: the query keys (the list itself is useList's), read, history, add, update, delete. */
import type { SerialRange, SerialRangeInput } from '../../../shared/contract/serials';
import { recordApi } from '../../components/list-kit';

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
