import { useAfterSave } from '../../../components/form';
import { PageHeader } from '../../../components/page-header';
import { useAddSerialRange } from '../api';
import { SerialRangeForm } from '../components/serial-range-form';

export default function AddSerialNumberPage() {
  const add = useAddSerialRange();
  const onSaved = useAfterSave('serials.added', '/serial-numbers');
  return (
    <>
      <PageHeader title="pages.addSerialNumber" />
      <SerialRangeForm submitLabel="serials.add" save={(values) => add.mutateAsync(values)} onSaved={onSaved} />
    </>
  );
}
