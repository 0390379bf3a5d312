/** Account settings: the profile tab (name, language) and the account tab (password, other sessions). */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { changePasswordInput, languageField } from '../../../../shared/contract/auth';
import { requiredText } from '../../../../shared/contract/common';
import { LANGUAGES } from '../../../../shared/i18n/index';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import {
  applyServerErrors,
  FormSelectField,
  FormTextField,
  SubmitButton,
  useUnsavedChangesWarning,
  zodFormResolver,
} from '../../../components/form';
import { PageHeader } from '../../../components/page-header';
import { changeLanguage } from '../../../lib/i18n';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useChangePassword, useMe, useRevokeOtherSessions, useUpdateMe } from '../../auth/api';

const TABS = ['profile', 'account'] as const;
const profileForm = z.object({ name: requiredText(120), language: languageField });
const passwordForm = changePasswordInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], error: 'validation.passwordsDoNotMatch' });

function ProfileTab() {
  const { t } = useTranslation();
  const me = useMe();
  const update = useUpdateMe();
  const form = useForm({
    resolver: zodFormResolver(profileForm),
    values: { name: me?.user.name ?? '', language: me?.user.language ?? 'en' },
  });
  const { dialog } = useUnsavedChangesWarning(form.formState.isDirty);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      await changeLanguage(values.language);
      form.reset(values);
      notifySuccess('auth.profileSaved');
    } catch (err) {
      applyServerErrors(err, form.setError, ['name', 'language']);
    }
  });
  return (
    <Card>
      <CardHeader title={t('account.profileTitle')} subheader={me?.user.email} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent>
        <form noValidate onSubmit={onSubmit} aria-label={t('account.profileTitle')}>
          <Grid container spacing={2.5}>
            <Grid size={{ xs: 12, md: 6 }}>
              <FormTextField control={form.control} name="name" label="account.name" autoComplete="name" />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <FormSelectField
                control={form.control}
                name="language"
                label="account.language"
                options={LANGUAGES.map((l) => ({ value: l, label: `app.languages.${l}` }))}
              />
            </Grid>
          </Grid>
          <Stack direction="row" spacing={1.5} sx={{ mt: 3 }}>
            <SubmitButton saving={form.formState.isSubmitting} label="app.save" disabled={!form.formState.isDirty} />
            <Button variant="outlined" color="inherit" disabled={!form.formState.isDirty} onClick={() => form.reset()}>
              {t('app.reset')}
            </Button>
          </Stack>
        </form>
      </CardContent>
      {dialog}
    </Card>
  );
}

function AccountTab() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const revoke = useRevokeOtherSessions();
  const [confirm, setConfirm] = useState(false);
  const form = useForm({
    resolver: zodFormResolver(passwordForm),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { dialog } = useUnsavedChangesWarning(form.formState.isDirty);
  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      form.reset();
      notifySuccess('auth.passwordChanged');
    } catch (err) {
      applyServerErrors(err, form.setError, ['currentPassword', 'newPassword']);
    }
  });
  const revokeOthers = async () => {
    try {
      await revoke.mutateAsync();
      notifySuccess('auth.otherSessionsRevoked');
      setConfirm(false);
    } catch (err) {
      notifyError(err);
    }
  };
  return (
    <Stack spacing={3}>
      <Card>
        <CardHeader title={t('account.changePassword')} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
        <CardContent>
          <form noValidate onSubmit={onSubmit} aria-label={t('account.changePassword')}>
            <Grid container spacing={2.5}>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormTextField
                  control={form.control}
                  name="currentPassword"
                  label="account.currentPassword"
                  type="password"
                  autoComplete="current-password"
                />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }} sx={{ display: { xs: 'none', md: 'block' } }} />
              <Grid size={{ xs: 12, md: 6 }}>
                <FormTextField
                  control={form.control}
                  name="newPassword"
                  label="authScreens.newPassword"
                  type="password"
                  autoComplete="new-password"
                  hint="authScreens.passwordHint"
                />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormTextField
                  control={form.control}
                  name="confirmPassword"
                  label="authScreens.confirmPassword"
                  type="password"
                  autoComplete="new-password"
                />
              </Grid>
            </Grid>
            <Stack direction="row" sx={{ mt: 3 }}>
              <SubmitButton saving={form.formState.isSubmitting} label="account.changePassword" />
            </Stack>
          </form>
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('account.sessionsTitle')} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
        <CardContent>
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('account.sessionsText')}
          </Alert>
          <Button variant="outlined" color="error" onClick={() => setConfirm(true)}>
            {t('account.revokeOthers')}
          </Button>
        </CardContent>
      </Card>
      <ConfirmDialog
        open={confirm}
        title={t('account.revokeOthers')}
        text={t('account.revokeConfirm')}
        confirmLabel={t('account.revokeOthers')}
        busy={revoke.isPending}
        onConfirm={() => void revokeOthers()}
        onClose={() => setConfirm(false)}
      />
      {dialog}
    </Stack>
  );
}

export default function AccountSettingsPage() {
  const { t } = useTranslation();
  const { tab } = useParams();
  const navigate = useNavigate();
  if (!TABS.includes(tab as (typeof TABS)[number])) return <Navigate to="/account-settings/profile" replace />;
  return (
    <>
      <PageHeader title="pages.accountSettings" />
      <Tabs
        value={tab}
        onChange={(_, v: string) => void navigate(`/account-settings/${v}`)}
        sx={{ mb: 3 }}
        aria-label={t('pages.accountSettings')}
      >
        <Tab value="profile" label={t('account.profileTab')} id="tab-profile" aria-controls="panel-profile" />
        <Tab value="account" label={t('account.accountTab')} id="tab-account" aria-controls="panel-account" />
      </Tabs>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'profile' ? <ProfileTab /> : <AccountTab />}
      </div>
    </>
  );
}
