import { useNavigate, useParams } from 'react-router';
import { PRODUCT_FIELDS } from '../../../../shared/contract/products';
import { HistoryCard } from '../../../components/history-card';
import { RecordView } from '../../../components/list-kit';
import { PageHeader } from '../../../components/page-header';
import { notifySuccess } from '../../../lib/toast';
import { useProduct, useProductHistory, useUpdateProduct } from '../api';
import { productValue } from '../components/format';
import { ProductForm } from '../components/product-form';

function ProductHistory({ id }: { id: string }) {
  const history = useProductHistory(id);
  return <HistoryCard query={history} ns="products" value={productValue} order={PRODUCT_FIELDS} />;
}

export default function EditProductPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const product = useProduct(id);
  const update = useUpdateProduct(id);
  return (
    <>
      <PageHeader title="pages.editProduct" />
      <RecordView query={product} backTo="/products" backLabel="products.backToList" height={360}>
        {(p) => (
          <>
            <ProductForm
              key={p.id}
              product={p}
              submitLabel="products.save"
              save={(values) => update.mutateAsync(values)}
              onSaved={() => {
                notifySuccess('products.updated');
                void navigate('/products');
              }}
            />
            <ProductHistory id={p.id} />
          </>
        )}
      </RecordView>
    </>
  );
}
