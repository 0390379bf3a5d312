/** How a test's own values read on the certificate: its leakage and its instrument. */
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
