/**
 * What a heat's chemical composition and tensile properties must lie within, for the grades whose limits a
 * cited source gives (docs/standards-sources.md, "Materials"). A heat of such a grade whose mill certificate
 * reports a value outside them is put on hold (docs/decisions/0053-materials-and-heats.md). Grades not
 * listed are stored with their values and not judged.
 */

/** A bound: at least `min`, at most `max` (either may be absent). Chemistry in %, strengths in MPa, elongation in %. */
export interface Bound {
  min?: number;
  max?: number;
}

export interface MaterialLimits {
  /** by element symbol, as EN 10168's C71–C92 name the cast analysis */
  chemistry: Record<string, Bound>;
  /** C12 tensile strength Rm, C11 yield or proof strength Rp0.2, C13 elongation after fracture A */
  tensileStrength: Bound;
  yieldStrength: Bound;
  elongation: Bound;
  source: string;
}

const LIMITS: Record<string, MaterialLimits> = {
  // reliavalves.com/astm-standard/a216-a216m (chemistry maxima and tensile requirements)
  'ASTM A216 WCB': {
    chemistry: {
      C: { max: 0.3 },
      Mn: { max: 1.0 },
      P: { max: 0.035 },
      S: { max: 0.035 },
      Si: { max: 0.6 },
      Ni: { max: 0.5 },
      Cr: { max: 0.5 },
      Mo: { max: 0.2 },
      Cu: { max: 0.3 },
    },
    tensileStrength: { min: 485, max: 655 },
    yieldStrength: { min: 250 },
    elongation: { min: 22 },
    source: 'reliavalves-a216',
  },
  // valvespecifications.com (A351 chemistry), alloycasting.com (CF8M tensile)
  'ASTM A351 CF8M': {
    chemistry: {
      C: { max: 0.08 },
      Mn: { max: 1.5 },
      Si: { max: 1.5 },
      S: { max: 0.04 },
      P: { max: 0.04 },
      Cr: { min: 18, max: 21 },
      Ni: { min: 9, max: 12 },
      Mo: { min: 2, max: 3 },
    },
    tensileStrength: { min: 485 },
    yieldStrength: { min: 205 },
    elongation: { min: 30 },
    source: 'valvespecifications-a351',
  },
  // lfpco.com (A182 F316 chemistry and tensile)
  'ASTM A182 F316': {
    chemistry: {
      C: { max: 0.08 },
      Mn: { max: 2 },
      P: { max: 0.045 },
      S: { max: 0.03 },
      Si: { max: 1 },
      Ni: { min: 10, max: 14 },
      Cr: { min: 16, max: 18 },
      Mo: { min: 2, max: 3 },
    },
    tensileStrength: { min: 515 },
    yieldStrength: { min: 205 },
    elongation: { min: 30 },
    source: 'lfpco-f316',
  },
};

const key = (specification: string, grade: string) => `${specification} ${grade}`.toUpperCase().replace(/\s+/g, ' ').trim();
const BY_KEY = new Map(Object.entries(LIMITS).map(([k, v]) => [key(k, ''), v]));

/** The limits of a material, or null when no cited source gives them. */
export function limitsOf(specification: string, grade: string): MaterialLimits | null {
  return BY_KEY.get(key(specification, grade)) ?? null;
}

/** A heat's reported values: the cast analysis by element (%), Rm and Rp0.2 (MPa), A (%). */
export interface HeatProperties {
  chemistry: Record<string, number>;
  tensileStrength: number | null;
  yieldStrength: number | null;
  elongation: number | null;
}

/** A value outside its bound: `property` is an element symbol, or tensileStrength, yieldStrength, elongation. */
export interface Finding {
  property: string;
  value: number;
  min: number | null;
  max: number | null;
}

function check(property: string, value: number | null | undefined, bound: Bound | undefined, out: Finding[]): void {
  if (value === null || value === undefined || !bound) return;
  if ((bound.min !== undefined && value < bound.min) || (bound.max !== undefined && value > bound.max))
    out.push({ property, value, min: bound.min ?? null, max: bound.max ?? null });
}

/** Every reported value outside the material's limits (none when the material has no cited limits). */
export function findingsOf(limits: MaterialLimits | null, p: HeatProperties): Finding[] {
  if (!limits) return [];
  const out: Finding[] = [];
  for (const [element, value] of Object.entries(p.chemistry)) check(element, value, limits.chemistry[element], out);
  check('tensileStrength', p.tensileStrength, limits.tensileStrength, out);
  check('yieldStrength', p.yieldStrength, limits.yieldStrength, out);
  check('elongation', p.elongation, limits.elongation, out);
  return out;
}

/**
 * A heat judged against its material's limits: its findings, and its status. A value outside the limits holds
 * it whatever status was asked for; without findings it keeps the status asked for (a heat is released by
 * staff, never by a judgement).
 */
export function judgeHeat<S extends string>(
  limits: MaterialLimits | null,
  properties: HeatProperties,
  asked: S,
): { findings: Finding[]; status: S | 'hold' } {
  const findings = findingsOf(limits, properties);
  return { findings, status: findings.length ? 'hold' : asked };
}
