/**
 * ASME B16.34 "Valves — Flanged, Threaded, and Welding End", 2017 edition, as data: the production shell and
 * closure tests of its Standard Class valves (section 8 of that edition). Special Class valves' additional
 * examinations are not modelled.
 *
 * The standard itself is not in the repository: every figure below was checked against the secondary
 * sources listed in `sources` and tabulated, with what could not be confirmed, in docs/standards-sources.md.
 *
 * Test mapping: 'shell' = shell test; 'seat' = closure test with liquid; 'air-seat' = the closure test with
 * gas at no less than 80 psi (5.5 bar), which may stand in for the liquid one up to NPS 4 at every class and
 * up to NPS 8 below Class 600. ASME B16.34 has no backseat test. It leaves the closure leakage to the valve's
 * product standard or the purchaser; where neither names one, MSS SP-61's rate is used for metal seats.
 */
import { ASME_B16_34_ROUNDING } from './api-598';
import type { LeakageRule, SizeBand, StandardEdition } from './types';

const NONE: LeakageRule = { kind: 'none' };

/** Shell: NPS 2 and smaller 15 s (DK Valve); NPS 2½–8 60 s and NPS 10 and larger 180 s not confirmed. */
const SHELL_HOLDING: SizeBand<number>[] = [
  { maxDn: 50, value: 15 },
  { maxDn: 200, value: 60, unconfirmed: true },
  { maxDn: null, value: 180, unconfirmed: true },
];
/** Closure: NPS 2 and smaller 15 s, NPS 2½–8 30 s, NPS 10 and larger 60 s: none confirmed. */
const CLOSURE_HOLDING: SizeBand<number>[] = [
  { maxDn: 50, value: 15, unconfirmed: true },
  { maxDn: 200, value: 30, unconfirmed: true },
  { maxDn: null, value: 60, unconfirmed: true },
];

/** MSS SP-61: 10 cm³/h of liquid per inch of NPS = 10 000 mm³ / 3600 s ≈ 2.778 mm³/s per inch. */
const MSS_LIQUID: LeakageRule = { kind: 'per-nps', unit: 'mm3/s', perInch: 10_000 / 3600 };
/** MSS SP-61: 0.1 standard ft³/h of gas per inch of NPS = 2 831 685 mm³ / 3600 s ≈ 786.579 mm³/s per inch. */
const MSS_GAS: LeakageRule = { kind: 'per-nps', unit: 'mm3/s', perInch: 2_831_684.659 / 3600 };

export const ASME_B16_34: StandardEdition = {
  id: 'asme-b16.34',
  name: 'ASME B16.34',
  edition: '2017, Standard Class',
  editionZh: '2017 年版，標準等級（Standard Class）',
  editionKey: '2017',
  inForceFrom: '2017-06-01',
  usesLeakageRate: false,
  // The shell and closure tests are required of every valve; the closure test with liquid, for which the
  // gas test may stand in where size and class allow (gasClosureMayReplace; pvfshop-test-charts note 1).
  requiredTests: {
    gate: ['shell', 'seat'],
    globe: ['shell', 'seat'],
    check: ['shell', 'seat'],
    ball: ['shell', 'seat'],
    butterfly: ['shell', 'seat'],
    plug: ['shell', 'seat'],
  },
  gasClosureMayReplace: { anyClassMaxDn: 100, belowClass: 600, belowClassMaxDn: 200 },
  tests: {
    shell: {
      pressure: { kind: 'factor', factor: 1.5, roundUp: ASME_B16_34_ROUNDING },
      holding: SHELL_HOLDING,
      leakage: { soft: NONE, metal: NONE },
      sources: ['dkvalve-b1634', 'pvfshop-test-charts'],
    },
    seat: {
      pressure: { kind: 'factor', factor: 1.1, roundUp: ASME_B16_34_ROUNDING },
      holding: CLOSURE_HOLDING,
      leakage: { soft: NONE, metal: MSS_LIQUID },
      sources: ['dkvalve-b1634', 'pvfshop-test-charts', 'pipingworld-leakage-comparison'],
    },
    'air-seat': {
      // "at least 80 psi" (PVF-Shop) = 0.55 MPa, no upper bound stated.
      pressure: { kind: 'band', minMPa: 0.55, maxMPa: null },
      holding: CLOSURE_HOLDING,
      leakage: { soft: NONE, metal: MSS_GAS },
      sources: ['dkvalve-b1634', 'pvfshop-test-charts', 'pipingworld-leakage-comparison'],
    },
  },
  sources: [
    {
      key: 'dkvalve-b1634',
      title: 'Hydrostatic Test Criteria — Pressure Testing in accordance with ASME B 16.34 — DK Valve',
      url: 'http://www.dkvalve.com/sub/re03.html',
    },
    {
      key: 'pvfshop-test-charts',
      title: 'Pressure Test Requirements Charts for ANSI B16.34, API 6D, API 598 and MSS SP-61 — PVF-Shop (Scribd)',
      url: 'https://www.scribd.com/doc/129545745/PRESSTESTREQ-pdf',
    },
    {
      key: 'pipingworld-leakage-comparison',
      title: 'Valve seat leakage rates comparison (API 598, API 6D, ISO 5208 rates, MSS SP-61) — Piping World',
      url: 'https://www.piping-world.com/valve-seat-leakage-rates-comparison',
    },
  ],
};
