/**
 * The sign-in page on its own, as the public page is (public-app/main-public.tsx): React and the page's
 * own translator and look, no router, query cache, MUI or i18next (decision 0074). The server sends /login
 * drawn in the visitor's language; React hydrates it, then switches to the language the visitor wants when
 * it is not the one the HTML was drawn in. The look is CSS only, so the page is hydrated in any look.
 *
 * A signed-in visitor goes on to where the sign-in would have sent them. A sign-in ends in a page load of
 * the staff app, which then starts in the account's language and look.
 */
import { useState } from 'react';
import type { Language } from '../../shared/i18n/languages';
import { mountPlainPage, usePlainPageStart } from '../features/public/lib/plain-page';
import { PublicFrame } from '../public-app/public-frame';
import { api } from '../lib/api';
import { signInTarget } from '../lib/return-path';
import { LoginScreen } from './login-screen';

// No stylesheet is imported: the served page carries public.css written into it (scripts/vite-prerender.ts), and
// a second copy arriving as a file made a phone restyle the whole page once more (a task of ~100 ms at 4x CPU).
// A page drawn afresh, without the served HTML (the development server), loads it as it starts.

function LoginShell({ wanted }: { wanted: Language }) {
  const [ready, setReady] = useState(false);
  const [needsFirstAdmin, setNeedsFirstAdmin] = useState(false);
  usePlainPageStart({ wanted, title: 'pages.login', description: 'app.meta.staff', onStarted: () => started() });

  function started() {
    setReady(true);
    void api.get<{ user: unknown } | null>('/auth/session', { allowUnauthenticated: true }).then(
      (me) => {
        if (me) window.location.replace(signInTarget(window.location.search));
      },
      () => undefined,
    );
    void api.get<{ needsFirstAdmin: boolean }>('/auth/setup').then(
      (setup) => setNeedsFirstAdmin(setup.needsFirstAdmin),
      () => undefined,
    );
  }

  return (
    <PublicFrame>
      <LoginScreen ready={ready} needsFirstAdmin={needsFirstAdmin} />
    </PublicFrame>
  );
}

export async function mountLogin(container: HTMLElement): Promise<void> {
  await mountPlainPage(
    container,
    (wanted) => <LoginShell wanted={wanted} />,
    () => import('../public-app/public.css'),
  );
}
