/**
 * Valve products as a manufacturer lists them: type, size, rating and body material make the name
 * ("DN50 PN40 Cast Steel Gate Valve"), and the standard fields say the same: valve type, DN, pressure
 * class, seat (soft for ball and butterfly valves, metal otherwise) and the standard the product is tested
 * to — API 598 for ASME-rated products, EN 12266-1 (leakage rate A for soft seats, D for metal ones) for
 * PN-rated ones, a few ISO 5208, and now and then none (the bench's verdict stands). What the tests must
 * then reach is not stated here: src/shared/standards/requirement.ts derives it (records.ts reads it).
 */
import type { Fluid } from '../../shared/contract/products';
import type { BodyMaterial } from '../../shared/standards/requirement';
import type { LeakageRate, SeatType, TestStandardId, ValveType as StandardValveType } from '../../shared/standards/types';
import type { Random } from './random';

type Material = BodyMaterial;

interface ValveType {
  code: string;
  name: string;
  nameZh: string;
  valveType: StandardValveType;
  seat: SeatType;
}

const TYPES: readonly ValveType[] = [
  { code: 'GV', name: 'Gate Valve', nameZh: '閘閥', valveType: 'gate', seat: 'metal' },
  { code: 'GL', name: 'Globe Valve', nameZh: '截止閥', valveType: 'globe', seat: 'metal' },
  { code: 'BV', name: 'Ball Valve', nameZh: '球閥', valveType: 'ball', seat: 'soft' },
  { code: 'CV', name: 'Swing Check Valve', nameZh: '旋啟式止回閥', valveType: 'check', seat: 'metal' },
  { code: 'BF', name: 'Butterfly Valve', nameZh: '蝶閥', valveType: 'butterfly', seat: 'soft' },
];

const SIZES = [15, 25, 50, 80, 100, 150, 200, 300] as const;

/** Ratings per body material, MPa at ambient temperature (EN 1092 PN, ASME B16.34 class). */
const RATINGS: Record<Material, ReadonlyArray<{ label: string; mpa: number; asme: boolean }>> = {
  fc: [
    { label: 'PN10', mpa: 1.0, asme: false },
    { label: 'PN16', mpa: 1.6, asme: false },
  ],
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
const MATERIAL_NAMES_ZH: Record<Material, string> = { fc: '球墨鑄鐵', wcb: '鑄鋼', sus: '不鏽鋼' };
const TEMPERATURES: Record<Material, [number, number]> = { fc: [-10, 120], wcb: [-29, 425], sus: [-46, 400] };

const USES: Record<
  Material,
  ReadonlyArray<{ fluid: Fluid; application: string; applicationZh: string; medium: string; mediumZh: string }>
> = {
  fc: [
    { fluid: 'water', application: 'Waterworks', applicationZh: '自來水', medium: 'Potable water', mediumZh: '飲用水' },
    { fluid: 'water', application: 'Fire protection', applicationZh: '消防', medium: 'Fire water', mediumZh: '消防用水' },
    { fluid: 'water', application: 'HVAC', applicationZh: '空調', medium: 'Chilled water', mediumZh: '冰水' },
  ],
  wcb: [
    { fluid: 'steam', application: 'Power plant', applicationZh: '發電廠', medium: 'Saturated steam', mediumZh: '飽和蒸汽' },
    { fluid: 'steam', application: 'District heating', applicationZh: '區域供熱', medium: 'Superheated steam', mediumZh: '過熱蒸汽' },
    { fluid: 'oil', application: 'Refinery', applicationZh: '煉油廠', medium: 'Crude oil', mediumZh: '原油' },
    { fluid: 'gas', application: 'Gas distribution', applicationZh: '天然氣輸配', medium: 'Natural gas', mediumZh: '天然氣' },
    { fluid: 'oil', application: 'Pipeline', applicationZh: '管線', medium: 'Diesel', mediumZh: '柴油' },
  ],
  sus: [
    { fluid: 'chemical', application: 'Chemical processing', applicationZh: '化學製程', medium: 'Dilute acids', mediumZh: '稀酸' },
    { fluid: 'water', application: 'Desalination', applicationZh: '海水淡化', medium: 'Seawater', mediumZh: '海水' },
    { fluid: 'gas', application: 'Process gas', applicationZh: '製程氣體', medium: 'Nitrogen', mediumZh: '氮氣' },
    { fluid: 'air', application: 'Instrument air', applicationZh: '儀表空氣', medium: 'Compressed air', mediumZh: '壓縮空氣' },
  ],
};

export interface GeneratedProduct {
  name: string;
  nameZh: string;
  fluid: Fluid;
  connection: string;
  application: string;
  applicationMedium: string;
  connectionZh: string;
  applicationZh: string;
  applicationMediumZh: string;
  pressureFc: number | null;
  pressureWcb: number | null;
  pressureSus: number | null;
  temperatureMax: number;
  temperatureMin: number;
  valveType: StandardValveType;
  nominalSize: number;
  pressureClass: string;
  seatType: SeatType;
  testStandard: TestStandardId | '';
  leakageRate: LeakageRate | null;
  /** none: a GTIN is assigned by GS1 to the manufacturer, and a made-up one could be someone's real item */
  gtin: '';
  /** false: the demo's closure records are sent for side A only (records.ts) */
  bidirectional: false;
  /** what the generator needs beyond the catalogue fields */
  dn: number;
  ratingMpa: number;
  /** the body material the name says (its ranges carry it) */
  material: Material;
  type: ValveType;
}

/** 'Class 150' → 'CL150'; 'PN40' stays. */
export const pressureClassOf = (label: string) =>
  label
    .replace(/^Class\s*/i, 'CL')
    .replace(/\s+/g, '')
    .toUpperCase();

/**
 * The standard of the i-th product: by its rating, except every eighth from the fourth (ISO 5208) and every
 * seventh from the seventh (none, so that the bench-only path shows). Chosen by position, not drawn, so that
 * the names and serials of a seed stay what they were.
 */
function standardOf(i: number, asme: boolean, seat: SeatType): { testStandard: TestStandardId | ''; leakageRate: LeakageRate | null } {
  if (i % 7 === 6) return { testStandard: '', leakageRate: null };
  if (i % 8 === 3) return { testStandard: 'iso-5208', leakageRate: seat === 'soft' ? 'A' : 'C' };
  if (asme) return { testStandard: 'api-598', leakageRate: null };
  return { testStandard: 'en-12266-1', leakageRate: seat === 'soft' ? 'A' : 'D' };
}

/** The connection in English and in Chinese. */
function connectionOf(r: Random, dn: number, asme: boolean): [string, string] {
  if (dn <= 25 && r.chance(0.5))
    return r.pick<[string, string]>([
      ['NPT threaded', 'NPT 螺紋'],
      ['Socket weld (ASME B16.11)', '承插焊（ASME B16.11）'],
    ]);
  if (asme && r.chance(0.3)) return ['Butt weld (ASME B16.25)', '對焊（ASME B16.25）'];
  return asme ? ['Flanged RF (ASME B16.5)', '凸面法蘭（ASME B16.5）'] : ['Flanged RF (EN 1092-1)', '凸面法蘭（EN 1092-1）'];
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
    const [connection, connectionZh] = connectionOf(r, dn, rating.asme);
    out.push({
      name: seen === 0 ? base : `${base}, Series ${seen + 1}`,
      nameZh: `DN${dn} ${rating.label.replace(/^Class /, '')}${rating.asme ? '磅級' : ''} ${MATERIAL_NAMES_ZH[material]}${type.nameZh}${seen === 0 ? '' : `（第 ${seen + 1} 系列）`}`,
      fluid: use.fluid,
      connection,
      application: use.application,
      applicationMedium: use.medium,
      connectionZh,
      applicationZh: use.applicationZh,
      applicationMediumZh: use.mediumZh,
      pressureFc: material === 'fc' ? rating.mpa : null,
      pressureWcb: material === 'wcb' ? rating.mpa : null,
      pressureSus: material === 'sus' ? rating.mpa : null,
      temperatureMax: tMax,
      temperatureMin: tMin,
      valveType: type.valveType,
      nominalSize: dn,
      pressureClass: pressureClassOf(rating.label),
      seatType: type.seat,
      ...standardOf(i, rating.asme, type.seat),
      gtin: '',
      bidirectional: false,
      dn,
      ratingMpa: rating.mpa,
      material,
      type,
    });
  }
  return out;
}
