/**
 * Total Units as the user types: end − start + 1 of the normalised serials (src/shared/serial.ts), or
 * the reason there is none yet, as an i18n key with its parameters.
 */
import { MAX_RANGE_UNITS, parseSerial } from '../../../../shared/serial';

export type TotalUnits =
  | { kind: 'units'; units: bigint }
  | { kind: 'empty' }
  | { kind: 'reason'; key: string; params?: Record<string, string | number> };

export function computeTotalUnits(start: string, end: string): TotalUnits {
  if (start.trim() === '' || end.trim() === '') return { kind: 'empty' };
  const a = parseSerial(start);
  const b = parseSerial(end);
  if (!a) return { kind: 'reason', key: 'serials.total.badStart' };
  if (!b) return { kind: 'reason', key: 'serials.total.badEnd' };
  if (a.prefix !== b.prefix) {
    return { kind: 'reason', key: 'serials.total.prefixDiffers', params: { start: a.prefix || '∅', end: b.prefix || '∅' } };
  }
  if (a.width !== b.width) return { kind: 'reason', key: 'serials.total.widthDiffers', params: { start: a.width, end: b.width } };
  if (b.number < a.number) return { kind: 'reason', key: 'serials.total.endBeforeStart' };
  const units = b.number - a.number + 1n;
  if (units > BigInt(MAX_RANGE_UNITS)) return { kind: 'reason', key: 'serials.total.tooMany', params: { max: MAX_RANGE_UNITS.toLocaleString('en') } };
  return { kind: 'units', units };
}
