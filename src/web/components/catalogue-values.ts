/**
 * Product and serial-range values as the lists, the histories and the audit trail show them, in the
 * interface language: choices in words, units added, dates in the one date style.
 */
import type { TFunction } from 'i18next';
import { formatDay, formatNumber } from './format';
import { sizeText, standardName } from './standards/format';
import { labelled, semicolon } from '../../shared/i18n/punctuation';

/** `1.6 MPa`, `-10 °C`, or an em dash when not set. */
export function withUnit(language: string, n: number | null | undefined, unit: string): string {
  return n === null || n === undefined ? '—' : `${formatNumber(language, n)} ${unit}`;
}

export const PRESSURE_FIELDS = ['pressureFc', 'pressureWcb', 'pressureSus'] as const;
export const TEMPERATURE_FIELDS = ['temperatureMax', 'temperatureMin'] as const;

/** Choices stored as ids and shown in words: the field's catalogue key prefix. */
const CHOICES: Record<string, string> = {
  fluid: 'products.fluids',
  valveType: 'standards.valveTypes',
  seatType: 'standards.seatTypes',
  leakageRate: 'standards.leakageRates',
};

/** One product field's value as text (for the history): choices translated, units added. */
export function productValue(t: TFunction, language: string, field: string, value: unknown): string {
  if (field === 'testStandard' && (value === '' || value === null)) return t('standards.none');
  if (value === null || value === undefined || value === '') return '—';
  if (CHOICES[field] && typeof value === 'string') return t(`${CHOICES[field]}.${value}`, { defaultValue: value });
  if (field === 'testStandard' && typeof value === 'string') return standardName(value as Parameters<typeof standardName>[0]);
  if (field === 'nominalSize' && typeof value === 'number') return sizeText(value);
  if ((PRESSURE_FIELDS as readonly string[]).includes(field) && typeof value === 'number')
    return withUnit(language, value, t('products.units.mpa'));
  if ((TEMPERATURE_FIELDS as readonly string[]).includes(field) && typeof value === 'number')
    return withUnit(language, value, t('products.units.celsius'));
  if (typeof value === 'number') return formatNumber(language, value);
  if (field === 'parts' && typeof value === 'object') return byPart(t, language, value as Record<string, string>);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `{ body: "ASTM A216 WCB" }` as "Body: ASTM A216 WCB; …", each part named in the page's language. */
function byPart(t: TFunction, language: string, value: Record<string, string>): string {
  const entries = Object.entries(value);
  if (entries.length === 0) return '—';
  return entries
    .map(([part, what]) => labelled(language, t(`materials.parts.${part}`, { defaultValue: part }), what))
    .join(semicolon(language));
}

/** A range field's value as the history shows it. */

export function rangeValue(t: TFunction, language: string, field: string, value: unknown): string {
  if (field === 'bodyMaterial' && (value === null || value === '')) return t('standards.notStated');
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'bodyMaterial' && typeof value === 'string') return t(`standards.materials.${value}`, { defaultValue: value });
  if (field === 'totalUnits' && typeof value === 'number') return formatNumber(language, value, 0);
  if (field === 'productionDate' && typeof value === 'string') return formatDay(language, value);
  // The heats of the range's parts, `{ body: "H123 (ASTM A216 WCB)" }`, and an exceptions file's counts.
  if (field === 'heats' && typeof value === 'object') return byPart(t, language, value as Record<string, string>);
  if (field === 'unitHeats' && typeof value === 'object') return t('serials.history.unitHeats', value as Record<string, number>);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
