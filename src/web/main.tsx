/**
 * Entry: the public search page and the staff app are separate bundles. A visitor on /search (or on a
 * public host name, where every path is /search) never downloads the router or any staff screen.
 */
import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import { isPublicHost } from './app/guard';
import { initI18n, loadFullCatalogue } from './lib/i18n';

const container = document.getElementById('app')!;
const publicPage = isPublicHost(window.location.hostname) || window.location.pathname === '/search';

async function start(): Promise<void> {
  const [app] = await Promise.all([
    publicPage ? import('./public-app/main-public') : import('./app/main-app'),
    initI18n().then(() => (publicPage ? undefined : loadFullCatalogue())),
  ]);
  if ('mountPublic' in app) app.mountPublic(container);
  else app.mountApp(container);
}

void start();
