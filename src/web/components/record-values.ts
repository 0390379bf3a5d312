/** A test record's values as text in the interface language: enums translated, units added. */
import type { TFunction } from 'i18next';
import type { TestRecord } from '../../shared/contract/machine-data';
import { namedLeakageUnit } from '../../shared/standards/leakage-units';
import { formatNumber } from './format';

export function mpa(t: TFunction, language: string, value: number): string {
  return `${formatNumber(language, value)} ${t('machineScreens.chart.mpa')}`;
}

export function seconds(t: TFunction, language: string, value: number): string {
  return `${formatNumber(language, value, 0)} ${t('machineScreens.chart.seconds')}`;
}

/** The measured leakage with its unit, named in the interface language when it is one the app names (滴/分). */
export function leakage(t: TFunction, language: string, r: Pick<TestRecord, 'leakageValue' | 'leakageUnit'>): string {
  if (r.leakageValue === null) return '—';
  const named = namedLeakageUnit(r.leakageUnit);
  const unit = named ? t(`standards.units.${named}`) : (r.leakageUnit ?? '');
  return `${formatNumber(language, r.leakageValue, 4)} ${unit}`.trim();
}

export function testTypeLabel(t: TFunction, value: string): string {
  return t(`machineScreens.testTypes.${value}`, { defaultValue: value });
}

export function mediumLabel(t: TFunction, value: string): string {
  return t(`machineScreens.media.${value}`, { defaultValue: value });
}

/**
 * Where a record came from: the bench's name when the bench sent it; for a staff upload, the bench it names
 * (or "CSV upload") and who entered it ("Hydro Bench 2 · entered by …"); "CSV upload" alone for uploads kept
 * before their uploader was recorded.
 */
export function originLabel(t: TFunction, r: Pick<TestRecord, 'machineName' | 'machineId' | 'upload'>): string {
  if (r.upload)
    return `${r.machineName ?? t('machineScreens.list.csvUpload')} · ${t('machineScreens.list.enteredBy', { name: r.upload.by })}`;
  return r.machineName ?? t('machineScreens.list.csvUpload');
}
