/**
 * The shape of a test standard as data: one file per standard and edition (api-598.ts, en-12266-1.ts,
 * iso-5208.ts) fills it in, naming the edition and where each figure comes from. requirement.ts derives a
 * product's requirement from it; nothing else states these figures.
 */
import type { TestType } from '../contract/test-types';

export const TEST_STANDARD_IDS = ['api-598', 'en-12266-1', 'iso-5208'] as const;
export type TestStandardId = (typeof TEST_STANDARD_IDS)[number];
export const VALVE_TYPES = ['gate', 'globe', 'check', 'ball', 'butterfly', 'plug'] as const;
export type ValveType = (typeof VALVE_TYPES)[number];
export const SEAT_TYPES = ['soft', 'metal'] as const;
export type SeatType = (typeof SEAT_TYPES)[number];
export const LEAKAGE_RATES = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
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
}

/**
 * Allowed leakage of one test. 'none' = no visible leakage. 'per-size' = a count per minute by size band
 * (API 598 metal seats: drops/min for liquid, bubbles/min for gas). 'per-dn' = a volume rate proportional
 * to DN (EN 12266-1 / ISO 5208 leakage rates: mm³/s = factor × DN), the factor chosen by the product's rate.
 * 'per-nps' = a volume rate per inch of NPS (API 598 metal-seated check valves), as mm³/s per inch.
 */
export type LeakageRule =
  | { kind: 'none' }
  | { kind: 'per-size'; unit: 'drops/min' | 'bubbles/min'; bands: SizeBand<number>[] }
  | { kind: 'per-dn'; unit: 'mm3/s'; factorByRate: Record<LeakageRate, number> }
  | { kind: 'per-nps'; unit: 'mm3/s'; perInch: number };

/** How one test type is judged under the standard. */
export interface TestRule {
  /**
   * The required test pressure: a factor of the rated pressure at 38 °C (PS) for the body material, or a
   * fixed gas pressure band in MPa (low-pressure closure); null = no pressure requirement (functional).
   */
  pressure: { kind: 'factor'; factor: number } | { kind: 'band'; minMPa: number; maxMPa: number } | null;
  /** minimum holding time in seconds by size; per valve type where the standard differs (e.g. check valves) */
  holding: SizeBand<number>[];
  holdingByValveType?: Partial<Record<ValveType, SizeBand<number>[]>>;
  /** allowed leakage for soft and metal seats */
  leakage: { soft: LeakageRule; metal: LeakageRule };
  /** per valve type where it differs (e.g. API 598 metal-seated check valves) */
  leakageByValveType?: Partial<Record<ValveType, { soft?: LeakageRule; metal?: LeakageRule }>>;
  /** source keys for this test's figures */
  sources: string[];
}

export interface StandardEdition {
  id: TestStandardId;
  /** printed on reports, e.g. 'API 598' */
  name: string;
  /** the edition followed, e.g. '10th edition, 2016' */
  edition: string;
  /** the same in Traditional Chinese, e.g. '2016 年第 10 版' */
  editionZh: string;
  /** whether the product's leakage rate (A–G) chooses the allowed seat leakage */
  usesLeakageRate: boolean;
  /** which test types the standard requires, per valve type (a backseat test only where there is a backseat) */
  requiredTests: Record<ValveType, TestType[]>;
  /**
   * A required test that another may stand in for: EN 12266-1 lets the seat test be run with gas
   * (the low-pressure 'air-seat' test) instead of liquid.
   */
  alternatives?: Partial<Record<TestType, TestType[]>>;
  /** the rules of each test type the standard knows; a test type absent here is not judged by it */
  tests: Partial<Record<TestType, TestRule>>;
  sources: Source[];
}
