/**
 * A product's requirement: from its standard (the data files beside this one), valve type, size, seat,
 * leakage rate and the rated pressure of the unit's body material, what each test must reach. The one
 * statement of these derivations: the product form's live table, the stored requirement rows that the
 * database judges records by, the release gate, the report and the demo generator all read it.
 */
import { TEST_TYPES, type TestType } from './test-types';
import { API_598 } from './api-598';
import { API_598_8TH, API_598_9TH } from './api-598-editions';
import { API_6D } from './api-6d';
import { ASME_B16_34 } from './asme-b16-34';
import { EN_12266_1 } from './en-12266-1';
import { ISO_5208 } from './iso-5208';
import { bandAt, npsOf } from './sizes';
import { inHigherClassColumn, readPressureClass } from './pressure-class';
import type { LeakageRate, LeakageRule, RequirementNote, SeatType, StandardEdition, TestStandardId, ValveType } from './types';

/** The current edition of each standard. */
export const STANDARDS: Record<TestStandardId, StandardEdition> = {
  'api-598': API_598,
  'en-12266-1': EN_12266_1,
  'iso-5208': ISO_5208,
  'api-6d': API_6D,
  'asme-b16.34': ASME_B16_34,
};

/** Every kept edition of each standard, newest first (a product may name one where more than one is kept). */
export const EDITIONS: Record<TestStandardId, readonly StandardEdition[]> = {
  'api-598': [API_598, API_598_9TH, API_598_8TH],
  'en-12266-1': [EN_12266_1],
  'iso-5208': [ISO_5208],
  'api-6d': [API_6D],
  'asme-b16.34': [ASME_B16_34],
};

/** The kept edition of a standard by its key; null when the standard keeps no such edition. */
export function editionOf(id: TestStandardId, key: string): StandardEdition | null {
  return EDITIONS[id].find((e) => e.editionKey === key) ?? null;
}

/**
 * The edition a product's test is judged by: the one the product names, else the one in force on the day it
 * was tested (the newest whose `inForceFrom` is on or before it; before every kept one, the oldest), else,
 * without a test date, the current one.
 */
export function editionFor(
  p: Pick<JudgedProduct, 'testStandard' | 'testEdition'>,
  testedAt?: Date | string | null,
): StandardEdition | null {
  if (!p.testStandard) return null;
  if (p.testEdition) return editionOf(p.testStandard, p.testEdition);
  const editions = EDITIONS[p.testStandard];
  if (testedAt === undefined || testedAt === null) return editions[0]!;
  const day = (typeof testedAt === 'string' ? new Date(testedAt) : testedAt).toISOString().slice(0, 10);
  return editions.find((e) => e.inForceFrom <= day) ?? editions[editions.length - 1]!;
}

/**
 * The revision of the derivation below: raised whenever a change here (not in the data files) changes the
 * rows it derives, so that the server derives the stored rows again at its next start (standards-version.ts).
 */
export const REQUIREMENT_DERIVATION_REVISION = 7;

export const BODY_MATERIALS = ['fc', 'wcb', 'sus'] as const;
export type BodyMaterial = (typeof BODY_MATERIALS)[number];

/** What of a product the requirement depends on. */
export interface JudgedProduct {
  testStandard: TestStandardId | '';
  valveType: ValveType | null;
  nominalSize: number | null;
  seatType: SeatType | null;
  leakageRate: LeakageRate | null;
  /** as typed ("CL150", "PN40"); absent or unread: Table 1's usual column */
  pressureClass?: string;
  /** the edition the product is tested to (a kept edition's key); absent or '': the edition in force when tested */
  testEdition?: string;
  pressureFc: number | null;
  pressureWcb: number | null;
  pressureSus: number | null;
}

export type LeakageKind = 'none' | 'drops/min' | 'bubbles/min' | 'mm3/s' | 'any';

/**
 * How a factor test's pressure was reached: `factor` × `rated` = `exact`, and, where the standard rounds
 * (ASME B16.34 via API 598), up to the next step: "1.5 × 1.96 MPa = 2.94 MPa, rounded up to 3.0 MPa".
 */
export interface PressureBasis {
  factor: number;
  rated: number;
  exact: number;
  roundedBy: 'asme-b16.34' | null;
}

export interface TestRequirement {
  testType: TestType;
  /** the standard requires this test of the valve type */
  required: boolean;
  /** the unit's body material has no rated pressure: the test pressure cannot be judged */
  unrated: boolean;
  /** MPa; null = no bound */
  pressureMin: number | null;
  pressureMax: number | null;
  /** the derivation of pressureMin from the rating; null for a band or an unrated body */
  pressureBasis: PressureBasis | null;
  /** seconds */
  holdMin: number;
  /** no source available confirms holdMin: shown with a mark and a note wherever it is printed */
  holdUnconfirmed: boolean;
  leakage: { kind: LeakageKind; max: number | null };
  /** the test fluid's temperature range, °C, both ends included; null where the standard sets none we could cite */
  fluidTemperature: { min: number; max: number } | null;
}

export interface ProductRequirement {
  standard: StandardEdition;
  /** the body material whose rating the pressures follow; null when the range names none and it is ambiguous */
  material: BodyMaterial | null;
  /** rated pressure at 38 °C of that material, MPa */
  ratedPressure: number | null;
  tests: TestRequirement[];
  /** footnotes of the requirement table (types.ts, RequirementNote) */
  notes: RequirementNote[];
}

/**
 * The tests Table 1 requires of the product: its higher-class column where the class is in it and the
 * standard has one for the valve type, else the seat's row where the seat decides, else the usual column.
 */
export function requiredTestsOf(
  standard: StandardEdition,
  p: Pick<JudgedProduct, 'pressureClass'> & { valveType: ValveType; nominalSize: number; seatType: SeatType },
): { tests: TestType[]; notes: RequirementNote[] } {
  const notes: RequirementNote[] = [...(standard.requiredTestsNotes?.[p.valveType] ?? [])];
  const higherTests = standard.requiredTestsHigherClass?.[p.valveType];
  if (higherTests) {
    const higher = inHigherClassColumn(readPressureClass(p.pressureClass), p.nominalSize);
    if (higher === null && p.pressureClass) notes.push('class-not-read');
    if (higher) return { tests: higherTests, notes: [...notes, 'higher-class'] };
  }
  const bySeat = standard.requiredTestsBySeat?.[p.valveType]?.[p.seatType];
  return { tests: bySeat ?? standard.requiredTests[p.valveType], notes };
}

/** The product fields a standard needs that are not filled in (empty: the requirement can be derived). */
export function missingForStandard(p: JudgedProduct): Array<'valveType' | 'nominalSize' | 'seatType' | 'leakageRate'> {
  if (!p.testStandard) return [];
  const out: Array<'valveType' | 'nominalSize' | 'seatType' | 'leakageRate'> = [];
  if (!p.valveType) out.push('valveType');
  if (!p.nominalSize) out.push('nominalSize');
  if (!p.seatType) out.push('seatType');
  const standard = editionFor(p) ?? STANDARDS[p.testStandard];
  // A rate the standard does not define (EN 12266-1 has no AA, CC or EE) is as good as none.
  const rateNeeded = standard.usesLeakageRate && !standard.defaultLeakageRate;
  if (rateNeeded && !p.leakageRate) out.push('leakageRate');
  else if (p.leakageRate && standard.usesLeakageRate && !(standard.leakageRates ?? []).includes(p.leakageRate)) out.push('leakageRate');
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

/** Up to the next multiple of `step`, in thousandths so that 1.5 × 1.6 = 2.4000000000000004 stays 2.4. */
export function roundUpTo(n: number, step: number): number {
  const milli = Math.round(n * 1000);
  const stepMilli = Math.round(step * 1000);
  return (Math.ceil(milli / stepMilli) * stepMilli) / 1000;
}

/**
 * The figure of a per-size table at a DN, as the standard's text reads it (types.ts, 'table'): the first row
 * for it and every smaller size, a tabulated size its own row, a size between rows the per-inch rule, a size
 * past the table the last row.
 */
export function tableValue(rule: Extract<LeakageRule, { kind: 'table' }>, dn: number): number {
  const rows = rule.rows;
  if (dn <= rows[0]!.dn) return rows[0]!.value;
  const last = rows[rows.length - 1]!;
  if (dn >= last.dn) return last.value;
  const exact = rows.find((r) => r.dn === dn);
  if (exact) return exact.value;
  if (rule.between === 'next-row') return rows.find((r) => r.dn > dn)!.value;
  return round3(rule.perInch * npsOf(dn));
}

function leakageOf(rule: LeakageRule, dn: number, rate: LeakageRate | null): TestRequirement['leakage'] {
  switch (rule.kind) {
    case 'none':
      return { kind: 'none', max: 0 };
    case 'table': {
      const max = round3(tableValue(rule, dn));
      return max === 0 ? { kind: 'none', max: 0 } : { kind: rule.unit, max };
    }
    case 'per-nps':
      return { kind: 'mm3/s', max: round3(rule.perInch * npsOf(dn)) };
    case 'per-dn': {
      const factor = rate ? rule.factorByRate[rate] : undefined;
      if (factor === undefined) return { kind: 'any', max: null };
      const max = round3(factor * dn);
      return max === 0 ? { kind: 'none', max: 0 } : { kind: 'mm3/s', max };
    }
  }
}

/**
 * The requirement of a product's unit of the given body material (null: the range names none); null when
 * the product has no standard or lacks a field the standard needs.
 */
export function deriveRequirement(
  p: JudgedProduct,
  rangeMaterial: BodyMaterial | null,
  testedAt?: Date | string | null,
): ProductRequirement | null {
  if (!p.testStandard || missingForStandard(p).length > 0) return null;
  const standard = editionFor(p, testedAt);
  if (!standard) return null;
  const valveType = p.valveType!;
  const dn = p.nominalSize!;
  const seat = p.seatType!;
  const material = materialFor(p, rangeMaterial);
  const rated = material ? ratingOf(p, material) : null;
  const table1 = requiredTestsOf(standard, { pressureClass: p.pressureClass, valveType, nominalSize: dn, seatType: seat });
  const required = new Set(table1.tests);
  const tests: TestRequirement[] = [];
  for (const testType of TEST_TYPES) {
    const rule = standard.tests[testType];
    if (!rule) continue;
    // A backseat test where the valve type has no backseat is not judged (nor required).
    if (testType === 'backseat' && valveType !== 'gate' && valveType !== 'globe') continue;
    let pressureMin: number | null = null;
    let pressureMax: number | null = null;
    let pressureBasis: PressureBasis | null = null;
    let unrated = false;
    if (rule.pressure?.kind === 'factor') {
      if (rated === null) unrated = true;
      else {
        const { factor, roundUp } = rule.pressure;
        const exact = round3(factor * rated);
        const rounds = roundUp !== undefined && material !== null && roundUp.materials.includes(material);
        pressureMin = rounds ? roundUpTo(exact, roundUp.stepMPa) : exact;
        pressureBasis = { factor, rated, exact, roundedBy: rounds ? roundUp.rule : null };
      }
    } else if (rule.pressure?.kind === 'band') {
      pressureMin = rule.pressure.minMPa;
      pressureMax = rule.pressure.maxMPa;
    }
    const hold = bandAt(rule.holdingByValveType?.[valveType] ?? rule.holding, dn);
    const byType = rule.leakageByValveType?.[valveType];
    const leakRule = (seat === 'soft' ? byType?.soft : byType?.metal) ?? rule.leakage[seat];
    tests.push({
      testType,
      required: required.has(testType),
      unrated,
      pressureMin,
      pressureMax,
      pressureBasis,
      holdMin: hold.value,
      holdUnconfirmed: hold.unconfirmed === true,
      leakage: leakageOf(leakRule, dn, p.leakageRate ?? standard.defaultLeakageRate?.[seat] ?? null),
      fluidTemperature: rule.fluidTemperature ? { min: rule.fluidTemperature.minC, max: rule.fluidTemperature.maxC } : null,
    });
  }
  const notes: RequirementNote[] = [...table1.notes];
  if (standard.gasClosureMayReplace && alternativesOf(p).seat?.includes('air-seat')) notes.push('gas-closure-may-replace');
  if (!p.leakageRate && standard.defaultLeakageRate) notes.push('rate-by-standard');
  if (tests.some((x) => x.holdUnconfirmed)) notes.push('hold-unconfirmed');
  return { standard, material, ratedPressure: rated, tests, notes };
}

/**
 * The tests that may stand in for a required one: the standard's own (EN 12266-1 and ISO 5208 accept the
 * seat test with gas), and ASME B16.34's gas closure test where its size and class allow it.
 */
export function alternativesOf(p: JudgedProduct): Partial<Record<TestType, TestType[]>> {
  const standard = editionFor(p);
  if (!standard) return {};
  const out: Partial<Record<TestType, TestType[]>> = { ...standard.alternatives };
  const gas = standard.gasClosureMayReplace;
  if (gas && p.nominalSize !== null) {
    const rating = readPressureClass(p.pressureClass);
    const classValue = rating?.system === 'class' ? rating.value : null;
    const allowed =
      p.nominalSize <= gas.anyClassMaxDn || (p.nominalSize <= gas.belowClassMaxDn && classValue !== null && classValue < gas.belowClass);
    if (allowed) out.seat = [...(out.seat ?? []), 'air-seat'];
  }
  return out;
}

/**
 * The rows of `product_requirements` for a product: one per (edition, body material or '', judged test type).
 * A product that names an edition has that edition's rows for every test date (`from` and `to` null); one that
 * names none has each kept edition's rows for the days it is in force: from its `inForceFrom` (null for the
 * oldest, which also judges earlier tests) to the next newer edition's (null for the newest).
 */
export function requirementRows(p: JudgedProduct): Array<{
  bodyMaterial: BodyMaterial | '';
  edition: string;
  from: string | null;
  to: string | null;
  req: TestRequirement;
}> {
  if (!p.testStandard) return [];
  const pinned = p.testEdition ? editionOf(p.testStandard, p.testEdition) : null;
  if (p.testEdition && !pinned) return [];
  const editions = pinned ? [pinned] : EDITIONS[p.testStandard];
  const out: ReturnType<typeof requirementRows> = [];
  editions.forEach((edition, i) => {
    const from = pinned || i === editions.length - 1 ? null : edition.inForceFrom;
    const to = pinned || i === 0 ? null : editions[i - 1]!.inForceFrom;
    for (const m of ['', ...BODY_MATERIALS] as const) {
      const r = deriveRequirement({ ...p, testEdition: edition.editionKey }, m === '' ? null : m);
      if (!r) return;
      for (const req of r.tests) out.push({ bodyMaterial: m, edition: edition.editionKey, from, to, req });
    }
  });
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
