/**
 * Entry: the public search page and the staff app are separate bundles. A visitor on /search (or on a
 * public host name, where every path is /search) never downloads the router, MUI, i18next or any staff
 * screen (decisions 0006, 0026): this entry imports nothing of them.
 */
import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import { isPublicHost } from './app/guard';
import { dropPrerenderedStyles, looksLikeThePrerender } from './lib/prerender-look';
import { submitsNativelyOnEnter } from './public-app/native-enter';
import { remembersEarlyTaps } from './lib/early-tap';

const container = document.getElementById('app')!;
const publicPage = isPublicHost(window.location.hostname) || window.location.pathname === '/search';

// Two separate import() statements: written as one conditional expression, Vite's build gave both
// branches one preload list (the staff app's), so /search fetched the router and the staff app too.
async function loadPublic(): Promise<void> {
  // Until the page is hydrated, Enter in the prerendered serial field submits its form natively,
  submitsNativelyOnEnter(document);
  // and a tap on one of its buttons is remembered and acted on once the page starts.
  remembersEarlyTaps(document);
  const app = await import('./public-app/main-public');
  await app.mountPublic(container);
}

async function loadStaff(): Promise<void> {
  // The prerendered /login is hydrated in the look it was drawn in; in another look the app draws afresh.
  const sameLook = looksLikeThePrerender();
  if (!sameLook) dropPrerenderedStyles(container);
  // i18next comes with the staff app only (the public entry imports none of it, decision 0026).
  const started = import('./lib/i18n').then(async (i18n) => {
    const language = await i18n.initI18n();
    await i18n.loadFullCatalogue();
    return language;
  });
  const [app, language] = await Promise.all([import('./app/main-app'), started]);
  const hydrate = sameLook && language.prerendered && container.firstElementChild !== null;
  await app.mountApp(container, { wanted: language.wanted, hydrate });
}

void (publicPage ? loadPublic() : loadStaff());
