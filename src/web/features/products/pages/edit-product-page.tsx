import { useParams } from 'react-router';
import { useAfterSave } from '../../../components/form';
import { PRODUCT_FIELDS } from '../../../../shared/contract/products';
import { HistoryCard } from '../../../components/history-card';
import { auditLink } from '../../audit/api';
import { RecordView } from '../../../components/list-kit';
import { PageHeader } from '../../../components/page-header';
import { useProduct, useProductHistory, useUpdateProduct } from '../api';
import { productValue } from '../components/format';
import { ProductForm } from '../components/product-form';
import { ProductPartsCard } from '../components/product-parts-card';
import { useAppAbility } from '../../../lib/ability';

function ProductHistory({ id }: { id: string }) {
  const history = useProductHistory(id);
  return <HistoryCard query={history} ns="products" value={productValue} order={PRODUCT_FIELDS} auditLink={auditLink('product', id)} />;
}

export default function EditProductPage() {
  const { id = '' } = useParams();
  const onSaved = useAfterSave('products.updated', '/products');
  const product = useProduct(id);
  const update = useUpdateProduct(id);
  const ability = useAppAbility();
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
              onSaved={onSaved}
            />
            <ProductPartsCard productId={p.id} canEdit={ability.can('update', 'Product')} />
            <ProductHistory id={p.id} />
          </>
        )}
      </RecordView>
    </>
  );
}
