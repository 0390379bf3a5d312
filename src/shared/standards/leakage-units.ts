/**
 * A measured leakage's unit as a bench wrote it ("drops/min", "Drops per min", "mm³/s"), told apart from the
 * units the interface names in both languages, so that a zh screen or report reads 滴/分 instead of the
 * bench's English. The spelling rule is the database's `leakage_kind` (migration 0010): case, spaces, "per"
 * and "³" do not matter. Only units that *are* one of these are named; a unit of the same kind that converts
 * to it (ml/min → mm³/s) is shown as written, since its number is in that unit.
 */
export type NamedLeakageUnit = 'drops/min' | 'bubbles/min' | 'mm3/s';

const NAMED: Record<string, NamedLeakageUnit> = {
  'drops/min': 'drops/min',
  'drop/min': 'drops/min',
  'bubbles/min': 'bubbles/min',
  'bubble/min': 'bubbles/min',
  'mm3/s': 'mm3/s',
};

export function namedLeakageUnit(unit: string | null | undefined): NamedLeakageUnit | null {
  if (!unit) return null;
  const spelt = unit.replace(/\s/g, '').toLowerCase().replace(/³/g, '3').replace(/per/g, '/');
  return NAMED[spelt] ?? null;
}
