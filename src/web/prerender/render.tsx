/**
 * The first screens drawn at build time (scripts/vite-prerender.ts runs this in Node through Vite): /search
 * and /login in each language, which the page's scripts then hydrate (docs/decisions/0022-prerendered-first-screens.md,
 * 0026, 0027-login-hydrated.md). /search is plain markup styled by public.css (decision 0026), which the prerender
 * writes into the page. /login must be what the app's first render draws: the staff app's router's tree
 * (src/web/app/router.tsx: RootShell, BlankLayout, LoginPage inside a StaticFrameContext), in the default
 * (light) theme, its emotion styles collected for the page's <head>.
 */
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import Box from '@mui/material/Box';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createInstance, type Resource } from 'i18next';
import type { ReactNode } from 'react';
// server.node, not server: the lint rule keeping the web app off src/server matches any path ending in /server.
import { renderToString } from 'react-dom/server.node';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { catalogues, type Language } from '../../shared/i18n/index';
import LoginPage from '../features/auth/pages/login-page';
import SearchPage from '../features/public/pages/search-page';
import { DEFAULT_PREFERENCES } from '../lib/preferences-model';
import { StaticFrameContext } from '../lib/static-frame';
import { createAppTheme } from '../lib/theme';
import { PublicFrame } from '../public-app/public-frame';
import type { Tree } from '../lib/language-start';
import { addStrings, PUBLIC_NAMESPACES, setLanguage, translate } from '../features/public/lib/public-i18n';

export type PrerenderedScreen = 'search' | 'login';

export interface PrerenderedHtml {
  /** the markup of the app's container */
  html: string;
  /** the emotion style names and their CSS, for `<style data-emotion="css names…">` (none for /search) */
  styleNames: string[];
  css: string;
  title: string;
  /** the page's meta description */
  description: string;
}

/** The namespaces the public page's bundle carries in English (public-i18n.ts): a zh page carries them inline. */
export function publicCatalogue(language: Language): Record<string, unknown> {
  const all = catalogues[language] as Record<string, unknown>;
  return Object.fromEntries(PUBLIC_NAMESPACES.filter((ns) => ns in all).map((ns) => [ns, all[ns]]));
}

function withProviders(language: Language, screen: ReactNode) {
  const i18n = createInstance();
  void i18n.use(initReactI18next).init({
    resources: Object.fromEntries(Object.entries(catalogues).map(([l, tree]) => [l, { translation: tree }])) as Resource,
    lng: language,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  const cache = createCache({ key: 'css' });
  // As @emotion/server does: styles are kept in cache.inserted instead of <style> elements in the markup.
  cache.compat = true;
  const theme = createAppTheme('light', DEFAULT_PREFERENCES.skin);
  const html = renderToString(
    <CacheProvider value={cache}>
      <I18nextProvider i18n={i18n}>
        <ThemeProvider theme={theme}>
          <CssBaseline enableColorScheme />
          {screen}
        </ThemeProvider>
      </I18nextProvider>
    </CacheProvider>,
  );
  const inserted = Object.entries(cache.inserted).filter((e): e is [string, string] => typeof e[1] === 'string');
  return { html, styleNames: inserted.map(([name]) => name), css: inserted.map(([, css]) => css).join(''), i18n };
}

export function renderScreen(screen: PrerenderedScreen, language: Language): PrerenderedHtml {
  if (screen === 'search') {
    addStrings(language, publicCatalogue(language) as Tree);
    setLanguage(language);
    const html = renderToString(
      <PublicFrame>
        <SearchPage />
      </PublicFrame>,
    );
    return {
      html,
      styleNames: [],
      css: '',
      title: translate(language, 'pages.search'),
      description: translate(language, 'app.meta.search'),
    };
  }
  const queries = new QueryClient();
  const out = withProviders(
    language,
    <QueryClientProvider client={queries}>
      <MemoryRouter initialEntries={['/login']}>
        {/* as RootShell (no loading bar while idle) and BlankLayout (src/web/app/layouts/blank-layout.tsx) */}
        <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
          <StaticFrameContext.Provider value>
            <LoginPage />
          </StaticFrameContext.Provider>
        </Box>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  queries.clear();
  return { ...out, title: out.i18n.t('pages.login'), description: out.i18n.t('app.meta.staff') };
}
