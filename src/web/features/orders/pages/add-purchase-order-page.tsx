import { useAfterSave } from '../../../components/form';
import { PageHeader } from '../../../components/page-header';
import { useAddPurchaseOrder } from '../api';
import { PurchaseOrderForm } from '../components/purchase-order-form';

export default function AddPurchaseOrderPage() {
  const add = useAddPurchaseOrder();
  const onSaved = useAfterSave('orderScreens.purchaseOrders.added', '/purchase-orders');
  return (
    <>
      <PageHeader title="orderScreens.purchaseOrders.add" />
      <PurchaseOrderForm submitLabel="orderScreens.purchaseOrders.addButton" save={(values) => add.mutateAsync(values)} onSaved={onSaved} />
    </>
  );
}
