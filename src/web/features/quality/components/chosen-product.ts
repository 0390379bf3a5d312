/**
 * The product a filter names by id (from the address): the one just picked, or else read by its id, so a
 * shared link shows the product's name. `pick` keeps the picked one while the address catches up.
 */
import { useState } from 'react';
import type { ProductOption } from '../../../components/product-picker';
import { useProduct } from '../../products/api';

export function useChosenProduct(productId: string | undefined): {
  product: ProductOption | null;
  pick: (p: ProductOption | null) => void;
} {
  const known = useProduct(productId);
  const [picked, pick] = useState<ProductOption | null>(null);
  const product = productId ? (picked?.id === productId ? picked : known.data ? { id: known.data.id, name: known.data.name } : null) : null;
  return { product, pick };
}
