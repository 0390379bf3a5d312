/** Numbers, dates and units in the report's language, one place for the PDF, the JSON and the HTML peer. */
import type { TestRequirementView } from '../../../shared/contract/machine-data';
import type { Verdict } from '../../../shared/standards/reasons';
import type { ReportLanguage } from '../../../shared/contract/reports';
import type { DocumentType } from '../../../shared/contract/settings';
import { translate } from '../../../shared/i18n/index';
import { namedLeakageUnit } from '../../../shared/standards/leakage-units';
import {
  formatDate as sharedDate,
  formatDateTime as sharedDateTime,
  formatDay as sharedDay,
  formatNumber as sharedNumber,
} from '../../../shared/format/dates';

/** PDF /Lang and the structure's language tags. */
export const PDF_LANG: Record<ReportLanguage, string> = { en: 'en-GB', zh: 'zh-Hant-TW' };

// Formatted numbers and instants by language and value, for every report of the process: a report formats
// a few dozen (pressures, holds, chart ticks, dates), most of them the same from report to report, and each
// goes through Intl. The texts depend only on these (the catalogues and formats are fixed for the process).
const FORMATTED_LIMIT = 10_000;
const formatted = new Map<string, Map<number, string>>();

function remembered(kind: string, value: number, make: () => string): string {
  let byValue = formatted.get(kind);
  if (!byValue) formatted.set(kind, (byValue = new Map()));
  let text = byValue.get(value);
  if (text === undefined) {
    text = make();
    if (byValue.size >= FORMATTED_LIMIT) byValue.clear();
    byValue.set(value, text);
  }
  return text;
}

// One style for the web, the emails and the PDF (src/shared/format/dates.ts). Reports are read anywhere:
// times are printed in UTC and say so, never in the server's zone.
export function formatNumber(lang: ReportLanguage, v: number, maxDecimals = 3): string {
  // (A Map does not tell -0 from 0, which Intl writes as "-0".)
  if (Object.is(v, -0)) return sharedNumber(lang, v, maxDecimals);
  return remembered(`${lang}n${maxDecimals}`, v, () => sharedNumber(lang, v, maxDecimals));
}

export function formatDate(lang: ReportLanguage, d: Date): string {
  // An invalid date (NaN) is formatted as it always was, not kept.
  const time = d.getTime();
  return Number.isNaN(time) ? sharedDate(lang, d, 'UTC') : remembered(`${lang}d`, time, () => sharedDate(lang, d, 'UTC'));
}

export function formatDateTime(lang: ReportLanguage, d: Date): string {
  const time = d.getTime();
  return Number.isNaN(time)
    ? `${sharedDateTime(lang, d, 'UTC')} UTC`
    : remembered(`${lang}t`, time, () => `${sharedDateTime(lang, d, 'UTC')} UTC`);
}

/** A `YYYY-MM-DD` calendar date (a production date) in the language, without shifting its day. */
export function formatDay(lang: ReportLanguage, ymd: string): string {
  return sharedDay(lang, ymd);
}

// Texts without parameters by language and key: the catalogues are fixed for the life of the process, and a
// report looks up a hundred labels (each a walk of the dotted key through the catalogue).
const plainTexts = new Map<string, string>();

// Texts with parameters by language and key, their `{{name}}` placeholders kept (translated once with
// parameters that give each placeholder back), filled in as `translate` fills them: one pass, each
// placeholder replaced by its parameter or nothing.
const templates = new Map<string, string>();
const PLACEHOLDERS = new Proxy({} as Record<string, unknown>, { get: (_target, name) => `{{${String(name)}}}` });

export function t(lang: ReportLanguage, key: string, params?: Record<string, unknown>): string {
  if (params) {
    const k = `${lang}\u0000${key}`;
    let template = templates.get(k);
    if (template === undefined) {
      template = translate(lang, `reports.${key}`, PLACEHOLDERS);
      templates.set(k, template);
    }
    return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
  }
  const k = `${lang}\u0000${key}`;
  let text = plainTexts.get(k);
  if (text === undefined) {
    text = translate(lang, `reports.${key}`);
    plainTexts.set(k, text);
  }
  return text;
}

/** A standard with its edition, worded as the staff screens word it (`standards.standardEdition`: "，" in zh). */
export function standardWithEdition(lang: ReportLanguage, standard: { name: string; edition: string }): string {
  return translate(lang, 'standards.standardEdition', { name: standard.name, edition: standard.edition });
}

export function mpa(lang: ReportLanguage, v: number | null): string {
  return v === null ? t(lang, 'value.none') : t(lang, 'value.mpa', { value: formatNumber(lang, v) });
}

export function seconds(lang: ReportLanguage, v: number): string {
  return t(lang, 'value.seconds', { value: formatNumber(lang, v, 1) });
}

/** The i18n key segment of a document type (its code holds a dot, which keys cannot). */
export function docKey(type: DocumentType): 'testReport' | 'inspectionCertificate' | 'inspectionCertificate32' {
  return type === 'inspection-certificate-3.1'
    ? 'inspectionCertificate'
    : type === 'inspection-certificate-3.2'
      ? 'inspectionCertificate32'
      : 'testReport';
}

/** What a test had to reach, as printed beside what it measured. */
/** A measured leakage's unit in the report's language when it is one the report names, else as the bench wrote it. */
export function unitText(lang: ReportLanguage, unit: string | null): string {
  const named = namedLeakageUnit(unit);
  return named ? t(lang, `unit.${named}`) : (unit ?? '');
}

export function requiredPressure(lang: ReportLanguage, r: TestRequirementView): string {
  if (r.unrated) return t(lang, 'required.unrated');
  if (r.pressureMin !== null && r.pressureMax !== null)
    return t(lang, 'required.band', { min: formatNumber(lang, r.pressureMin), max: formatNumber(lang, r.pressureMax) });
  if (r.pressureMin !== null) return t(lang, 'required.atLeast', { value: mpa(lang, r.pressureMin) });
  return t(lang, 'value.none');
}

/** How the required pressure follows from the rating: "1.5 × 1.96 MPa = 2.94 MPa, rounded up to 3 MPa (ASME B16.34)". */
export function pressureBasisText(lang: ReportLanguage, r: TestRequirementView): string | null {
  const b = r.pressureBasis;
  if (!b) return null;
  const values = { factor: formatNumber(lang, b.factor), rated: formatNumber(lang, b.rated), exact: formatNumber(lang, b.exact) };
  if (b.roundedBy === null || r.pressureMin === null || r.pressureMin === b.exact) return t(lang, 'required.basis', values);
  return t(lang, 'required.basisRounded', { ...values, rounded: formatNumber(lang, r.pressureMin) });
}

/** A minimum hold no available source confirms says so, rather than passing as the standard's figure. */
export function requiredHold(lang: ReportLanguage, r: TestRequirementView): string {
  if (r.holdMin <= 0) return t(lang, 'value.none');
  return t(lang, r.holdUnconfirmed ? 'required.atLeastUnconfirmed' : 'required.atLeast', { value: seconds(lang, r.holdMin) });
}

export function allowedLeakage(lang: ReportLanguage, r: TestRequirementView): string {
  if (r.leakageKind === 'none') return t(lang, 'required.noVisibleLeakage');
  if (r.leakageKind === 'any' || r.leakageMax === null) return t(lang, 'value.none');
  return t(lang, 'required.atMost', { value: `${formatNumber(lang, r.leakageMax, 3)} ${t(lang, `unit.${r.leakageKind}`)}` });
}

/** The line's verdict in a customer's words: conforms to the standard, does not, or judged by the bench alone. */
export function verdictText(lang: ReportLanguage, x: { verdict: Verdict; result: 'pass' | 'fail' }): string {
  if (x.verdict === 'not-assessed') return t(lang, `verdict.bench.${x.result}`);
  return t(lang, `verdict.${x.verdict === 'conforms' && x.result === 'pass' ? 'conforms' : 'nonconforming'}`);
}
