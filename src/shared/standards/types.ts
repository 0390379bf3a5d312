/**
 * The shape of a test standard as data: one file per standard and edition (api-598.ts, en-12266-1.ts,
 * iso-5208.ts) fills it in, naming the edition and where each figure comes from. requirement.ts derives a
 * product's requirement from it; nothing else states these figures.
 */
import type { TestType } from '../contract/test-types';

export const TEST_STANDARD_IDS = ['api-598', 'en-12266-1', 'iso-5208', 'api-6d', 'asme-b16.34'] as const;
export type TestStandardId = (typeof TEST_STANDARD_IDS)[number];
export const VALVE_TYPES = ['gate', 'globe', 'check', 'ball', 'butterfly', 'plug'] as const;
export type ValveType = (typeof VALVE_TYPES)[number];
export const SEAT_TYPES = ['soft', 'metal'] as const;
export type SeatType = (typeof SEAT_TYPES)[number];
/** ISO 5208's ten closure leakage rates in its order; EN 12266-1 defines A to G of them. */
export const LEAKAGE_RATES = ['A', 'AA', 'B', 'C', 'CC', 'D', 'E', 'EE', 'F', 'G'] as const;
export type LeakageRate = (typeof LEAKAGE_RATES)[number];

/** A secondary source a figure was checked against (the standards themselves are not in the repository). */
export interface Source {
  /** short key used by the figures below, e.g. 'valveworld-api598' */
  key: string;
  title: string;
  url: string;
}

/** A figure by size: the first band whose `maxDn` (inclusive, nominal size in mm) holds the DN wins; null = no upper bound. */
export interface SizeBand<T> {
  maxDn: number | null;
  value: T;
  /** no source available confirms this figure (docs/standards-sources.md): the product marks it where it shows it */
  unconfirmed?: boolean;
}

/** One row of a standard's leakage table: the figure for exactly this DN (the first row: for this DN and below). */
export interface TableRow {
  dn: number;
  value: number;
}

/**
 * Allowed leakage of one test. 'none' = no visible leakage. 'table' = a standard's per-size table (API 598:
 * drops/min and bubbles/min for metal seats, cm³/min and m³/h for metal-seated check valves, here as mm³/s),
 * read as the standard's text says: the first row holds every smaller size, a tabulated size takes its own row
 * (the table's rounded figure), a size between rows takes `perInch` × its NPS, the rule the table is drawn
 * from, and a size past the last row keeps the last row's figure. 'per-dn' = a volume rate proportional to DN
 * (EN 12266-1 / ISO 5208 leakage rates: mm³/s = factor × DN), the factor chosen by the product's rate.
 * 'per-nps' = a volume rate per inch of NPS at every size (MSS SP-61's, which ASME B16.34 leaves the rate to).
 */
export type LeakageRule =
  | { kind: 'none' }
  | {
      kind: 'table';
      unit: 'drops/min' | 'bubbles/min' | 'mm3/s';
      rows: ReadonlyArray<TableRow>;
      perInch: number;
      /** a size between rows: the per-inch rule (default), or the next row's figure (a table of size bands) */
      between?: 'per-inch' | 'next-row';
    }
  | { kind: 'per-dn'; unit: 'mm3/s'; factorByRate: Partial<Record<LeakageRate, number>> }
  | { kind: 'per-nps'; unit: 'mm3/s'; perInch: number };

/**
 * How a factor × rating is rounded: up to the next `stepMPa` (ASME B16.34's "rounded off to the next higher
 * 1 bar increment" for SI units, which API 598 applies to steel valves). Applied to steel bodies only
 * (`materials`); a grey-iron body keeps the bare product, since API 598 lists iron valves' pressures apart.
 */
export interface PressureRounding {
  stepMPa: number;
  rule: 'asme-b16.34';
  materials: ReadonlyArray<'fc' | 'wcb' | 'sus'>;
}

/** How one test type is judged under the standard. */
export interface TestRule {
  /**
   * The required test pressure: a factor of the rated pressure at 38 °C (PS) for the body material, or a
   * fixed gas pressure band in MPa (low-pressure closure); null = no pressure requirement (functional).
   */
  pressure: { kind: 'factor'; factor: number; roundUp?: PressureRounding } | { kind: 'band'; minMPa: number; maxMPa: number | null } | null;
  /** minimum holding time in seconds by size; per valve type where the standard differs (e.g. check valves) */
  holding: SizeBand<number>[];
  holdingByValveType?: Partial<Record<ValveType, SizeBand<number>[]>>;
  /** allowed leakage for soft and metal seats */
  leakage: { soft: LeakageRule; metal: LeakageRule };
  /** per valve type where it differs (e.g. API 598 metal-seated check valves) */
  leakageByValveType?: Partial<Record<ValveType, { soft?: LeakageRule; metal?: LeakageRule }>>;
  /**
   * the range the test fluid's temperature must lie in, °C, both ends included; absent where no source gives
   * the standard's figure (docs/decisions/0054-test-conditions.md): such a test is not judged on it
   */
  fluidTemperature?: { minC: number; maxC: number };
  /** source keys for this test's figures */
  sources: string[];
}

/**
 * What the product's requirement table says beside its figures, as footnotes in both languages:
 * `required-by-seat` — sources disagree on which closure test Table 1 requires of this valve type, and the
 * seat decides it here; `ball-as-floating` — a ball valve is judged as a floating one (a trunnion-mounted
 * one with a resilient seat needs the high-pressure closure test instead); `higher-class` — the pressure
 * class is in Table 1's higher column; `class-not-read` — the pressure class could not be read, so the
 * usual column applies; `hold-unconfirmed` — a minimum hold no source could confirm; `gas-closure-may-replace`
 * — the gas closure test may stand in for the liquid one (ASME B16.34 by size and class); `rate-by-standard`
 * — the product names no leakage rate and the standard's own rate for the seat applies (API 6D).
 */
export const REQUIREMENT_NOTES = [
  'required-by-seat',
  'ball-as-floating',
  'higher-class',
  'class-not-read',
  'hold-unconfirmed',
  'gas-closure-may-replace',
  'rate-by-standard',
] as const;
export type RequirementNote = (typeof REQUIREMENT_NOTES)[number];

export interface StandardEdition {
  id: TestStandardId;
  /** printed on reports, e.g. 'API 598' */
  name: string;
  /** the edition followed, e.g. '10th edition, 2016' */
  edition: string;
  /** the edition's key among the standard's kept editions, as a product names it ('10', '2012') */
  editionKey: string;
  /**
   * the day (ISO date) from which this edition judges the tests of a product that names no edition: its
   * publication; it does so until the next kept edition's day
   */
  inForceFrom: string;
  /** the same in Traditional Chinese, e.g. '2016 年第 10 版' */
  editionZh: string;
  /** whether the product's leakage rate chooses the allowed seat leakage */
  usesLeakageRate: boolean;
  /** the leakage rates the standard defines (EN 12266-1: A to G; ISO 5208: all ten) */
  leakageRates?: readonly LeakageRate[];
  /**
   * the rate the standard itself sets by seat when the product names none (API 6D: ISO 5208 rate A for
   * resilient seats, rate D for metal seats); with it the product's rate is optional
   */
  defaultLeakageRate?: Record<SeatType, LeakageRate>;
  /**
   * ASME B16.34: a gas closure test may stand in for the liquid one up to `anyClassMaxDn` at every class, and
   * up to `belowClassMaxDn` below Class `belowClass`
   */
  gasClosureMayReplace?: { anyClassMaxDn: number; belowClass: number; belowClassMaxDn: number };
  /**
   * which test types the standard requires, per valve type (a backseat test only where there is a backseat):
   * Table 1's usual column (up to Class 1500 / PN 250 to DN 100, up to Class 600 / PN 100 beyond)
   */
  requiredTests: Record<ValveType, TestType[]>;
  /** where the seat decides them instead (API 598: resilient-seated butterfly and lubricated plug valves) */
  requiredTestsBySeat?: Partial<Record<ValveType, Record<SeatType, TestType[]>>>;
  /** Table 1's higher column (pressure-class.ts): the valve types whose required tests change there */
  requiredTestsHigherClass?: Partial<Record<ValveType, TestType[]>>;
  /** footnotes the requirement table prints for a valve type */
  requiredTestsNotes?: Partial<Record<ValveType, RequirementNote[]>>;
  /**
   * A required test that another may stand in for: EN 12266-1 lets the seat test be run with gas
   * (the low-pressure 'air-seat' test) instead of liquid.
   */
  alternatives?: Partial<Record<TestType, TestType[]>>;
  /** the rules of each test type the standard knows; a test type absent here is not judged by it */
  tests: Partial<Record<TestType, TestRule>>;
  sources: Source[];
}
