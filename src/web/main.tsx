/**
 * Entry: the public search page and the staff app are separate bundles. A visitor on /search (or on a
 * public host name, where every path is /search) never downloads the router or any staff screen.
 */
import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import { isPublicHost } from './app/guard';
import { initI18n, loadFullCatalogue } from './lib/i18n';
import { dropPrerenderedStyles, looksLikeThePrerender } from './lib/prerender-look';

const container = document.getElementById('app')!;
const publicPage = isPublicHost(window.location.hostname) || window.location.pathname === '/search';

// Two separate import() statements: written as one conditional expression, Vite's build gave both
// branches one preload list (the staff app's), so /search fetched the router and the staff app too.
async function loadPublic(): Promise<void> {
  if (!looksLikeThePrerender()) dropPrerenderedStyles(container);
  const [app, language] = await Promise.all([import('./public-app/main-public'), initI18n()]);
  app.mountPublic(container, language);
}

async function loadStaff(): Promise<void> {
  // The prerendered /login is hydrated in the look it was drawn in; in another look the app draws afresh.
  const sameLook = looksLikeThePrerender();
  if (!sameLook) dropPrerenderedStyles(container);
  const started = initI18n().then(async (language) => {
    await loadFullCatalogue();
    return language;
  });
  const [app, language] = await Promise.all([import('./app/main-app'), started]);
  const hydrate = sameLook && language.prerendered && container.firstElementChild !== null;
  await app.mountApp(container, { wanted: language.wanted, hydrate });
}

void (publicPage ? loadPublic() : loadStaff());
