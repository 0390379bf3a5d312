/**
 * The release of a delivery on its page: the confirmation that names what is released (units, customer,
 * the certificates' language), and the state of a release — its progress while certificates are issued,
 * why the last one stopped, and when and by whom a released delivery was released.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeliveryDetail, DeliveryGate } from '../../../../shared/contract/orders';
import { formatDateTime, formatNumber } from '../../../components/format';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useCustomer, useReleaseDelivery } from '../api';
import { heldOfRefusal, releaseErrorText, releasePercent } from './release-view';

/** Labelled facts in a grid: two a row on a phone, four on a wide screen. */
export function Facts({ items }: { items: [string, ReactNode][] }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
      {items.map(([label, value]) => (
        <Box key={label} sx={{ minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary" component="div">
            {t(label)}
          </Typography>
          <Typography variant="body1" component="div" sx={{ overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

export function ReleaseDialog({
  delivery: d,
  onClose,
  onRefused,
}: {
  delivery: DeliveryDetail;
  onClose: () => void;
  /** the gate held units: the page shows them */
  onRefused: (gate: DeliveryGate) => void;
}) {
  const { t, i18n } = useTranslation();
  const customer = useCustomer(d.customerId);
  const release = useReleaseDelivery(d.id);
  const language = customer.data ? t(`app.languages.${customer.data.language}`) : '…';
  const start = () =>
    release.mutate(undefined, {
      onSuccess: () => {
        notifySuccess('orderScreens.release.started');
        onClose();
      },
      onError: (err) => {
        const gate = heldOfRefusal(err);
        if (gate) {
          onRefused(gate);
          onClose();
        } else notifyError(err);
      },
    });
  return (
    <Dialog open onClose={onClose} aria-labelledby="release-title" aria-describedby="release-text" fullWidth maxWidth="sm">
      <DialogTitle id="release-title">{t('orderScreens.release.title', { number: d.number })}</DialogTitle>
      <DialogContent>
        <Box sx={{ mb: 2 }} data-testid="release-summary">
          <Facts
            items={[
              ['orderScreens.deliveries.fields.customer', d.customerName],
              ['orderScreens.deliveries.fields.units', formatNumber(i18n.language, d.unitCount)],
              ['orderScreens.release.language', language],
            ]}
          />
        </Box>
        <DialogContentText id="release-text">{t('orderScreens.release.text')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          {t('app.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={start}
          disabled={release.isPending}
          aria-busy={release.isPending}
          startIcon={release.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t('orderScreens.release.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Progress while releasing, why the last release stopped, or who released it and when; nothing for an open delivery never released. */
export function ReleaseStatus({ delivery: d }: { delivery: DeliveryDetail }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const releasing = d.status === 'releasing';
  const released = d.status === 'released';
  if (!releasing && !released && !d.releaseError) return null;
  const progress = t('orderScreens.release.progress', {
    issued: formatNumber(lang, d.issuedCount),
    count: formatNumber(lang, d.unitCount),
  });
  return (
    <Card component="section" aria-labelledby="release-status-title" data-testid="release-status">
      <CardContent>
        <Typography id="release-status-title" variant="h6" component="h2" sx={{ mb: 1.5 }}>
          {t(
            released
              ? 'orderScreens.release.releasedTitle'
              : releasing
                ? 'orderScreens.release.releasingTitle'
                : 'orderScreens.release.section',
          )}
        </Typography>
        {releasing && (
          <Box sx={{ mb: d.releaseError ? 2 : 0 }}>
            <LinearProgress
              variant="determinate"
              value={releasePercent(d)}
              aria-label={t('orderScreens.release.progressLabel')}
              aria-valuemin={0}
              aria-valuemax={d.unitCount}
              aria-valuenow={d.issuedCount}
              aria-valuetext={progress}
              data-testid="release-progress"
              sx={{ height: 8, borderRadius: 4, mb: 1 }}
            />
            <Typography variant="body2" color="text.secondary" aria-live="polite">
              {progress}
            </Typography>
          </Box>
        )}
        {d.releaseError && !released && (
          <Alert severity="error" data-testid="release-error">
            <AlertTitle>{t('orderScreens.release.stopped')}</AlertTitle>
            {releaseErrorText(t, d.releaseError)}
          </Alert>
        )}
        {released && (
          <Facts
            items={[
              ['orderScreens.release.releasedAt', d.releasedAt ? formatDateTime(lang, d.releasedAt) : '—'],
              ['orderScreens.release.releasedBy', d.releasedBy ?? '—'],
              ['orderScreens.release.language', d.releaseLanguage ? t(`app.languages.${d.releaseLanguage}`) : '—'],
              ['orderScreens.release.certificates', progress],
            ]}
          />
        )}
      </CardContent>
    </Card>
  );
}
