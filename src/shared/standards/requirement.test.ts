/** The requirement a product is judged by, derived from the standards data (requirement.ts). */
import { describe, expect, it } from 'vitest';
import { deriveRequirement, materialFor, missingForStandard, requiredTests, requirementRows, type JudgedProduct } from './requirement';
import { npsLabel } from './sizes';

const gate: JudgedProduct = {
  testStandard: 'api-598',
  valveType: 'gate',
  nominalSize: 100,
  seatType: 'metal',
  leakageRate: null,
  pressureFc: null,
  pressureWcb: 1.96,
  pressureSus: null,
};

describe('deriveRequirement', () => {
  it('API 598 gate, DN 100 (NPS 4), metal seat, WCB 1.96 MPa: the figures a report prints', () => {
    const r = deriveRequirement(gate, 'wcb')!;
    expect(r.standard.name).toBe('API 598');
    const by = Object.fromEntries(r.tests.map((t) => [t.testType, t]));
    // ASME B16.34's rounding up to the next 1 bar: 2.94 → 3.0 MPa, 2.156 → 2.2 MPa.
    expect(by.shell).toMatchObject({ required: true, pressureMin: 3, holdMin: 60, leakage: { kind: 'none' } });
    expect(by.shell!.pressureBasis).toEqual({ factor: 1.5, rated: 1.96, exact: 2.94, roundedBy: 'asme-b16.34' });
    expect(by.backseat).toMatchObject({ required: true, pressureMin: 2.2, holdMin: 60, leakage: { kind: 'none' } });
    expect(by.seat).toMatchObject({ required: false, pressureMin: 2.2, holdMin: 60, leakage: { kind: 'drops/min', max: 8 } });
    expect(by['air-seat']).toMatchObject({ required: true, pressureMin: 0.4, pressureMax: 0.7, leakage: { kind: 'bubbles/min', max: 16 } });
    expect(by.functional).toBeUndefined();
  });

  it('no backseat requirement for valves without a backseat; soft seats allow no leakage', () => {
    const r = deriveRequirement({ ...gate, valveType: 'ball', seatType: 'soft' }, 'wcb')!;
    expect(r.tests.map((t) => t.testType)).not.toContain('backseat');
    expect(r.tests.find((t) => t.testType === 'air-seat')!.leakage).toEqual({ kind: 'none', max: 0 });
  });

  it('EN 12266-1 leakage rate D, DN 150: liquid 0.1 × DN = 15 mm³/s; rate A none', () => {
    const en: JudgedProduct = { ...gate, testStandard: 'en-12266-1', nominalSize: 150, leakageRate: 'D' };
    expect(deriveRequirement(en, 'wcb')!.tests.find((t) => t.testType === 'seat')!.leakage).toEqual({ kind: 'mm3/s', max: 15 });
    expect(deriveRequirement({ ...en, leakageRate: 'A' }, 'wcb')!.tests.find((t) => t.testType === 'seat')!.leakage).toEqual({
      kind: 'none',
      max: 0,
    });
  });

  it('a range without a body material uses the only rating; with several it cannot judge the pressure', () => {
    expect(materialFor(gate, null)).toBe('wcb');
    const two = { ...gate, pressureSus: 4 };
    expect(materialFor(two, null)).toBeNull();
    const shell = deriveRequirement(two, null)!.tests.find((t) => t.testType === 'shell')!;
    expect(shell).toMatchObject({ unrated: true, pressureMin: null });
    expect(deriveRequirement(two, 'sus')!.tests.find((t) => t.testType === 'shell')!.pressureMin).toBe(6);
  });

  it('no requirement without a standard or with a field it needs missing', () => {
    expect(deriveRequirement({ ...gate, testStandard: '' }, 'wcb')).toBeNull();
    expect(missingForStandard({ ...gate, nominalSize: null, seatType: null })).toEqual(['nominalSize', 'seatType']);
    expect(missingForStandard({ ...gate, testStandard: 'iso-5208' })).toEqual(['leakageRate']);
    expect(deriveRequirement({ ...gate, valveType: null }, 'wcb')).toBeNull();
    expect(requirementRows({ ...gate, testStandard: '' })).toEqual([]);
  });

  it('rows for every body material and the unstated one; the required tests of the valve type', () => {
    const rows = requirementRows(gate);
    expect(new Set(rows.map((r) => r.bodyMaterial))).toEqual(new Set(['', 'fc', 'wcb', 'sus']));
    expect(
      rows
        .filter((r) => r.bodyMaterial === 'fc')
        .every((r) => r.req.unrated || r.req.pressureMin === null || r.req.testType === 'air-seat'),
    ).toBe(true);
    expect(requiredTests(gate)).toEqual(['shell', 'backseat', 'air-seat']);
  });

  it('prints NPS beside DN', () => {
    expect([npsLabel(50), npsLabel(65), npsLabel(100), npsLabel(20)]).toEqual(['NPS 2', 'NPS 2½', 'NPS 4', 'NPS ¾']);
  });
});
