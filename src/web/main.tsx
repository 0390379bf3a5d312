/**
 * Entry: the public search page, the sign-in page and the staff app are separate bundles. A visitor on
 * /search (or on a public host name, where every path is /search) or on /login never downloads the router,
 * MUI, i18next or any staff screen (decisions 0006, 0026, 0074): this entry imports nothing of them.
 */
import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import { isPublicHost } from './app/guard';
import { submitsNativelyOnEnter } from './public-app/native-enter';
import { remembersEarlyTaps } from './lib/early-tap';

const container = document.getElementById('app')!;
const publicPage = isPublicHost(window.location.hostname) || window.location.pathname === '/search';
const loginPage = !publicPage && window.location.pathname === '/login';

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

async function loadLogin(): Promise<void> {
  // A tap on the language switch before the page starts is remembered, as on /search.
  remembersEarlyTaps(document);
  const app = await import('./login-app/main-login');
  await app.mountLogin(container);
}

async function loadStaff(): Promise<void> {
  // i18next comes with the staff app only (the public entry imports none of it, decision 0026).
  const started = import('./lib/i18n').then(async (i18n) => {
    await i18n.initI18n();
    await i18n.loadFullCatalogue();
  });
  const [app] = await Promise.all([import('./app/main-app'), started]);
  app.mountApp(container);
}

void (publicPage ? loadPublic() : loginPage ? loadLogin() : loadStaff());
