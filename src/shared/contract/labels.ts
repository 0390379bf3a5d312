/**
 * Nameplate QR labels of a serial range (docs/decisions/0023-nameplate-labels-and-near-miss.md): the query
 * of `GET /api/v1/serial-ranges/:id/labels.pdf` and the link each label's QR code carries. One schema serves
 * the route and the staff screen's dialog.
 */
import { z } from 'zod';
import { identificationLink } from '../identification';
import { parseSerial, rangeLabel } from '../serial';
import { serialField } from './serials';

/** The most labels one file holds: a range of 10,000 units is one file; a larger one is printed in parts. */
export const MAX_LABELS_PER_FILE = 10_000;

/** `sheet`: A4, 3 × 8 labels of 70 × 37 mm; `single`: one 50 × 30 mm label a page, for label printers. */
export const LABEL_LAYOUTS = ['sheet', 'single'] as const;
export type LabelLayout = (typeof LABEL_LAYOUTS)[number];

const optionalSerial = z
  .string()
  .max(256, { error: 'validation.tooLong' })
  .optional()
  .transform((s) => (s === undefined || s.trim() === '' ? undefined : s))
  .pipe(serialField().optional());

/** `from`/`to`: a part of the range (both inside it, from ≤ to); absent, the range's own start or end. */
export const labelQuery = z.object({
  layout: z.enum(LABEL_LAYOUTS, { error: 'validation.oneOf' }).default('sheet'),
  from: optionalSerial,
  to: optionalSerial,
});
export type LabelQuery = z.output<typeof labelQuery>;

/**
 * The address a label's QR code carries: the unit's identification link (shared/identification.ts), its GS1
 * Digital Link when the product has a GTIN, which opens the public page and looks the serial up. Labels
 * printed before it carry `/search?serial=…` or `/id/<serial>`, which still work.
 */
export function labelLink(publicBaseUrl: string, serial: string, gtin?: string | null): string {
  return identificationLink(publicBaseUrl, serial, gtin);
}

export type LabelSelection =
  | { ok: true; prefix: string; width: number; from: bigint; to: bigint; count: number }
  | { ok: false; field: 'from' | 'to'; key: string; params: Record<string, string | number> };

/**
 * Which serials of the range `startSerial`–`endSerial` a request selects: `from`/`to` (canonical serials or
 * undefined for the range's own ends) inside the range, from ≤ to, at most MAX_LABELS_PER_FILE. The route
 * and the dialog both ask it, so the dialog shows the server's message before anything is sent.
 */
export function selectLabels(range: { startSerial: string; endSerial: string }, from?: string, to?: string): LabelSelection {
  const start = parseSerial(range.startSerial);
  const end = parseSerial(range.endSerial);
  if (!start || !end) return { ok: false, field: 'from', key: 'labels.outsideRange', params: { range: '' } };
  const inside = (serial: string | undefined, fallback: bigint): bigint | null => {
    if (serial === undefined) return fallback;
    const p = parseSerial(serial);
    const fits = p && p.prefix === start.prefix && p.width === start.width && p.number >= start.number && p.number <= end.number;
    return fits ? p.number : null;
  };
  const params = { range: rangeLabel(range.startSerial, range.endSerial) };
  const a = inside(from, start.number);
  if (a === null) return { ok: false, field: 'from', key: 'labels.outsideRange', params };
  const b = inside(to, end.number);
  if (b === null) return { ok: false, field: 'to', key: 'labels.outsideRange', params };
  if (b < a) return { ok: false, field: 'to', key: 'labels.toBeforeFrom', params: {} };
  if (b - a + 1n > BigInt(MAX_LABELS_PER_FILE))
    return { ok: false, field: 'to', key: 'labels.tooMany', params: { max: MAX_LABELS_PER_FILE } };
  return { ok: true, prefix: start.prefix, width: start.width, from: a, to: b, count: Number(b - a + 1n) };
}
