/**
 * Valve products as a manufacturer lists them: type, size, rating and body material make the name
 * ("DN50 PN40 Cast Steel Gate Valve"); the rating gives the pressure the tests are run at (shell 1.5 ×,
 * seat and backseat 1.1 ×, API 598 / EN 12266-1), the size the holding times.
 */
import type { Fluid } from '../../shared/contract/products';
import type { Random } from './random';

type Material = 'fc' | 'wcb' | 'sus';

interface ValveType {
  code: string;
  name: string;
  /** gate and globe valves have a backseat to test */
  backseat: boolean;
  /** soft-seated valves must not leak at all at the seat test */
  softSeat: boolean;
}

const TYPES: readonly ValveType[] = [
  { code: 'GV', name: 'Gate Valve', backseat: true, softSeat: false },
  { code: 'GL', name: 'Globe Valve', backseat: true, softSeat: false },
  { code: 'BV', name: 'Ball Valve', backseat: false, softSeat: true },
  { code: 'CV', name: 'Swing Check Valve', backseat: false, softSeat: false },
  { code: 'BF', name: 'Butterfly Valve', backseat: false, softSeat: true },
];

const SIZES = [15, 25, 50, 80, 100, 150, 200, 300] as const;

/** Ratings per body material, MPa at ambient temperature (EN 1092 PN, ASME B16.34 class). */
const RATINGS: Record<Material, ReadonlyArray<{ label: string; mpa: number; asme: boolean }>> = {
  fc: [{ label: 'PN10', mpa: 1.0, asme: false }, { label: 'PN16', mpa: 1.6, asme: false }],
  wcb: [
    { label: 'PN40', mpa: 4.0, asme: false },
    { label: 'Class 150', mpa: 1.96, asme: true },
    { label: 'Class 300', mpa: 5.11, asme: true },
    { label: 'Class 600', mpa: 10.21, asme: true },
  ],
  sus: [
    { label: 'PN16', mpa: 1.6, asme: false },
    { label: 'PN40', mpa: 4.0, asme: false },
    { label: 'Class 150', mpa: 1.9, asme: true },
    { label: 'Class 300', mpa: 4.96, asme: true },
  ],
};

const MATERIAL_NAMES: Record<Material, string> = { fc: 'Ductile Iron', wcb: 'Cast Steel', sus: 'Stainless Steel' };
const TEMPERATURES: Record<Material, [number, number]> = { fc: [-10, 120], wcb: [-29, 425], sus: [-46, 400] };

const USES: Record<Material, ReadonlyArray<{ fluid: Fluid; application: string; medium: string }>> = {
  fc: [
    { fluid: 'water', application: 'Waterworks', medium: 'Potable water' },
    { fluid: 'water', application: 'Fire protection', medium: 'Fire water' },
    { fluid: 'water', application: 'HVAC', medium: 'Chilled water' },
  ],
  wcb: [
    { fluid: 'steam', application: 'Power plant', medium: 'Saturated steam' },
    { fluid: 'steam', application: 'District heating', medium: 'Superheated steam' },
    { fluid: 'oil', application: 'Refinery', medium: 'Crude oil' },
    { fluid: 'gas', application: 'Gas distribution', medium: 'Natural gas' },
    { fluid: 'oil', application: 'Pipeline', medium: 'Diesel' },
  ],
  sus: [
    { fluid: 'chemical', application: 'Chemical processing', medium: 'Dilute acids' },
    { fluid: 'water', application: 'Desalination', medium: 'Seawater' },
    { fluid: 'gas', application: 'Process gas', medium: 'Nitrogen' },
    { fluid: 'air', application: 'Instrument air', medium: 'Compressed air' },
  ],
};

export interface GeneratedProduct {
  name: string;
  fluid: Fluid;
  connection: string;
  application: string;
  applicationMedium: string;
  pressureFc: number | null;
  pressureWcb: number | null;
  pressureSus: number | null;
  temperatureMax: number;
  temperatureMin: number;
  testStandard: string;
  /** what the generator needs beyond the catalogue fields */
  dn: number;
  ratingMpa: number;
  type: ValveType;
}

function connectionOf(r: Random, dn: number, asme: boolean): string {
  if (dn <= 25 && r.chance(0.5)) return r.pick(['NPT threaded', 'Socket weld (ASME B16.11)']);
  if (asme && r.chance(0.3)) return 'Butt weld (ASME B16.25)';
  return asme ? 'Flanged RF (ASME B16.5)' : 'Flanged RF (EN 1092-1)';
}

/** `count` distinct products; the same seed gives the same list. */
export function generateProducts(r: Random, count: number): GeneratedProduct[] {
  const out: GeneratedProduct[] = [];
  const names = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const type = TYPES[i % TYPES.length]!;
    const material = r.pick(['fc', 'wcb', 'wcb', 'sus'] as const);
    const rating = r.pick(RATINGS[material]);
    const dn = type.code === 'BF' ? r.pick([80, 100, 150, 200, 300]) : r.pick(SIZES);
    const use = r.pick(USES[material]);
    const base = `DN${dn} ${rating.label} ${MATERIAL_NAMES[material]} ${type.name}`;
    const seen = names.get(base) ?? 0;
    names.set(base, seen + 1);
    const [tMin, tMax] = TEMPERATURES[material];
    out.push({
      name: seen === 0 ? base : `${base}, Series ${seen + 1}`,
      fluid: use.fluid,
      connection: connectionOf(r, dn, rating.asme),
      application: use.application,
      applicationMedium: use.medium,
      pressureFc: material === 'fc' ? rating.mpa : null,
      pressureWcb: material === 'wcb' ? rating.mpa : null,
      pressureSus: material === 'sus' ? rating.mpa : null,
      temperatureMax: tMax,
      temperatureMin: tMin,
      testStandard: rating.asme ? 'API 598' : 'EN 12266-1',
      dn,
      ratingMpa: rating.mpa,
      type,
    });
  }
  return out;
}

/** Minimum holding times, seconds, by size (API 598 table 4; EN 12266-1 is close). */
export function holdingSeconds(test: 'shell' | 'seat' | 'backseat', dn: number): number {
  if (test === 'backseat') return dn <= 100 ? 15 : 60;
  if (dn <= 50) return 15;
  if (dn <= 150) return 60;
  if (dn <= 300) return 120;
  return test === 'shell' ? 300 : 120;
}
