/**
 * The first screens drawn at build time (scripts/vite-prerender.ts runs this in Node through Vite): /search
 * and /login in each language, which the pages' scripts then hydrate (docs/decisions/0022-prerendered-first-screens.md,
 * 0026, 0074). Both are plain markup styled by public.css, which the prerender writes into the page, drawn by
 * the public pages' own translator: /search by the public page (src/web/public-app), /login by the sign-in
 * page (src/web/login-app).
 */
import type { ReactNode } from 'react';
// server.node, not server: the lint rule keeping the web app off src/server matches any path ending in /server.
import { renderToString } from 'react-dom/server.node';
import { catalogues, type Language } from '../../shared/i18n/index';
import SearchPage from '../features/public/pages/search-page';
import { LoginScreen } from '../login-app/login-screen';
import { PublicFrame } from '../public-app/public-frame';
import type { Tree } from '../lib/language-start';
import { addStrings, PUBLIC_NAMESPACES, setLanguage, translate } from '../features/public/lib/public-i18n';

export type PrerenderedScreen = 'search' | 'login';

export interface PrerenderedHtml {
  /** the markup of the app's container */
  html: string;
  /** its stylesheet (the build's public.css, which scripts/vite-prerender.ts fills in) */
  css: string;
  title: string;
  /** the page's meta description */
  description: string;
}

/** The namespaces the public pages' bundles carry in English (public-i18n.ts): a zh page carries them inline. */
export function publicCatalogue(language: Language): Record<string, unknown> {
  const all = catalogues[language] as Record<string, unknown>;
  return Object.fromEntries(PUBLIC_NAMESPACES.filter((ns) => ns in all).map((ns) => [ns, all[ns]]));
}

export function renderScreen(screen: PrerenderedScreen, language: Language): PrerenderedHtml {
  addStrings(language, publicCatalogue(language) as Tree);
  setLanguage(language);
  const page: Record<PrerenderedScreen, { content: ReactNode; title: string; description: string }> = {
    search: { content: <SearchPage />, title: 'pages.search', description: 'app.meta.search' },
    // As the sign-in page's script draws it before it runs (ready: false, the button waits for it).
    login: { content: <LoginScreen ready={false} needsFirstAdmin={false} />, title: 'pages.login', description: 'app.meta.staff' },
  };
  const { content, title, description } = page[screen];
  return {
    html: renderToString(<PublicFrame>{content}</PublicFrame>),
    css: '',
    title: translate(language, title),
    description: translate(language, description),
  };
}
