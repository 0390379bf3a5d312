/** Numbers and dates as lists, cards and histories show them, in the interface language. */

/** The Intl locale of an interface language. */
export function locale(language: string): string {
  return language === 'zh' ? 'zh-TW' : 'en';
}

export function formatNumber(language: string, n: number, maxDecimals = 3): string {
  return new Intl.NumberFormat(locale(language), { maximumFractionDigits: maxDecimals }).format(n);
}

export function formatDateTime(language: string, iso: string): string {
  return new Date(iso).toLocaleString(locale(language), { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(language: string, iso: string): string {
  return new Date(iso).toLocaleDateString(locale(language));
}
