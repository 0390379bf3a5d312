/**
 * The release of a serial range (decision 0052): what the release gate says of its units now, and, for an
 * authorised inspector, the button that releases it once. Released, it says who released it and when. The
 * server decides who may release; the button only spares others a refusal.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { RangeRelease, RangeReleaseView } from '../../../../shared/contract/range-release';
import type { SerialRange } from '../../../../shared/contract/serials';
import { rangeLabel } from '../../../../shared/serial';
import { formatDateTime, formatNumber } from '../../../components/format';
import { SubmitButton } from '../../../components/form';
import { errorMessage } from '../../../lib/errors';
import { notifySuccess } from '../../../lib/toast';
import { useMe } from '../../auth/api';
import { useRangeRelease, useReleaseRange } from '../api';

/** "Released by Lin Mei-Hua (QA Manager) on 2 Dec 2026, 17:30", or the Settings' fallback of an older range. */
export function releasedText(t: (k: string, p?: Record<string, unknown>) => string, lang: string, r: RangeRelease): string {
  if (r.source === 'settings') return t('serials.release.fromSettings');
  const at = formatDateTime(lang, r.releasedAt);
  return r.inspectorTitle
    ? t('serials.release.releasedBy', { name: r.inspectorName, title: r.inspectorTitle, at })
    : t('serials.release.releasedByNoTitle', { name: r.inspectorName, at });
}

function GateSummary({ gate }: { gate: RangeReleaseView['gate'] }) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatNumber(i18n.language, v, 0);
  return (
    <Stack spacing={0.5} component="ul" sx={{ m: 0, pl: 2.5 }} aria-label={t('serials.release.gateTitle')} data-testid="release-gate">
      <Typography component="li" variant="body2">
        {t('serials.release.units', { n: n(gate.unitCount) })}
      </Typography>
      <Typography component="li" variant="body2" color="success.main">
        {t('serials.release.passed', { n: n(gate.passed) })}
      </Typography>
      <Typography component="li" variant="body2" color={gate.held ? 'error.main' : 'text.primary'}>
        {t('serials.release.held', { n: n(gate.held) })}
      </Typography>
      <Typography component="li" variant="body2" color="text.secondary">
        {t('serials.release.noData', { n: n(gate.noData) })}
      </Typography>
    </Stack>
  );
}

export function ReleaseDialog({ range, onClose }: { range: SerialRange | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const me = useMe();
  const view = useRangeRelease(range?.id ?? null);
  const release = useReleaseRange();
  if (!range) return null;
  const label = rangeLabel(range.startSerial, range.endSerial);
  const data = view.data;
  const inspector = !!me?.user.inspector;
  const canRelease = inspector && data && !data.release;
  const onRelease = async () => {
    try {
      await release.mutateAsync(range.id);
      notifySuccess('serials.release.done');
    } catch {
      // shown in the dialog
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="release-title" fullWidth maxWidth="sm">
      <DialogTitle id="release-title">
        {t(canRelease ? 'serials.release.title' : 'serials.release.statusTitle', { range: label })}
      </DialogTitle>
      <DialogContent>
        {!data ? (
          view.isError ? (
            <Alert severity="error">{errorMessage(t, view.error)}</Alert>
          ) : (
            <Skeleton variant="rounded" height={120} aria-label={t('serials.release.loading')} />
          )
        ) : (
          <Stack spacing={2}>
            {data.release ? (
              <Alert severity="success" data-testid="release-status">
                {releasedText(t, i18n.language, data.release)}
              </Alert>
            ) : (
              <>
                <Alert severity="info" data-testid="release-status">
                  {t('serials.release.notReleased')}
                </Alert>
                <DialogContentText>{t(inspector ? 'serials.release.intro' : 'serials.release.onlyInspectors')}</DialogContentText>
              </>
            )}
            <Typography variant="subtitle2" component="h3">
              {t('serials.release.gateTitle')}
            </Typography>
            <GateSummary gate={data.gate} />
            {canRelease && data.gate.held > 0 && <Alert severity="warning">{t('serials.release.heldNote')}</Alert>}
            {release.isError && <Alert severity="error">{errorMessage(t, release.error)}</Alert>}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t(canRelease ? 'app.cancel' : 'app.close')}</Button>
        {canRelease && (
          <SubmitButton saving={release.isPending} label="serials.release.confirm" onClick={() => void onRelease()} type="button" />
        )}
      </DialogActions>
    </Dialog>
  );
}
