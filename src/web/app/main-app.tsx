/**
 * The staff app (and the screens around the sign-in: registration, forgotten and reset passwords): router,
 * guards, queries and abilities. The sign-in itself is a page of its own (src/web/login-app, decision 0074).
 */
import '../lib/zod-jitless';
import { startTransition, StrictMode, useEffect, useRef, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { takeSignInNotice } from '../lib/sign-in-notice';
import { notifySuccess } from '../lib/toast';
import { AppProviders } from './providers';
import { startRouter } from './router';

/** Runs `onStarted` once, after the first commit. */
function Started({ onStarted, children }: { onStarted: () => void; children: ReactNode }) {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    onStarted();
  }, [onStarted]);
  return children;
}

/** Draws the staff app; i18next has started in the visitor's language (lib/i18n.ts, initI18n). */
export function mountApp(container: HTMLElement): void {
  const router = startRouter();
  const onStarted = () => {
    // After a sign-in, which ends in a page load of the app (decision 0074).
    if (takeSignInNotice()) notifySuccess('auth.loginSuccess');
  };
  const app = (
    <StrictMode>
      <AppProviders>
        <Started onStarted={onStarted}>
          <RouterProvider router={router} />
        </Started>
      </AppProviders>
    </StrictMode>
  );
  // As a transition, so that React yields to the browser every few milliseconds while it draws the page: a
  // phone's first render is many short tasks, not one that blocks input for half a second.
  startTransition(() => createRoot(container).render(app));
}
