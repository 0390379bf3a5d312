/** The serial entry box's range writer: `A…B` of one series, written out in full, capped at DELIVERY_UNITS_MAX. */
import { DELIVERY_UNITS_MAX, parseSerialLines } from '../../../../shared/contract/orders';
import { formatSerial, measureRange } from '../../../../shared/serial';

/** Every serial from `start` to `end`; null when they do not bound a range or it holds more than one request may carry. */
export function expandSerialRange(start: string, end: string): string[] | null {
  const m = measureRange(start, end);
  if (!m.ok || m.units > BigInt(DELIVERY_UNITS_MAX)) return null;
  const out: string[] = [];
  for (let n = m.start.number; n <= m.end.number; n++) out.push(formatSerial({ ...m.start, number: n }));
  return out;
}

export const parseSerialEntry = (text: string, line: number) => parseSerialLines(text, line, expandSerialRange);
