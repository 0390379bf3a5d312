/** Numbers, dates and product values as the lists and histories show them, in the interface language. */
import type { TFunction } from 'i18next';

export function locale(language: string): string {
  return language === 'zh' ? 'zh-TW' : 'en';
}

export function formatNumber(language: string, n: number, maxDecimals = 3): string {
  return new Intl.NumberFormat(locale(language), { maximumFractionDigits: maxDecimals }).format(n);
}

/** `1.6 MPa`, `-10 °C`, or an em dash when not set. */
export function withUnit(language: string, n: number | null | undefined, unit: string): string {
  return n === null || n === undefined ? '—' : `${formatNumber(language, n)} ${unit}`;
}

export function formatDateTime(language: string, iso: string): string {
  return new Date(iso).toLocaleString(locale(language), { dateStyle: 'medium', timeStyle: 'short' });
}

export const PRESSURE_FIELDS = ['pressureFc', 'pressureWcb', 'pressureSus'] as const;
export const TEMPERATURE_FIELDS = ['temperatureMax', 'temperatureMin'] as const;

/** One product field's value as text (for the history): fluids translated, units added. */
export function productValue(t: TFunction, language: string, field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'fluid' && typeof value === 'string') return t(`products.fluids.${value}`, { defaultValue: value });
  if ((PRESSURE_FIELDS as readonly string[]).includes(field) && typeof value === 'number') return withUnit(language, value, t('products.units.mpa'));
  if ((TEMPERATURE_FIELDS as readonly string[]).includes(field) && typeof value === 'number') return withUnit(language, value, t('products.units.celsius'));
  if (typeof value === 'number') return formatNumber(language, value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
