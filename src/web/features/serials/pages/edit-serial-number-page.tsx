import { useParams } from 'react-router';
import { useAfterSave } from '../../../components/form';
import { HistoryCard } from '../../../components/history-card';
import { auditLink } from '../../audit/api';
import { RecordView } from '../../../components/list-kit';
import { PageHeader } from '../../../components/page-header';
import { useSerialRange, useSerialRangeHistory, useUpdateSerialRange } from '../api';
import { rangeValue } from '../components/range-value';
import { SerialRangeForm } from '../components/serial-range-form';
import { RangeHeatsCard } from '../components/range-heats-card';
import { useAppAbility } from '../../../lib/ability';

const HISTORY_ORDER = ['productName', 'startSerial', 'endSerial', 'totalUnits', 'productionDate', 'bodyMaterial'] as const;

function RangeHistory({ id }: { id: string }) {
  const history = useSerialRangeHistory(id);
  // productId changes together with productName, which reads better.
  return (
    <HistoryCard
      query={history}
      ns="serials"
      hidden={['productId']}
      value={rangeValue}
      order={HISTORY_ORDER}
      auditLink={auditLink('serialRange', id)}
    />
  );
}

export default function EditSerialNumberPage() {
  const { id = '' } = useParams();
  const onSaved = useAfterSave('serials.updated', '/serial-numbers');
  const range = useSerialRange(id);
  const update = useUpdateSerialRange(id);
  const ability = useAppAbility();
  return (
    <>
      <PageHeader title="pages.editSerialNumber" />
      <RecordView query={range} backTo="/serial-numbers" backLabel="serials.backToList" height={280}>
        {(r) => (
          <>
            <SerialRangeForm
              key={r.id}
              range={r}
              submitLabel="serials.save"
              save={(values) => update.mutateAsync(values)}
              onSaved={onSaved}
            />
            <RangeHeatsCard rangeId={r.id} productId={r.productId} canEdit={ability.can('update', 'SerialRange')} />
            <RangeHistory id={r.id} />
          </>
        )}
      </RecordView>
    </>
  );
}
