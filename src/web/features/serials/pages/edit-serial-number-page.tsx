import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { notifySuccess } from '../../../lib/toast';
import { HistoryCard } from '../../products/components/history-card';
import { NotFoundCard } from '../../products/components/not-found-card';
import { useSerialRange, useSerialRangeHistory, useUpdateSerialRange } from '../api';
import { rangeValue } from '../components/range-value';
import { SerialRangeForm } from '../components/serial-range-form';

function RangeHistory({ id }: { id: string }) {
  const history = useSerialRangeHistory(id);
  // productId changes together with productName, which reads better.
  return <HistoryCard query={history} ns="serials" hidden={['productId']} value={rangeValue} order={['productName', 'startSerial', 'endSerial', 'totalUnits', 'productionDate']} />;
}

export default function EditSerialNumberPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const range = useSerialRange(id);
  const update = useUpdateSerialRange(id);

  let body;
  if (range.isPending) body = <Skeleton variant="rounded" height={280} />;
  else if (range.isError) {
    body =
      range.error instanceof ApiError && range.error.httpStatus === 404 ? (
        <NotFoundCard message={errorMessage(t, range.error)} backTo="/serial-numbers" backLabel="serials.backToList" />
      ) : (
        <Alert severity="error" action={<Button color="inherit" size="small" onClick={() => void range.refetch()}>{t('app.retry')}</Button>}>
          {errorMessage(t, range.error)}
        </Alert>
      );
  } else {
    body = (
      <>
        <SerialRangeForm
          key={range.data.id}
          range={range.data}
          submitLabel="serials.save"
          save={(values) => update.mutateAsync(values)}
          onSaved={() => {
            notifySuccess('serials.updated');
            void navigate('/serial-numbers');
          }}
        />
        <RangeHistory id={range.data.id} />
      </>
    );
  }

  return (
    <>
      <PageHeader title="pages.editSerialNumber" />
      {body}
    </>
  );
}
