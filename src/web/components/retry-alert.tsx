/** A failed query's message (translated) with Try again: `<RetryAlert error={q.error} retry={() => void q.refetch()} />`. */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../lib/errors';

export function RetryAlert({ error, retry, sx }: { error: unknown; retry: () => void; sx?: SxProps<Theme> }) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      sx={sx}
      action={
        <Button color="inherit" size="small" onClick={retry}>
          {t('app.retry')}
        </Button>
      }
    >
      {errorMessage(t, error)}
    </Alert>
  );
}
