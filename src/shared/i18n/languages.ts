/**
 * The two languages, apart from the catalogues (./index.ts imports every string of both): what the public
 * page's first load needs of them is these few lines (docs/decisions/0026-public-page-without-mui.md).
 */
export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
