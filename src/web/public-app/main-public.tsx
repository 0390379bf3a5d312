/**
 * The public Test Report Center page on its own: no router, no query cache, no abilities, so that a
 * visitor's first load stays small (docs/product.md §7). On a public host name every path shows /search
 * (guard rule 1); on the staff host /search is also a route of the staff app.
 *
 * The server sends /search already drawn (prerendered at build time, scripts/vite-prerender.ts, in the
 * visitor's language): React hydrates that HTML instead of drawing it again, then switches to the
 * language the visitor wants when it is not the one the HTML was drawn in
 * (docs/decisions/0022-prerendered-first-screens.md).
 */
import Box from '@mui/material/Box';
import { StrictMode, useEffect, useRef, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../shared/i18n/index';
import { isPublicHost } from '../app/guard';
import { ThemeProviders } from '../app/theme-providers';
import { showLanguage, type StartedLanguage } from '../lib/i18n';
import { looksLikeThePrerender } from '../lib/prerender-look';
// Imported, not lazy: this bundle exists only to show this page, and a lazy page would cost one more
// round trip before the first paint (562 ms on "Slow 4G"). Step 2, the preview and pdf.js stay lazy.
import SearchPage from '../features/public/pages/search-page';

function keepOnSearch(): void {
  if (isPublicHost(window.location.hostname) && window.location.pathname !== '/search') {
    window.history.replaceState(window.history.state, '', `/search${window.location.search}`);
  }
}

/** The page's frame, also drawn at build time by the prerender (src/web/prerender/render.tsx). */
export function PublicFrame({ children }: { children: ReactNode }) {
  return <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>{children}</Box>;
}

function PublicShell({ wanted }: { wanted: Language }) {
  const { t, i18n } = useTranslation();
  const switched = useRef(false);
  useEffect(() => {
    document.title = t('pages.search');
  }, [t, i18n.language]);
  // After hydration, not during it: a language change while React adopts the HTML would make it redraw.
  useEffect(() => {
    // For tests and the web-page bench: React has taken over the prerendered page.
    document.documentElement.dataset.ready = 'true';
    if (switched.current) return;
    switched.current = true;
    if (i18n.language !== wanted) void showLanguage(wanted);
  }, [i18n, wanted]);
  return (
    <PublicFrame>
      <SearchPage />
    </PublicFrame>
  );
}

export function mountPublic(container: HTMLElement, language: StartedLanguage): void {
  keepOnSearch();
  window.addEventListener('popstate', keepOnSearch);
  const app = (
    <StrictMode>
      <ThemeProviders>
        <PublicShell wanted={language.wanted} />
      </ThemeProviders>
    </StrictMode>
  );
  if (language.prerendered && container.firstElementChild && looksLikeThePrerender()) hydrateRoot(container, app);
  else createRoot(container).render(app);
}
