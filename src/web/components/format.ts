/**
 * Numbers and dates as lists, cards and histories show them, in the interface language: the one formatter
 * the web, the emails and the PDF share (src/shared/format/dates.ts), in the browser's time zone.
 */
import { formatDate as sharedDate, formatDateTime as sharedDateTime, formatDay, intlLocale } from '../../shared/format/dates';

export { formatDay, formatNumber, formatPercent, formatShortDay } from '../../shared/format/dates';

/** The Intl locale of an interface language. */
export function locale(language: string): string {
  return intlLocale(language);
}

export function formatDateTime(language: string, iso: string): string {
  return sharedDateTime(language, iso);
}

/** An instant's day in the browser's zone, or a `YYYY-MM-DD` day as written. */
export function formatDate(language: string, iso: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) ? formatDay(language, iso) : sharedDate(language, iso);
}
