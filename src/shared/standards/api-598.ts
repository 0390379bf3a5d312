/**
 * API 598 "Valve Inspection and Testing", 10th edition (October 2016), as data.
 *
 * The standard itself is not in the repository: every figure below was checked against the secondary sources
 * listed in `sources` and tabulated, with disagreements and unconfirmed figures, in docs/standards-sources.md.
 *
 * Editions differ: the 6th–8th editions gave metal-seat leakage as size bands (e.g. 12 / 20 / 28 drops/min);
 * the 9th (2009) and 10th (2016) editions tabulate it per size (2 drops/min and 4 bubbles/min per inch of NPS
 * above NPS 2). This file follows the 10th edition.
 *
 * Test mapping: 'shell' = shell test; 'backseat' = backseat test; 'seat' = high-pressure (liquid) closure test;
 * 'air-seat' = low-pressure (gas) closure test. Sizes are DN; NPS 2 = DN 50, NPS 2½ = DN 65, NPS 6 = DN 150,
 * NPS 8 = DN 200, NPS 12 = DN 300, NPS 14 = DN 350.
 */
import type { LeakageRule, SizeBand, StandardEdition } from './types';

/** Sizes of the 10th edition's closure leakage table above NPS 2, as [DN, NPS]. */
const TABLE_SIZES: ReadonlyArray<readonly [dn: number, nps: number]> = [
  [65, 2.5],
  [80, 3],
  [100, 4],
  [125, 5],
  [150, 6],
  [200, 8],
  [250, 10],
  [300, 12],
  [350, 14],
  [400, 16],
  [450, 18],
  [500, 20],
  [550, 22],
  [600, 24],
  [650, 26],
  [700, 28],
  [750, 30],
  [800, 32],
  [900, 36],
  [1000, 40],
  [1050, 42],
  [1200, 48],
];

/**
 * Metal-seat closure leakage (all valves except check valves): zero up to NPS 2, then `perInch` × NPS per minute
 * for each tabulated size. Above NPS 48 the table stops; the NPS 48 figure is kept as a conservative cap
 * (see docs/standards-sources.md).
 */
function metalSeatBands(perInch: number): SizeBand<number>[] {
  const bands: SizeBand<number>[] = [{ maxDn: 50, value: 0 }];
  for (const [dn, nps] of TABLE_SIZES) bands.push({ maxDn: dn, value: perInch * nps });
  bands.push({ maxDn: null, value: perInch * 48 });
  return bands;
}

const NONE: LeakageRule = { kind: 'none' };

/** Shell and closure durations (seconds) by size: ≤ NPS 2, NPS 2½–6, NPS 8–12, ≥ NPS 14. */
export const SHELL_HOLDING: SizeBand<number>[] = [
  { maxDn: 50, value: 15 },
  { maxDn: 150, value: 60 },
  { maxDn: 300, value: 120 },
  { maxDn: null, value: 300 },
];
export const CLOSURE_HOLDING: SizeBand<number>[] = [
  { maxDn: 50, value: 15 },
  { maxDn: 150, value: 60 },
  { maxDn: 300, value: 120 },
  { maxDn: null, value: 120 },
];
export const CHECK_CLOSURE_HOLDING: SizeBand<number>[] = [
  { maxDn: 50, value: 60 },
  { maxDn: 150, value: 60 },
  { maxDn: 300, value: 120 },
  { maxDn: null, value: 120 },
];
export const BACKSEAT_HOLDING: SizeBand<number>[] = [
  { maxDn: 50, value: 15 },
  { maxDn: 150, value: 60 },
  { maxDn: null, value: 60 },
];

/** Metal-seated check valves: 3 cm³/min of liquid per inch of NPS = 3000 mm³ / 60 s = 50 mm³/s per inch. */
const CHECK_LIQUID_PER_INCH_MM3_S = 50;
/** Metal-seated check valves: 0.042 m³/h of gas per inch of NPS = 42 000 000 mm³ / 3600 s ≈ 11 666.67 mm³/s per inch. */
const CHECK_GAS_PER_INCH_MM3_S = 42_000_000 / 3600;

export const API_598: StandardEdition = {
  id: 'api-598',
  name: 'API 598',
  edition: '10th edition, 2016',
  editionZh: '2016 年第 10 版',
  usesLeakageRate: false,
  // Table 1, column "≤ NPS 4 up to Class 1500 / > NPS 4 up to Class 600" (the usual case); only REQUIRED tests.
  // Above those classes the high-pressure closure test becomes required as well (see docs/standards-sources.md).
  requiredTests: {
    gate: ['shell', 'backseat', 'air-seat'],
    globe: ['shell', 'backseat', 'seat'],
    check: ['shell', 'seat'],
    ball: ['shell', 'air-seat'],
    butterfly: ['shell', 'air-seat'],
    plug: ['shell', 'air-seat'],
  },
  tests: {
    shell: {
      pressure: { kind: 'factor', factor: 1.5 },
      holding: SHELL_HOLDING,
      leakage: { soft: NONE, metal: NONE },
      sources: ['valvehax-api598-summary', 'vajravyuh-api598', 'dkvalve-api598', 'pipingworld-api598'],
    },
    backseat: {
      pressure: { kind: 'factor', factor: 1.1 },
      holding: BACKSEAT_HOLDING,
      leakage: { soft: NONE, metal: NONE },
      sources: ['valvehax-api598-summary', 'pipingworld-api598', 'aandl-api598'],
    },
    seat: {
      pressure: { kind: 'factor', factor: 1.1 },
      holding: CLOSURE_HOLDING,
      holdingByValveType: { check: CHECK_CLOSURE_HOLDING },
      leakage: { soft: NONE, metal: { kind: 'per-size', unit: 'drops/min', bands: metalSeatBands(2) } },
      leakageByValveType: { check: { metal: { kind: 'per-nps', unit: 'mm3/s', perInch: CHECK_LIQUID_PER_INCH_MM3_S } } },
      sources: ['valvehax-api598-summary', 'dkvalve-api598', 'pipingworld-api598', 'valvehax-api598-check', 'valvediagnostics-api598'],
    },
    'air-seat': {
      pressure: { kind: 'band', minMPa: 0.4, maxMPa: 0.7 },
      holding: CLOSURE_HOLDING,
      holdingByValveType: { check: CHECK_CLOSURE_HOLDING },
      leakage: { soft: NONE, metal: { kind: 'per-size', unit: 'bubbles/min', bands: metalSeatBands(4) } },
      leakageByValveType: { check: { metal: { kind: 'per-nps', unit: 'mm3/s', perInch: CHECK_GAS_PER_INCH_MM3_S } } },
      sources: ['valvehax-api598-summary', 'dkvalve-api598', 'pipingworld-api598', 'valvehax-api598-check', 'valvediagnostics-api598'],
    },
  },
  sources: [
    {
      key: 'valvehax-api598-summary',
      title: 'API 598 Standard Summary (Tenth Edition, October 2016) — ValveHax',
      url: 'https://valvehax.com/resources/standards-summaries/api-598-standard-summary/',
    },
    {
      key: 'valvehax-api598-check',
      title: 'API 598 Allowable Check Valve Leakage (Reference Table) — ValveHax',
      url: 'https://valvehax.com/resources/quick-references/api-598-allowable-check-valve-leakage-table/',
    },
    {
      key: 'pipingworld-api598',
      title: 'Valve seat leakage rates as per API 598 — Piping World',
      url: 'https://www.piping-world.com/valve-seat-leakage-rates-as-per-api-598',
    },
    {
      key: 'dkvalve-api598',
      title: 'Hydrostatic Test Criteria — API 598 — DK Valve',
      url: 'http://www.dkvalve.com/sub/re03.html',
    },
    {
      key: 'valvediagnostics-api598',
      title: 'Leakage standards — API 598 — Valve Diagnostics (Velan)',
      url: 'http://www.valvediagnostics.com/leakage/test_standards.htm',
    },
    {
      key: 'scribd-api598-requirements',
      title: 'API 598 — Pressure Testing: Test Requirements by Valve Type & Specification (Scribd)',
      url: 'https://ja.scribd.com/doc/250539558/API-598',
    },
    {
      key: 'vajravyuh-api598',
      title: 'Valve Pressure Testing: API 598 Explained — Shell, Seat & Backseat Tests — Vajravyuh',
      url: 'https://www.vajravyuh.com/blog/valve-testing-api-598-guide',
    },
    {
      key: 'aandl-api598',
      title: 'API 598 Test Table (from the 6th edition, 1990) — A&L Valve',
      url: 'http://www.aandlvalve.com/table_API_598.php',
    },
    {
      key: 'stv-api598',
      title: 'What is The API 598 Leak testing of Valves — STV Valves',
      url: 'https://stvvalves.com/?p=5708',
    },
  ],
};
