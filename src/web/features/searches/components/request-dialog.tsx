/**
 * One search request in a dialog (opened from the list; its id in the URL as `request`): what was asked
 * and by whom (the address masked for staff by the server), each serial with its report, and the delivery
 * history (the visitor's email and each resend, who asked for it, attempts, last error). Resend from here.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { usePhone } from '../../../lib/use-phone';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SearchRequestDetail } from '../../../../shared/contract/searches';
import { formatDateTime } from '../../../components/format';
import { RetryAlert } from '../../../components/retry-alert';
import { useSearchRequest } from '../api';
import { StatusChip } from './status-chip';
import { labelled } from '../../../../shared/i18n/punctuation';

const pdfHref = (reportId: string) => `/api/v1/public/reports/${encodeURIComponent(reportId)}.pdf`;

function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(140px, auto) 1fr' }, columnGap: 2, rowGap: 0.5, m: 0 }}
    >
      {items.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function Detail({ r }: { r: SearchRequestDetail }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const none = t('searches.list.none');
  return (
    <>
      <Facts
        items={[
          [t('searches.fields.createdAt'), formatDateTime(lang, r.createdAt)],
          [t('searches.fields.source'), t(`searches.sources.${r.source}`)],
          [t('searches.fields.status'), <StatusChip key="s" status={r.status} />],
          [t('searches.fields.found'), r.found ? t('searches.list.yes') : t('searches.list.no')],
          [t('searches.fields.recipientEmail'), r.recipientEmail ?? none],
          [t('searches.fields.language'), t(`searches.languages.${r.language}`)],
          [t('searches.fields.termsVersion'), r.termsVersion ?? none],
          [t('searches.fields.attempts'), r.attempts],
          [t('searches.fields.lastError'), r.lastError ?? none],
          [t('searches.fields.sentAt'), r.sentAt ? formatDateTime(lang, r.sentAt) : none],
          ...(r.clientIp ? ([[t('searches.fields.clientIp'), r.clientIp]] as [string, ReactNode][]) : []),
          [t('searches.fields.userAgent'), r.userAgent ?? none],
        ]}
      />
      <Typography component="h3" variant="subtitle1" sx={{ mt: 3, mb: 1, fontWeight: 600 }}>
        {t('searches.detail.serials')}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {r.serials.map((s) => (
          <li key={s.serial}>
            <Typography variant="body2" component="span" sx={{ fontFamily: 'monospace', mr: 1 }}>
              {s.serial}
            </Typography>
            <StatusChip status={s.status} />
            {s.reportId && (
              <Link
                href={pdfHref(s.reportId)}
                target="_blank"
                rel="noopener"
                variant="body2"
                sx={{ ml: 1 }}
                aria-label={t('searches.detail.openReport', { serial: s.serial })}
              >
                PDF
              </Link>
            )}
          </li>
        ))}
      </Box>
      <Typography component="h3" variant="subtitle1" sx={{ mt: 3, mb: 1, fontWeight: 600 }}>
        {t('searches.detail.deliveries')}
      </Typography>
      {r.deliveries.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('searches.detail.noDeliveries')}
        </Typography>
      ) : (
        <Box component="ol" sx={{ m: 0, pl: 2.5 }} data-testid="deliveries">
          {r.deliveries.map((d) => (
            <Box component="li" key={d.id} sx={{ mb: 1.5 }}>
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {d.resentBy ? t('searches.detail.resentBy', { who: d.resentBy }) : t('searches.detail.original')}
                </Typography>
                <StatusChip status={d.status} />
              </Box>
              <Typography variant="body2" color="text.secondary">
                {labelled(lang, t('searches.detail.created'), formatDateTime(lang, d.createdAt))} ·{' '}
                {labelled(lang, t('searches.fields.attempts'), String(d.attempts))}
                {d.sentAt ? ` · ${labelled(lang, t('searches.fields.sentAt'), formatDateTime(lang, d.sentAt))}` : ''}
              </Typography>
              {d.lastError && (
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {labelled(lang, t('searches.fields.lastError'), d.lastError)}
                </Typography>
              )}
            </Box>
          ))}
        </Box>
      )}
    </>
  );
}

export function RequestDialog({
  id,
  onClose,
  onResend,
}: {
  id: string | undefined;
  onClose: () => void;
  onResend: (r: SearchRequestDetail) => void;
}) {
  const { t } = useTranslation();
  const phone = usePhone();
  const q = useSearchRequest(id);
  return (
    <Dialog open={!!id} onClose={onClose} fullScreen={phone} fullWidth maxWidth="md" aria-labelledby="search-request-title">
      <DialogTitle id="search-request-title" component="h2">
        {t('searches.detail.title')}
      </DialogTitle>
      <DialogContent dividers>
        {q.isPending && <CircularProgress aria-label={t('app.loading')} />}
        {q.isError && <RetryAlert error={q.error} retry={() => void q.refetch()} />}
        {q.data && <Detail r={q.data} />}
      </DialogContent>
      <DialogActions>
        {q.data?.canResend && (
          <Button variant="contained" onClick={() => onResend(q.data)} data-testid="detail-resend">
            {t('searches.list.resend')}
          </Button>
        )}
        <Button onClick={onClose} color="inherit">
          {t('app.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
