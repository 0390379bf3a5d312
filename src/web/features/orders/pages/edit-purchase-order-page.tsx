import { useParams } from 'react-router';
import { useAfterSave } from '../../../components/form';
import { RecordView } from '../../../components/list-kit';
import { PageHeader } from '../../../components/page-header';
import { usePurchaseOrder, useUpdatePurchaseOrder } from '../api';
import { PurchaseOrderForm } from '../components/purchase-order-form';

export default function EditPurchaseOrderPage() {
  const { id = '' } = useParams();
  const onSaved = useAfterSave('orderScreens.purchaseOrders.updated', '/purchase-orders');
  const order = usePurchaseOrder(id);
  const update = useUpdatePurchaseOrder(id);
  return (
    <>
      <PageHeader title="orderScreens.purchaseOrders.edit" />
      <RecordView query={order} backTo="/purchase-orders" backLabel="orderScreens.purchaseOrders.backToList" height={420}>
        {(o) => (
          <PurchaseOrderForm key={o.id} order={o} submitLabel="app.save" save={(values) => update.mutateAsync(values)} onSaved={onSaved} />
        )}
      </RecordView>
    </>
  );
}
