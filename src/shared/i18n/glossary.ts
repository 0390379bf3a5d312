/**
 * The glossary: one term, one translation. The terms themselves are the `terms` namespace
 * (src/shared/i18n/<lang>/terms.json) that screens use directly where they name a term on its own (the audit
 * trail's values, chart axes). Every other catalogue text that says the same thing in English must say it
 * the same way in Chinese, and the variants below must not appear at all: test/glossary.test.ts checks both
 * over every catalogue the screens, emails and PDF read (docs/decisions/0024-polish-dates-vocabulary-sorting.md).
 */
import type enTerms from './en/terms.json';

export type Term = keyof typeof enTerms;

/** Other English texts that mean the term (compared ignoring case). */
export const ENGLISH_SYNONYMS: Partial<Record<Term, readonly string[]>> = {
  testBench: ['Bench'],
  testBenches: ['Benches'],
  serialRange: ['Serial range'],
  product: ['Product'],
};

/** Chinese wordings that were used for a term and must not come back (substrings). */
export const CHINESE_VARIANTS: Partial<Record<Term, readonly string[]>> = {
  testBench: ['測試台'],
  yield: ['良率'],
  firstPassYield: ['一次良率'],
  finalYield: ['最終良率'],
  email: ['電郵'],
  testRecord: ['測試記錄'],
};
