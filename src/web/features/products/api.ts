/** Products: the list's query key (the list itself is useList's), read, history, add, update, delete, and options for pickers. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Product, ProductInput } from '../../../shared/contract/products';
import type { HistoryEntry } from '../../../shared/contract/record-history';
import type { ListResult } from '../../components/data-table';
import { api } from '../../lib/api';

export const productKeys = {
  all: ['products'] as const,
  lists: () => [...productKeys.all, 'list'] as const,
  options: (q: string) => [...productKeys.all, 'options', q] as const,
  detail: (id: string) => [...productKeys.all, 'detail', id] as const,
  history: (id: string) => [...productKeys.all, 'history', id] as const,
};

/** Ranges show their product's name: a product change refreshes them too. */
const SERIAL_KEYS = ['serials'] as const;

/** Products whose name matches `q`, for a searchable select. */
export function useProductOptions(q: string, enabled = true) {
  return useQuery({
    queryKey: productKeys.options(q),
    queryFn: ({ signal }) =>
      api.get<ListResult<Product>>('/products', { query: { q: q.trim() || undefined, pageSize: 20, sort: 'name', order: 'asc' }, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useProduct(id: string | undefined) {
  return useQuery({
    queryKey: productKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<Product>(`/products/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: !!id,
  });
}

export function useProductHistory(id: string) {
  return useQuery({
    queryKey: productKeys.history(id),
    queryFn: ({ signal }) => api.get<HistoryEntry[]>(`/products/${encodeURIComponent(id)}/history`, { signal }),
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: productKeys.all }), qc.invalidateQueries({ queryKey: SERIAL_KEYS })]);
}

export function useAddProduct() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (input: ProductInput) => api.post<Product>('/products', input), onSuccess: invalidate });
}

export function useUpdateProduct(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: ProductInput) => api.put<Product>(`/products/${encodeURIComponent(id)}`, input),
    onSuccess: invalidate,
  });
}

export function useDeleteProduct() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.delete(`/products/${encodeURIComponent(id)}`), onSuccess: invalidate });
}
