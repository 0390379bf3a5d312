/**
 * The embedded test-report.json: the report's data for a customer's system to import without reading the
 * page. Keys carry the EN 10168 field code beside a readable name, each code used for what EN 10168 means by
 * it, as the public EN 10168 schema's field list gives them (docs/standards-sources.md, "EN 10168"):
 *  - A: A01 manufacturer, A02 document type, A03 document number, A04 manufacturer's mark, A05 originator of
 *    the document, A06 purchaser, A07 purchase order number, A09 the purchaser's article number, A97 the
 *    position in the order, A98 the delivery note;
 *  - B: B01 the product, B02 its properties (valve data, body material designation, rating, each part's
 *    material), B03 supplementary requirements (the test standard and its leakage rate), B06 marking (serial,
 *    tag), B07 identification (the production batch, each part's heat and mill certificate), B08 pieces;
 *  - D: the pressure tests are product tests, D50–D99 "other product tests" (D51); D02–D04 are designated for
 *    coatings and roughness;
 *  - Z: Z01 statement of compliance, Z02 date of issue, Z03 the inspection representative's validation.
 * Schema 2.0 moved B02, B03, A05 and D02 to these meanings (1.x readers: verification-details.ts reads both);
 * 2.1 added the parts' materials (B02) and heats (B07); 2.2 each test's conditions; 2.3 Z03's witness on a 3.2;
 * 2.4 `EN10168`, the same certificate as a document of the public EN 10168 JSON schema (en10168-document.ts).
 * Samples are included whole.
 */
import { REPORT_JSON_SCHEMA_VERSION } from '../../../shared/contract/reports';
import { isInspectionCertificate } from '../../../shared/contract/settings';
import { en10168Document } from './en10168-document';
import { docKey, t } from './format';
import type { ReportModel } from './report-model';

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

export function reportJson(m: ReportModel): Record<string, unknown> {
  const inspection = isInspectionCertificate(m.documentType);
  return {
    schema: 'test-report-center/test-report',
    schemaVersion: REPORT_JSON_SCHEMA_VERSION,
    language: m.language,
    // postcode, city and country apart where Settings give them (schema 2.4); empty strings otherwise
    A01_manufacturer: {
      name: m.company.name,
      address: m.company.address,
      postcode: m.company.postcode,
      city: m.company.city,
      country: m.company.country || null,
    },
    A02_documentType: {
      standard: 'EN 10204',
      type: m.documentType.slice(-3),
      title: t(m.language, `documentType.${docKey(m.documentType)}`),
    },
    A03_documentNumber: m.number,
    A04_manufacturerMark: m.company.name,
    // The originator of the document: the manufacturer's inspection, not a person (the representative who
    // validates it is Z03).
    A05_originator: m.company.name,
    // The buyer's order, on a delivery's certificate only (null on the certificate a stranger gets).
    A06_purchaser: m.order
      ? {
          name: m.order.purchaser.name,
          address: m.order.purchaser.address,
          postcode: m.order.purchaser.postcode,
          city: m.order.purchaser.city,
          country: m.order.purchaser.country || null,
        }
      : null,
    A07_purchaseOrder: m.order ? { number: m.order.purchaseOrder.number, date: m.order.purchaseOrder.date } : null,
    A09_purchaserArticle: m.order ? { code: m.order.item.buyerItemCode || null, description: m.order.item.description || null } : null,
    A97_orderPosition: m.order ? m.order.item.line : null,
    A98_deliveryNote: m.order ? { number: m.order.delivery.number, date: m.order.delivery.date } : null,
    B01_product: {
      name: m.product.name,
      fluid: m.product.fluid,
      connection: m.product.connection,
      application: m.product.application,
      applicationMedium: m.product.applicationMedium,
      pressureRatingsMPa: { FC: m.product.pressureFc, WCB: m.product.pressureWcb, SUS: m.product.pressureSus },
      temperatureRangeC: { min: m.product.temperatureMin, max: m.product.temperatureMax },
    },
    B02_productProperties: {
      valveType: m.product.valveType,
      nominalSizeDN: m.product.nominalSize,
      pressureClass: m.product.pressureClass || null,
      seat: m.product.seatType,
      bodyMaterial: m.bodyMaterial,
      ratedPressureMPa: m.ratedPressure,
      // Each part's material designation (specification and grade), where the product names it (schema 2.1).
      materials: m.materials.map((x) => ({ part: x.part, material: x.material ?? x.heat?.material ?? null })),
    },
    B03_supplementaryRequirements: {
      testStandard: m.standard ? { id: m.standard.id, name: m.standard.name, edition: m.standard.edition } : null,
      leakageRate: m.product.leakageRate,
    },
    B06_marking: { serial: m.serial, tag: m.order?.tag || null },
    B07_productIdentification: {
      serial: m.serial,
      serialRange: m.range,
      productionDate: m.productionDate,
      // The heat (cast, lot) each part was made from and its mill certificate (schema 2.1).
      heats: m.materials
        .filter((x) => x.heat)
        .map((x) => ({
          part: x.part,
          heat: x.heat!.number,
          material: x.heat!.material,
          millCertificate: { number: x.heat!.certificateNumber || null, type: `EN 10204 ${x.heat!.certificateType}` },
        })),
    },
    B08_quantity: 1,
    D51_pressureTests: m.tests.map((x) => ({
      recordId: x.recordId,
      testType: x.testType,
      medium: x.medium,
      testPressureMPa: x.testPressure,
      holdingSeconds: x.holdingSeconds,
      leakage: x.leakageValue === null ? null : { value: x.leakageValue, unit: x.leakageUnit },
      result: x.result,
      // The product's judgement against B03's standard (not-assessed: no standard, the bench's result stands), and the
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
      // The gauge or transducer the record names, with the calibration in force on the test day (or null).
      instrument: x.instrument
        ? {
            id: x.instrument.id,
            calibrationCertificate: x.instrument.calibration?.certificate ?? null,
            calibrationDueOn: x.instrument.calibration?.dueOn ?? null,
          }
        : null,
      // As the record states them; null when it does not.
      fluidTemperatureC: x.conditions.fluidTemperature,
      sidePressurised: x.conditions.side,
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
      inspectionRepresentative: inspection ? m.inspectorName : null,
      inspectionRepresentativeTitle: inspection ? (m.release?.title ?? null) : null,
      releasedAt: inspection && m.release ? m.release.releasedAt.toISOString() : null,
      // A 3.2: the purchaser's or a third party's inspector who witnessed the tests, and which (decision 0056).
      witness: m.order?.witness ?? null,
    },
    verification: { id: m.id, code: m.code, url: m.verifyUrl, ...(m.verifyLocal ? { localOnly: true } : {}) },
    // The certificate in the structure of the public EN 10168 JSON schema, for systems that import that
    // (schema 2.4, decision 0067); the keys above stay for the integrations that read them.
    EN10168: en10168Document(m),
  };
}
