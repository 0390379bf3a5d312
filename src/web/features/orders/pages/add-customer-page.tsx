import { useAfterSave } from '../../../components/form';
import { PageHeader } from '../../../components/page-header';
import { useAddCustomer } from '../api';
import { CustomerForm } from '../components/customer-form';

export default function AddCustomerPage() {
  const add = useAddCustomer();
  const onSaved = useAfterSave('orderScreens.customers.added', '/customers');
  return (
    <>
      <PageHeader title="orderScreens.customers.add" />
      <CustomerForm submitLabel="orderScreens.customers.addButton" save={(values) => add.mutateAsync(values)} onSaved={onSaved} />
    </>
  );
}
