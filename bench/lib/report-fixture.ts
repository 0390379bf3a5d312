/** A report model for the benchmark: a three-test unit whose shell test has a 2,000-point curve. */
import type { ReportLanguage } from '../../src/shared/contract/reports';
import type { TestRequirementView } from '../../src/shared/contract/machine-data';
import { deriveRequirement, type JudgedProduct } from '../../src/shared/standards/requirement';
import { checkSamples } from '../../src/shared/standards/sample-checks';
import type { ReportModel, ReportTest } from '../../src/server/modules/reports/report-model';
import { editionIn, toRequirementView } from '../../src/shared/standards/requirement-view';

function curve(pressure: number, hold: number, points: number): Array<{ t: number; p: number }> {
  const total = 5 + hold + 3;
  return Array.from({ length: points }, (_, i) => {
    const t = (total * i) / (points - 1);
    const base =
      t < 5
        ? (pressure * 1.01 * t) / 5
        : t <= 5 + hold
          ? pressure * 1.01 - (0.005 * pressure * (t - 5)) / hold
          : Math.max(0, pressure * (1 - (t - 5 - hold) / 3));
    return { t: Math.round(t * 1000) / 1000, p: Math.round((base + Math.sin(i) * 0.002) * 10000) / 10000 };
  });
}

function test(testType: ReportTest['testType'], pressure: number, hold: number, points: number): ReportTest {
  const samples = curve(pressure, hold, points);
  return {
    recordId: `R-${testType}`,
    testType,
    instrument: { id: 'PG-01', calibration: { certificate: 'CAL-2026-017', dueOn: '2027-01-10' } },
    conditions: { fluidTemperature: 21.5, side: testType === 'shell' ? 'both' : 'A' },
    medium: testType === 'air-seat' ? 'air' : 'water',
    testPressure: pressure,
    holdingSeconds: hold,
    leakageValue: null,
    leakageUnit: null,
    result: 'pass',
    testedAt: new Date('2026-03-02T08:30:00Z'),
    bench: 'Bench 3',
    enteredBy: null,
    operator: 'Chen Wei',
    earlierTests: testType === 'seat' ? 1 : 0,
    samples,
    checks: checkSamples(samples, pressure, hold),
    shortHold: false,
    verdict: 'conforms',
    reasons: [],
    requirement: requirementView(testType),
  };
}

const PRODUCT: JudgedProduct = {
  testStandard: 'api-598',
  valveType: 'gate',
  nominalSize: 50,
  seatType: 'metal',
  leakageRate: null,
  pressureFc: null,
  pressureWcb: 1.6,
  pressureSus: null,
};

/** The fixture's requirement, from the standards data as a real report's (API 598, gate, DN 50, WCB 1.6 MPa). */
function requirementView(testType: ReportTest['testType']): TestRequirementView | null {
  const r = deriveRequirement(PRODUCT, 'wcb')!;
  const x = r.tests.find((q) => q.testType === testType);
  return x ? toRequirementView(r.standard, x) : null;
}

export function benchModel(language: ReportLanguage): ReportModel {
  return {
    id: 'AAAAAAAAAAAAAAAAAAAAAA',
    code: 'ABCDE12345',
    number: 'TR-2026-000123',
    language,
    documentType: 'test-report-2.2',
    issuedAt: new Date('2026-03-05T10:00:00Z'),
    // The materials table of a gate valve traced to its heats (as a 3.1 prints it).
    materials: [
      {
        part: 'body',
        material: 'ASTM A216 WCB',
        heat: { number: 'W24-1187', material: 'ASTM A216 WCB', certificateNumber: 'MC-24-0311', certificateType: '3.1' },
      },
      {
        part: 'bonnet',
        material: 'ASTM A216 WCB',
        heat: { number: 'W24-1190', material: 'ASTM A216 WCB', certificateNumber: 'MC-24-0312', certificateType: '3.1' },
      },
      {
        part: 'closure',
        material: 'ASTM A216 WCB',
        heat: { number: 'W24-1190', material: 'ASTM A216 WCB', certificateNumber: 'MC-24-0312', certificateType: '3.1' },
      },
      {
        part: 'stem',
        material: 'ASTM A182 F6a',
        heat: { number: 'S24-0402', material: 'ASTM A182 F6a', certificateNumber: 'MC-24-0298', certificateType: '3.1' },
      },
    ],
    // A delivery's certificate names the order, as most certificates do.
    order: {
      purchaser: {
        name: 'Harbour Refining Co.',
        address: '12 Quay Road\nKaohsiung 806',
        postcode: '806',
        city: 'Kaohsiung',
        country: 'TW',
      },
      purchaseOrder: { number: 'PO-2026-0412', date: '2026-02-10' },
      item: { line: 10, buyerItemCode: 'HRC-GV-050-300', description: 'Gate valve DN 50 Class 300' },
      tag: 'XV-1203',
      delivery: { number: 'DL-2026-0031', date: '2026-03-04' },
    },
    verifyUrl: 'https://reports.example.com/search?report=AAAAAAAAAAAAAAAAAAAAAA',
    verifyPage: 'https://reports.example.com/search',
    verifyLocal: false,
    company: {
      name: 'Acme Valve Co., Ltd. 艾克米閥門股份有限公司',
      address: 'No. 1, Industrial Rd., Taichung, Taiwan',
      postcode: '407',
      city: 'Taichung',
      country: 'TW',
      logo: null,
    },
    statement:
      language === 'zh'
        ? '茲證明上述產品已依所述方式完成測試，測試結果符合訂單要求。'
        : 'We hereby certify that the product described above has been tested as stated and complies with the order.',
    footer: language === 'zh' ? '艾克米閥門 · 品質保證部' : 'Acme Valve · Quality Assurance',
    inspectorName: '',
    release: null,
    serial: 'VB2311-000123',
    product: {
      name: 'Gate Valve DN50 PN16',
      fluid: 'water',
      connection: 'Flange',
      application: 'Waterworks',
      applicationMedium: 'Water',
      pressureFc: null,
      pressureWcb: 1.6,
      pressureSus: null,
      temperatureMin: -10,
      temperatureMax: 120,
      valveType: 'gate',
      nominalSize: 50,
      pressureClass: 'CL150',
      seatType: 'metal',
      leakageRate: null,
    },
    standard: {
      id: 'api-598',
      name: deriveRequirement(PRODUCT, 'wcb')!.standard.name,
      edition: editionIn(deriveRequirement(PRODUCT, 'wcb')!.standard, language),
    },
    bodyMaterial: 'wcb',
    ratedPressure: 1.6,
    productionDate: '2026-02-20',
    range: { start: 'VB2311-000100', end: 'VB2311-000199' },
    tests: [test('shell', 2.4, 60, 2000), test('seat', 1.76, 30, 300), test('backseat', 1.76, 15, 200)],
    certificateFingerprint: '',
    signerName: 'Acme Valve Co., Ltd.',
  };
}
