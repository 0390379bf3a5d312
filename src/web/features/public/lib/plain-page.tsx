/**
 * How a page drawn without MUI or i18next starts (/search, decision 0026; /login, decision 0074): in the
 * served HTML's language, which React hydrates, then in the language the visitor wants. Shared by the public
 * page's and the sign-in page's entries (src/web/public-app, src/web/login-app).
 */
import { startTransition, StrictMode, useEffect, useRef, type ReactElement } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { Language } from '../../../../shared/i18n/languages';
import { prerenderedPage, wantedLanguage } from '../../../lib/language-start';
import { setMetaDescription } from '../../../lib/meta-description';
import { addStrings, setLanguage, showLanguage, useT } from './public-i18n';
import { startLook } from './public-look';

/**
 * Draws `shell` into the container: hydrates the served HTML when the page came drawn, else draws it afresh in
 * the wanted language once its strings (and `fresh`, what a page drawn afresh needs besides) are here.
 */
export async function mountPlainPage(
  container: HTMLElement,
  shell: (wanted: Language) => ReactElement,
  fresh?: () => Promise<unknown>,
): Promise<void> {
  startLook();
  const wanted = wantedLanguage();
  const page = prerenderedPage();
  if (page?.catalogue) addStrings(page.language, page.catalogue);
  if (page) setLanguage(page.language);
  else await Promise.all([showLanguage(wanted), fresh?.()]);
  const app = <StrictMode>{shell(wanted)}</StrictMode>;
  // A transition: React yields while it adopts or draws the page (see app/main-app.tsx).
  startTransition(() => {
    if (page && container.firstElementChild) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}

/**
 * The page's title and description in its language; once React has taken the page over, `html[data-ready]`
 * (for tests and the web-page bench), the wanted language and `onStarted`, once.
 */
export function usePlainPageStart({
  wanted,
  title,
  description,
  onStarted,
}: {
  wanted: Language;
  title: string;
  description: string;
  onStarted?: () => void;
}): void {
  const { t, language } = useT();
  const started = useRef(false);
  useEffect(() => {
    document.title = t(title);
    setMetaDescription(t(description));
  }, [t, language, title, description]);
  // After hydration, not during it: a language change while React adopts the HTML would make it redraw.
  useEffect(() => {
    document.documentElement.dataset.ready = 'true';
    if (started.current) return;
    started.current = true;
    if (language !== wanted) void showLanguage(wanted);
    onStarted?.();
  }, [language, wanted]);
}
