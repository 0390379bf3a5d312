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

const container = document.getElementById('app')!;
const publicPage = isPublicHost(window.location.hostname) || window.location.pathname === '/search';

// Two separate import() statements: written as one conditional expression, Vite's build gave both
// branches one preload list (the staff app's), so /search fetched the router and the staff app too.
async function loadPublic(): Promise<void> {
  // Until the page is hydrated, Enter in the prerendered serial field submits its form natively.
  submitsNativelyOnEnter(document);
  const app = await import('./public-app/main-public');
  await app.mountPublic(container);
}

async function loadStaff(): Promise<void> {
  // The staff app draws afresh over the prerendered /login frame: in another look, not in the frame's styles.
  if (!looksLikeThePrerender()) dropPrerenderedStyles(container);
  const [app] = await Promise.all([
    import('./app/main-app'),
    import('./lib/i18n').then((i18n) => i18n.initI18n().then(i18n.loadFullCatalogue)),
  ]);
  app.mountApp(container);
}

void (publicPage ? loadPublic() : loadStaff());
