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

/** PDF /Lang and the structure's language tags (the bilingual rendering's is its first language's). */
export const PDF_LANG: Record<ReportLanguage, string> = { en: 'en-GB', zh: 'zh-Hant-TW', bilingual: 'zh-Hant-TW' };

/** A language the catalogues are written in: a rendering's own, or each of the bilingual rendering's two. */
export type TextLanguage = Exclude<ReportLanguage, 'bilingual'>;

/**
 * The language numbers, dates and a standard's edition are written in: the bilingual rendering writes each
 * value once, as the English rendering does (its labels carry both languages).
 */
export const valueLanguage = (lang: ReportLanguage): TextLanguage => (lang === 'bilingual' ? 'en' : lang);

/**
 * One text of the bilingual rendering: Chinese first, then English, as Taiwanese certificates print their
 * labels. A label stays on one line with both ("序號 Serial number"); a sentence puts its English under
 * its Chinese. The same text in both (a code, a unit) is written once.
 */
export function bothLanguages(zh: string, en: string): string {
  if (zh === en || !zh) return en;
  if (!en) return zh;
  const sentence = en.length > 40 || /[.:;!?]( |$)/.test(en);
  return sentence ? `${zh}\n${en}` : `${zh} ${en}`;
}

/** A text in the rendering's language, or in both for the bilingual rendering (a setting's, a product's). */
export function inLanguage(lang: ReportLanguage, text: (l: TextLanguage) => string): string {
  return lang === 'bilingual' ? bothLanguages(text('zh'), text('en')) : text(lang);
}

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
export function formatNumber(rendering: ReportLanguage, v: number, maxDecimals = 3): string {
  const lang = valueLanguage(rendering);
  // (A Map does not tell -0 from 0, which Intl writes as "-0".)
  if (Object.is(v, -0)) return sharedNumber(lang, v, maxDecimals);
  return remembered(`${lang}n${maxDecimals}`, v, () => sharedNumber(lang, v, maxDecimals));
}

export function formatDate(rendering: ReportLanguage, d: Date): string {
  const lang = valueLanguage(rendering);
  // An invalid date (NaN) is formatted as it always was, not kept.
  const time = d.getTime();
  return Number.isNaN(time) ? sharedDate(lang, d, 'UTC') : remembered(`${lang}d`, time, () => sharedDate(lang, d, 'UTC'));
}

export function formatDateTime(rendering: ReportLanguage, d: Date): string {
  const lang = valueLanguage(rendering);
  const time = d.getTime();
  return Number.isNaN(time)
    ? `${sharedDateTime(lang, d, 'UTC')} UTC`
    : remembered(`${lang}t`, time, () => `${sharedDateTime(lang, d, 'UTC')} UTC`);
}

/** A `YYYY-MM-DD` calendar date (a production date) in the language, without shifting its day. */
export function formatDay(lang: ReportLanguage, ymd: string): string {
  return sharedDay(valueLanguage(lang), ymd);
}

// Texts without parameters by language and key: the catalogues are fixed for the life of the process, and a
// report looks up a hundred labels (each a walk of the dotted key through the catalogue).
const plainTexts = new Map<string, string>();

// Texts with parameters by language and key, their `{{name}}` placeholders kept (translated once with
// parameters that give each placeholder back), filled in as `translate` fills them: one pass, each
// placeholder replaced by its parameter or nothing.
const templates = new Map<string, string>();
const PLACEHOLDERS = new Proxy({} as Record<string, unknown>, { get: (_target, name) => `{{${String(name)}}}` });

// The bilingual rendering prints labels, headings and statements in both languages, and values once, in
// English: a value put together from translated pieces (a pressure with its requirement, a unit, a bench's
// result) would otherwise carry each piece in both languages inside each language's sentence.
const VALUE_KEYS = /^(value|required|unit|result)\.(?!\w*Note$)/;

export function t(lang: ReportLanguage, key: string, params?: Record<string, unknown>): string {
  if (lang === 'bilingual') return VALUE_KEYS.test(key) ? t('en', key, params) : bothLanguages(t('zh', key, params), t('en', key, params));
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
  // A value: the bilingual rendering names it once (its edition was read in the value language).
  return translate(valueLanguage(lang), 'standards.standardEdition', { name: standard.name, edition: standard.edition });
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

/**
 * A minimum hold no available source confirms says so, rather than passing as the standard's figure: in words,
 * or `marked` with an asterisk that a note under the table explains (the compact certificate).
 */
export function requiredHold(lang: ReportLanguage, r: TestRequirementView, marked = false): string {
  if (r.holdMin <= 0) return t(lang, 'value.none');
  const key = !r.holdUnconfirmed ? 'required.atLeast' : marked ? 'required.atLeastMarked' : 'required.atLeastUnconfirmed';
  return t(lang, key, { value: seconds(lang, r.holdMin) });
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
