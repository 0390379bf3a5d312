/** A range field's value as the history shows it. */
import type { TFunction } from 'i18next';
import { formatNumber } from '../../../components/format';

export function rangeValue(t: TFunction, language: string, field: string, value: unknown): string {
  if (field === 'bodyMaterial' && (value === null || value === '')) return t('standards.notStated');
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'bodyMaterial' && typeof value === 'string') return t(`standards.materials.${value}`, { defaultValue: value });
  if (field === 'totalUnits' && typeof value === 'number') return formatNumber(language, value, 0);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
