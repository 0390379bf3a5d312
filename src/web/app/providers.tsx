/** Everything the pages rely on: queries, preferences, theme, abilities, toasts and the session's side effects. */
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, type ReactNode } from 'react';
import { Slide, ToastContainer } from 'react-toastify';
import { clearSession, useMe } from '../features/auth/api';
import { AbilityProvider, abilityFromMe } from '../lib/ability';
import { setUnauthenticatedHandler } from '../lib/api';
import { TOAST_AUTO_CLOSE_MS } from '../lib/constants';
import { changeLanguage, currentLanguage } from '../lib/i18n';
import { PreferencesProvider, usePreferences } from '../lib/preferences';
import { queryClient } from '../lib/query-client';
import { createAppTheme } from '../lib/theme';
import { loginRedirect } from './guard';
import { router } from './router';

/** "system" follows the operating system live. */
export function useThemeMode(): 'light' | 'dark' {
  const { preferences } = usePreferences();
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  return preferences.theme === 'system' ? (prefersDark ? 'dark' : 'light') : preferences.theme;
}

function ThemeBridge({ children }: { children: ReactNode }) {
  const { preferences } = usePreferences();
  const mode = useThemeMode();
  const theme = useMemo(() => createAppTheme(mode, preferences.skin), [mode, preferences.skin]);
  useEffect(() => {
    document.documentElement.style.colorScheme = mode;
  }, [mode]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {children}
      <ToastContainer
        position="top-right"
        autoClose={TOAST_AUTO_CLOSE_MS}
        closeOnClick
        pauseOnHover
        draggable={false}
        newestOnTop
        theme={mode === 'dark' ? 'dark' : 'light'}
        transition={Slide}
      />
    </ThemeProvider>
  );
}

/** A signed-in user's language and preferences come from the account; a 401 later sends them to /login. */
function SessionSync({ children }: { children: ReactNode }) {
  const me = useMe();
  const { adoptAccountPreferences, setSignedIn } = usePreferences();
  const user = me?.user;

  useEffect(() => {
    setSignedIn(!!user);
    if (!user) return;
    if (user.language !== currentLanguage()) void changeLanguage(user.language);
    adoptAccountPreferences(user.id, user.preferences ?? {});
    // Only when another user signs in: later changes of the same user come from this browser.
  }, [user?.id]);

  useEffect(() => {
    setUnauthenticatedHandler(() => {
      clearSession();
      const { pathname, search } = window.location;
      if (pathname !== '/login') void router.navigate(loginRedirect(pathname, search), { replace: true });
    });
    return () => setUnauthenticatedHandler(undefined);
  }, []);

  const ability = useMemo(() => abilityFromMe(me), [me]);
  return <AbilityProvider value={ability}>{children}</AbilityProvider>;
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <PreferencesProvider>
        <ThemeBridge>
          <SessionSync>{children}</SessionSync>
        </ThemeBridge>
      </PreferencesProvider>
    </QueryClientProvider>
  );
}
