/**
 * The embedded test-report.json: the report's data for a customer's system to import without reading the
 * page. Keys carry the EN 10168 field code beside a readable name (A02 document type, A03 document number,
 * A06 purchaser, A07 order, B07 product identification, Z01 statement of compliance, Z02 date of issue, …); the pressure tests have
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
    // The buyer's order, on a delivery's certificate only (null on the certificate a stranger gets).
    A06_purchaser: m.order
      ? { name: m.order.purchaser.name, address: m.order.purchaser.address, country: m.order.purchaser.country || null }
      : null,
    A07_purchaseOrder: m.order
      ? {
          number: m.order.purchaseOrder.number,
          date: m.order.purchaseOrder.date,
          item: {
            line: m.order.item.line,
            buyerItemCode: m.order.item.buyerItemCode || null,
            description: m.order.item.description || null,
          },
        }
      : null,
    // A supplementary field of group A, as delivery notes are commonly given (docs/standards-sources.md, EN 10168).
    A11_deliveryNote: m.order ? { number: m.order.delivery.number, date: m.order.delivery.date } : null,
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
    B07_productIdentification: {
      serial: m.serial,
      serialRange: m.range,
      productionDate: m.productionDate,
      tag: m.order?.tag || null,
    },
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
            testPressureMPa: {
              min: x.requirement.pressureMin,
              max: x.requirement.pressureMax,
              // factor × rating = exact, and the rule that rounded it up to `min` (ASME B16.34: next 1 bar)
              basis: x.requirement.pressureBasis
                ? {
                    factor: x.requirement.pressureBasis.factor,
                    ratedMPa: x.requirement.pressureBasis.rated,
                    exactMPa: x.requirement.pressureBasis.exact,
                    roundedUpBy: x.requirement.pressureBasis.roundedBy === 'asme-b16.34' ? 'ASME B16.34' : null,
                  }
                : null,
            },
            minHoldingSeconds: x.requirement.holdMin,
            // false: no source available to the manufacturer confirms this figure of the standard
            minHoldingSecondsConfirmed: !x.requirement.holdUnconfirmed,
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
      enteredBy: x.enteredBy,
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
    verification: { id: m.id, code: m.code, url: m.verifyUrl, ...(m.verifyLocal ? { localOnly: true } : {}) },
  };
}
