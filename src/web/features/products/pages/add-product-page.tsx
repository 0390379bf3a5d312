import { useAfterSave } from '../../../components/form';
import { PageHeader } from '../../../components/page-header';
import { useAddProduct } from '../api';
import { ProductForm } from '../components/product-form';

export default function AddProductPage() {
  const add = useAddProduct();
  const onSaved = useAfterSave('products.added', '/products');
  return (
    <>
      <PageHeader title="pages.addProduct" />
      <ProductForm submitLabel="products.add" save={(values) => add.mutateAsync(values)} onSaved={onSaved} />
    </>
  );
}
