/** The certificate's validation lines under its statement: who validated (3.1) or released (2.2) it. */
import { comma } from '../../../../shared/i18n/punctuation';
import { formatDateTime, t } from '../format';
import type { ReportModel } from '../report-model';

export interface ValidationLine {
  text: string;
  /** the name itself, printed bold; the rest muted */
  strong: boolean;
}

export function validationLines(m: Pick<ReportModel, 'documentType' | 'inspectorName' | 'release' | 'language'>): ValidationLine[] {
  const lang = m.language;
  if (!m.inspectorName) return [];
  // A 2.2 test report is the manufacturer's own statement: it names the person who released it.
  if (m.documentType !== 'inspection-certificate-3.1') return [{ text: t(lang, 'releasedBy', { name: m.inspectorName }), strong: true }];
  if (!m.release) return [{ text: t(lang, 'validatedBy', { name: m.inspectorName }), strong: true }];
  const name = m.release.title ? `${m.inspectorName}${comma(lang)}${m.release.title}` : m.inspectorName;
  return [
    { text: t(lang, 'validatedBy', { name }), strong: true },
    { text: t(lang, 'rangeReleasedAt', { at: formatDateTime(lang, m.release.releasedAt) }), strong: false },
    ...(m.release.statement ? [{ text: m.release.statement, strong: false }] : []),
  ];
}
