/**
 * The public page's own translator: the page's strings (the namespaces below, English in this bundle,
 * Chinese fetched or carried by the prerendered page) and `t(key, { name })` with i18next's `{{name}}`,
 * `defaultValue` and `_one`/`_other` plurals. i18next (14 KB compressed) would be a seventh of the page's
 * JavaScript budget (docs/decisions/0026-public-page-without-mui.md); it arrives only with step 2.
 */
import { useSyncExternalStore } from 'react';
import { DEFAULT_LANGUAGE, type Language } from '../../../../shared/i18n/languages';
import { htmlLang } from '../../../../shared/i18n/negotiate';
import { setApiLanguage } from '../../../lib/api';
import { LANGUAGE_KEY, type Tree } from '../../../lib/language-start';
import { writeStored } from '../../../lib/storage';

/** The namespaces the public pages use, /search and /login (the prerender carries the same ones inline for zh). */
export const PUBLIC_NAMESPACES = ['app', 'pages', 'errors', 'validation', 'search', 'visitor', 'authScreens', 'form'] as const;

export type Translate = (key: string, options?: Record<string, unknown>) => string;

function byNamespace(modules: Record<string, { default: Tree }>): Tree {
  return Object.fromEntries(Object.entries(modules).map(([file, m]) => [file.replace(/^.*\/(\w+)\.json$/, '$1'), m.default]));
}

const trees: Partial<Record<Language, Tree>> = {
  en: byNamespace(
    import.meta.glob<{ default: Tree }>(['../../../../shared/i18n/en/{app,pages,errors,validation,search,visitor,authScreens,form}.json'], {
      eager: true,
    }),
  ),
};
let current: Language = DEFAULT_LANGUAGE;
const listeners = new Set<() => void>();

function lookup(tree: Tree | undefined, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

const pluralRules = new Map<Language, Intl.PluralRules>();

function pluralKey(language: Language, key: string, count: unknown): string[] {
  if (typeof count !== 'number') return [key];
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language === 'zh' ? 'zh-Hant' : 'en')));
  return [`${key}_${rules.select(count)}`, `${key}_other`, key];
}

/** One string: the language's, else English's, else `defaultValue`, else the key; `{{name}}` filled in. */
export function translate(language: Language, key: string, options: Record<string, unknown> = {}): string {
  let text: string | undefined;
  for (const tree of [trees[language], trees.en]) {
    for (const k of pluralKey(language, key, options.count)) if (text === undefined) text = lookup(tree, k);
  }
  text ??= typeof options.defaultValue === 'string' ? options.defaultValue : key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(options[name] ?? ''));
}

const translators = new Map<Language, Translate>();
function translatorOf(language: Language): Translate {
  let t = translators.get(language);
  if (!t) translators.set(language, (t = (key, options) => translate(language, key, options)));
  return t;
}

/** The strings of a language, when they came with the page (the prerendered zh page carries them). */
export function addStrings(language: Language, tree: Tree): void {
  trees[language] = { ...trees[language], ...tree };
}

export function publicStrings(language: Language): Tree | undefined {
  return trees[language];
}

export function currentLanguage(): Language {
  return current;
}

/** Sets the language the page is drawn in; in the browser, also `<html lang>` and the API's language. */
export function setLanguage(language: Language): void {
  current = language;
  if (typeof document !== 'undefined') {
    document.documentElement.lang = htmlLang(language);
    document.documentElement.dir = 'ltr';
    setApiLanguage(language);
    loadFontFor(language);
  }
  for (const listener of listeners) listener();
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

/** Shows the page in a language, fetching its strings first when they are not here (not remembered). */
export async function showLanguage(language: Language): Promise<void> {
  if (!trees[language]) addStrings(language, (await import('./public-catalogue-zh')).default);
  if (current !== language) setLanguage(language);
}

/** The language switch: shows the language and remembers it (cookie and localStorage) for the next visit. */
export async function chooseLanguage(language: Language): Promise<void> {
  writeStored(LANGUAGE_KEY, language);
  await showLanguage(language);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The translator of the current language; components using it redraw when the language changes. */
export function useT(): { t: Translate; language: Language } {
  const language = useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
  return { t: translatorOf(language), language };
}
