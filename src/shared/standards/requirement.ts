/**
 * A product's requirement: from its standard (the data files beside this one), valve type, size, seat,
 * leakage rate and the rated pressure of the unit's body material, what each test must reach. The one
 * statement of these derivations: the product form's live table, the stored requirement rows that the
 * database judges records by, the release gate, the report and the demo generator all read it.
 */
import { TEST_TYPES, type TestType } from '../contract/test-types';
import { API_598 } from './api-598';
import { EN_12266_1 } from './en-12266-1';
import { ISO_5208 } from './iso-5208';
import { bandOf, npsOf } from './sizes';
import type { LeakageRate, LeakageRule, SeatType, StandardEdition, TestStandardId, ValveType } from './types';

export const STANDARDS: Record<TestStandardId, StandardEdition> = {
  'api-598': API_598,
  'en-12266-1': EN_12266_1,
  'iso-5208': ISO_5208,
};

export const BODY_MATERIALS = ['fc', 'wcb', 'sus'] as const;
export type BodyMaterial = (typeof BODY_MATERIALS)[number];

/** What of a product the requirement depends on. */
export interface JudgedProduct {
  testStandard: TestStandardId | '';
  valveType: ValveType | null;
  nominalSize: number | null;
  seatType: SeatType | null;
  leakageRate: LeakageRate | null;
  pressureFc: number | null;
  pressureWcb: number | null;
  pressureSus: number | null;
}

export type LeakageKind = 'none' | 'drops/min' | 'bubbles/min' | 'mm3/s' | 'any';

export interface TestRequirement {
  testType: TestType;
  /** the standard requires this test of the valve type */
  required: boolean;
  /** the unit's body material has no rated pressure: the test pressure cannot be judged */
  unrated: boolean;
  /** MPa; null = no bound */
  pressureMin: number | null;
  pressureMax: number | null;
  /** seconds */
  holdMin: number;
  leakage: { kind: LeakageKind; max: number | null };
}

export interface ProductRequirement {
  standard: StandardEdition;
  /** the body material whose rating the pressures follow; null when the range names none and it is ambiguous */
  material: BodyMaterial | null;
  /** rated pressure at 38 °C of that material, MPa */
  ratedPressure: number | null;
  tests: TestRequirement[];
}

/** The product fields a standard needs that are not filled in (empty: the requirement can be derived). */
export function missingForStandard(p: JudgedProduct): Array<'valveType' | 'nominalSize' | 'seatType' | 'leakageRate'> {
  if (!p.testStandard) return [];
  const out: Array<'valveType' | 'nominalSize' | 'seatType' | 'leakageRate'> = [];
  if (!p.valveType) out.push('valveType');
  if (!p.nominalSize) out.push('nominalSize');
  if (!p.seatType) out.push('seatType');
  if (STANDARDS[p.testStandard].usesLeakageRate && !p.leakageRate) out.push('leakageRate');
  return out;
}

export function ratingOf(p: JudgedProduct, material: BodyMaterial): number | null {
  return material === 'fc' ? p.pressureFc : material === 'wcb' ? p.pressureWcb : p.pressureSus;
}

/** The body material a unit's pressures follow: the range's, or the product's only rated one. */
export function materialFor(p: JudgedProduct, rangeMaterial: BodyMaterial | null): BodyMaterial | null {
  if (rangeMaterial) return rangeMaterial;
  const rated = BODY_MATERIALS.filter((m) => ratingOf(p, m) !== null);
  return rated.length === 1 ? rated[0]! : null;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function leakageOf(rule: LeakageRule, dn: number, rate: LeakageRate | null): TestRequirement['leakage'] {
  switch (rule.kind) {
    case 'none':
      return { kind: 'none', max: 0 };
    case 'per-size': {
      const max = bandOf(rule.bands, dn);
      return max === 0 ? { kind: 'none', max: 0 } : { kind: rule.unit, max };
    }
    case 'per-dn': {
      if (!rate) return { kind: 'any', max: null };
      const max = round3(rule.factorByRate[rate] * dn);
      return max === 0 ? { kind: 'none', max: 0 } : { kind: 'mm3/s', max };
    }
    case 'per-nps':
      return { kind: 'mm3/s', max: round3(rule.perInch * npsOf(dn)) };
  }
}

/**
 * The requirement of a product's unit of the given body material (null: the range names none); null when
 * the product has no standard or lacks a field the standard needs.
 */
export function deriveRequirement(p: JudgedProduct, rangeMaterial: BodyMaterial | null): ProductRequirement | null {
  if (!p.testStandard || missingForStandard(p).length > 0) return null;
  const standard = STANDARDS[p.testStandard];
  const valveType = p.valveType!;
  const dn = p.nominalSize!;
  const seat = p.seatType!;
  const material = materialFor(p, rangeMaterial);
  const rated = material ? ratingOf(p, material) : null;
  const required = new Set(standard.requiredTests[valveType]);
  const tests: TestRequirement[] = [];
  for (const testType of TEST_TYPES) {
    const rule = standard.tests[testType];
    if (!rule) continue;
    // A backseat test where the valve type has no backseat is not judged (nor required).
    if (testType === 'backseat' && valveType !== 'gate' && valveType !== 'globe') continue;
    let pressureMin: number | null = null;
    let pressureMax: number | null = null;
    let unrated = false;
    if (rule.pressure?.kind === 'factor') {
      if (rated === null) unrated = true;
      else pressureMin = round3(rule.pressure.factor * rated);
    } else if (rule.pressure?.kind === 'band') {
      pressureMin = rule.pressure.minMPa;
      pressureMax = rule.pressure.maxMPa;
    }
    const byType = rule.leakageByValveType?.[valveType];
    const leakRule = (seat === 'soft' ? byType?.soft : byType?.metal) ?? rule.leakage[seat];
    tests.push({
      testType,
      required: required.has(testType),
      unrated,
      pressureMin,
      pressureMax,
      holdMin: bandOf(rule.holdingByValveType?.[valveType] ?? rule.holding, dn),
      leakage: leakageOf(leakRule, dn, p.leakageRate),
    });
  }
  return { standard, material, ratedPressure: rated, tests };
}

/** The rows of `product_requirements` for a product: one per (body material or '', judged test type). */
export function requirementRows(p: JudgedProduct): Array<{ bodyMaterial: BodyMaterial | ''; req: TestRequirement }> {
  const out: Array<{ bodyMaterial: BodyMaterial | ''; req: TestRequirement }> = [];
  for (const m of ['', ...BODY_MATERIALS] as const) {
    const r = deriveRequirement(p, m === '' ? null : m);
    if (!r) return [];
    for (const req of r.tests) out.push({ bodyMaterial: m, req });
  }
  return out;
}

/** The test types a unit of the product must have before a report is issued ([] without a standard). */
export function requiredTests(p: JudgedProduct): TestType[] {
  return (
    deriveRequirement(p, null)
      ?.tests.filter((t) => t.required)
      .map((t) => t.testType) ?? []
  );
}
