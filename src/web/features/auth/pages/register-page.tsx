import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { registerInput } from '../../../../shared/contract/auth';
import { BlankCard } from '../../../components/blank-card';
import { applyServerErrors, FormTextField, SubmitButton, useUnsavedChangesWarning, zodFormResolver } from '../../../components/form';
import { errorMessage } from '../../../lib/errors';
import { notifySuccess } from '../../../lib/toast';
import { useRegister, useSetupStatus } from '../api';

/** First run: creates the first administrator. Afterwards it explains that an administrator creates accounts. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const setup = useSetupStatus();
  const navigate = useNavigate();
  const register = useRegister();
  const form = useForm({ resolver: zodFormResolver(registerInput), defaultValues: { name: '', email: '', password: '' } });
  const { dialog, allowLeave } = useUnsavedChangesWarning(form.formState.isDirty && !form.formState.isSubmitSuccessful);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await register.mutateAsync(values);
      allowLeave();
      notifySuccess('auth.registered');
      void navigate('/dashboard', { replace: true });
    } catch (err) {
      applyServerErrors(err, form.setError, ['name', 'email', 'password']);
    }
  });

  if (setup.isPending) {
    return (
      <BlankCard title="pages.register">
        <Stack sx={{ alignItems: 'center', py: 3 }}>
          <CircularProgress aria-label={t('app.loading')} />
        </Stack>
      </BlankCard>
    );
  }
  if (setup.isError) {
    return (
      <BlankCard title="pages.register">
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => void setup.refetch()}>
              {t('app.retry')}
            </Button>
          }
        >
          {errorMessage(t, setup.error)}
        </Alert>
      </BlankCard>
    );
  }
  if (!setup.data.needsFirstAdmin) {
    return (
      <BlankCard title="pages.register">
        <Alert severity="info" sx={{ mb: 3 }}>
          {t('authScreens.registerClosed')}
        </Alert>
        <Button component={RouterLink} to="/login" variant="contained" fullWidth>
          {t('authScreens.backToLogin')}
        </Button>
      </BlankCard>
    );
  }
  return (
    <BlankCard title="pages.register" subtitle="authScreens.registerSubtitle">
      <Stack component="form" noValidate spacing={2.5} onSubmit={onSubmit} aria-label={t('pages.register')}>
        <FormTextField control={form.control} name="name" label="authScreens.name" autoComplete="name" autoFocus />
        <FormTextField
          control={form.control}
          name="email"
          label="authScreens.email"
          type="text"
          autoComplete="username"
          slotProps={{ htmlInput: { inputMode: 'email', spellCheck: false, autoCapitalize: 'none' } }}
        />
        <FormTextField
          control={form.control}
          name="password"
          label="authScreens.password"
          type="password"
          autoComplete="new-password"
          hint="authScreens.passwordHint"
        />
        <SubmitButton saving={form.formState.isSubmitting} label="authScreens.createAccount" size="large" fullWidth />
      </Stack>
      {dialog}
    </BlankCard>
  );
}
