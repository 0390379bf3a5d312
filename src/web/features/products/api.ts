/** Products: the query keys (the list itself is useList's), read, history, add, update, delete, and options for pickers. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Product, ProductInput } from '../../../shared/contract/products';
import type { ListResult } from '../../components/data-table';
import type { ProductOption } from '../../components/product-picker';
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

/**
 * The product a filter names by id (from the address): the one just picked, or else read by its id, so a
 * shared link shows the product's name. `pick` keeps the picked one while the address catches up.
 */
export function useChosenProduct(productId: string | undefined): {
  product: ProductOption | null;
  pick: (p: ProductOption | null) => void;
} {
  const known = useProduct(productId);
  const [picked, pick] = useState<ProductOption | null>(null);
  const product = productId ? (picked?.id === productId ? picked : known.data ? { id: known.data.id, name: known.data.name } : null) : null;
  return { product, pick };
}
