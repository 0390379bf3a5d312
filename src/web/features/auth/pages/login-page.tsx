import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { loginInput } from '../../../../shared/contract/auth';
import { safeReturnPath } from '../../../lib/return-path';
import { BlankCard } from '../../../components/blank-card';
import { applyServerErrors, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { ApiError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { useStaticFrame } from '../../../lib/static-frame';
import { notifySuccess } from '../../../lib/toast';
import { useLogin, useSetupStatus } from '../api';

/**
 * Also drawn at build time as the first paint of /login (src/web/prerender/render.tsx), which the staff app
 * hydrates: the fields take typing before the app runs (React keeps it), their labels stay above them (no
 * script is needed to move a label out of the way of typing), and the button waits for the app (useStaticFrame).
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
  const formElement = useRef<HTMLFormElement>(null);
  // MUI marks focus with a class its script sets; this rule shows the autofocused field before the app runs too.
  const focusRing = {
    '& .MuiOutlinedInput-root:not(.Mui-error):focus-within .MuiOutlinedInput-notchedOutline': {
      borderColor: 'primary.main',
      borderWidth: 2,
    },
  };

  // Typing done before the app started is in the prerendered fields but not in the form's state: taken over
  // before the first render after hydration, which would otherwise set the fields back to the state's ''.
  useLayoutEffect(() => {
    const fields = formElement.current?.elements;
    for (const name of ['email', 'password'] as const) {
      const typed = (fields?.namedItem(name) as HTMLInputElement | null)?.value;
      if (typed) form.setValue(name, typed);
    }
  }, [form]);

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
      {/* The button waits for the app, so the browser cannot send the form itself (Enter needs an enabled
          default button); method=post all the same, so that no password could ever go into a URL. */}
      <Stack component="form" ref={formElement} method="post" noValidate spacing={2.5} onSubmit={onSubmit} aria-label={t('pages.login')}>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <FormTextField
          control={form.control}
          name="email"
          label="authScreens.email"
          // The address is the account's user name: password managers look for autocomplete=username, which
          // a type=email field must not declare (HTML's autofill rules); text with an email keyboard instead.
          type="text"
          autoComplete="username"
          autoFocus
          sx={focusRing}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'email', spellCheck: false, autoCapitalize: 'none' } }}
        />
        <FormTextField
          control={form.control}
          name="password"
          label="authScreens.password"
          type="password"
          autoComplete="current-password"
          sx={focusRing}
          slotProps={{ inputLabel: { shrink: true } }}
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
