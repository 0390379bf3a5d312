/**
 * EN 12266-1:2012 "Industrial valves — Testing of metallic valves — Part 1: Pressure tests, test procedures and
 * acceptance criteria — Mandatory requirements", as data.
 *
 * The standard itself is not in the repository: every figure below was checked against the secondary sources
 * listed in `sources` and tabulated, with disagreements and unconfirmed figures, in docs/standards-sources.md.
 *
 * Test mapping: 'shell' = P10 shell strength (P11 shell tightness is judged with it: no visible leakage);
 * 'seat' = P12 seat tightness with a liquid at 1.1 × PS; 'air-seat' = P12 seat tightness with a gas at
 * (6 ± 1) bar. EN 12266-1 has no backseat test (a backseat test belongs to the supplementary part, EN 12266-2),
 * so there is no 'backseat' rule. The seat leakage follows the product's leakage rate A–G (mm³/s = factor × DN).
 */
import type { LeakageRate, LeakageRule, SizeBand, StandardEdition } from './types';

/** Leakage rate factors, mm³/s per mm of DN; rate A = no visible leakage (factor 0). EN 12266-1 defines A to G. */
export const LIQUID_FACTORS: Partial<Record<LeakageRate, number>> = { A: 0, B: 0.01, C: 0.03, D: 0.1, E: 0.3, F: 1, G: 2 };
export const GAS_FACTORS: Partial<Record<LeakageRate, number>> = { A: 0, B: 0.3, C: 3, D: 30, E: 300, F: 3000, G: 6000 };
export const EN_RATES: readonly LeakageRate[] = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];

const NONE: LeakageRule = { kind: 'none' };
const LIQUID_RATE: LeakageRule = { kind: 'per-dn', unit: 'mm3/s', factorByRate: LIQUID_FACTORS };
const GAS_RATE: LeakageRule = { kind: 'per-dn', unit: 'mm3/s', factorByRate: GAS_FACTORS };

/** Table A.2 (production test): up to DN 50, DN 65–150, DN 200–300, DN 350 and above. */
const SHELL_HOLDING: SizeBand<number>[] = [
  { maxDn: 50, value: 15 },
  { maxDn: 150, value: 60 },
  { maxDn: 300, value: 120 },
  { maxDn: null, value: 300 },
];
/** Table A.4 (seat tightness, production test) — not confirmed by a source; see docs/standards-sources.md. */
const SEAT_HOLDING: SizeBand<number>[] = [
  { maxDn: 50, value: 15, unconfirmed: true },
  { maxDn: 150, value: 60, unconfirmed: true },
  { maxDn: 300, value: 120, unconfirmed: true },
  { maxDn: null, value: 120, unconfirmed: true },
];

export const EN_12266_1: StandardEdition = {
  id: 'en-12266-1',
  name: 'EN 12266-1',
  edition: '2012',
  editionZh: '2012 年版',
  editionKey: '2012',
  inForceFrom: '2012-10-01',
  usesLeakageRate: true,
  leakageRates: EN_RATES,
  // P10/P11 (shell) and P12 (seat tightness) are mandatory for every valve. P12 may use a liquid or a gas; the
  // liquid test ('seat') is listed as the required one, the gas test ('air-seat') being the permitted alternative.
  // P12 may be run with liquid or with gas (docs/standards-sources.md): either satisfies the requirement.
  alternatives: { seat: ['air-seat'] },
  requiredTests: {
    gate: ['shell', 'seat'],
    globe: ['shell', 'seat'],
    check: ['shell', 'seat'],
    ball: ['shell', 'seat'],
    butterfly: ['shell', 'seat'],
    plug: ['shell', 'seat'],
  },
  tests: {
    shell: {
      pressure: { kind: 'factor', factor: 1.5 },
      holding: SHELL_HOLDING,
      leakage: { soft: NONE, metal: NONE },
      sources: ['reliavalves-en12266', 'convalve-en12266', 'jrval-testing-standards', 'fdocument-en12266'],
    },
    seat: {
      pressure: { kind: 'factor', factor: 1.1 },
      holding: SEAT_HOLDING,
      leakage: { soft: LIQUID_RATE, metal: LIQUID_RATE },
      sources: [
        'pedonline-seat-test',
        'reliavalves-en12266',
        'pipingworld-leakage-comparison',
        'scribd-api598-6d-comparison',
        'scribd-leakage-rates-std',
      ],
    },
    'air-seat': {
      pressure: { kind: 'band', minMPa: 0.5, maxMPa: 0.7 },
      holding: SEAT_HOLDING,
      leakage: { soft: GAS_RATE, metal: GAS_RATE },
      sources: [
        'pedonline-seat-test',
        'reliavalves-en12266',
        'pipingworld-leakage-comparison',
        'scribd-api598-6d-comparison',
        'scribd-leakage-rates-std',
      ],
    },
  },
  sources: [
    {
      key: 'reliavalves-en12266',
      title: 'EN 12266-1 (Tables A.2 and A.4, test durations) — Relia Valves',
      url: 'https://www.reliavalves.com/en-standard/en-12266-1',
    },
    {
      key: 'pedonline-seat-test',
      title: 'Valve seat test – What are Standards for leakage acceptance? — PED online',
      url: 'https://ped-online.com/ped-pressure-faq/valve-seat-test-standards-for-leakage-acceptance/',
    },
    {
      key: 'convalve-en12266',
      title: 'Valve Test Standards (EN 12266, ISO 5208, EN 12516) — Convalve',
      url: 'https://convalve.eu/language/en/tag/en-12266',
    },
    {
      key: 'jrval-testing-standards',
      title: 'The Definitive Archive of Valve Testing, Inspection & Certification Standards — JRVAL',
      url: 'https://www.jrval.com/valve-testing-standards.html',
    },
    {
      key: 'fdocument-en12266',
      title: 'En 12266 (contents of EN 12266-1: P10 shell strength, P11 shell tightness, P12 seat tightness)',
      url: 'https://fdocument.pub/document/en-12266.html',
    },
    {
      key: 'pipingworld-leakage-comparison',
      title: 'Valve seat leakage rates comparison (API 598, API 6D, ISO 5208 rates) — Piping World',
      url: 'https://www.piping-world.com/valve-seat-leakage-rates-comparison',
    },
    {
      key: 'scribd-api598-6d-comparison',
      title: 'Comparison of Leakage Rates Between API Standard 598 and API Specification 6D / ISO 14313 (Scribd)',
      url: 'https://de.scribd.com/document/174942476/11-Ok-Comparison-Leakage-Rates-API-598-API-6d',
    },
    {
      key: 'scribd-leakage-rates-std',
      title: 'Leakage Acceptance Rates Comparison Metal & Soft Seated Valves ISO 5208/API 598/API 6D/MSS SP-61/FCI 70-2',
      url: 'https://onehourindexing01.prideseotools.com/index.php?q=https%3A%2F%2Fwww.scribd.com%2Fdocument%2F333899090%2FValve-Leakage-Rates-Test-Std-pdf',
    },
    {
      key: 'leser-tightness',
      title: 'LESER Global Standard LGS 0201 Tightness Test (P11, P12; back seat tightness P21) (Scribd)',
      url: 'https://ru.scribd.com/document/473560449/19-19-Tightness-Test-pdf',
    },
  ],
};
