/**
 * API 598's earlier editions that products may still be tested to, as data beside the 10th (api-598.ts).
 *
 * 9th edition (September 2009): the secondary sources that tabulate API 598's closure leakage per size
 * (Piping World, DK Valve) name no edition, and the 9th and 10th editions are described alike there; no
 * source available tells them apart in the figures the product judges, so the 9th keeps the 10th's figures.
 *
 * 8th edition (May 2004): metal-seat leakage in size bands — NPS 2 and smaller none, NPS 2½–6 12 drops and 24
 * bubbles per minute, NPS 8–12 20 and 40, NPS 14 and larger 28 and 56 — and metal-seated check valves at
 * 3 cm³/min and 0.042 m³/h per inch of NPS at every size (STV Valves, Dory, Valve Diagnostics; the 6th
 * edition of 1990 had 72 / 120 / 168 bubbles, A&L Valve). Its durations, Table 1 and rounding are the 10th's,
 * as no source gives the 8th's apart: its durations are marked unconfirmed (docs/standards-sources.md).
 */
import { API_598 } from './api-598';
import { unconfirmed } from './sizes';
import type { LeakageRule, StandardEdition, TestRule } from './types';

export const API_598_9TH: StandardEdition = {
  ...API_598,
  edition: '9th edition, 2009',
  editionZh: '2009 年第 9 版',
  editionKey: '9',
  inForceFrom: '2009-09-01',
};

/** The 8th edition's bands as table rows: a size between rows takes the next row's figure (its band's). */
function bands(unit: 'drops/min' | 'bubbles/min', [small, middle, large]: [number, number, number]): LeakageRule {
  const rows = [
    { dn: 50, value: 0 },
    { dn: 150, value: small },
    { dn: 300, value: middle },
    { dn: 350, value: large },
  ];
  return { kind: 'table', unit, rows, perInch: 0, between: 'next-row' };
}

const CHECK_LIQUID_8TH: LeakageRule = { kind: 'per-nps', unit: 'mm3/s', perInch: 3000 / 60 };
const CHECK_GAS_8TH: LeakageRule = { kind: 'per-nps', unit: 'mm3/s', perInch: 42_000_000 / 3600 };

function eighth(rule: TestRule, liquid: boolean): TestRule {
  return {
    ...rule,
    holding: unconfirmed(rule.holding),
    holdingByValveType: rule.holdingByValveType?.check ? { check: unconfirmed(rule.holdingByValveType.check) } : undefined,
    leakage: { soft: rule.leakage.soft, metal: liquid ? bands('drops/min', [12, 20, 28]) : bands('bubbles/min', [24, 40, 56]) },
    leakageByValveType: { check: { metal: liquid ? CHECK_LIQUID_8TH : CHECK_GAS_8TH } },
    sources: ['stv-api598', 'valvediagnostics-api598'],
  };
}

export const API_598_8TH: StandardEdition = {
  ...API_598,
  edition: '8th edition, 2004',
  editionZh: '2004 年第 8 版',
  editionKey: '8',
  inForceFrom: '2004-05-01',
  tests: {
    shell: { ...API_598.tests.shell!, holding: unconfirmed(API_598.tests.shell!.holding) },
    backseat: { ...API_598.tests.backseat!, holding: unconfirmed(API_598.tests.backseat!.holding) },
    seat: eighth(API_598.tests.seat!, true),
    'air-seat': eighth(API_598.tests['air-seat']!, false),
  },
};
