/**
 * The keys that sign the proof in every report's QR code (docs/decisions/0063-offline-verification.md):
 * their ids, when each was made and retired, where they are published. An admin rotates them; earlier keys
 * stay published, so reports signed with them keep verifying. Both show in the audit trail.
 */
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { originOf } from '../../../../shared/identification';
import { JWKS_PATH } from '../../../../shared/offline-proof';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDate } from '../../../components/format';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useRotateVerificationKey, useVerificationKeys } from '../api';

export function VerificationKeysCard({ canEdit, publicUrl }: { canEdit: boolean; publicUrl: string | null }) {
  const { t, i18n } = useTranslation();
  const keys = useVerificationKeys();
  const rotate = useRotateVerificationKey();
  const [confirming, setConfirming] = useState(false);
  const published = `${originOf(publicUrl ?? window.location.origin)}${JWKS_PATH}`;

  async function onRotate() {
    setConfirming(false);
    try {
      notifySuccess((await rotate.mutateAsync()).messageKey);
    } catch (err) {
      notifyError(err);
    }
  }

  const rows = [...(keys.data ?? [])].reverse();
  return (
    <Card data-testid="verification-keys">
      <CardHeader
        title={t('settingsScreen.keys.title')}
        subheader={t('settingsScreen.keys.subtitle')}
        slotProps={{ title: { component: 'h2', variant: 'h6' } }}
      />
      <CardContent sx={{ pt: 0 }}>
        <Typography variant="body2" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
          {t('settingsScreen.keys.published')}{' '}
          <a href={published} target="_blank" rel="noreferrer">
            {published}
          </a>
        </Typography>
        {rows.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('settingsScreen.keys.none')}
          </Typography>
        ) : (
          <Table size="small" aria-label={t('settingsScreen.keys.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('settingsScreen.keys.kid')}</TableCell>
                <TableCell>{t('settingsScreen.keys.created')}</TableCell>
                <TableCell>{t('settingsScreen.keys.status')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((k) => (
                <TableRow key={k.kid}>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{k.kid}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(i18n.language, k.createdAt)}</TableCell>
                  <TableCell>
                    {k.retiredAt ? (
                      t('settingsScreen.keys.retired', { date: formatDate(i18n.language, k.retiredAt) })
                    ) : (
                      <Chip size="small" color="success" label={t('settingsScreen.keys.current')} />
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {canEdit && (
          <Button variant="outlined" sx={{ mt: 2 }} onClick={() => setConfirming(true)} disabled={rotate.isPending}>
            {t('settingsScreen.keys.rotate')}
          </Button>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title={t('settingsScreen.keys.rotateTitle')}
        text={t('settingsScreen.keys.rotateConfirm')}
        busy={rotate.isPending}
        confirmLabel={t('settingsScreen.keys.rotate')}
        onConfirm={() => void onRotate()}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
