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
  // The staff app draws afresh over the prerendered /login frame: in another look, not in the frame's styles.
  if (!looksLikeThePrerender()) dropPrerenderedStyles(container);
  const [app] = await Promise.all([import('./app/main-app'), initI18n().then(loadFullCatalogue)]);
  app.mountApp(container);
}

void (publicPage ? loadPublic() : loadStaff());
