/**
 * The public Test Report Center page on its own: no router, no query cache, no abilities, no MUI and no
 * i18next, so that a visitor's first load stays small (docs/product.md §7, decision 0026). On a public host
 * name every path shows /search (guard rule 1); on the staff host /search is also a route of the staff app.
 *
 * The server sends /search already drawn (prerendered at build time, scripts/vite-prerender.ts, in the
 * visitor's language): React hydrates that HTML instead of drawing it again, then switches to the
 * language the visitor wants when it is not the one the HTML was drawn in
 * (docs/decisions/0022-prerendered-first-screens.md). The look (light, dark, bordered) is CSS only, so the
 * HTML is hydrated in any look.
 */
import { startTransition, StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { Language } from '../../shared/i18n/languages';
import { isPublicHost } from '../app/guard';
import { prerenderedPage, wantedLanguage } from '../lib/language-start';
// Imported, not lazy: this bundle exists only to show this page, and a lazy page would cost one more
// round trip before the first paint (562 ms on "Slow 4G"). Step 2, the preview and pdf.js stay lazy.
import SearchPage from '../features/public/pages/search-page';
import { PublicFrame } from './public-frame';
import { addStrings, setLanguage, showLanguage, useT } from '../features/public/lib/public-i18n';
import { startLook } from '../features/public/lib/public-look';
import { setMetaDescription } from '../lib/meta-description';

function keepOnSearch(): void {
  if (isPublicHost(window.location.hostname) && window.location.pathname !== '/search') {
    window.history.replaceState(window.history.state, '', `/search${window.location.search}`);
  }
}

function PublicShell({ wanted }: { wanted: Language }) {
  const { t, language } = useT();
  const switched = useRef(false);
  useEffect(() => {
    document.title = t('pages.search');
    setMetaDescription(t('app.meta.search'));
  }, [t, language]);
  // After hydration, not during it: a language change while React adopts the HTML would make it redraw.
  useEffect(() => {
    // For tests and the web-page bench: React has taken over the prerendered page.
    document.documentElement.dataset.ready = 'true';
    if (switched.current) return;
    switched.current = true;
    if (language !== wanted) void showLanguage(wanted);
  }, [language, wanted]);
  return (
    <PublicFrame>
      <SearchPage />
    </PublicFrame>
  );
}

export async function mountPublic(container: HTMLElement): Promise<void> {
  keepOnSearch();
  window.addEventListener('popstate', keepOnSearch);
  startLook();
  const wanted = wantedLanguage();
  const page = prerenderedPage();
  if (page?.catalogue) addStrings(page.language, page.catalogue);
  const start = page?.language ?? wanted;
  // Drawn afresh (no prerendered page): in the wanted language, once its strings are here.
  if (page) setLanguage(start);
  else await showLanguage(start);
  const app = (
    <StrictMode>
      <PublicShell wanted={wanted} />
    </StrictMode>
  );
  // A transition: React yields while it adopts or draws the page (see app/main-app.tsx).
  startTransition(() => {
    if (page && container.firstElementChild) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}

/**
 * The page as the staff app's /search route shows it (src/web/public-app/search-route.tsx loads this
 * module lazily): in the staff app's language, drawn by the page's own translator and look.
 */
export default function EmbeddedSearchPage({ language }: { language: Language }) {
  const [shown, setShown] = useState<Language | null>(null);
  useEffect(() => {
    startLook();
    void showLanguage(language).then(() => setShown(language));
  }, [language]);
  return shown ? (
    <PublicFrame>
      <SearchPage />
    </PublicFrame>
  ) : null;
}
