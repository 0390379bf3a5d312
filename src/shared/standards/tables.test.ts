/**
 * Worked examples of the requirement as an inspector reads the standards' tables (docs/standards-sources.md,
 * docs/decisions/0045-standards-tables.md), through the one derivation every screen, certificate and the
 * judgement read (requirement.ts), at the size and class boundaries where a rule changes.
 */
import { describe, expect, it } from 'vitest';
import { inHigherClassColumn, readPressureClass } from './pressure-class';
import {
  alternativesOf,
  deriveRequirement,
  editionFor,
  requirementRows,
  roundUpTo,
  type JudgedProduct,
  type TestRequirement,
} from './requirement';

const base: JudgedProduct = {
  testStandard: 'api-598',
  valveType: 'gate',
  nominalSize: 100,
  seatType: 'metal',
  leakageRate: null,
  pressureFc: null,
  pressureWcb: 1.96,
  pressureSus: null,
};

function test(p: Partial<JudgedProduct>, testType: string, material: 'fc' | 'wcb' | 'sus' = 'wcb'): TestRequirement {
  const r = deriveRequirement({ ...base, ...p }, material);
  const found = r?.tests.find((x) => x.testType === testType);
  if (!found) throw new Error(`no ${testType} requirement`);
  return found;
}

describe('1. test pressures rounded up to the next 1 bar (ASME B16.34, through API 598)', () => {
  it('Class 150 WCB (1.96 MPa): shell 1.5 × 1.96 = 2.94 → 3.0 MPa; closure and backseat 1.1 × 1.96 = 2.156 → 2.2 MPa', () => {
    expect(test({}, 'shell')).toMatchObject({
      pressureMin: 3,
      pressureBasis: { factor: 1.5, rated: 1.96, exact: 2.94, roundedBy: 'asme-b16.34' },
    });
    expect(test({}, 'seat')).toMatchObject({ pressureMin: 2.2, pressureBasis: { exact: 2.156, roundedBy: 'asme-b16.34' } });
    expect(test({}, 'backseat')).toMatchObject({ pressureMin: 2.2, pressureBasis: { exact: 2.156 } });
    // The low-pressure gas closure is a band, not a factor: nothing to round.
    expect(test({}, 'air-seat')).toMatchObject({ pressureMin: 0.4, pressureMax: 0.7, pressureBasis: null });
  });

  it('Class 300 WCB (5.11 MPa): shell 7.665 → 7.7 MPa, closure 5.621 → 5.7 MPa (PVF-Shop: 1125 / 825 psig)', () => {
    expect(test({ pressureWcb: 5.11 }, 'shell').pressureMin).toBe(7.7);
    expect(test({ pressureWcb: 5.11 }, 'seat').pressureMin).toBe(5.7);
  });

  it('at the boundary: a product already on a whole bar stays; a thousandth above goes to the next bar', () => {
    expect(test({ pressureWcb: 2 }, 'shell').pressureMin).toBe(3);
    expect(test({ pressureWcb: 2.001 }, 'shell')).toMatchObject({ pressureMin: 3.1, pressureBasis: { exact: 3.002 } });
    // 1.5 × 1.6 is 2.4000000000000004 in binary: still 2.4 MPa, not 2.5.
    expect(test({ pressureWcb: 1.6 }, 'shell').pressureMin).toBe(2.4);
    expect(roundUpTo(2.4000000000000004, 0.1)).toBe(2.4);
  });

  it('stainless bodies round like carbon steel; a grey-iron body keeps the bare product', () => {
    expect(test({ pressureSus: 1.9 }, 'shell', 'sus').pressureMin).toBe(2.9);
    expect(test({ pressureFc: 1.37 }, 'shell', 'fc')).toMatchObject({
      pressureMin: 2.055,
      pressureBasis: { factor: 1.5, rated: 1.37, exact: 2.055, roundedBy: null },
    });
  });

  it('EN 12266-1 and ISO 5208 keep 1.5 × PS and 1.1 × PS as they are', () => {
    expect(test({ testStandard: 'en-12266-1', leakageRate: 'A', pressureWcb: 1.6 }, 'seat')).toMatchObject({
      pressureMin: 1.76,
      pressureBasis: { roundedBy: null },
    });
    expect(test({ testStandard: 'iso-5208', leakageRate: 'A' }, 'shell')).toMatchObject({
      pressureMin: 2.94,
      pressureBasis: { roundedBy: null },
    });
  });
});

describe('2. API 598 metal-seated check valves: the table, with one row for NPS 2 and smaller', () => {
  const check: Partial<JudgedProduct> = { valveType: 'check' };
  const cm3PerMin = (v: number) => Math.round((v * 1000 * 1000) / 60) / 1000;
  const m3PerH = (v: number) => Math.round((v * 1e9 * 1000) / 3600) / 1000;

  it('NPS 1 (DN 25) and NPS 2 (DN 50): 6 cm³/min of liquid and 0.08 m³/h of gas, not 3 cm³/min per inch', () => {
    for (const dn of [15, 25, 50]) {
      expect(test({ ...check, nominalSize: dn }, 'seat').leakage).toEqual({ kind: 'mm3/s', max: cm3PerMin(6) });
      expect(test({ ...check, nominalSize: dn }, 'air-seat').leakage).toEqual({ kind: 'mm3/s', max: m3PerH(0.08) });
    }
    expect(cm3PerMin(6)).toBe(100);
  });

  it('above NPS 2 the table’s rounded gas figures: NPS 2½ 0.11, NPS 3 0.13 (0.126 by the per-inch rule), NPS 8 0.34 m³/h', () => {
    expect(test({ ...check, nominalSize: 65 }, 'seat').leakage.max).toBe(cm3PerMin(7.5));
    expect(test({ ...check, nominalSize: 65 }, 'air-seat').leakage.max).toBe(m3PerH(0.11));
    expect(test({ ...check, nominalSize: 80 }, 'air-seat').leakage.max).toBe(m3PerH(0.13));
    expect(test({ ...check, nominalSize: 200 }, 'air-seat').leakage.max).toBe(m3PerH(0.34));
    expect(test({ ...check, nominalSize: 1200 }, 'seat').leakage.max).toBe(cm3PerMin(144));
    expect(test({ ...check, nominalSize: 1200 }, 'air-seat').leakage.max).toBe(m3PerH(2.02));
  });

  it('resilient-seated check valves allow none at any size', () => {
    expect(test({ ...check, seatType: 'soft', nominalSize: 25 }, 'seat').leakage).toEqual({ kind: 'none', max: 0 });
  });
});

describe('sizes between the table’s rows take the per-inch rule the table is drawn from', () => {
  it('DN 90 (NPS 3½): 7 drops/min and 14 bubbles/min, not NPS 4’s 8 and 16', () => {
    expect(test({ nominalSize: 90 }, 'seat').leakage).toEqual({ kind: 'drops/min', max: 7 });
    expect(test({ nominalSize: 90 }, 'air-seat').leakage).toEqual({ kind: 'bubbles/min', max: 14 });
    expect(test({ nominalSize: 100 }, 'seat').leakage).toEqual({ kind: 'drops/min', max: 8 });
  });

  it('DN 90 check valve: 3 × 3½ = 10.5 cm³/min, 0.042 × 3½ = 0.147 m³/h; DN 550 (NPS 22, not a row): 44 drops/min', () => {
    expect(test({ valveType: 'check', nominalSize: 90 }, 'seat').leakage.max).toBe(175);
    expect(test({ valveType: 'check', nominalSize: 90 }, 'air-seat').leakage.max).toBe(40_833.333);
    expect(test({ nominalSize: 550 }, 'seat').leakage.max).toBe(44);
  });

  it('past the table: other valves keep the NPS 48 row; check valves follow ValveHax’s rows to NPS 80', () => {
    expect(test({ nominalSize: 1400 }, 'seat').leakage.max).toBe(96);
    expect(test({ valveType: 'check', nominalSize: 1400 }, 'seat').leakage.max).toBe(2800);
    expect(test({ valveType: 'check', nominalSize: 2400 }, 'air-seat').leakage.max).toBe(933_333.333);
  });
});

/** The required tests and the requirement table's notes of a product. */
function table1(p: Partial<JudgedProduct>) {
  const r = deriveRequirement({ ...base, ...p }, 'wcb')!;
  return { required: r.tests.filter((x) => x.required).map((x) => x.testType), notes: r.notes };
}

describe('3. API 598 Table 1, the higher-class column', () => {
  it('reads a pressure class as typed: CL150, CLASS600, 900#, 1500LB, a bare ASME class, PN40; not 10K or 16', () => {
    expect(['CL150', 'CLASS600', '900#', '1500LB', '150', 'PN40', '10K', '16', ''].map(readPressureClass)).toEqual([
      { system: 'class', value: 150 },
      { system: 'class', value: 600 },
      { system: 'class', value: 900 },
      { system: 'class', value: 1500 },
      { system: 'class', value: 150 },
      { system: 'pn', value: 40 },
      null,
      null,
      null,
    ]);
  });

  it('at the boundaries: NPS 4 (DN 100) up to Class 1500, above NPS 4 up to Class 600, PN 250 and PN 100', () => {
    const col = (c: string, dn: number) => inHigherClassColumn(readPressureClass(c), dn);
    expect([col('CL1500', 100), col('CL2500', 100), col('CL600', 125), col('CL900', 125), col('CL900', 100)]).toEqual([
      false,
      true,
      false,
      true,
      false,
    ]);
    expect([col('PN250', 100), col('PN320', 100), col('PN100', 150), col('PN160', 150)]).toEqual([false, true, false, true]);
  });

  it('a gate valve above the usual column needs the high-pressure closure test, the low-pressure one becomes optional', () => {
    expect(table1({ pressureClass: 'CL1500', nominalSize: 100 })).toEqual({ required: ['shell', 'backseat', 'air-seat'], notes: [] });
    expect(table1({ pressureClass: 'CL2500', nominalSize: 100 })).toEqual({
      required: ['shell', 'seat', 'backseat'],
      notes: ['higher-class'],
    });
    expect(table1({ pressureClass: 'CL600', nominalSize: 150 }).required).toEqual(['shell', 'backseat', 'air-seat']);
    expect(table1({ pressureClass: 'CL900', nominalSize: 150 }).required).toEqual(['shell', 'seat', 'backseat']);
  });

  it('globe and check valves need the high-pressure closure test in both columns', () => {
    for (const pressureClass of ['CL150', 'CL2500']) {
      expect(table1({ valveType: 'globe', pressureClass }).required).toEqual(['shell', 'seat', 'backseat']);
      expect(table1({ valveType: 'check', pressureClass }).required).toEqual(['shell', 'seat']);
    }
  });

  it('a class it cannot read keeps the usual column and says so; none at all says nothing', () => {
    expect(table1({ pressureClass: '10K' })).toEqual({ required: ['shell', 'backseat', 'air-seat'], notes: ['class-not-read'] });
    expect(table1({ pressureClass: '' }).notes).toEqual([]);
  });

  it('ISO 5208 reads PN too: a plug valve DN 100 at PN 320 needs the high-pressure closure test', () => {
    const iso = { testStandard: 'iso-5208' as const, leakageRate: 'A' as const, valveType: 'plug' as const };
    expect(table1({ ...iso, pressureClass: 'PN250' }).required).toEqual(['shell', 'air-seat']);
    expect(table1({ ...iso, pressureClass: 'PN320' }).required).toEqual(['shell', 'seat']);
  });
});

describe('4. API 598 Table 1, the seat decides the closure test of butterfly and plug valves', () => {
  it('resilient-seated butterfly and lubricated (soft-seated) plug valves: hydrostatic closure required, low-pressure optional', () => {
    for (const valveType of ['butterfly', 'plug'] as const) {
      expect(table1({ valveType, seatType: 'soft' })).toEqual({ required: ['shell', 'seat'], notes: ['required-by-seat'] });
      expect(table1({ valveType, seatType: 'metal' })).toEqual({ required: ['shell', 'air-seat'], notes: ['required-by-seat'] });
    }
  });

  it('ball valves are judged as floating ones: the low-pressure closure test whatever the seat, with a note', () => {
    for (const seatType of ['soft', 'metal'] as const) {
      expect(table1({ valveType: 'ball', seatType })).toEqual({ required: ['shell', 'air-seat'], notes: ['ball-as-floating'] });
    }
  });
});

describe('ISO 5208 rates AA, CC and EE', () => {
  const iso = (leakageRate: JudgedProduct['leakageRate']) => ({ testStandard: 'iso-5208' as const, leakageRate });

  it('DN 100: AA 0.6 / 18 mm³/s, CC 8 / 2230 mm³/s, EE 39 / 47 000 mm³/s (liquid / gas)', () => {
    expect([test(iso('AA'), 'seat'), test(iso('AA'), 'air-seat')].map((x) => x.leakage.max)).toEqual([0.6, 18]);
    expect([test(iso('CC'), 'seat'), test(iso('CC'), 'air-seat')].map((x) => x.leakage.max)).toEqual([8, 2230]);
    expect([test(iso('EE'), 'seat'), test(iso('EE'), 'air-seat')].map((x) => x.leakage.max)).toEqual([39, 47_000]);
  });

  it('each lies between its neighbours: A < AA < B, C < CC < D, E < EE < F', () => {
    const liquid = (r: JudgedProduct['leakageRate']) => test(iso(r), 'seat').leakage.max!;
    expect(liquid('A')).toBe(0);
    expect(liquid('AA')).toBeLessThan(liquid('B'));
    expect(liquid('C')).toBeLessThan(liquid('CC'));
    expect(liquid('CC')).toBeLessThan(liquid('D'));
    expect(liquid('E')).toBeLessThan(liquid('EE'));
    expect(liquid('EE')).toBeLessThan(liquid('F'));
  });

  it('EN 12266-1 defines A to G only: a product at rate CC has no requirement until its rate is one of them', () => {
    expect(deriveRequirement({ ...base, testStandard: 'en-12266-1', leakageRate: 'CC' }, 'wcb')).toBeNull();
    expect(deriveRequirement({ ...base, testStandard: 'en-12266-1', leakageRate: 'C' }, 'wcb')).not.toBeNull();
  });
});

describe('durations no source confirms are marked', () => {
  it('API 598: check-valve closure and backseat holds outside NPS 2½–6 are marked; shell and other closures are not', () => {
    const check = { valveType: 'check' as const };
    expect(test({ ...check, nominalSize: 50 }, 'seat')).toMatchObject({ holdMin: 60, holdUnconfirmed: true });
    expect(test({ ...check, nominalSize: 100 }, 'seat')).toMatchObject({ holdMin: 60, holdUnconfirmed: false });
    expect(test({ ...check, nominalSize: 200 }, 'seat')).toMatchObject({ holdMin: 120, holdUnconfirmed: true });
    expect(test({ nominalSize: 100 }, 'backseat').holdUnconfirmed).toBe(false);
    expect(test({ nominalSize: 200 }, 'backseat').holdUnconfirmed).toBe(true);
    expect(test({ nominalSize: 200 }, 'shell').holdUnconfirmed).toBe(false);
    expect(test({ nominalSize: 200 }, 'seat').holdUnconfirmed).toBe(false);
    expect(deriveRequirement({ ...base, nominalSize: 200 }, 'wcb')!.notes).toContain('hold-unconfirmed');
  });

  it('EN 12266-1 Table A.4 (seat) and every ISO 5208 duration are marked; EN 12266-1 Table A.2 (shell) is not', () => {
    const en = { testStandard: 'en-12266-1' as const, leakageRate: 'A' as const };
    expect(test(en, 'seat').holdUnconfirmed).toBe(true);
    expect(test(en, 'shell').holdUnconfirmed).toBe(false);
    const iso = { testStandard: 'iso-5208' as const, leakageRate: 'A' as const };
    for (const x of ['shell', 'seat', 'air-seat', 'backseat']) expect(test(iso, x).holdUnconfirmed).toBe(true);
  });
});

describe('API 6D, 24th edition (2014)', () => {
  const api6d: Partial<JudgedProduct> = { testStandard: 'api-6d', seatType: 'soft' };

  it('gate NPS 4 Class 150 WCB, resilient seat: shell 3.0 MPa, seat 2.2 MPa at rate A, backseat required, gas seat test optional', () => {
    const r = deriveRequirement({ ...base, ...api6d }, 'wcb')!;
    const by = Object.fromEntries(r.tests.map((x) => [x.testType, x]));
    expect(r.tests.filter((x) => x.required).map((x) => x.testType)).toEqual(['shell', 'seat', 'backseat']);
    expect(by.shell).toMatchObject({ pressureMin: 3, holdMin: 120, holdUnconfirmed: true, leakage: { kind: 'none' } });
    expect(by.seat).toMatchObject({ pressureMin: 2.2, holdMin: 120, leakage: { kind: 'none', max: 0 } });
    expect(by['air-seat']).toMatchObject({ required: false, pressureMin: 0.48, pressureMax: 0.62 });
    expect(r.notes).toEqual(['rate-by-standard', 'hold-unconfirmed']);
  });

  it('metal seats take ISO 5208 rate D unless the product names another rate', () => {
    expect(test({ ...api6d, seatType: 'metal' }, 'seat').leakage).toEqual({ kind: 'mm3/s', max: 10 });
    expect(test({ ...api6d, seatType: 'metal' }, 'air-seat').leakage).toEqual({ kind: 'mm3/s', max: 3000 });
    expect(test({ ...api6d, seatType: 'metal', leakageRate: 'B' }, 'seat').leakage).toEqual({ kind: 'mm3/s', max: 1 });
    expect(deriveRequirement({ ...base, ...api6d, seatType: 'metal', leakageRate: 'B' }, 'wcb')!.notes).not.toContain('rate-by-standard');
  });

  it('durations by size: shell 2 / 5 / 15 / 30 min at NPS 4, 6, 12, 20; seat 2 / 5 min at NPS 4, 6', () => {
    expect([100, 150, 300, 500].map((dn) => test({ ...api6d, nominalSize: dn }, 'shell').holdMin)).toEqual([120, 300, 900, 1800]);
    expect([100, 150].map((dn) => test({ ...api6d, nominalSize: dn }, 'seat').holdMin)).toEqual([120, 300]);
  });

  it('ball and plug valves: shell and seat; no backseat', () => {
    expect(table1({ ...api6d, valveType: 'ball' }).required).toEqual(['shell', 'seat']);
    expect(deriveRequirement({ ...base, ...api6d, valveType: 'plug' }, 'wcb')!.tests.map((x) => x.testType)).not.toContain('backseat');
  });
});

describe('ASME B16.34, 2017, Standard Class', () => {
  const b1634: Partial<JudgedProduct> = { testStandard: 'asme-b16.34' };

  it('gate NPS 4 Class 150 WCB: shell 3.0 MPa 60 s, closure 2.2 MPa with MSS SP-61’s 10 cm³/h per inch; no backseat test', () => {
    const r = deriveRequirement({ ...base, ...b1634 }, 'wcb')!;
    const by = Object.fromEntries(r.tests.map((x) => [x.testType, x]));
    expect(r.tests.map((x) => x.testType)).toEqual(['shell', 'seat', 'air-seat']);
    expect(by.shell).toMatchObject({ required: true, pressureMin: 3, holdMin: 60, pressureBasis: { roundedBy: 'asme-b16.34' } });
    expect(by.seat).toMatchObject({ required: true, pressureMin: 2.2, holdMin: 30, leakage: { kind: 'mm3/s', max: 11.111 } });
    expect(by['air-seat']).toMatchObject({ required: false, pressureMin: 0.55, pressureMax: null, leakage: { max: 3146.316 } });
    expect(test({ ...b1634, seatType: 'soft' }, 'seat').leakage).toEqual({ kind: 'none', max: 0 });
  });

  it('shell 15 s up to NPS 2 (confirmed), 60 s to NPS 8, 180 s above', () => {
    expect([50, 200, 250].map((dn) => test({ ...b1634, nominalSize: dn }, 'shell'))).toMatchObject([
      { holdMin: 15, holdUnconfirmed: false },
      { holdMin: 60, holdUnconfirmed: true },
      { holdMin: 180, holdUnconfirmed: true },
    ]);
  });

  it('the gas closure test may stand in up to NPS 4 at every class and up to NPS 8 below Class 600', () => {
    const alt = (nominalSize: number, pressureClass: string) =>
      alternativesOf({ ...base, ...b1634, nominalSize, pressureClass }).seat ?? [];
    expect(alt(100, 'CL2500')).toEqual(['air-seat']);
    expect(alt(200, 'CL300')).toEqual(['air-seat']);
    expect(alt(200, 'CL600')).toEqual([]);
    expect(alt(250, 'CL150')).toEqual([]);
    expect(table1({ ...b1634, nominalSize: 200, pressureClass: 'CL300' }).notes).toContain('gas-closure-may-replace');
    expect(table1({ ...b1634, nominalSize: 250, pressureClass: 'CL150' }).notes).not.toContain('gas-closure-may-replace');
  });
});

describe('editions: API 598 keeps its 8th (2004), 9th (2009) and 10th (2016) editions', () => {
  it('a product that names none is judged by the edition in force on the day of the test; one that names one, by it', () => {
    const key = (testEdition: string, day: string | null) => editionFor({ testStandard: 'api-598', testEdition }, day)?.editionKey;
    expect([key('', '2003-01-01'), key('', '2008-06-01'), key('', '2009-09-01'), key('', '2016-09-30'), key('', '2016-10-01')]).toEqual([
      '8',
      '8',
      '9',
      '9',
      '10',
    ]);
    expect(key('', null)).toBe('10');
    expect(key('8', '2024-01-01')).toBe('8');
    expect(key('7', '2024-01-01')).toBeUndefined();
  });

  it('8th edition: metal seats in bands — NPS 2½–6 12 drops and 24 bubbles, NPS 8–12 20 and 40, NPS 14 up 28 and 56', () => {
    const eighth = { testEdition: '8' };
    expect([50, 65, 100, 150, 200, 300, 350, 400].map((dn) => test({ ...eighth, nominalSize: dn }, 'seat').leakage.max)).toEqual([
      0, 12, 12, 12, 20, 20, 28, 28,
    ]);
    expect(test({ ...eighth, nominalSize: 100 }, 'air-seat').leakage).toEqual({ kind: 'bubbles/min', max: 24 });
    // check valves 3 cm³/min per inch at every size: NPS 1 is 3 cm³/min = 50 mm³/s (the 10th edition: 6 cm³/min)
    expect(test({ ...eighth, valveType: 'check', nominalSize: 25 }, 'seat').leakage.max).toBe(50);
    expect(test({ valveType: 'check', nominalSize: 25 }, 'seat').leakage.max).toBe(100);
    expect(test({ ...eighth, nominalSize: 100 }, 'shell')).toMatchObject({ pressureMin: 3, holdUnconfirmed: true });
  });

  it('requirement rows: one set per kept edition with the days it judges, or one unbounded set for a named edition', () => {
    const rows = requirementRows(base).filter((r) => r.bodyMaterial === 'wcb' && r.req.testType === 'seat');
    expect(rows.map(({ edition, from, to }) => ({ edition, from, to }))).toEqual([
      { edition: '10', from: '2016-10-01', to: null },
      { edition: '9', from: '2009-09-01', to: '2016-10-01' },
      { edition: '8', from: null, to: '2009-09-01' },
    ]);
    const pinned = requirementRows({ ...base, testEdition: '9' }).filter((r) => r.bodyMaterial === 'wcb' && r.req.testType === 'seat');
    expect(pinned.map(({ edition, from, to }) => ({ edition, from, to }))).toEqual([{ edition: '9', from: null, to: null }]);
    expect(requirementRows({ ...base, testEdition: '7' })).toEqual([]);
  });

  it("the test fluid's temperature: API 598's 5 °C to 50 °C for its liquid tests, no range where no source gives one", () => {
    const range = { min: 5, max: 50 };
    for (const x of ['shell', 'backseat', 'seat']) expect(test({}, x).fluidTemperature).toEqual(range);
    for (const key of ['8', '9', '10']) expect(test({ testEdition: key }, 'seat').fluidTemperature).toEqual(range);
    expect(test({}, 'air-seat').fluidTemperature).toBeNull();
    for (const testStandard of ['iso-5208', 'en-12266-1', 'api-6d', 'asme-b16.34'] as const)
      for (const x of ['shell', 'seat']) expect(test({ testStandard, leakageRate: 'D' }, x).fluidTemperature).toBeNull();
  });
});
