/** How a unit's own values read on the certificate: a test's leakage and instrument, the ratings of its body material. */
import { formatDay, formatNumber, t, unitText } from '../format';
import type { ReportModel, ReportTest } from '../report-model';

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
