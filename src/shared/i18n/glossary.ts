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
  // 瓦斯 is fuel gas in Taiwan; the test medium and the product's fluid are 氣體.
  gas: ['瓦斯'],
  backseat: ['上密封'],
  airSeat: ['氣密封'],
  connection: ['接頭'],
  verificationCode: ['簡碼'],
};

/**
 * Mainland wordings and the Taiwan ones that replace them (substrings of any Chinese text). 保存 becomes
 * 儲存 where something is stored and 保留 where a period of keeping is meant (保留期限); mail is 寄送, as
 * everywhere else the catalogues speak of sending an email, and a bench's sending is 傳送. 聲明 stays in
 * 符合性聲明, the term of a certificate's declaration of conformity (EN ISO/IEC 17050), and 文件 stays
 * where a document (文件類型, 本文件) rather than a file is meant.
 */
export const MAINLAND_WORDINGS: readonly { word: string; use: string }[] = [
  { word: '保存', use: '儲存 / 保留' },
  { word: '發送', use: '寄送 / 傳送' },
  { word: '查看', use: '檢視' },
  { word: '前綴', use: '字首' },
  { word: '信息', use: '訊息' },
  { word: '用戶', use: '使用者' },
  { word: '默認', use: '預設' },
  { word: '聯繫', use: '聯絡' },
];

/** Where 聲明 may appear: only as the declaration of conformity. */
export const DECLARATION = '符合性聲明';
