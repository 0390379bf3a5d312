import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { notifySuccess } from '../../../lib/toast';
import { useProduct, useProductHistory, useUpdateProduct } from '../api';
import { productValue } from '../components/format';
import { HistoryCard } from '../components/history-card';
import { NotFoundCard } from '../components/not-found-card';
import { PRODUCT_FIELDS } from '../../../../shared/contract/products';
import { ProductForm } from '../components/product-form';

function ProductHistory({ id }: { id: string }) {
  const history = useProductHistory(id);
  return <HistoryCard query={history} ns="products" value={productValue} order={PRODUCT_FIELDS} />;
}

export default function EditProductPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const product = useProduct(id);
  const update = useUpdateProduct(id);

  let body;
  if (product.isPending) body = <Skeleton variant="rounded" height={360} />;
  else if (product.isError) {
    body =
      product.error instanceof ApiError && product.error.httpStatus === 404 ? (
        <NotFoundCard message={errorMessage(t, product.error)} backTo="/products" backLabel="products.backToList" />
      ) : (
        <Alert severity="error" action={<Button color="inherit" size="small" onClick={() => void product.refetch()}>{t('app.retry')}</Button>}>
          {errorMessage(t, product.error)}
        </Alert>
      );
  } else {
    body = (
      <>
        <ProductForm
          key={product.data.id}
          product={product.data}
          submitLabel="products.save"
          save={(values) => update.mutateAsync(values)}
          onSaved={() => {
            notifySuccess('products.updated');
            void navigate('/products');
          }}
        />
        <ProductHistory id={product.data.id} />
      </>
    );
  }

  return (
    <>
      <PageHeader title="pages.editProduct" />
      {body}
    </>
  );
}
