/**
 * Punctuation of text that code puts together from translated pieces: Chinese text takes full-width marks
 * (，：；、 without a following space), English the ASCII ones with a space. Every surface that joins
 * catalogue texts in code (the PDF, emails, screens) goes through these, so that a Chinese sentence never
 * reads "軟密封閥座, 洩漏等級 A" (test/punctuation.test.ts).
 */
export type PunctuationLanguage = 'en' | 'zh' | (string & {});

const zh = (language: PunctuationLanguage) => language === 'zh' || language.startsWith('zh-');

/** ", " or "，": between the clauses of one statement. */
export const comma = (language: PunctuationLanguage) => (zh(language) ? '，' : ', ');
/** ": " or "：": after a label. */
export const colon = (language: PunctuationLanguage) => (zh(language) ? '：' : ': ');
/** "; " or "；": between items that are phrases themselves. */
export const semicolon = (language: PunctuationLanguage) => (zh(language) ? '；' : '; ');
/** ", " or "、": between the items of an enumeration. */
export const enumerationComma = (language: PunctuationLanguage) => (zh(language) ? '、' : ', ');

/** Items of an enumeration: "a, b, c" / "a、b、c". */
export function enumerate(language: PunctuationLanguage, items: readonly string[]): string {
  return items.join(enumerationComma(language));
}

/** A label and its value: "Code: ABC" / "驗證碼：ABC". */
export function labelled(language: PunctuationLanguage, label: string, value: string): string {
  return `${label}${colon(language)}${value}`;
}

/** Sentences run on as one paragraph, each ended ("." / "。") where its text did not end itself. */
export function sentences(language: PunctuationLanguage, texts: readonly string[]): string {
  const stop = zh(language) ? '。' : '.';
  const ended = texts.map((x) => (/[.!?。！？]$/.test(x) ? x : `${x}${stop}`));
  return ended.join(zh(language) ? '' : ' ');
}
