/**
 * Webhooks (admin, in Settings): the endpoints that receive the product's signed events, each as a card
 * (it reads the same at 390 px and 1440 px) with its status (enabled, or disabled and why), its events and
 * its actions: send a test event, the delivery log, rotate the secret, enable or disable, delete. A new or
 * rotated secret is shown once (SecretDialog).
 */
import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { WebhookEndpoint, WebhookWithSecret } from '../../../../shared/contract/webhooks';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDateTime } from '../../../components/format';
import { PageHeader } from '../../../components/page-header';
import { RetryAlert } from '../../../components/retry-alert';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { DeliveriesDialog } from '../webhooks/deliveries-dialog';
import { SecretDialog } from '../webhooks/secret-dialog';
import { WebhookFormDialog } from '../webhooks/webhook-form-dialog';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRotateWebhookSecret,
  useSendTestEvent,
  useUpdateWebhook,
  useWebhooks,
} from '../webhooks-api';

type Open = { kind: 'create' } | { kind: 'edit' | 'rotate' | 'delete' | 'log'; endpoint: WebhookEndpoint } | null;

export default function WebhooksPage() {
  const { t, i18n } = useTranslation();
  const list = useWebhooks();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const rotate = useRotateWebhookSecret();
  const remove = useDeleteWebhook();
  const test = useSendTestEvent();
  const [open, setOpen] = useState<Open>(null);
  const [issued, setIssued] = useState<WebhookWithSecret | null>(null);
  const target = open && open.kind !== 'create' ? open.endpoint : null;

  const toggle = (e: WebhookEndpoint) =>
    update.mutate(
      { id: e.id, enabled: !e.enabled },
      { onSuccess: () => notifySuccess(e.enabled ? 'webhooks.screen.disabledDone' : 'webhooks.screen.enabledDone'), onError: notifyError },
    );
  const sendTest = (e: WebhookEndpoint) =>
    test.mutate(e.id, { onSuccess: () => notifySuccess('webhooks.screen.testSent'), onError: notifyError });
  const confirmRotate = async () => {
    if (!target) return;
    try {
      setIssued(await rotate.mutateAsync(target.id));
      setOpen(null);
    } catch (err) {
      notifyError(err);
    }
  };
  const confirmDelete = async () => {
    if (!target) return;
    try {
      await remove.mutateAsync(target.id);
      setOpen(null);
      notifySuccess('webhooks.screen.deleted');
    } catch (err) {
      notifyError(err);
    }
  };

  return (
    <>
      <PageHeader
        title="webhooks.screen.title"
        actions={
          <>
            <Button component={RouterLink} to="/settings" startIcon={<ArrowBack />} color="inherit">
              {t('webhooks.screen.backToSettings')}
            </Button>
            <Button variant="contained" startIcon={<Add />} onClick={() => setOpen({ kind: 'create' })}>
              {t('webhooks.screen.add')}
            </Button>
          </>
        }
      />
      {list.isPending && <CircularProgress aria-label={t('app.loading')} />}
      {list.isError && <RetryAlert error={list.error} retry={() => void list.refetch()} />}
      {list.data?.length === 0 && <Alert severity="info">{t('webhooks.screen.empty')}</Alert>}
      <Stack spacing={2} data-testid="webhook-list">
        {list.data?.map((e) => (
          <Card key={e.id} variant="outlined">
            <CardContent>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }}>
                <Chip
                  size="small"
                  color={e.enabled ? 'success' : 'default'}
                  label={t(e.enabled ? 'webhooks.screen.enabled' : 'webhooks.screen.disabled')}
                />
                <Chip size="small" variant="outlined" label={e.customerName ?? t('webhooks.screen.staffSystems')} />
                <Typography variant="caption" color="text.secondary">
                  {t('webhooks.screen.secretHint', { hint: e.secretHint })}
                </Typography>
              </Box>
              <Typography sx={{ fontWeight: 500, wordBreak: 'break-all' }}>{e.url}</Typography>
              {e.description && <Typography color="text.secondary">{e.description}</Typography>}
              <Typography variant="body2" sx={{ mt: 1 }}>
                {e.events.map((x) => t(`webhooks.screen.events.${x.replace('.', '_')}`, { defaultValue: x })).join(' · ')}
              </Typography>
              {!e.enabled && e.disabledReason && (
                <Alert severity="warning" sx={{ mt: 1, wordBreak: 'break-word' }}>
                  {t('webhooks.screen.disabledBecause', {
                    reason: e.disabledReason,
                    at: e.disabledAt ? formatDateTime(i18n.language, e.disabledAt) : '',
                  })}
                </Alert>
              )}
              {e.enabled && e.consecutiveFailures > 0 && (
                <Typography variant="body2" color="warning.main" sx={{ mt: 1 }}>
                  {t('webhooks.screen.failing', { count: e.consecutiveFailures })}
                </Typography>
              )}
            </CardContent>
            <CardActions sx={{ flexWrap: 'wrap', gap: 1, px: 2, pb: 2 }}>
              <Button size="small" disabled={!e.enabled || test.isPending} onClick={() => sendTest(e)}>
                {t('webhooks.screen.sendTest')}
              </Button>
              <Button size="small" onClick={() => setOpen({ kind: 'edit', endpoint: e })} data-testid="webhook-edit">
                {t('webhooks.screen.edit')}
              </Button>
              <Button size="small" onClick={() => setOpen({ kind: 'log', endpoint: e })}>
                {t('webhooks.screen.log.open')}
              </Button>
              <Button size="small" onClick={() => setOpen({ kind: 'rotate', endpoint: e })}>
                {t('webhooks.screen.rotate')}
              </Button>
              <Button size="small" onClick={() => toggle(e)}>
                {t(e.enabled ? 'webhooks.screen.disable' : 'webhooks.screen.enable')}
              </Button>
              <Button size="small" color="error" onClick={() => setOpen({ kind: 'delete', endpoint: e })}>
                {t('webhooks.screen.delete')}
              </Button>
            </CardActions>
          </Card>
        ))}
      </Stack>
      {open?.kind === 'create' && (
        <WebhookFormDialog
          onSubmit={async (values) => {
            const answer = await create.mutateAsync(values);
            setOpen(null);
            setIssued(answer);
          }}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'edit' && (
        <WebhookFormDialog
          initial={open.endpoint}
          onSubmit={async (values) => {
            await update.mutateAsync({ id: open.endpoint.id, ...values });
            setOpen(null);
            notifySuccess('webhooks.screen.saved');
          }}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'log' && <DeliveriesDialog endpoint={open.endpoint} onClose={() => setOpen(null)} />}
      <ConfirmDialog
        open={open?.kind === 'rotate'}
        title={t('webhooks.screen.rotateTitle')}
        text={t('webhooks.screen.rotateText')}
        confirmLabel={t('webhooks.screen.rotate')}
        busy={rotate.isPending}
        onConfirm={() => void confirmRotate()}
        onClose={() => setOpen(null)}
      />
      <ConfirmDialog
        open={open?.kind === 'delete'}
        title={t('webhooks.screen.deleteTitle')}
        text={t('webhooks.screen.deleteText', { url: target?.url ?? '' })}
        confirmLabel={t('webhooks.screen.delete')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setOpen(null)}
      />
      <SecretDialog issued={issued} onClose={() => setIssued(null)} />
    </>
  );
}
