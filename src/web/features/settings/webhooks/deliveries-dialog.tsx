/**
 * An endpoint's delivery log: every attempt, newest first, as rows of key facts that wrap on a phone (time,
 * event, attempt, answer, duration) with the error and the receiver's answer below. 20 a page.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebhookEndpoint } from '../../../../shared/contract/webhooks';
import { formatDateTime } from '../../../components/format';
import { RetryAlert } from '../../../components/retry-alert';
import { useWebhookDeliveries } from '../webhooks-api';
import { labelled } from '../../../../shared/i18n/punctuation';

const PAGE = 20;
const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12, wordBreak: 'break-all' } as const;

export function DeliveriesDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const log = useWebhookDeliveries(endpoint.id, page);
  const total = log.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE));
  return (
    <Dialog open onClose={onClose} aria-labelledby="webhook-log-title" fullWidth maxWidth="md">
      <DialogTitle id="webhook-log-title">
        {t('webhooks.screen.log.title')}
        <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
          {endpoint.url}
        </Typography>
      </DialogTitle>
      <DialogContent dividers>
        {log.isPending && <CircularProgress aria-label={t('app.loading')} />}
        {log.isError && <RetryAlert error={log.error} retry={() => void log.refetch()} />}
        {log.data && log.data.items.length === 0 && <Typography color="text.secondary">{t('webhooks.screen.log.empty')}</Typography>}
        <Stack divider={<Divider flexItem />} spacing={1.5} data-testid="webhook-log">
          {log.data?.items.map((a) => {
            const ok = a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;
            return (
              <Box key={a.id}>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
                  <Chip
                    size="small"
                    color={ok ? 'success' : 'error'}
                    label={a.statusCode === null ? t('webhooks.screen.log.noAnswer') : `HTTP ${a.statusCode}`}
                  />
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {a.eventType}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t('webhooks.screen.log.attempt', { n: a.attempt })} · {t('webhooks.screen.log.duration', { ms: a.durationMs })} ·{' '}
                    {formatDateTime(i18n.language, a.createdAt)}
                  </Typography>
                </Box>
                <Typography variant="caption" color="text.secondary" component="div" sx={mono}>
                  {labelled(i18n.language, t('webhooks.screen.log.eventId'), a.eventId)}
                </Typography>
                {a.error && (
                  <Typography variant="body2" color="error" sx={{ wordBreak: 'break-word' }}>
                    {a.error}
                  </Typography>
                )}
                {a.responseBody && (
                  <Box
                    component="pre"
                    sx={{ ...mono, m: 0, mt: 0.5, whiteSpace: 'pre-wrap', maxHeight: 120, overflow: 'auto', bgcolor: 'action.hover', p: 1 }}
                  >
                    {a.responseBody}
                  </Box>
                )}
              </Box>
            );
          })}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto', pl: 1 }}>
          {t('webhooks.screen.log.page', { page, pages, total })}
        </Typography>
        <Button disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          {t('webhooks.screen.log.newer')}
        </Button>
        <Button disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
          {t('webhooks.screen.log.older')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t('webhooks.screen.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
