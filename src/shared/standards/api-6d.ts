/**
 * API Specification 6D "Pipeline and Piping Valves", 24th edition (August 2014), as data: its factory pressure
 * tests (section 10 / Annex B of that edition) for the gate, ball, check and plug valves it covers.
 *
 * The specification itself is not in the repository: every figure below was checked against the secondary
 * sources listed in `sources` and tabulated, with what could not be confirmed, in docs/standards-sources.md.
 * A 25th edition (November 2021) exists; no source available tabulates its figures apart from the 24th's.
 *
 * Test mapping: 'shell' = hydrostatic shell test; 'backseat' = stem backseat test (valves that have one);
 * 'seat' = hydrostatic seat test; 'air-seat' = the supplementary low-pressure gas seat test (Annex B,
 * optional). Seat leakage: ISO 5208's rates — rate A for resilient seats and rate D for metal seats unless
 * the product names another rate (the purchase order may ask for a stricter one).
 */
import { ASME_B16_34_ROUNDING } from './api-598';
import { GAS_FACTORS, LIQUID_FACTORS } from './en-12266-1';
import { unconfirmed } from './sizes';
import { LEAKAGE_RATES, type LeakageRule, type SizeBand, type StandardEdition } from './types';

const NONE: LeakageRule = { kind: 'none' };
// ISO 5208's ten rates (iso-5208.ts lists the same factors and their sources).
const LIQUID_RATE: LeakageRule = { kind: 'per-dn', unit: 'mm3/s', factorByRate: { ...LIQUID_FACTORS, AA: 0.006, CC: 0.08, EE: 0.39 } };
const GAS_RATE: LeakageRule = { kind: 'per-dn', unit: 'mm3/s', factorByRate: { ...GAS_FACTORS, AA: 0.18, CC: 22.3, EE: 470 } };

/**
 * Durations: API 6D's minimum-duration tables (shell: NPS 4 and smaller 2 min, NPS 6–10 5 min, NPS 12–18
 * 15 min, NPS 20 and larger 30 min; seat and backseat: NPS 4 and smaller 2 min, NPS 6 and larger 5 min) are
 * not shown by any source available, which cut off before them: every band is marked unconfirmed.
 */
const SHELL_HOLDING: SizeBand<number>[] = unconfirmed([
  { maxDn: 100, value: 120 },
  { maxDn: 250, value: 300 },
  { maxDn: 450, value: 900 },
  { maxDn: null, value: 1800 },
]);
const SEAT_HOLDING: SizeBand<number>[] = unconfirmed([
  { maxDn: 100, value: 120 },
  { maxDn: null, value: 300 },
]);

export const API_6D: StandardEdition = {
  id: 'api-6d',
  name: 'API 6D',
  edition: '24th edition, 2014',
  editionZh: '2014 年第 24 版',
  editionKey: '24',
  inForceFrom: '2014-08-01',
  usesLeakageRate: true,
  leakageRates: LEAKAGE_RATES,
  defaultLeakageRate: { soft: 'A', metal: 'D' },
  // The shell, backseat (where there is one) and hydrostatic seat tests are required; the low-pressure gas
  // seat test is a supplementary one (pvfshop-test-charts: API 6D column; industrialmonitor-api6d-lp).
  requiredTests: {
    gate: ['shell', 'backseat', 'seat'],
    globe: ['shell', 'backseat', 'seat'],
    check: ['shell', 'seat'],
    ball: ['shell', 'seat'],
    butterfly: ['shell', 'seat'],
    plug: ['shell', 'seat'],
  },
  tests: {
    shell: {
      pressure: { kind: 'factor', factor: 1.5, roundUp: ASME_B16_34_ROUNDING },
      holding: SHELL_HOLDING,
      leakage: { soft: NONE, metal: NONE },
      sources: ['pvfshop-test-charts', 'industrialmonitor-api6d-lp', 'reliavalve-api6d'],
    },
    backseat: {
      pressure: { kind: 'factor', factor: 1.1, roundUp: ASME_B16_34_ROUNDING },
      holding: SEAT_HOLDING,
      leakage: { soft: NONE, metal: NONE },
      sources: ['reliavalve-api6d', 'pvfshop-test-charts'],
    },
    seat: {
      pressure: { kind: 'factor', factor: 1.1, roundUp: ASME_B16_34_ROUNDING },
      holding: SEAT_HOLDING,
      leakage: { soft: LIQUID_RATE, metal: LIQUID_RATE },
      sources: ['pvfshop-test-charts', 'industrialmonitor-api6d-lp', 'pipingworld-leakage-comparison', 'scribd-leakage-rates-std'],
    },
    'air-seat': {
      // 80 ± 10 psig (PVF-Shop's API 6D column) = 0.48–0.62 MPa.
      pressure: { kind: 'band', minMPa: 0.48, maxMPa: 0.62 },
      holding: SEAT_HOLDING,
      leakage: { soft: GAS_RATE, metal: GAS_RATE },
      sources: ['pvfshop-test-charts', 'industrialmonitor-api6d-lp', 'pipingworld-leakage-comparison'],
    },
  },
  sources: [
    {
      key: 'pvfshop-test-charts',
      title: 'Pressure Test Requirements Charts for ANSI B16.34, API 6D, API 598 and MSS SP-61 — PVF-Shop (Scribd)',
      url: 'https://www.scribd.com/doc/129545745/PRESSTESTREQ-pdf',
    },
    {
      key: 'reliavalve-api6d',
      title: 'Pressure Testing In API 6D — Relia Valve',
      url: 'https://m.reliavalve.com/pressure-testing-in-api-6d.html',
    },
    {
      key: 'industrialmonitor-api6d-lp',
      title: 'API 6D Low-Pressure Seat Test: Clarifying Requirements — Industrial Monitor Direct',
      url: 'https://industrialmonitordirect.com/blogs/knowledgebase/api-6d-low-pressure-air-seat-test-requirements-for-valves',
    },
    {
      key: 'pipingworld-leakage-comparison',
      title: 'Valve seat leakage rates comparison (API 598, API 6D, ISO 5208 rates) — Piping World',
      url: 'https://www.piping-world.com/valve-seat-leakage-rates-comparison',
    },
    {
      key: 'scribd-leakage-rates-std',
      title: 'Leakage Acceptance Rates Comparison Metal & Soft Seated Valves ISO 5208/API 598/API 6D/MSS SP-61/FCI 70-2',
      url: 'https://onehourindexing01.prideseotools.com/index.php?q=https%3A%2F%2Fwww.scribd.com%2Fdocument%2F333899090%2FValve-Leakage-Rates-Test-Std-pdf',
    },
  ],
};
