/**
 * react-i18next over the shared catalogues: one i18next namespace whose top-level keys are the catalogue
 * files, so `t('errors.productNotFound')` reads the same key the server translates.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { catalogues, DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../../shared/i18n/index';
import { setApiLanguage } from './api';
import { readStored, writeStored } from './storage';

const LANGUAGE_KEY = 'language';

function initialLanguage(): Language {
  const stored = readStored(LANGUAGE_KEY);
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
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
  document.documentElement.lang = language;
  document.documentElement.dir = i18next.dir(language);
  loadFontFor(language);
  setApiLanguage(language);
}

const start = initialLanguage();
void i18next.use(initReactI18next).init({
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: catalogues[l] }])),
  lng: start,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
applyToDocument(start);
i18next.on('languageChanged', (lng) => {
  if (isLanguage(lng)) applyToDocument(lng);
});

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

/** Switch the interface language and remember it in this browser (the account keeps it too, see useSetLanguage). */
export async function changeLanguage(language: Language): Promise<void> {
  writeStored(LANGUAGE_KEY, language);
  if (i18next.language !== language) await i18next.changeLanguage(language);
}

export { i18next };
