/**
 * Nameplate QR labels of a serial range (docs/decisions/0023-nameplate-labels-and-near-miss.md): the query
 * of `GET /api/v1/serial-ranges/:id/labels.pdf` and the link each label's QR code carries. One schema serves
 * the route and the staff screen's dialog.
 */
import { z } from 'zod';
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

/** The address a label's QR code opens: the public page, which looks the serial up at once. */
export function labelLink(publicBaseUrl: string, serial: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/search?serial=${encodeURIComponent(serial)}`;
}
