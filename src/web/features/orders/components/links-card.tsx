/**
 * The buyer's links of a delivery: every link sent (by the release, again by staff, or asked for by a
 * contact), to whom, when and by whom, and when it was revoked; "Send the link again" mails a new one to
 * the customer's certificate contacts, "Revoke links" ends them all. Tokens are never shown (only their
 * hash is stored, migration 0021).
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import ForwardToInboxOutlined from '@mui/icons-material/ForwardToInboxOutlined';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeliveryDetail, DeliveryLink } from '../../../../shared/contract/orders';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import type { Column } from '../../../components/data-table';
import { formatDateTime } from '../../../components/format';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useRevokeDeliveryLinks, useSendDeliveryLink } from '../api';
import { RowsTable } from './rows-table';

export function LinksCard({ delivery: d, canUpdate }: { delivery: DeliveryDetail; canUpdate: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const send = useSendDeliveryLink(d.id);
  const revoke = useRevokeDeliveryLinks(d.id);
  const [revoking, setRevoking] = useState(false);
  const live = d.links.some((l) => !l.revokedAt);
  const columns: Column<DeliveryLink>[] = [
    { id: 'source', label: 'orderScreens.links.source', card: 'title', render: (l) => t(`orderScreens.links.sources.${l.source}`) },
    {
      id: 'sentTo',
      label: 'orderScreens.links.sentTo',
      card: 'key',
      render: (l) => (l.sentTo.length ? l.sentTo.join(', ') : '—'),
    },
    {
      id: 'createdAt',
      label: 'orderScreens.links.created',
      card: 'key',
      render: (l) =>
        l.createdBy
          ? t('orderScreens.links.by', { date: formatDateTime(lang, l.createdAt), who: l.createdBy })
          : formatDateTime(lang, l.createdAt),
    },
    {
      id: 'revokedAt',
      label: 'orderScreens.links.revoked',
      card: 'key',
      render: (l) =>
        l.revokedAt ? (
          formatDateTime(lang, l.revokedAt)
        ) : (
          <Chip size="small" color="success" variant="outlined" label={t('orderScreens.links.active')} />
        ),
    },
  ];
  return (
    <Card component="section" aria-labelledby="links-title" data-testid="delivery-links">
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 0.5 }}>
          <Typography id="links-title" variant="h6" component="h2" sx={{ flex: 1 }}>
            {t('orderScreens.links.title')}
          </Typography>
          {canUpdate && (
            // On a phone both buttons go under the title together.
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, flexBasis: { xs: '100%', sm: 'auto' } }}>
              <Button
                startIcon={send.isPending ? <CircularProgress size={16} color="inherit" /> : <ForwardToInboxOutlined />}
                disabled={send.isPending}
                onClick={() =>
                  send.mutate(undefined, { onSuccess: () => notifySuccess('orderScreens.links.resent'), onError: notifyError })
                }
              >
                {t('orderScreens.links.resend')}
              </Button>
              <Button color="error" startIcon={<LinkOffOutlined />} disabled={!live} onClick={() => setRevoking(true)}>
                {t('orderScreens.links.revoke')}
              </Button>
            </Box>
          )}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {t('orderScreens.links.hint')}
        </Typography>
        {d.links.length === 0 ? (
          <Typography color="text.secondary">{t('orderScreens.links.none')}</Typography>
        ) : (
          <RowsTable
            columns={columns}
            rows={d.links}
            getRowId={(l) => l.id}
            label="orderScreens.links.title"
            testId="delivery-links-table"
          />
        )}
      </CardContent>
      <ConfirmDialog
        open={revoking}
        title={t('orderScreens.links.revokeTitle')}
        text={t('orderScreens.links.revokeText')}
        confirmLabel={t('orderScreens.links.revokeButton')}
        busy={revoke.isPending}
        onClose={() => setRevoking(false)}
        onConfirm={() =>
          revoke.mutate(undefined, {
            onSuccess: () => notifySuccess('orderScreens.links.revokedDone'),
            onError: notifyError,
            onSettled: () => setRevoking(false),
          })
        }
      />
    </Card>
  );
}
