/**
 * The certificate's validation lines under its statement: who validated (3.1, 3.2) or released (2.2) it, and
 * on a 3.2 the purchaser's or a third party's inspector who witnessed which tests.
 */
import { isInspectionCertificate } from '../../../../shared/contract/settings';
import { comma, enumerate, sentences } from '../../../../shared/i18n/punctuation';
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

/**
 * `runOn` (the compact certificate): consecutive muted lines run on as one paragraph of sentences. Not in the
 * bilingual rendering, where each line already holds both languages and running them on would interleave them.
 */
export function validationLines(m: Validated, opts: { runOn?: boolean } = {}): ValidationLine[] {
  const lines = [...manufacturerLines(m), ...witnessLines(m)];
  return opts.runOn && m.language !== 'bilingual' ? runOn(lines, m.language) : lines;
}

function runOn(lines: ValidationLine[], lang: Validated['language']): ValidationLine[] {
  const out: ValidationLine[] = [];
  for (const line of lines) {
    const last = out[out.length - 1];
    if (last && !last.strong && !line.strong) out[out.length - 1] = { text: sentences(lang, [last.text, line.text]), strong: false };
    else out.push(line);
  }
  return out;
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
