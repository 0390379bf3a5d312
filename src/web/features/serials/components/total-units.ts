/**
 * Total Units as the user types: end − start + 1 of the normalised serials (src/shared/serial.ts), or
 * the reason there is none yet, as an i18n key with its parameters.
 */
import { MAX_RANGE_UNITS, measureRange } from '../../../../shared/serial';

export type TotalUnits =
  { kind: 'units'; units: bigint } | { kind: 'empty' } | { kind: 'reason'; key: string; params?: Record<string, string | number> };

export function computeTotalUnits(start: string, end: string): TotalUnits {
  if (start.trim() === '' || end.trim() === '') return { kind: 'empty' };
  const m = measureRange(start, end);
  if (m.ok) return { kind: 'units', units: m.units };
  const key = `serials.total.${m.reason}`;
  switch (m.reason) {
    case 'prefixDiffers':
      return { kind: 'reason', key, params: { start: m.start.prefix || '∅', end: m.end.prefix || '∅' } };
    case 'widthDiffers':
      return { kind: 'reason', key, params: { start: m.start.width, end: m.end.width } };
    case 'tooMany':
      return { kind: 'reason', key, params: { max: MAX_RANGE_UNITS.toLocaleString('en') } };
    default:
      return { kind: 'reason', key };
  }
}
