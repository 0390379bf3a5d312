/**
 * A requirement's figures as text in the interface language: test pressure ("≥ 2.94 MPa", "0.40–0.70 MPa"),
 * hold ("60 s"), allowed leakage ("No visible leakage", "≤ 12 drops/min"). The product form's live table and
 * a record's "Required vs measured" both print them, so a figure reads the same on both screens.
 */
import type { TFunction } from 'i18next';
import type { LeakageKind, PressureBasis } from '../../../shared/standards/requirement';
import { STANDARDS } from '../../../shared/standards/requirement';
import { npsLabel } from '../../../shared/standards/sizes';
import type { TestStandardId } from '../../../shared/standards/types';
import { formatNumber } from '../format';

/** Test pressures as engineers write them: at least two decimals, at most three. */
export function formatPressure(language: string, n: number): string {
  return formatNumber(language, n, 3, 2);
}

export function pressureRequirementText(
  t: TFunction,
  language: string,
  r: { pressureMin: number | null; pressureMax: number | null; unrated: boolean },
): string {
  if (r.unrated) return t('standards.pressure.unrated');
  const min = r.pressureMin === null ? null : formatPressure(language, r.pressureMin);
  const max = r.pressureMax === null ? null : formatPressure(language, r.pressureMax);
  if (min !== null && max !== null) return t('standards.pressure.band', { min, max });
  if (min !== null) return t('standards.pressure.min', { min });
  if (max !== null) return t('standards.pressure.max', { max });
  return t('standards.pressure.none');
}

/**
 * How a test pressure follows from the rating: "1.5 × 1.96 MPa = 2.94 MPa, rounded up to 3.0 MPa (ASME
 * B16.34)", or without the rounding where the standard keeps the bare product.
 */
export function pressureBasisText(t: TFunction, language: string, b: PressureBasis, required: number | null): string {
  const values = {
    factor: formatNumber(language, b.factor, 3),
    rated: formatNumber(language, b.rated, 3),
    exact: formatNumber(language, b.exact, 3),
  };
  if (b.roundedBy === null || required === null || required === b.exact) return t('standards.pressure.basis', values);
  const rounded = formatNumber(language, required, 3, 1);
  return t('standards.pressure.basisRounded', { ...values, rounded });
}

/** "60 s"; "60 s *" where no available source confirms the figure (the note under the table says so). */
export function holdText(t: TFunction, language: string, seconds: number, unconfirmed = false): string {
  const text = t('standards.hold', { value: formatNumber(language, seconds, 1) });
  return unconfirmed ? `${text} *` : text;
}

const LEAKAGE_KEY: Record<LeakageKind, string> = {
  none: 'standards.leakage.none',
  'drops/min': 'standards.leakage.drops',
  'bubbles/min': 'standards.leakage.bubbles',
  'mm3/s': 'standards.leakage.mm3',
  any: 'standards.leakage.any',
};

export function leakageRequirementText(t: TFunction, language: string, kind: LeakageKind, max: number | null): string {
  if (kind !== 'none' && kind !== 'any' && max === 0) return t('standards.leakage.none');
  return t(LEAKAGE_KEY[kind], { max: max === null ? '' : formatNumber(language, max, 3) });
}

/** "API 598", or the id when an unknown standard comes back. */
export function standardName(id: TestStandardId | '' | null | undefined): string {
  return id ? (STANDARDS[id]?.name ?? id) : '';
}

/** "DN 100 (NPS 4)". */
export function sizeText(dn: number): string {
  return `DN ${dn} (${npsLabel(dn)})`;
}
