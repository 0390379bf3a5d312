/**
 * The certificate's validation lines under its statement: who validated (3.1, 3.2) or released (2.2) it, and
 * on a 3.2 the purchaser's or a third party's inspector who witnessed which tests.
 */
import { isInspectionCertificate } from '../../../../shared/contract/settings';
import { comma, enumerate } from '../../../../shared/i18n/punctuation';
import { formatDate, formatDateTime, t } from '../format';
import type { ReportModel, ReportOrder } from '../report-model';

export interface ValidationLine {
  text: string;
  /** the name itself, printed bold; the rest muted */
  strong: boolean;
}

type Validated = Pick<ReportModel, 'documentType' | 'inspectorName' | 'release' | 'language'> & {
  order?: Pick<ReportOrder, 'witness'> | null;
};

export function validationLines(m: Validated): ValidationLine[] {
  return [...manufacturerLines(m), ...witnessLines(m)];
}

function manufacturerLines(m: Validated): ValidationLine[] {
  const lang = m.language;
  if (!m.inspectorName) return [];
  // A 2.2 test report is the manufacturer's own statement: it names the person who released it.
  if (!isInspectionCertificate(m.documentType)) return [{ text: t(lang, 'releasedBy', { name: m.inspectorName }), strong: true }];
  if (!m.release) return [{ text: t(lang, 'validatedBy', { name: m.inspectorName }), strong: true }];
  const name = m.release.title ? `${m.inspectorName}${comma(lang)}${m.release.title}` : m.inspectorName;
  return [
    { text: t(lang, 'validatedBy', { name }), strong: true },
    { text: t(lang, 'rangeReleasedAt', { at: formatDateTime(lang, m.release.releasedAt) }), strong: false },
    ...(m.release.statement ? [{ text: m.release.statement, strong: false }] : []),
  ];
}

function witnessLines(m: Validated): ValidationLine[] {
  const w = m.order?.witness;
  if (m.documentType !== 'inspection-certificate-3.2' || !w) return [];
  const lang = m.language;
  const tests = enumerate(
    lang,
    w.tests.map((x) => t(lang, `test.${x}`)),
  );
  return [
    { text: t(lang, 'witnessedBy', { name: w.name, organisation: w.organisation }), strong: true },
    { text: t(lang, 'witnessedTests', { date: formatDate(lang, new Date(`${w.witnessedOn}T00:00:00Z`)), tests }), strong: false },
  ];
}
