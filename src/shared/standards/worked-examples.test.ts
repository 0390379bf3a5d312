/**
 * The worked examples of docs/standards-sources.md, checked directly against the standard data objects.
 * Pure: no database, no server. Each example names the valve and the figures the doc states.
 */
import { describe, expect, it } from 'vitest';
import { API_598 } from './api-598';
import { API_6D } from './api-6d';
import { ASME_B16_34 } from './asme-b16-34';
import { EN_12266_1 } from './en-12266-1';
import { ISO_5208 } from './iso-5208';
import { EDITIONS, tableValue } from './requirement';
import type { LeakageRate, LeakageRule, SeatType, SizeBand, StandardEdition, TestRule, ValveType } from './types';
import type { TestType } from '../contract/test-types';

/** The first band whose maxDn (inclusive) holds the DN; null = no upper bound. */
function bandFor<T>(bands: SizeBand<T>[], dn: number): T {
  const band = bands.find((b) => b.maxDn === null || dn <= b.maxDn);
  if (!band) throw new Error(`no band for DN ${dn}`);
  return band.value;
}

function rule(std: StandardEdition, test: TestType): TestRule {
  const r = std.tests[test];
  if (!r) throw new Error(`${std.name} has no ${test} rule`);
  return r;
}

function holding(std: StandardEdition, test: TestType, valve: ValveType, dn: number): number {
  const r = rule(std, test);
  return bandFor(r.holdingByValveType?.[valve] ?? r.holding, dn);
}

function leakage(std: StandardEdition, test: TestType, valve: ValveType, seat: SeatType): LeakageRule {
  const r = rule(std, test);
  return r.leakageByValveType?.[valve]?.[seat] ?? r.leakage[seat];
}

/** Required test pressure in MPa for a factor rule, from the rated pressure at 38 °C (PS). */
function factorPressure(std: StandardEdition, test: TestType, ratedMPa: number): number {
  const p = rule(std, test).pressure;
  if (p?.kind !== 'factor') throw new Error(`${std.name} ${test} is not a factor rule`);
  return p.factor * ratedMPa;
}

/** Allowed count per minute (or mm³/s) of an API 598 per-size table at a DN. */
function countPerMinute(l: LeakageRule, dn: number): number {
  if (l.kind !== 'table') throw new Error(`expected table, got ${l.kind}`);
  return tableValue(l, dn);
}

/** Allowed mm³/s of a per-dn rule at a DN and leakage rate. */
function perDn(l: LeakageRule, dn: number, rate: LeakageRate): number {
  if (l.kind !== 'per-dn') throw new Error(`expected per-dn, got ${l.kind}`);
  const factor = l.factorByRate[rate];
  if (factor === undefined) throw new Error(`rate ${rate} is not defined`);
  return factor * dn;
}

describe('data sanity', () => {
  for (const std of [API_598, EN_12266_1, ISO_5208, API_6D, ASME_B16_34, ...Object.values(EDITIONS).flat()]) {
    it(`${std.name} ${std.edition}: every source key is listed and every band list ascends and ends open`, () => {
      const keys = new Set(std.sources.map((s) => s.key));
      for (const [test, r] of Object.entries(std.tests)) {
        expect(r.sources.length, `${test} has sources`).toBeGreaterThan(0);
        for (const key of r.sources) expect(keys.has(key), `${test}: ${key}`).toBe(true);
        const lists: SizeBand<number>[][] = [r.holding, ...Object.values(r.holdingByValveType ?? {})];
        const rules = [r.leakage.soft, r.leakage.metal, ...Object.values(r.leakageByValveType ?? {}).flatMap((x) => [x.soft, x.metal])];
        for (const l of rules) {
          if (l?.kind !== 'table') continue;
          const dns = l.rows.map((row) => row.dn);
          expect(
            [...dns].sort((a, b) => a - b),
            `${test} table rows ascend`,
          ).toEqual(dns);
        }
        for (const bands of lists) {
          expect(bands.at(-1)?.maxDn).toBeNull();
          const bounded = bands.filter((b) => b.maxDn !== null).map((b) => b.maxDn as number);
          expect([...bounded].sort((a, b) => a - b)).toEqual(bounded);
        }
      }
      for (const s of std.sources) expect(s.url).toMatch(/^https?:\/\//);
    });
  }
});

describe('API 598, 10th edition (2016)', () => {
  it('A1: gate NPS 4 (DN 100) CL150 WCB, metal seat, rated 1.96 MPa at 38 °C', () => {
    expect(API_598.requiredTests.gate).toEqual(['shell', 'backseat', 'air-seat']);
    expect(factorPressure(API_598, 'shell', 1.96)).toBeCloseTo(2.94, 3);
    expect(holding(API_598, 'shell', 'gate', 100)).toBe(60);
    expect(leakage(API_598, 'shell', 'gate', 'metal')).toEqual({ kind: 'none' });
    expect(factorPressure(API_598, 'backseat', 1.96)).toBeCloseTo(2.156, 3);
    expect(holding(API_598, 'backseat', 'gate', 100)).toBe(60);
    expect(leakage(API_598, 'backseat', 'gate', 'metal')).toEqual({ kind: 'none' });
    expect(rule(API_598, 'air-seat').pressure).toEqual({ kind: 'band', minMPa: 0.4, maxMPa: 0.7 });
    expect(holding(API_598, 'air-seat', 'gate', 100)).toBe(60);
    expect(countPerMinute(leakage(API_598, 'air-seat', 'gate', 'metal'), 100)).toBe(16);
    // optional high-pressure closure test, if run:
    expect(factorPressure(API_598, 'seat', 1.96)).toBeCloseTo(2.156, 3);
    expect(holding(API_598, 'seat', 'gate', 100)).toBe(60);
    expect(countPerMinute(leakage(API_598, 'seat', 'gate', 'metal'), 100)).toBe(8);
  });

  it('A2: globe NPS 2 (DN 50) CL800 A105, metal seat, rated 13.6 MPa', () => {
    expect(API_598.requiredTests.globe).toEqual(['shell', 'backseat', 'seat']);
    expect(factorPressure(API_598, 'shell', 13.6)).toBeCloseTo(20.4, 3);
    expect(holding(API_598, 'shell', 'globe', 50)).toBe(15);
    expect(factorPressure(API_598, 'seat', 13.6)).toBeCloseTo(14.96, 3);
    expect(holding(API_598, 'seat', 'globe', 50)).toBe(15);
    expect(countPerMinute(leakage(API_598, 'seat', 'globe', 'metal'), 50)).toBe(0);
    expect(holding(API_598, 'backseat', 'globe', 50)).toBe(15);
  });

  it('A3: swing check NPS 8 (DN 200) CL300 WCB, metal seat, rated 5.1 MPa', () => {
    expect(API_598.requiredTests.check).toEqual(['shell', 'seat']);
    expect(factorPressure(API_598, 'shell', 5.1)).toBeCloseTo(7.65, 3);
    expect(holding(API_598, 'shell', 'check', 200)).toBe(120);
    expect(factorPressure(API_598, 'seat', 5.1)).toBeCloseTo(5.61, 3);
    expect(holding(API_598, 'seat', 'check', 200)).toBe(120);
    // the table's NPS 8 row: 24 cm³/min = 400 mm³/s
    expect(countPerMinute(leakage(API_598, 'seat', 'check', 'metal'), 200)).toBeCloseTo(400, 6);
    // the table's NPS 8 row: 0.34 m³/h ≈ 94 444 mm³/s (0.042 per inch would give 0.336)
    expect(countPerMinute(leakage(API_598, 'air-seat', 'check', 'metal'), 200)).toBeCloseTo(94_444.44, 1);
  });

  it('A4: check NPS 2 (DN 50) closure holds 60 s, a gate of the same size 15 s', () => {
    expect(holding(API_598, 'seat', 'check', 50)).toBe(60);
    expect(holding(API_598, 'air-seat', 'check', 50)).toBe(60);
    expect(holding(API_598, 'seat', 'gate', 50)).toBe(15);
  });

  it('A5: floating ball NPS 1 (DN 25) CL150, soft seat', () => {
    expect(API_598.requiredTests.ball).toEqual(['shell', 'air-seat']);
    expect(holding(API_598, 'shell', 'ball', 25)).toBe(15);
    expect(holding(API_598, 'air-seat', 'ball', 25)).toBe(15);
    expect(leakage(API_598, 'air-seat', 'ball', 'soft')).toEqual({ kind: 'none' });
    expect(leakage(API_598, 'seat', 'ball', 'soft')).toEqual({ kind: 'none' });
  });

  it('A6: butterfly NPS 16 (DN 400), metal seat', () => {
    expect(API_598.requiredTests.butterfly).toEqual(['shell', 'air-seat']);
    expect(holding(API_598, 'shell', 'butterfly', 400)).toBe(300);
    expect(holding(API_598, 'air-seat', 'butterfly', 400)).toBe(120);
    expect(countPerMinute(leakage(API_598, 'air-seat', 'butterfly', 'metal'), 400)).toBe(64);
    expect(countPerMinute(leakage(API_598, 'seat', 'butterfly', 'metal'), 400)).toBe(32);
  });

  it('backseat only for gate and globe; no functional rule; no leakage rate', () => {
    for (const v of ['check', 'ball', 'butterfly', 'plug'] as const) expect(API_598.requiredTests[v]).not.toContain('backseat');
    expect(API_598.tests.functional).toBeUndefined();
    expect(API_598.usesLeakageRate).toBe(false);
  });
});

describe('EN 12266-1:2012', () => {
  it('E1: gate DN 100 PN 16 (PS 1.6 MPa), leakage rate A', () => {
    expect(EN_12266_1.requiredTests.gate).toEqual(['shell', 'seat']);
    expect(factorPressure(EN_12266_1, 'shell', 1.6)).toBeCloseTo(2.4, 3);
    expect(holding(EN_12266_1, 'shell', 'gate', 100)).toBe(60);
    expect(leakage(EN_12266_1, 'shell', 'gate', 'metal')).toEqual({ kind: 'none' });
    expect(factorPressure(EN_12266_1, 'seat', 1.6)).toBeCloseTo(1.76, 3);
    expect(holding(EN_12266_1, 'seat', 'gate', 100)).toBe(60);
    expect(perDn(leakage(EN_12266_1, 'seat', 'gate', 'metal'), 100, 'A')).toBe(0);
  });

  it('E2: globe DN 200 PN 40 (PS 4.0 MPa), metal seat, rate D', () => {
    expect(factorPressure(EN_12266_1, 'shell', 4.0)).toBeCloseTo(6.0, 3);
    expect(holding(EN_12266_1, 'shell', 'globe', 200)).toBe(120);
    expect(factorPressure(EN_12266_1, 'seat', 4.0)).toBeCloseTo(4.4, 3);
    expect(holding(EN_12266_1, 'seat', 'globe', 200)).toBe(120);
    expect(perDn(leakage(EN_12266_1, 'seat', 'globe', 'metal'), 200, 'D')).toBeCloseTo(20, 6);
    expect(rule(EN_12266_1, 'air-seat').pressure).toEqual({ kind: 'band', minMPa: 0.5, maxMPa: 0.7 });
    expect(holding(EN_12266_1, 'air-seat', 'globe', 200)).toBe(120);
    expect(perDn(leakage(EN_12266_1, 'air-seat', 'globe', 'metal'), 200, 'D')).toBeCloseTo(6000, 6);
  });

  it('E3: butterfly DN 400 PN 10 (PS 1.0 MPa), rate B', () => {
    expect(factorPressure(EN_12266_1, 'shell', 1.0)).toBeCloseTo(1.5, 3);
    expect(holding(EN_12266_1, 'shell', 'butterfly', 400)).toBe(300);
    expect(factorPressure(EN_12266_1, 'seat', 1.0)).toBeCloseTo(1.1, 3);
    expect(holding(EN_12266_1, 'seat', 'butterfly', 400)).toBe(120);
    expect(perDn(leakage(EN_12266_1, 'seat', 'butterfly', 'soft'), 400, 'B')).toBeCloseTo(4, 6);
  });

  it('E4: ball DN 50 PN 40, soft seat, rate A; no backseat rule', () => {
    expect(EN_12266_1.requiredTests.ball).toEqual(['shell', 'seat']);
    expect(holding(EN_12266_1, 'shell', 'ball', 50)).toBe(15);
    expect(holding(EN_12266_1, 'seat', 'ball', 50)).toBe(15);
    expect(perDn(leakage(EN_12266_1, 'seat', 'ball', 'soft'), 50, 'A')).toBe(0);
    expect(EN_12266_1.tests.backseat).toBeUndefined();
    expect(EN_12266_1.usesLeakageRate).toBe(true);
  });

  it('rate factors A–G (liquid / gas), mm³/s per mm of DN', () => {
    const liquid = leakage(EN_12266_1, 'seat', 'gate', 'metal');
    const gas = leakage(EN_12266_1, 'air-seat', 'gate', 'metal');
    expect(liquid.kind === 'per-dn' && liquid.factorByRate).toEqual({ A: 0, B: 0.01, C: 0.03, D: 0.1, E: 0.3, F: 1, G: 2 });
    expect(gas.kind === 'per-dn' && gas.factorByRate).toEqual({ A: 0, B: 0.3, C: 3, D: 30, E: 300, F: 3000, G: 6000 });
  });
});

describe('ISO 5208:2015', () => {
  it('I1: gate DN 150 Class 300 WCB, metal seat, rate D, rated 5.1 MPa', () => {
    expect(ISO_5208.requiredTests.gate).toEqual(['shell', 'air-seat']);
    expect(factorPressure(ISO_5208, 'shell', 5.1)).toBeCloseTo(7.65, 3);
    expect(holding(ISO_5208, 'shell', 'gate', 150)).toBe(60);
    expect(rule(ISO_5208, 'air-seat').pressure).toEqual({ kind: 'band', minMPa: 0.5, maxMPa: 0.7 });
    expect(holding(ISO_5208, 'air-seat', 'gate', 150)).toBe(60);
    expect(perDn(leakage(ISO_5208, 'air-seat', 'gate', 'metal'), 150, 'D')).toBeCloseTo(4500, 6);
    expect(factorPressure(ISO_5208, 'seat', 5.1)).toBeCloseTo(5.61, 3);
    expect(perDn(leakage(ISO_5208, 'seat', 'gate', 'metal'), 150, 'D')).toBeCloseTo(15, 6);
  });

  it('I2: check DN 300, metal seat, rate C; check DN 50 closure 60 s', () => {
    expect(ISO_5208.requiredTests.check).toEqual(['shell', 'seat']);
    expect(holding(ISO_5208, 'seat', 'check', 300)).toBe(120);
    expect(perDn(leakage(ISO_5208, 'seat', 'check', 'metal'), 300, 'C')).toBeCloseTo(9, 6);
    expect(holding(ISO_5208, 'seat', 'check', 50)).toBe(60);
  });

  it('I3: globe DN 25, rate A; backseat optional (not required)', () => {
    expect(ISO_5208.requiredTests.globe).toEqual(['shell', 'seat']);
    expect(holding(ISO_5208, 'shell', 'globe', 25)).toBe(15);
    expect(holding(ISO_5208, 'seat', 'globe', 25)).toBe(15);
    expect(perDn(leakage(ISO_5208, 'seat', 'globe', 'soft'), 25, 'A')).toBe(0);
    for (const v of ['gate', 'globe', 'check', 'ball', 'butterfly', 'plug'] as const) {
      expect(ISO_5208.requiredTests[v]).not.toContain('backseat');
    }
    expect(holding(ISO_5208, 'backseat', 'globe', 25)).toBe(15);
  });

  it('I4: DN 100, rate E: 30 mm³/s liquid, 30 000 mm³/s gas; DN 400 shell 300 s', () => {
    expect(perDn(leakage(ISO_5208, 'seat', 'ball', 'metal'), 100, 'E')).toBeCloseTo(30, 6);
    expect(perDn(leakage(ISO_5208, 'air-seat', 'ball', 'metal'), 100, 'E')).toBeCloseTo(30_000, 6);
    expect(holding(ISO_5208, 'shell', 'ball', 400)).toBe(300);
  });
});
