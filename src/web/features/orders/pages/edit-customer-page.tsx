import { useParams } from 'react-router';
import { useAfterSave } from '../../../components/form';
import { RecordView } from '../../../components/list-kit';
import { PageHeader } from '../../../components/page-header';
import { useCustomer, useUpdateCustomer } from '../api';
import { CustomerForm } from '../components/customer-form';

export default function EditCustomerPage() {
  const { id = '' } = useParams();
  const onSaved = useAfterSave('orderScreens.customers.updated', '/customers');
  const customer = useCustomer(id);
  const update = useUpdateCustomer(id);
  return (
    <>
      <PageHeader title="orderScreens.customers.edit" />
      <RecordView query={customer} backTo="/customers" backLabel="orderScreens.customers.backToList" height={420}>
        {(c) => (
          <CustomerForm key={c.id} customer={c} submitLabel="app.save" save={(values) => update.mutateAsync(values)} onSaved={onSaved} />
        )}
      </RecordView>
    </>
  );
}
