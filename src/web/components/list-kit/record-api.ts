/**
 * The query hooks of a feature's records, made once: read one, its history, add, update and delete.
 * Every mutation refreshes the feature's queries and those named in `also` (lists that show this
 * record's name or count).
 *
 *   export const productKeys = { all: ['products'] as const, lists: () => [...], detail: (id) => [...], history: (id) => [...] };
 *   const products = recordApi<Product, ProductInput>({ path: '/products', keys: productKeys, also: [['serials']] });
 *   export const { useOne: useProduct, useAdd: useAddProduct, useRemove: useDeleteProduct } = products;
 *
 * The list itself is useList's (same `keys.lists()` prefix).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HistoryEntry } from '../../../shared/contract/record-history';
import { api } from '../../lib/api';

export interface RecordKeys {
  all: readonly unknown[];
  detail: (id: string) => readonly unknown[];
  history: (id: string) => readonly unknown[];
}

export function recordApi<R, I>({ path, keys, also = [] }: { path: string; keys: RecordKeys; also?: readonly (readonly unknown[])[] }) {
  const one = (id: string) => `${path}/${encodeURIComponent(id)}`;

  function useInvalidate() {
    const qc = useQueryClient();
    return () => Promise.all([keys.all, ...also].map((queryKey) => qc.invalidateQueries({ queryKey })));
  }

  return {
    useOne(id: string | undefined) {
      return useQuery({ queryKey: keys.detail(id ?? ''), queryFn: ({ signal }) => api.get<R>(one(id ?? ''), { signal }), enabled: !!id });
    },
    useHistory(id: string) {
      return useQuery({ queryKey: keys.history(id), queryFn: ({ signal }) => api.get<HistoryEntry[]>(`${one(id)}/history`, { signal }) });
    },
    useAdd() {
      return useMutation({ mutationFn: (input: I) => api.post<R>(path, input), onSuccess: useInvalidate() });
    },
    useUpdate(id: string) {
      return useMutation({ mutationFn: (input: I) => api.put<R>(one(id), input), onSuccess: useInvalidate() });
    },
    useRemove() {
      return useMutation({ mutationFn: (id: string) => api.delete(one(id)), onSuccess: useInvalidate() });
    },
  };
}
