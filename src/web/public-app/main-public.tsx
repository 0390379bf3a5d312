/**
 * The public Test Report Center page on its own: no router, no query cache, no abilities, so that a
 * visitor's first load stays small (docs/product.md §7: under 150 KB of gzipped JavaScript). On a public host
 * name every path shows /search (guard rule 1); on the staff host /search is also a route of the staff app.
 */
import Box from '@mui/material/Box';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { isPublicHost } from '../app/guard';
import { ThemeProviders } from '../app/theme-providers';
// Imported, not lazy: this bundle exists only to show this page, and a lazy page would cost one more
// round trip before the first paint (562 ms on "Slow 4G"). Step 2, the preview and pdf.js stay lazy.
import SearchPage from '../features/public/pages/search-page';

function keepOnSearch(): void {
  if (isPublicHost(window.location.hostname) && window.location.pathname !== '/search') {
    window.history.replaceState(window.history.state, '', `/search${window.location.search}`);
  }
}

function PublicShell() {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    document.title = t('pages.search');
  }, [t, i18n.language]);
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <SearchPage />
    </Box>
  );
}

export function mountPublic(container: HTMLElement): void {
  keepOnSearch();
  window.addEventListener('popstate', keepOnSearch);
  createRoot(container).render(
    <StrictMode>
      <ThemeProviders>
        <PublicShell />
      </ThemeProviders>
    </StrictMode>,
  );
}
