import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { forgotPasswordInput } from '../../../../shared/contract/auth';
import { BlankCard } from '../../../components/blank-card';
import { applyServerErrors, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { notifySuccess } from '../../../lib/toast';
import { useForgotPassword } from '../api';

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const forgot = useForgotPassword();
  const [sent, setSent] = useState(false);
  const form = useForm({ resolver: zodFormResolver(forgotPasswordInput), defaultValues: { email: '' } });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await forgot.mutateAsync(values);
      setSent(true);
      notifySuccess('auth.resetLinkSent');
    } catch (err) {
      applyServerErrors(err, form.setError, ['email']);
    }
  });

  return (
    <BlankCard title="pages.forgotPassword" subtitle="authScreens.forgotSubtitle">
      <Stack component="form" noValidate spacing={2.5} onSubmit={onSubmit} aria-label={t('pages.forgotPassword')}>
        {sent && (
          <Alert severity="success" role="status">
            {t('auth.resetLinkSent')}
          </Alert>
        )}
        <FormTextField control={form.control} name="email" label="authScreens.email" type="email" autoComplete="email" autoFocus />
        <SubmitButton saving={form.formState.isSubmitting} label="authScreens.sendResetLink" size="large" fullWidth />
        <Link component={RouterLink} to="/login" underline="hover" sx={{ alignSelf: 'center' }}>
          {t('authScreens.backToLogin')}
        </Link>
      </Stack>
    </BlankCard>
  );
}
