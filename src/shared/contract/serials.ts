/**
 * Serial-number ranges (docs/product.md §3, §5). The serial grammar lives in ../serial.ts; this file turns it
 * into field rules for the form and the route. Cross-field messages carry no parameters so that the form
 * can show them as they are; the server adds the colliding range to an overlap error itself.
 */
import { z } from 'zod';
import { MAX_RANGE_UNITS, measureRange, parseSerial, SERIAL_MAX_LENGTH, type RangeMeasure } from '../serial';
import { listQuery } from './common';
import { LINE_BREAK, noLineBreak, printable } from './products';
import { BODY_MATERIALS, type BodyMaterial } from '../standards/requirement';
import { isDay } from './days';

/** A serial as typed: normalised, and refused unless it follows the grammar. */
export function serialField() {
  return z.string({ error: 'validation.required' }).transform((s, ctx) => {
    const parsed = s.trim() === '' ? null : parseSerial(s);
    if (s.trim() === '') ctx.addIssue({ code: 'custom', message: 'validation.required' });
    else if (s.length > SERIAL_MAX_LENGTH * 4 || !parsed) ctx.addIssue({ code: 'custom', message: 'serials.validation.serial' });
    // The canonical text: "vb 2311-000123" becomes "VB2311-000123".
    return parsed ? parsed.prefix + parsed.number.toString().padStart(parsed.width, '0') : s;
  });
}

/**
 * Today as a YYYY-MM-DD string in the time zone furthest ahead (UTC+14): a production date is "not in the
 * future" if it is today anywhere on Earth, so a user in Taipei entering today's date early in the morning
 * is not refused because the server runs on UTC.
 */
export function latestToday(now = new Date()): string {
  return new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10);
}

/** A day that exists (./days), from 1900 on: a production or calibration date, not a typing slip. */
export function isCalendarDate(s: string): boolean {
  return isDay(s) && s >= '1900-01-01';
}

export const productionDateField = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required', abort: true })
  .refine(isCalendarDate, { error: 'validation.date', abort: true })
  .refine((s) => s <= latestToday(), { error: 'serials.validation.futureDate' });

export const bodyMaterialField = z
  .union([z.enum(BODY_MATERIALS), z.literal(''), z.null()], { error: 'validation.oneOf' })
  .optional()
  .transform((v): BodyMaterial | null => (v ? v : null));

export const serialRangeFields = z.object({
  productId: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(100),
  startSerial: serialField(),
  endSerial: serialField(),
  totalUnits: z.coerce
    .number({ error: 'validation.number' })
    .int({ error: 'validation.number' })
    .min(1, { error: 'validation.min' })
    .max(MAX_RANGE_UNITS, { error: 'validation.max' }),
  productionDate: productionDateField,
  /** which of the product's ratings (Pressure FC / WCB / SUS) its units carry; null = not stated */
  bodyMaterial: bodyMaterialField,
});

/**
 * Start and end share prefix and width, start <= end, at most MAX_RANGE_UNITS units, and Total Units is
 * end − start + 1 (the form computes it; the server checks it).
 */
export function rangeRules(v: { startSerial: string; endSerial: string; totalUnits: number }, ctx: z.RefinementCtx): void {
  const m = measureRange(v.startSerial, v.endSerial);
  if (m.ok) {
    if (BigInt(v.totalUnits) !== m.units) {
      ctx.addIssue({ code: 'custom', path: ['totalUnits'], message: 'serials.validation.totalMismatch' });
    }
    return;
  }
  const message = RANGE_MESSAGES[m.reason];
  // badStart/badEnd: the serial fields themselves already say what is wrong.
  if (message) ctx.addIssue({ code: 'custom', path: ['endSerial'], message });
}

const RANGE_MESSAGES: Record<Exclude<RangeMeasure, { ok: true }>['reason'], string | null> = {
  badStart: null,
  badEnd: null,
  prefixDiffers: 'serials.validation.sameSeries',
  widthDiffers: 'serials.validation.sameSeries',
  endBeforeStart: 'serials.validation.endBeforeStart',
  tooMany: 'serials.validation.tooManyUnits',
};

export const serialRangeInput = serialRangeFields.superRefine(rangeRules);
export type SerialRangeInput = z.input<typeof serialRangeInput>;
export type SerialRangeValues = z.output<typeof serialRangeInput>;

export const serialRange = z.object({
  id: z.string(),
  productId: z.string(),
  productName: z.string(),
  startSerial: z.string(),
  endSerial: z.string(),
  totalUnits: z.number().int(),
  productionDate: z.string(),
  bodyMaterial: z.enum(BODY_MATERIALS).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SerialRange = z.infer<typeof serialRange>;

export const SERIAL_RANGE_SORTS = [
  'productName',
  'startSerial',
  'endSerial',
  'totalUnits',
  'productionDate',
  'createdAt',
  'updatedAt',
] as const;
export type SerialRangeSort = (typeof SERIAL_RANGE_SORTS)[number];

/**
 * `q`: a serial finds the range that contains it; any text also matches product names and the start of a
 * series prefix. `productId` filters by product; `serial` finds exactly the range holding that serial.
 */
export const serialRangeListQuery = listQuery(SERIAL_RANGE_SORTS).extend({
  productId: z.string().trim().max(100).optional(),
  serial: z.string().trim().max(200).optional(),
});
export type SerialRangeListQuery = z.output<typeof serialRangeListQuery>;

export const SERIAL_RANGE_CSV_COLUMNS = ['product', 'startSerial', 'endSerial', 'totalUnits', 'productionDate', 'bodyMaterial'] as const;

/**
 * One row of a range import: the product by name instead of id, and Total Units optional (an empty cell is
 * computed; a filled one is checked like the form's).
 */
export const serialRangeCsvRow = z
  .object({
    product: z
      .string({ error: 'validation.required' })
      .trim()
      .min(1, { error: 'validation.required' })
      .max(120, { error: 'validation.tooLong' })
      .refine(noLineBreak, LINE_BREAK)
      .refine(printable, { error: 'validation.invalid' }),
    startSerial: serialField(),
    endSerial: serialField(),
    totalUnits: z
      .string()
      .optional()
      .transform((t, ctx) => {
        if (t === undefined || t.trim() === '') return null;
        const n = Number(t.trim());
        if (!Number.isSafeInteger(n) || n < 1) ctx.addIssue({ code: 'custom', message: 'validation.number' });
        return n;
      }),
    productionDate: productionDateField,
    bodyMaterial: bodyMaterialField,
  })
  .superRefine((v, ctx) => {
    if (v.totalUnits !== null && Number.isSafeInteger(v.totalUnits)) rangeRules({ ...v, totalUnits: v.totalUnits }, ctx);
    else if (v.totalUnits === null) {
      // Without a count to check, the computed one stands in for it, so only the other rules can fail.
      const m = measureRange(v.startSerial, v.endSerial);
      rangeRules({ ...v, totalUnits: m.ok ? Number(m.units) : 0 }, ctx);
    }
  });
export type SerialRangeCsvRow = z.output<typeof serialRangeCsvRow>;
