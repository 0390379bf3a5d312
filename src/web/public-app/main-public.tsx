/**
 * The public Test Report Center page on its own: no router, no query cache, no abilities, so that a
 * visitor's first load stays small (PRODUCT.md §7: under 150 KB of gzipped JavaScript). On a public host
 * name every path shows /search (guard rule 1); on the staff host /search is also a route of the staff app.
 */
import Box from '@mui/material/Box';
import { lazy, StrictMode, Suspense, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { isPublicHost } from '../app/guard';
import { ThemeProviders } from '../app/theme-providers';
import { LoadingBar } from '../lib/loading-bar';

const SearchPage = lazy(() => import('../features/search/pages/search-page'));

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
      <Suspense fallback={<LoadingBar loading />}>
        <SearchPage />
      </Suspense>
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
