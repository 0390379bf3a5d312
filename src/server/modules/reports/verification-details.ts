/**
 * The verification page's facts and results of a report, read from the test-report.json embedded in the
 * stored PDF (what was issued, not today's data), and worded as the PDF words them (format.ts) in the
 * visitor's language. A file that cannot be read gives null: the page then shows the key facts alone.
 */
import { z } from 'zod';
import type { VerificationDetails } from '../../../shared/contract/reports';
import type { ReportLanguage } from '../../../shared/contract/reports';
import type { TestRequirementView } from '../../../shared/contract/machine-data';
import { embeddedFileBytes } from '../../lib/pdf-attachment';
import { STANDARDS } from '../../../shared/standards/requirement';
import { editionIn } from '../../../shared/standards/requirement-view';
import type { TestStandardId } from '../../../shared/standards/types';
import { allowedLeakage, formatNumber, mpa, requiredHold, requiredPressure, seconds, t, unitText, verdictText } from './format';

const num = z.number();
const text = z.string();
// What this page reads of test-report.json (docs: report-json.ts); anything else in it is left alone.
const storedStandard = z.object({ id: text.optional(), name: text, edition: text }).nullable().optional();
const storedTests = z.array(
  z.object({
    testType: text,
    medium: text,
    testPressureMPa: num,
    holdingSeconds: num,
    leakage: z.object({ value: num, unit: text }).nullable(),
    result: z.enum(['pass', 'fail']),
    verdict: z.enum(['conforms', 'nonconforming', 'not-assessed']).optional(),
    requirement: z
      .object({
        testPressureMPa: z.object({ min: num.nullable(), max: num.nullable() }),
        minHoldingSeconds: num,
        minHoldingSecondsConfirmed: z.boolean().optional(),
        allowedLeakage: z.union([z.object({ none: z.literal(true) }), z.object({ max: num.nullable(), unit: text }), z.null()]),
        requiredByStandard: z.boolean().optional(),
      })
      .nullable()
      .optional(),
    testedAt: text,
  }),
);
// Schema 2.0 keys (B03's standard, D51's tests) or 1.x keys (B02, D02) of reports issued before it.
const stored = z.object({
  B03_supplementaryRequirements: z.object({ testStandard: storedStandard }).optional(),
  B02_testStandard: storedStandard,
  B07_productIdentification: z.object({ productionDate: text.nullable().optional() }).optional(),
  D51_pressureTests: storedTests.optional(),
  D02_pressureTests: storedTests.optional(),
  Z01_statementOfCompliance: text.nullable().optional(),
  Z03_validation: z.object({ signedBy: text.nullable().optional(), inspectionRepresentative: text.nullable().optional() }).optional(),
});
type StoredRequirement = NonNullable<z.infer<typeof storedTests>[number]['requirement']>;

/**
 * The standard as the report names it, its edition in the visitor's language: a report issued in English
 * prints "10th edition, 2016", which a Chinese page words as the zh report does ("2016 年第 10 版"). Only an
 * edition the registry knows in either language is reworded; any other is shown as the report printed it.
 */
function standardIn(lang: ReportLanguage, s: { id?: string; name: string; edition: string }): { name: string; edition: string } {
  const known = s.id !== undefined && Object.hasOwn(STANDARDS, s.id) ? STANDARDS[s.id as TestStandardId] : undefined;
  const sameEdition = known && (known.edition === s.edition || known.editionZh === s.edition);
  return { name: s.name, edition: sameEdition ? editionIn(known, lang) : s.edition };
}

/** The stored requirement back as the view format.ts words. */
function view(r: StoredRequirement): TestRequirementView {
  const leak = r.allowedLeakage;
  return {
    standard: 'en-12266-1',
    standardName: '',
    edition: '',
    required: r.requiredByStandard ?? true,
    pressureMin: r.testPressureMPa.min,
    pressureMax: r.testPressureMPa.max,
    unrated: false,
    pressureBasis: null,
    holdMin: r.minHoldingSeconds,
    holdUnconfirmed: r.minHoldingSecondsConfirmed === false,
    leakageKind: leak === null ? 'any' : 'none' in leak ? 'none' : (leak.unit as TestRequirementView['leakageKind']),
    leakageMax: leak !== null && 'max' in leak ? leak.max : null,
  } as TestRequirementView;
}

export function verificationDetails(pdf: Buffer, lang: ReportLanguage): VerificationDetails | null {
  const bytes = embeddedFileBytes(pdf);
  if (!bytes) return null;
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  return detailsOfReportJson(json, lang);
}

/** The details of a parsed test-report.json, of schema 2.0 or 1.x; null when it is neither. */
export function detailsOfReportJson(json: unknown, lang: ReportLanguage): VerificationDetails | null {
  const parsed = stored.safeParse(json);
  if (!parsed.success) return null;
  const d = parsed.data;
  const tests = d.D51_pressureTests ?? d.D02_pressureTests;
  if (!tests) return null;
  const standard = d.B03_supplementaryRequirements ? d.B03_supplementaryRequirements.testStandard : d.B02_testStandard;
  return {
    signer: d.Z03_validation?.signedBy ?? null,
    inspector: d.Z03_validation?.inspectionRepresentative ?? null,
    standard: standard ? standardIn(lang, standard) : null,
    productionDate: d.B07_productIdentification?.productionDate ?? null,
    statement: d.Z01_statementOfCompliance ?? null,
    tests: tests.map((x) => {
      const verdict = x.verdict ?? 'not-assessed';
      const requirement = x.requirement ? view(x.requirement) : null;
      return {
        testType: x.testType,
        name: t(lang, `test.${x.testType}`),
        medium: t(lang, `medium.${x.medium}`),
        required: requirement
          ? {
              pressure: requiredPressure(lang, requirement),
              hold: requiredHold(lang, requirement),
              leakage: allowedLeakage(lang, requirement),
            }
          : null,
        measured: {
          pressure: mpa(lang, x.testPressureMPa),
          hold: seconds(lang, x.holdingSeconds),
          leakage: x.leakage ? `${formatNumber(lang, x.leakage.value, 3)} ${unitText(lang, x.leakage.unit)}`.trim() : t(lang, 'value.none'),
        },
        verdict,
        verdictText: verdictText(lang, { verdict, result: x.result }),
        testedAt: x.testedAt,
      };
    }),
  };
}
