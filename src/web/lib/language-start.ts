/**
 * Which language a page starts in, without any i18n library: the staff app's i18next (src/web/lib/i18n.ts)
 * and the public page's own small translator (src/web/features/public/lib/public-i18n.ts) both start from it.
 */
import { isLanguage, type Language } from '../../shared/i18n/languages';
import { languageFromTags } from '../../shared/i18n/negotiate';
import { storageKey } from '../../shared/preferences';
import { readCookie, readStored, writeCookie } from './storage';

export type Tree = { [key: string]: string | Tree };

export const LANGUAGE_KEY = 'language';

/**
 * The language chosen on a page before (remembered), else the browser's (navigator.languages, as the
 * server reads Accept-Language). A choice kept only in localStorage is copied into the cookie, so that the
 * server serves the next page in it already.
 */
export function wantedLanguage(): Language {
  const stored = readStored(LANGUAGE_KEY);
  if (isLanguage(stored)) {
    if (readCookie(storageKey(LANGUAGE_KEY)) !== stored) writeCookie(storageKey(LANGUAGE_KEY), stored);
    return stored;
  }
  return languageFromTags(navigator.languages?.length ? navigator.languages : [navigator.language ?? '']);
}

/** What a prerendered page (scripts/vite-prerender.ts) says about itself: its language and, for zh, its strings. */
export interface PrerenderedPage {
  language: Language;
  catalogue?: Tree;
}

export const PRERENDERED_DATA_ID = 'trc-prerendered';

export function prerenderedPage(): PrerenderedPage | null {
  const el = document.getElementById(PRERENDERED_DATA_ID);
  if (!el?.textContent) return null;
  try {
    const data = JSON.parse(el.textContent) as PrerenderedPage;
    return isLanguage(data.language) ? data : null;
  } catch {
    return null;
  }
}
