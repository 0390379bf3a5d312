/**
 * The staff app (and its sign-in screens): router, guards, queries and abilities.
 *
 * /login arrives drawn at build time (scripts/vite-prerender.ts) in the visitor's language; the app hydrates
 * that HTML (hydrateRoot) instead of drawing it again, so its first paint is the page already on screen and
 * what was typed into the fields is kept (docs/decisions/0027-login-hydrated.md). Every other page, and
 * /login in a look other than the prerendered one, is drawn afresh.
 */
import '../lib/zod-jitless';
import { startTransition, StrictMode, useEffect, useRef, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import type { Language } from '../../shared/i18n/index';
import { currentLanguage, showLanguage } from '../lib/i18n';
import { StaticFrameContext } from '../lib/static-frame';
import { AppProviders } from './providers';
import { startRouter } from './router';

/** Runs `onStarted` once, after the first commit (after hydration on a prerendered page). */
function Started({ onStarted, children }: { onStarted: () => void; children: ReactNode }) {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    onStarted();
  }, [onStarted]);
  return children;
}

export interface MountOptions {
  /** the language the visitor wants; the page is first drawn in the prerendered HTML's */
  wanted: Language;
  /** the container holds the prerendered /login, in the look the app starts in */
  hydrate: boolean;
}

export async function mountApp(container: HTMLElement, { wanted, hydrate }: MountOptions): Promise<void> {
  const router = await startRouter(hydrate);
  const onStarted = () => {
    // After hydration, not during it: a change of language or page while React adopts the HTML would make it redraw.
    if (hydrate) void router.revalidate();
    if (currentLanguage() !== wanted) void showLanguage(wanted);
  };
  const app = (
    <StrictMode>
      <AppProviders>
        {/* as in the prerender (src/web/prerender/render.tsx): controls that need the app wait while it hydrates */}
        <StaticFrameContext.Provider value>
          <Started onStarted={onStarted}>
            <RouterProvider router={router} />
          </Started>
        </StaticFrameContext.Provider>
      </AppProviders>
    </StrictMode>
  );
  // As a transition, so that React yields to the browser every few milliseconds while it draws or adopts the
  // page: a phone's first render is many short tasks, not one that blocks input for half a second.
  startTransition(() => {
    if (hydrate) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}
