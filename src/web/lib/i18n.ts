/**
 * react-i18next over the shared catalogues (src/shared/i18n/<lang>/<namespace>.json): one i18next
 * namespace whose top-level keys are the catalogue files, so `t('errors.productNotFound')` reads the same
 * key the server translates. English is in the bundle; Chinese is fetched when it is first needed.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../../shared/i18n/index';
import { htmlLang } from '../../shared/i18n/negotiate';
import { setApiLanguage } from './api';
import { LANGUAGE_KEY, wantedLanguage, type Tree } from './language-start';
import { writeStored } from './storage';

function byNamespace(modules: Record<string, { default: Tree }>): Tree {
  return Object.fromEntries(Object.entries(modules).map(([file, m]) => [file.replace(/^.*\/(\w+)\.json$/, '$1'), m.default]));
}

// What every page needs (and the public page's own `search`/`public` namespaces, when they exist) is in
// the first bundle; the staff app fetches the rest of English before it
// starts (see loadFullCatalogue), so the public page does not carry the staff screens' strings.
const englishCore = byNamespace(
  import.meta.glob<{ default: Tree }>(['../../shared/i18n/en/{app,pages,errors,validation,search,public,visitor}.json'], { eager: true }),
);
const catalogues: Record<Language, () => Promise<Tree>> = {
  en: () => import('./catalogue-en').then((m) => m.default),
  zh: () => import('./catalogue-zh').then((m) => m.default),
};
let fullCatalogue = false;

const loaded = new Set<Language>();

/**
 * i18next's addResourceBundle with its sixth argument, which its types leave out (i18next.js passes every
 * argument on to the store's method, whose options take `skipCopy`).
 */
type AddBundle = (lng: string, ns: string, resources: Tree, deep: boolean, overwrite: boolean, options: { skipCopy: boolean }) => unknown;
function addWholeBundle(language: Language, catalogue: Tree): void {
  (i18next.addResourceBundle as unknown as AddBundle).call(i18next, language, 'translation', catalogue, false, true, { skipCopy: true });
}

async function ensureCatalogue(language: Language): Promise<void> {
  if (loaded.has(language) || (language === 'en' && !fullCatalogue)) return;
  // Whole namespaces replace what the first bundle or the prerendered page gave (the catalogue holds every
  // namespace of its language in full), without i18next's default deep copy and deep merge of ~100 kB of
  // strings: on a phone that was a tenth of a second inside the task that starts the staff app.
  addWholeBundle(language, await catalogues[language]());
  loaded.add(language);
}

/** Every namespace of English (the fallback) and of the current language: the staff app calls this before it starts. */
export async function loadFullCatalogue(): Promise<void> {
  fullCatalogue = true;
  await Promise.all([ensureCatalogue('en'), ensureCatalogue(currentLanguage())]);
}

let notoLoaded: Promise<unknown> | undefined;

/** Noto Sans TC is only fetched for Chinese (its subsets are large; English never needs them). */
function loadFontFor(language: Language): void {
  if (language === 'zh' && !notoLoaded) {
    notoLoaded = Promise.all([
      import('@fontsource/noto-sans-tc/400.css'),
      import('@fontsource/noto-sans-tc/500.css'),
      import('@fontsource/noto-sans-tc/700.css'),
    ]);
  }
}

function applyToDocument(language: Language): void {
  document.documentElement.lang = htmlLang(language);
  document.documentElement.dir = i18next.dir(language);
  loadFontFor(language);
  setApiLanguage(language);
}

/**
 * Starts i18next (fallback en) in the wanted language once its catalogue is there. The staff app is never
 * started on a prerendered page: those (/search, /login) have their own bundles (decisions 0026, 0074).
 */
export async function initI18n(): Promise<Language> {
  const wanted = wantedLanguage();
  await i18next.use(initReactI18next).init({
    showSupportNotice: false,
    resources: { en: { translation: englishCore } },
    lng: 'en',
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  i18next.on('languageChanged', (lng) => {
    if (isLanguage(lng)) applyToDocument(lng);
  });
  applyToDocument('en');
  if (wanted !== 'en') {
    await ensureCatalogue(wanted);
    await i18next.changeLanguage(wanted);
  }
  return wanted;
}

/** Shows the page in a language without remembering it as a choice (the browser's, after hydration). */
export async function showLanguage(language: Language): Promise<void> {
  await ensureCatalogue(language);
  if (i18next.language !== language) await i18next.changeLanguage(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

/** Switch the interface language and remember it in this browser. */
export async function changeLanguage(language: Language): Promise<void> {
  writeStored(LANGUAGE_KEY, language);
  await showLanguage(language);
}

export { i18next };
