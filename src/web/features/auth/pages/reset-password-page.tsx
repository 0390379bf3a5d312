import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { resetPasswordInput } from '../../../../shared/contract/auth';
import { BlankCard } from '../../../components/blank-card';
import { applyServerErrors, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { notifySuccess } from '../../../lib/toast';
import { useResetPassword } from '../api';

const resetForm = resetPasswordInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], error: 'validation.passwordsDoNotMatch' });

/**
 * The token of the emailed link. It travels in the fragment (`#token=`), which the browser never sends,
 * so it reaches no server log; it is then taken out of the address bar and the history. Older links
 * carried it in the query.
 */
function takeTokenFromAddress(params: URLSearchParams): string {
  const fromHash = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token');
  if (fromHash) window.history.replaceState(window.history.state, '', window.location.pathname);
  return fromHash ?? params.get('token') ?? '';
}

/** The page of the emailed link. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [token] = useState(() => takeTokenFromAddress(params));
  const form = useForm({ resolver: zodFormResolver(resetForm), defaultValues: { token, password: '', confirmPassword: '' } });

  const onSubmit = form.handleSubmit(async ({ token: tk, password }) => {
    try {
      await reset.mutateAsync({ token: tk, password });
      notifySuccess('auth.passwordResetDone');
      void navigate('/login', { replace: true });
    } catch (err) {
      applyServerErrors(err, form.setError, ['password']);
    }
  });

  return (
    <BlankCard title="pages.resetPassword" subtitle="authScreens.resetSubtitle">
      <Stack component="form" noValidate spacing={2.5} onSubmit={onSubmit} aria-label={t('pages.resetPassword')}>
        {!token && <Alert severity="error">{t('auth.resetLinkInvalid')}</Alert>}
        <FormTextField
          control={form.control}
          name="password"
          label="authScreens.newPassword"
          type="password"
          autoComplete="new-password"
          hint="authScreens.passwordHint"
          autoFocus
        />
        <FormTextField
          control={form.control}
          name="confirmPassword"
          label="authScreens.confirmPassword"
          type="password"
          autoComplete="new-password"
        />
        <SubmitButton saving={form.formState.isSubmitting} label="authScreens.setNewPassword" size="large" fullWidth disabled={!token} />
        <Link component={RouterLink} to="/login" underline="hover" sx={{ alignSelf: 'center' }}>
          {t('authScreens.backToLogin')}
        </Link>
      </Stack>
    </BlankCard>
  );
}
