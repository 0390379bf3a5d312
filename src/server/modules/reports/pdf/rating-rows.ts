/** The product's ratings as the certificate prints them: its data, and the rating of the unit's body material. */
import { npsLabel } from '../../../../shared/standards/sizes';
import { comma } from '../../../../shared/i18n/punctuation';
import { formatNumber, mpa, t } from '../format';
import type { ReportModel } from '../report-model';
import { ratings } from './test-values';

export function ratingRows(m: ReportModel): Array<[string, string]> {
  const lang = m.language;
  const p = m.product;
  return [
    [t(lang, 'field.fluid'), t(lang, `fluid.${p.fluid}`)],
    ...(p.connection ? [[t(lang, 'field.connection'), p.connection] as [string, string]] : []),
    ...(p.application ? [[t(lang, 'field.application'), p.application] as [string, string]] : []),
    ...(p.applicationMedium ? [[t(lang, 'field.applicationMedium'), p.applicationMedium] as [string, string]] : []),
    ...(p.valveType ? [[t(lang, 'field.valveType'), t(lang, `valveType.${p.valveType}`)] as [string, string]] : []),
    ...(p.nominalSize ? [[t(lang, 'field.nominalSize'), `DN ${p.nominalSize} (${npsLabel(p.nominalSize)})`] as [string, string]] : []),
    ...(p.pressureClass ? [[t(lang, 'field.pressureClass'), p.pressureClass] as [string, string]] : []),
    ...(p.seatType
      ? [
          [
            t(lang, 'field.seatType'),
            `${t(lang, `seatType.${p.seatType}`)}${p.leakageRate && m.standard && m.standard.id !== 'api-598' ? `${comma(lang)}${t(lang, 'value.leakageRate', { rate: p.leakageRate })}` : ''}`,
          ] as [string, string],
        ]
      : []),
    ...(m.bodyMaterial ? [[t(lang, 'field.bodyMaterial'), t(lang, `material.${m.bodyMaterial}`)] as [string, string]] : []),
    // The unit's body material names its rating; a unit of unknown material prints every rating it may have.
    ...ratings(p, m.bodyMaterial).map(([key, v]) => [t(lang, `field.${key}`), mpa(lang, v)] as [string, string]),
    [
      t(lang, 'field.temperature'),
      t(lang, 'value.celsius', { min: formatNumber(lang, p.temperatureMin, 2), max: formatNumber(lang, p.temperatureMax, 2) }),
    ],
  ];
}
