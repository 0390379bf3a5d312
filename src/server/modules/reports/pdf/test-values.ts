/**
 * How a unit's own values read on the certificate: a test's leakage, instrument and conditions, the ratings of
 * its body material.
 */
import { formatDay, formatNumber, t, unitText } from '../format';
import type { ReportModel, ReportTest } from '../report-model';
import { semicolon } from '../../../../shared/i18n/punctuation';

export function leakageText(lang: ReportModel['language'], x: ReportTest): string {
  return x.leakageValue === null
    ? t(lang, 'value.noLeakage')
    : `${formatNumber(lang, x.leakageValue, 4)} ${unitText(lang, x.leakageUnit)}`.trim();
}

/** The instrument of a test and the calibration in force on its day. */
export function instrumentText(lang: ReportModel['language'], x: NonNullable<ReportTest['instrument']>): string {
  return x.calibration
    ? t(lang, 'value.instrument', { id: x.id, certificate: x.calibration.certificate, due: formatDay(lang, x.calibration.dueOn) })
    : t(lang, 'value.instrumentUncalibrated', { id: x.id });
}

/**
 * The test conditions the record states, as one line of a test's block: the fluid's temperature and the side
 * pressurised. None when the record states neither (records stored before they were asked for).
 */
export function conditionsRows(lang: ReportModel['language'], x: ReportTest): Array<[string, string]> {
  const { fluidTemperature, side } = x.conditions;
  if (fluidTemperature === null && side === null) return [];
  const parts = [
    fluidTemperature === null
      ? t(lang, 'value.temperatureNotStated')
      : t(lang, 'value.fluidTemperature', { value: formatNumber(lang, fluidTemperature, 1) }),
    side === null ? t(lang, 'value.sideNotStated') : t(lang, `value.side.${side}`),
  ];
  return [[t(lang, 'field.conditions'), parts.join(semicolon(lang))]];
}

/** The product's ratings the certificate prints: the unit's body material's only; every one when it is not known. */
export function ratings(
  p: ReportModel['product'],
  body: ReportModel['bodyMaterial'],
): Array<['pressureFc' | 'pressureWcb' | 'pressureSus', number]> {
  const all = [
    ['pressureFc', p.pressureFc, 'fc'],
    ['pressureWcb', p.pressureWcb, 'wcb'],
    ['pressureSus', p.pressureSus, 'sus'],
  ] as const;
  return all.filter(([, v, m]) => v !== null && (!body || body === m)).map(([k, v]) => [k, v!]);
}
