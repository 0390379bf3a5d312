/** Products: the query keys (the list itself is useList's), read, history, add, update, delete, and options for pickers. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Product, ProductInput } from '../../../shared/contract/products';
import type { ListResult } from '../../components/data-table';
import { recordApi } from '../../components/list-kit';
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

const products = recordApi<Product, ProductInput>({ path: '/products', keys: productKeys, also: [SERIAL_KEYS] });

export const {
  useOne: useProduct,
  useHistory: useProductHistory,
  useAdd: useAddProduct,
  useUpdate: useUpdateProduct,
  useRemove: useDeleteProduct,
} = products;
