/**
 * Which of our two languages a browser asks for, from its language tags (navigator.languages in the page,
 * Accept-Language on the server), so that both sides choose the same (docs/decisions/0022-prerendered-first-screens.md).
 * Any Chinese tag (zh, zh-TW, zh-HK, zh-Hant, and also zh-CN: Traditional reads better than English to a
 * reader of Simplified) is Chinese; the first tag we speak wins; nothing we speak is English.
 */
import { DEFAULT_LANGUAGE, type Language } from './languages';

/** The language of one tag, or undefined when it is neither of ours. */
function languageOfTag(tag: string): Language | undefined {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'zh') return 'zh';
  if (primary === 'en') return 'en';
  return undefined;
}

/** The first of the browser's tags, in its order of preference, that we speak; else English. */
export function languageFromTags(tags: readonly string[]): Language {
  for (const tag of tags) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}

const MAX_ACCEPT_LANGUAGE_ENTRIES = 32;

/** Accept-Language's tags ordered by their q-values (a stable sort: equal weights keep the header's order). */
export function acceptLanguageTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, MAX_ACCEPT_LANGUAGE_ENTRIES)
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((e) => e.tag !== '' && e.tag !== '*' && e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((e) => e.tag);
}

/** The language an Accept-Language header asks for. */
export function languageFromAcceptLanguage(header: string | undefined): Language {
  return languageFromTags(acceptLanguageTags(header));
}

/** The value of `<html lang>` for a language: Chinese is Traditional Chinese (fonts pick its glyphs by it). */
export function htmlLang(language: Language): string {
  return language === 'zh' ? 'zh-Hant' : 'en';
}

/** The cookie a language chosen on a page is remembered in (src/web/lib/storage.ts writes it as `<prefix>-language`). */
export const LANGUAGE_COOKIE = 'test-report-center-language';

/** The language to serve a page in: the remembered choice, else the browser's Accept-Language. */
export function pageLanguage(remembered: string | undefined, acceptLanguage: string | undefined): Language {
  if (remembered === 'en' || remembered === 'zh') return remembered;
  return languageFromAcceptLanguage(acceptLanguage);
}
