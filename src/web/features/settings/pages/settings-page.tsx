/** Settings (docs/product.md §3): admins edit, staff read. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { enumerate, labelled } from '../../../../shared/i18n/punctuation';
import WebhookOutlined from '@mui/icons-material/WebhookOutlined';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { RetryAlert } from '../../../components/retry-alert';
import { useAppAbility } from '../../../lib/ability';
import { useSettings } from '../api';
import { CertificateCard } from '../components/certificate-card';
import { RetentionCard } from '../components/retention-card';
import { RecordArchiveCard } from '../components/record-archive-card';
import { VerificationKeysCard } from '../components/verification-keys-card';
import { SettingsForm } from '../components/settings-form';

export default function SettingsPage() {
  const { t, i18n } = useTranslation();
  const settings = useSettings();
  const ability = useAppAbility();
  const canEdit = ability.can('update', 'Settings');
  // Webhooks are the administrators': the way to them is in Settings.
  const canWebhooks = ability.can('read', 'Webhook');
  return (
    <Box>
      <PageHeader
        title="settingsScreen.title"
        subtitle={canEdit ? 'settingsScreen.subtitle' : undefined}
        actions={
          canWebhooks ? (
            <Button component={RouterLink} to="/settings/webhooks" startIcon={<WebhookOutlined />}>
              {t('webhooks.screen.title')}
            </Button>
          ) : undefined
        }
      />
      {!canEdit && (
        <Alert severity="info" sx={{ mb: 3 }} data-testid="read-only">
          {t('settingsScreen.readOnly')}
        </Alert>
      )}
      {settings.isPending && <CircularProgress aria-label={t('app.loading')} />}
      {settings.isError && <RetryAlert error={settings.error} retry={() => void settings.refetch()} />}
      {settings.data && (
        <Stack spacing={3}>
          {settings.data.missing.length > 0 && (
            <Alert severity="warning" data-testid="settings-missing">
              {labelled(
                i18n.language,
                t('settingsScreen.missing.title'),
                enumerate(
                  i18n.language,
                  settings.data.missing.map((m) => t(`settingsScreen.missing.items.${m}`)),
                ),
              )}
              {i18n.language === 'zh' ? '。' : '.'}
            </Alert>
          )}
          {settings.data.publicAddress && (
            <Alert severity={settings.data.publicAddress.local ? 'warning' : 'info'} data-testid="settings-public-address">
              {t(settings.data.publicAddress.local ? 'settingsScreen.publicAddress.local' : 'settingsScreen.publicAddress.inUse', {
                url: settings.data.publicAddress.url,
              })}
            </Alert>
          )}
          <SettingsForm settings={settings.data} canEdit={canEdit} />
          <CertificateCard settings={settings.data} canEdit={canEdit} />
          <VerificationKeysCard canEdit={canEdit} publicUrl={settings.data.publicAddress?.url ?? null} />
          <RetentionCard settings={settings.data} canEdit={canEdit} />
          <RecordArchiveCard settings={settings.data} canEdit={canEdit} />
        </Stack>
      )}
    </Box>
  );
}
