import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { notifySuccess } from '../../../lib/toast';
import { useAddProduct } from '../api';
import { ProductForm } from '../components/product-form';

export default function AddProductPage() {
  const navigate = useNavigate();
  const add = useAddProduct();
  return (
    <>
      <PageHeader title="pages.addProduct" />
      <ProductForm
        submitLabel="products.add"
        save={(values) => add.mutateAsync(values)}
        onSaved={() => {
          notifySuccess('products.added');
          void navigate('/products');
        }}
      />
    </>
  );
}
