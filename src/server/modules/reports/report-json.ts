/**
 * The embedded test-report.json: the report's data for a customer's system to import without reading the
 * page. Keys carry the EN 10168 field code beside a readable name (A02 document type, A03 document number,
 * B07 product identification, Z01 statement of compliance, Z02 date of issue, …); the pressure tests have
 * no code of their own in EN 10168 and go under the "other tests" group (D02). Samples are included whole.
 */
import { REPORT_JSON_SCHEMA_VERSION } from '../../../shared/contract/reports';
import { docKey, t } from './format';
import type { ReportModel } from './report-model';

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

export function reportJson(m: ReportModel): Record<string, unknown> {
  return {
    schema: 'test-report-center/test-report',
    schemaVersion: REPORT_JSON_SCHEMA_VERSION,
    language: m.language,
    A01_manufacturer: { name: m.company.name, address: m.company.address },
    A02_documentType: {
      standard: 'EN 10204',
      type: m.documentType === 'inspection-certificate-3.1' ? '3.1' : '2.2',
      title: t(m.language, `documentType.${docKey(m.documentType)}`),
    },
    A03_documentNumber: m.number,
    A04_manufacturerMark: m.company.name,
    A05_inspectionRepresentative: m.documentType === 'inspection-certificate-3.1' ? m.inspectorName : null,
    B01_product: {
      name: m.product.name,
      fluid: m.product.fluid,
      connection: m.product.connection,
      application: m.product.application,
      applicationMedium: m.product.applicationMedium,
      pressureRatingsMPa: { FC: m.product.pressureFc, WCB: m.product.pressureWcb, SUS: m.product.pressureSus },
      temperatureRangeC: { min: m.product.temperatureMin, max: m.product.temperatureMax },
    },
    B02_testStandard: m.standard ? { id: m.standard.id, name: m.standard.name, edition: m.standard.edition } : null,
    B03_valve: {
      type: m.product.valveType,
      nominalSizeDN: m.product.nominalSize,
      pressureClass: m.product.pressureClass || null,
      seat: m.product.seatType,
      leakageRate: m.product.leakageRate,
      bodyMaterial: m.bodyMaterial,
      ratedPressureMPa: m.ratedPressure,
    },
    B07_productIdentification: { serial: m.serial, serialRange: m.range, productionDate: m.productionDate },
    B08_quantity: 1,
    D02_pressureTests: m.tests.map((x) => ({
      recordId: x.recordId,
      testType: x.testType,
      medium: x.medium,
      testPressureMPa: x.testPressure,
      holdingSeconds: x.holdingSeconds,
      leakage: x.leakageValue === null ? null : { value: x.leakageValue, unit: x.leakageUnit },
      result: x.result,
      // The product's judgement against B02 (not-assessed: no standard, the bench's result stands), and the
      // requirement beside the measurement.
      verdict: x.verdict,
      reasons: x.reasons,
      requirement: x.requirement
        ? {
            testPressureMPa: { min: x.requirement.pressureMin, max: x.requirement.pressureMax },
            minHoldingSeconds: x.requirement.holdMin,
            allowedLeakage:
              x.requirement.leakageKind === 'none'
                ? { none: true }
                : x.requirement.leakageKind === 'any'
                  ? null
                  : { max: x.requirement.leakageMax, unit: x.requirement.leakageKind },
            requiredByStandard: x.requirement.required,
          }
        : null,
      testedAt: x.testedAt.toISOString(),
      bench: x.bench,
      operator: x.operator,
      earlierTests: x.earlierTests,
      checksFromSamples: x.checks
        ? {
            peakMPa: round(x.checks.peak, 4),
            heldSeconds: round(x.checks.heldSeconds, 3),
            dropDuringHoldMPa: x.checks.drop === null ? null : round(x.checks.drop, 4),
            reachedTestPressure: x.checks.reached,
            holdingTimeMet: x.checks.holdMet,
          }
        : null,
      samples: { unit: { t: 's', p: 'MPa' }, points: x.samples.map((s) => [s.t, s.p]) },
    })),
    Z01_statementOfCompliance: m.statement,
    Z02_dateOfIssue: m.issuedAt.toISOString(),
    Z03_validation: {
      signedBy: m.signerName,
      certificateSha256: m.certificateFingerprint || null,
      inspectionRepresentative: m.documentType === 'inspection-certificate-3.1' ? m.inspectorName : null,
    },
    verification: { id: m.id, code: m.code, url: m.verifyUrl },
  };
}
