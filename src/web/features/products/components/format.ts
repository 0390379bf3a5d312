/** Product values as the list and the history show them, in the interface language. */
import type { TFunction } from 'i18next';
import { formatNumber } from '../../../components/format';

/** `1.6 MPa`, `-10 °C`, or an em dash when not set. */
export function withUnit(language: string, n: number | null | undefined, unit: string): string {
  return n === null || n === undefined ? '—' : `${formatNumber(language, n)} ${unit}`;
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
