import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { notifySuccess } from '../../../lib/toast';
import { useAddSerialRange } from '../api';
import { SerialRangeForm } from '../components/serial-range-form';

export default function AddSerialNumberPage() {
  const navigate = useNavigate();
  const add = useAddSerialRange();
  return (
    <>
      <PageHeader title="pages.addSerialNumber" />
      <SerialRangeForm
        submitLabel="serials.add"
        save={(values) => add.mutateAsync(values)}
        onSaved={() => {
          notifySuccess('serials.added');
          void navigate('/serial-numbers');
        }}
      />
    </>
  );
}
