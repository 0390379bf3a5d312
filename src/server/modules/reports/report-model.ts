/**
 * One report as data: what the PDF prints, the embedded test-report.json carries, and the benchmark's
 * HTML peer shows. Built once from the unit, its records and the settings; the renderers only lay it out.
 */
import type { Sample } from '../../../shared/chart/index';
import type { TestMedium, TestResult, TestSide, TestType } from '../../../shared/contract/machine-data';
import type { Fluid } from '../../../shared/contract/products';
import type { ReportLanguage } from '../../../shared/contract/reports';
import type { DocumentType } from '../../../shared/contract/settings';
import type { TestRequirementView } from '../../../shared/contract/machine-data';
import type { ReasonCode, Verdict } from '../../../shared/standards/reasons';
import type { BodyMaterial } from '../../../shared/standards/requirement';
import type { SampleChecks } from '../../../shared/standards/sample-checks';

export interface ReportTest {
  recordId: string;
  testType: TestType;
  medium: TestMedium;
  /** MPa */
  testPressure: number;
  holdingSeconds: number;
  leakageValue: number | null;
  leakageUnit: string | null;
  result: TestResult;
  testedAt: Date;
  bench: string | null;
  /** the staff member who entered the record from a file, where its bench did not send it */
  enteredBy: { name: string; file: string } | null;
  operator: string;
  /** the instrument the record names, with the calibration in force on the test day (null: none in force) */
  instrument: { id: string; calibration: { certificate: string; dueOn: string } | null } | null;
  /** the test fluid's temperature (°C) and the side pressurised, as the record states them (null: not stated) */
  conditions: { fluidTemperature: number | null; side: TestSide | null };
  /** earlier tests of the same type (retests happened when > 0) */
  earlierTests: number;
  samples: Sample[];
  checks: SampleChecks | null;
  /** a bench pass whose samples held for less than the holding time */
  shortHold: boolean;
  /** the product's judgement against its standard; 'not-assessed' = the bench's result stands */
  verdict: Verdict;
  reasons: ReasonCode[];
  /** what the standard asks of this test; null when not assessed */
  requirement: TestRequirementView | null;
}

/**
 * The buyer's order a certificate is issued for (a delivery's unit), printed and embedded under EN 10168's
 * A06 (purchaser) and A07 (order); null on the unit's certificate without an order, which the public
 * lookup gives a stranger (docs/product.md "Who sees the order").
 */
export interface ReportOrder {
  purchaser: { name: string; address: string; postcode: string; city: string; country: string };
  purchaseOrder: { number: string; date: string };
  item: { line: number; buyerItemCode: string; description: string };
  tag: string;
  delivery: { number: string; date: string };
  /** a 3.2: the purchaser's or a third party's inspector who witnessed the tests (left out otherwise, so that
   * the reuse key of other orders' certificates stays what it was) */
  witness?: { name: string; organisation: string; witnessedOn: string; tests: TestType[] };
}

/** A part the unit traces: its material (the product's, else its heat's) and the heat it was made from. */
export interface ReportMaterial {
  part: 'body' | 'bonnet' | 'closure' | 'stem' | 'seat' | 'bolting';
  material: string | null;
  heat: { number: string; material: string; certificateNumber: string; certificateType: '3.1' | '3.2' } | null;
}

export interface ReportModel {
  id: string;
  /** raw code (10 characters); printed formatted */
  code: string;
  number: string;
  language: ReportLanguage;
  documentType: DocumentType;
  issuedAt: Date;
  verifyUrl: string;
  /**
   * the offline proof the QR code carries after the link (a compact JWS, shared/offline-proof.ts), signed over
   * the facts and the embedded data's hash once the model is complete (proof.ts); absent: the link alone
   */
  proof?: string;
  /** where a code is typed: the public page */
  verifyPage: string;
  /** the link points at the issuing machine only (PUBLIC_BASE_URL unset or loopback): the certificate says so */
  verifyLocal: boolean;
  /** the address as printed (free lines), and its postcode, city and country apart where staff gave them */
  company: { name: string; address: string; postcode: string; city: string; country: string; logo: Buffer | null };
  statement: string;
  footer: string;
  /** a 3.1: the inspector who released the range, else the name in Settings; a 2.2: the name in Settings */
  inspectorName: string;
  /**
   * a 3.1 of a range released by an authorised inspector: the title and time of the release, the independence
   * statement, and the inspector's stamp image (PNG or JPEG; null: none)
   */
  release: { title: string; releasedAt: Date; statement: string; stamp?: Buffer | null } | null;
  serial: string;
  product: {
    name: string;
    fluid: Fluid;
    connection: string;
    application: string;
    applicationMedium: string;
    pressureFc: number | null;
    pressureWcb: number | null;
    pressureSus: number | null;
    temperatureMin: number;
    temperatureMax: number;
    valveType: string | null;
    nominalSize: number | null;
    pressureClass: string;
    seatType: string | null;
    leakageRate: string | null;
  };
  /** the standard the tests are judged by; null = none (the bench's verdicts stand) */
  standard: { id: string; name: string; edition: string } | null;
  /** the unit's body material and the rating the required pressures follow */
  bodyMaterial: BodyMaterial | null;
  ratedPressure: number | null;
  productionDate: string;
  range: { start: string; end: string };
  tests: ReportTest[];
  /** the parts the unit traces (empty: the product names none and no heat is assigned) */
  materials: ReportMaterial[];
  order: ReportOrder | null;
  /** fingerprint of the certificate that signs it ('' when unsigned) */
  certificateFingerprint: string;
  signerName: string;
}
