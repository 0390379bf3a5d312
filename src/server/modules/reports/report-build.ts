/**
 * The report's data from the unit, its records and the settings: the latest record of each test type with its
 * samples and checks, the judgement beside each, the order when a delivery's certificate is issued.
 */
import { inArray } from 'drizzle-orm';
import { verificationUrl, type ReportLanguage } from '../../../shared/contract/reports';
import { isInspectionCertificate, type DocumentType } from '../../../shared/contract/settings';
import { TEST_TYPES, type TestRequirementView } from '../../../shared/contract/machine-data';
import type { Executor } from '../../db/client';
import { machines, recordUploads } from '../../db/schema/index';
import { checkSamples } from '../../../shared/standards/sample-checks';
import { reasonsOf } from '../../../shared/standards/reasons';
import { deriveRequirement } from '../../../shared/standards/requirement';
import { editionIn, toRequirementView } from '../../../shared/standards/requirement-view';
import { decodeSamples } from '../machine-data/record-codec';
import { getLogo, textOr, type getSettingsWithRevision } from '../settings/settings.service';
import { judgedProduct } from '../standards/standards.service';
import { readRecords, type UnitData } from './report-data';
import { certificateRecords } from './closure-sides';
import type { ReportModel, ReportOrder, ReportTest } from './report-model';
import { isLocalAddress } from '../../../shared/public-address';
import { productName, productText } from '../../../shared/product-name';
import { instrumentsOnTests } from '../machines/instruments.service';
import type { RangeReleaseRow } from '../../db/schema/index';
import { validationOf } from './inspector-validation';
import { releaseStampImage } from '../staff/staff-stamp.service';
import { inLanguage, valueLanguage } from './format';

/** Findings for staff, e.g. { testType: 'shell', code: 'short-hold' }. */
export type ReportFlags = Array<{ testType: string; code: string }>;

export interface ModelContext {
  id: string;
  code: string;
  number: string;
  language: ReportLanguage;
  issuedAt: Date;
  baseUrl: string;
  /** the settings, with the document type the certificate is issued as (an order's, else the settings') */
  settings: Omit<Awaited<ReturnType<typeof getSettingsWithRevision>>['settings'], 'documentType'> & { documentType: DocumentType };
  certificateFingerprint: string;
  signerName: string;
  order: ReportOrder | null;
  /** the release of the unit's range (null: none); a 3.1 names its inspector (inspector-validation.ts) */
  release: RangeReleaseRow | null;
}

/**
 * The report's data: the latest record of each test type with its samples and checks — and, for a
 * bidirectional valve, its closure test on each side (closure-sides.ts).
 */
export async function buildModel(db: Executor, unit: UnitData, c: ModelContext): Promise<{ model: ReportModel; flags: ReportFlags }> {
  const printed = certificateRecords(unit.heads, unit.product.bidirectional, TEST_TYPES);
  const earlierTests = new Map(printed.map((p) => [p.record.id, p.earlierTests]));
  const byId = new Map((await readRecords(db, [...earlierTests.keys()])).map((r) => [r.id, r]));
  const rows = printed.flatMap((p) => byId.get(p.record.id) ?? []);
  const machineIds = [...new Set(rows.map((r) => r.machineId).filter((v): v is string => !!v))];
  const names = new Map(
    machineIds.length
      ? (await db.select({ id: machines.id, name: machines.name }).from(machines).where(inArray(machines.id, machineIds))).map((m) => [
          m.id,
          m.name,
        ])
      : [],
  );
  // Records a staff member entered (a CSV upload) say so on the certificate: who, from which file.
  const uploadIds = [...new Set(rows.map((r) => r.uploadId).filter((v): v is string => !!v))];
  const uploads = new Map(
    uploadIds.length
      ? (
          await db
            .select({ id: recordUploads.id, by: recordUploads.userLabel, file: recordUploads.fileName })
            .from(recordUploads)
            .where(inArray(recordUploads.id, uploadIds))
        ).map((u) => [u.id, u])
      : [],
  );
  const flags: ReportFlags = [];
  // Each test by the edition in force for the product on its day (the one the product names, if any).
  const product = judgedProduct(unit.product);
  const requirementOf = (testType: string, testedAt: Date): TestRequirementView | null => {
    const judged = deriveRequirement(product, unit.range.bodyMaterial, testedAt);
    const req = judged?.tests.find((x) => x.testType === testType);
    return judged && req ? toRequirementView(judged.standard, req, valueLanguage(c.language)) : null;
  };
  // The certificate's standard line: the edition its latest test was judged by.
  const latestTest = rows.reduce<Date | null>((at, r) => (at === null || r.testedAt > at ? r.testedAt : at), null);
  const judged = deriveRequirement(product, unit.range.bodyMaterial, latestTest);
  const instruments = await instrumentsOnTests(db, rows);
  const tests: ReportTest[] = rows.map((r, index) => {
    const instrument = instruments[index];
    const samples = decodeSamples(r.samples);
    const testPressure = Number(r.testPressure);
    const checks = checkSamples(samples, testPressure, r.holdingSeconds);
    const shortHold = r.result === 'pass' && !!checks && !checks.holdMet;
    if (shortHold) flags.push({ testType: r.testType, code: 'short-hold' });
    return {
      recordId: r.recordId,
      testType: r.testType,
      medium: r.medium,
      testPressure,
      holdingSeconds: r.holdingSeconds,
      leakageValue: r.leakageValue === null ? null : Number(r.leakageValue),
      leakageUnit: r.leakageUnit,
      result: r.result,
      testedAt: r.testedAt,
      bench: r.machineId ? (names.get(r.machineId) ?? null) : null,
      enteredBy: r.uploadId && uploads.has(r.uploadId) ? { name: uploads.get(r.uploadId)!.by, file: uploads.get(r.uploadId)!.file } : null,
      operator: r.operator,
      instrument: instrument ? { id: instrument.instrumentId, calibration: instrument.calibration } : null,
      conditions: { fluidTemperature: r.fluidTemperature === null ? null : Number(r.fluidTemperature), side: r.side },
      earlierTests: earlierTests.get(r.id) ?? 0,
      samples,
      checks,
      shortHold,
      verdict: r.verdict,
      reasons: reasonsOf(r.reasons),
      requirement: r.verdict === 'not-assessed' ? null : requirementOf(r.testType, r.testedAt),
    };
  });
  const s = c.settings;
  const lang = c.language;
  const logo = s.logo ? await getLogo(db) : null;
  // The stamp the inspector released the range with, read only for a certificate that names them
  // (inspector-validation.ts).
  const stamp =
    isInspectionCertificate(s.documentType) && c.release?.source === 'inspector' && c.release.stampSha256
      ? await releaseStampImage(db, c.release.stampSha256)
      : null;
  const p = unit.product;
  const num = (v: string | null) => (v === null ? null : Number(v));
  const model: ReportModel = {
    id: c.id,
    code: c.code,
    number: c.number,
    language: lang,
    documentType: s.documentType,
    issuedAt: c.issuedAt,
    verifyUrl: verificationUrl(c.baseUrl, c.id),
    verifyPage: `${c.baseUrl}/search`,
    verifyLocal: isLocalAddress(c.baseUrl),
    company: {
      name: s.companyName,
      address: s.companyAddress,
      postcode: s.companyPostcode,
      city: s.companyCity,
      country: s.companyCountry,
      logo: logo?.logo ?? null,
    },
    statement: inLanguage(lang, (l) => textOr(l === 'zh' ? s.statementZh : s.statementEn, l, 'reports.defaultStatement')),
    // The footer is one line: the bilingual rendering's runs its two texts on.
    footer: lang === 'bilingual' ? [s.footerZh, s.footerEn].filter(Boolean).join(' · ') : lang === 'zh' ? s.footerZh : s.footerEn,
    ...validationOf(s, c.release, lang, stamp),
    serial: unit.serial,
    product: {
      name: inLanguage(lang, (l) => productName(p, l)),
      fluid: p.fluid,
      connection: inLanguage(lang, (l) => productText(p, 'connection', l)),
      application: inLanguage(lang, (l) => productText(p, 'application', l)),
      applicationMedium: inLanguage(lang, (l) => productText(p, 'applicationMedium', l)),
      pressureFc: num(p.pressureFc),
      pressureWcb: num(p.pressureWcb),
      pressureSus: num(p.pressureSus),
      temperatureMin: Number(p.temperatureMin),
      temperatureMax: Number(p.temperatureMax),
      valveType: p.valveType,
      nominalSize: p.nominalSize,
      pressureClass: p.pressureClass,
      seatType: p.seatType,
      leakageRate: p.leakageRate,
    },
    standard: judged
      ? { id: judged.standard.id, name: judged.standard.name, edition: editionIn(judged.standard, valueLanguage(lang)) }
      : null,
    bodyMaterial: judged?.material ?? unit.range.bodyMaterial,
    ratedPressure: judged?.ratedPressure ?? null,
    productionDate: unit.range.productionDate,
    range: { start: unit.range.startSerial, end: unit.range.endSerial },
    tests,
    materials: unit.trace.parts.map((x) => ({
      part: x.part,
      material: x.material,
      heat: x.heat
        ? {
            number: x.heat.number,
            material: x.heat.material,
            certificateNumber: x.heat.certificateNumber,
            certificateType: x.heat.certificateType,
          }
        : null,
    })),
    order: c.order,
    certificateFingerprint: c.certificateFingerprint,
    signerName: c.signerName,
  };
  return { model, flags };
}
