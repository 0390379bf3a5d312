/** The staff app's providers: queries, theme and preferences, abilities and the session's side effects. */
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, type ReactNode } from 'react';
import type { Me } from '../../shared/contract/auth';
import { authKeys, clearSession, useMe } from '../features/auth/api';
import { AbilityProvider, abilityFromMe } from '../lib/ability';
import { api, setUnauthenticatedHandler } from '../lib/api';
import { changeLanguage, currentLanguage } from '../lib/i18n';
import { setLanguageChoiceHandler } from '../lib/language';
import { usePreferences } from '../lib/preferences';
import { queryClient } from '../lib/query-client';
import { notifyError } from '../lib/toast';
import { loginRedirect } from './guard';
import { appRouter } from './router';
import { ThemeProviders } from './theme-providers';

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
      if (pathname !== '/login') void appRouter().navigate(loginRedirect(pathname, search), { replace: true });
    });
    // The language a signed-in user chooses is stored on the account too.
    setLanguageChoiceHandler(async (language) => {
      const current = queryClient.getQueryData<Me | null>(authKeys.me());
      if (!current) return;
      queryClient.setQueryData<Me | null>(authKeys.me(), { ...current, user: { ...current.user, language } } as Me);
      await api.patch('/auth/me', { language }).catch(notifyError);
    });
    return () => {
      setUnauthenticatedHandler(undefined);
      setLanguageChoiceHandler(undefined);
    };
  }, []);

  const ability = useMemo(() => abilityFromMe(me), [me]);
  return <AbilityProvider value={ability}>{children}</AbilityProvider>;
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProviders>
        <SessionSync>{children}</SessionSync>
      </ThemeProviders>
    </QueryClientProvider>
  );
}
