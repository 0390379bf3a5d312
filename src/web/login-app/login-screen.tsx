/**
 * The sign-in screen as plain elements styled by public.css, like /search (decision 0074): drawn at build time
 * (src/web/prerender/render.tsx) and hydrated by the sign-in page's own small bundle (./main-login.tsx), so a
 * phone starts no staff app, MUI or i18next to sign in. Its fields are uncontrolled: what was typed before the
 * page was hydrated stays in them and is what the form sends. The button waits for the page's script, so the
 * browser never sends the form itself.
 */
import { useRef, useState, type FormEvent } from 'react';
import type { Me } from '../../shared/contract/auth';
import type { LoginInput } from '../../shared/contract/login';
import { adoptAccount } from '../lib/account-adoption';
import { Alert, Icon, LogoMark } from '../features/public/components/plain';
import { LanguageSwitch } from '../features/public/components/public-header';
import { TextInput } from '../features/public/components/text-input';
import { useT } from '../features/public/lib/public-i18n';
import { api, ApiError } from '../lib/api';
import { errorMessage } from '../lib/errors';
import { signInTarget } from '../lib/return-path';
import { rememberSignIn } from '../lib/sign-in-notice';
import type { LoginFieldErrors, LoginFields } from './login-check';

export interface LoginScreenProps {
  /** the page's script runs: the button may send the form */
  ready: boolean;
  /** no account exists yet: the screen offers to create the administrator */
  needsFirstAdmin: boolean;
}

const checker = () => import('./login-check');

export function LoginScreen({ ready, needsFirstAdmin }: LoginScreenProps) {
  const { t } = useT();
  const [errors, setErrors] = useState<LoginFieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [revealed, setRevealed] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);

  function showErrors(next: LoginFieldErrors) {
    setErrors(next);
    const first = (['email', 'password'] as const).find((f) => next[f]);
    if (first) (form.current?.elements.namedItem(first) as HTMLInputElement | null)?.focus();
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (sending) return;
    const data = new FormData(e.currentTarget);
    const values: LoginInput = { email: String(data.get('email') ?? ''), password: String(data.get('password') ?? '') };
    setFailure(null);
    setSending(true);
    try {
      const check = await checker();
      const refused = check.checkLogin(values);
      if (Object.keys(refused).length > 0) {
        showErrors(refused);
        setSending(false);
        return;
      }
      setErrors({});
      const signedIn = await api.post<Me>('/auth/login', values, { allowUnauthenticated: true });
      // A page load, not a route change: the staff app starts with the signed-in user's language and look,
      // and says that the sign-in worked. Stored first, so that the server draws its frame in them too.
      adoptAccount(signedIn.user);
      rememberSignIn();
      window.location.replace(signInTarget(window.location.search));
    } catch (err) {
      setSending(false);
      const fields = err instanceof ApiError ? (await checker()).serverFieldErrors(err.fields) : {};
      if (Object.keys(fields).length > 0) return showErrors(fields);
      setFailure(errorMessage(t, err));
      requestAnimationFrame(() => alert.current?.focus());
    }
  }

  const fieldError = (field: LoginFields) => {
    const message = errors[field];
    return message ? t(message.key, { ...message.params, defaultValue: message.key }) : undefined;
  };

  return (
    <main className="pp-login">
      <div className="pp-card pp-login-card">
        <div className="pp-login-top">
          <LogoMark />
          <span className="pp-company pp-login-title">{t('app.title')}</span>
          <LanguageSwitch />
        </div>
        <h1 className="pp-h5">{t('pages.login')}</h1>
        <p className="pp-secondary pp-login-subtitle">{t('authScreens.loginSubtitle')}</p>
        {/* method=post all the same: no password could ever go into a URL */}
        <form ref={form} method="post" noValidate className="pp-stack pp-login-form" aria-label={t('pages.login')} onSubmit={onSubmit}>
          {failure && (
            <Alert severity="error" role="alert" ref={alert} tabIndex={-1}>
              {failure}
            </Alert>
          )}
          <TextInput
            id="field-email"
            name="email"
            label={t('authScreens.email')}
            username
            autoFocus
            error={Boolean(errors.email)}
            helperText={fieldError('email')}
          />
          <TextInput
            id="field-password"
            name="password"
            label={t('authScreens.password')}
            password={{ autoComplete: 'current-password', revealed }}
            error={Boolean(errors.password)}
            helperText={fieldError('password')}
            end={
              <button
                type="button"
                className="pp-icon-button"
                aria-label={t(revealed ? 'form.hidePassword' : 'form.showPassword')}
                onClick={() => setRevealed((v) => !v)}
              >
                <Icon name={revealed ? 'visibilityOff' : 'visibility'} className="pp-icon-small" />
              </button>
            }
          />
          <p className="pp-login-forgot">
            <a className="pp-link" href="/forgot-password">
              {t('authScreens.forgotPasswordLink')}
            </a>
          </p>
          <button type="submit" className="pp-button pp-button-contained pp-button-large pp-login-submit" disabled={!ready || sending}>
            {sending && <span className="pp-spinner" aria-hidden="true" />}
            {t('authScreens.signIn')}
          </button>
          {needsFirstAdmin && (
            <p className="pp-login-first">
              {t('authScreens.firstRun')}{' '}
              <a className="pp-link" href="/register">
                {t('authScreens.createFirstAdmin')}
              </a>
            </p>
          )}
        </form>
      </div>
    </main>
  );
}
