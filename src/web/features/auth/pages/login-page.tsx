import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { loginInput } from '../../../../shared/contract/auth';
import { safeReturnPath } from '../../../app/guard';
import { BlankCard } from '../../../components/blank-card';
import { applyServerErrors, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { ApiError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { useStaticFrame } from '../../../lib/static-frame';
import { notifySuccess } from '../../../lib/toast';
import { useLogin, useSetupStatus } from '../api';

/**
 * Also drawn at build time as the first paint of /login (src/web/prerender/render.tsx), a frame the staff
 * app replaces: there (useStaticFrame) its fields take no typing, which would be lost, and its button waits.
 */
export default function LoginPage() {
  const frame = useStaticFrame();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const login = useLogin();
  const setup = useSetupStatus();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({ resolver: zodFormResolver(loginInput), defaultValues: { email: '', password: '' } });

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await login.mutateAsync(values);
      notifySuccess('auth.loginSuccess');
      const rest = new URLSearchParams(params);
      rest.delete('to');
      const target = safeReturnPath(params.get('to')) ?? '/dashboard';
      const qs = rest.toString();
      void navigate(qs ? `${target}${target.includes('?') ? '&' : '?'}${qs}` : target, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.fields.length === 0) setFailure(errorMessage(t, err));
      else applyServerErrors(err, form.setError, ['email', 'password']);
    }
  });

  return (
    <BlankCard title="pages.login" subtitle="authScreens.loginSubtitle">
      {/* method=post: should the frame's form ever be sent without the app, no password goes into a URL */}
      <Stack component="form" method="post" noValidate spacing={2.5} onSubmit={onSubmit} aria-label={t('pages.login')}>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <FormTextField
          control={form.control}
          name="email"
          label="authScreens.email"
          type="email"
          autoComplete="username"
          autoFocus
          slotProps={{ htmlInput: { readOnly: frame } }}
        />
        <FormTextField
          control={form.control}
          name="password"
          label="authScreens.password"
          type="password"
          autoComplete="current-password"
          slotProps={{ htmlInput: { readOnly: frame } }}
        />
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Link component={RouterLink} to="/forgot-password" underline="hover">
            {t('authScreens.forgotPasswordLink')}
          </Link>
        </Stack>
        <SubmitButton saving={form.formState.isSubmitting} disabled={frame} label="authScreens.signIn" size="large" fullWidth />
        {setup.data?.needsFirstAdmin && (
          <Typography sx={{ textAlign: 'center' }}>
            {t('authScreens.firstRun')}{' '}
            <Link component={RouterLink} to="/register" underline="hover">
              {t('authScreens.createFirstAdmin')}
            </Link>
          </Typography>
        )}
      </Stack>
    </BlankCard>
  );
}
