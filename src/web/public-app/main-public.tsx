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
import { useEffect, useState } from 'react';
import type { Language } from '../../shared/i18n/languages';
import { isPublicHost } from '../app/guard';
// Imported, not lazy: this bundle exists only to show this page, and a lazy page would cost one more
// round trip before the first paint (562 ms on "Slow 4G"). Step 2, the preview and pdf.js stay lazy.
import SearchPage from '../features/public/pages/search-page';
import { PublicFrame } from './public-frame';
import { showLanguage } from '../features/public/lib/public-i18n';
import { startLook } from '../features/public/lib/public-look';
import { mountPlainPage, usePlainPageStart } from '../features/public/lib/plain-page';

function keepOnSearch(): void {
  if (isPublicHost(window.location.hostname) && window.location.pathname !== '/search') {
    window.history.replaceState(window.history.state, '', `/search${window.location.search}`);
  }
}

function PublicShell({ wanted }: { wanted: Language }) {
  usePlainPageStart({ wanted, title: 'pages.search', description: 'app.meta.search' });
  return (
    <PublicFrame>
      <SearchPage />
    </PublicFrame>
  );
}

export async function mountPublic(container: HTMLElement): Promise<void> {
  keepOnSearch();
  window.addEventListener('popstate', keepOnSearch);
  await mountPlainPage(container, (wanted) => <PublicShell wanted={wanted} />);
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
