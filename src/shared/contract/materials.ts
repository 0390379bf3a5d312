/**
 * Materials, the parts of a product, heats and the heats of a range's units
 * (docs/decisions/0053-materials-and-heats.md). `/api/v1/materials`, `/api/v1/heats`,
 * `/api/v1/products/{id}/parts`, `/api/v1/serial-ranges/{id}/heats` and its per-serial exceptions.
 */
import { z } from 'zod';
import { envelope, listQuery, optionalText, requiredText } from './common';
import { decimalField, LINE_BREAK, noLineBreak, printable } from './products';
import { isCalendarDate } from './serials';
import { BODY_MATERIALS } from '../standards/requirement';

/** The parts a valve's certificate names, in the order it prints them. */
export const PARTS = ['body', 'bonnet', 'closure', 'stem', 'seat', 'bolting'] as const;
export type Part = (typeof PARTS)[number];
/**
 * The pressure-retaining parts: a 3.1 or 3.2 certificate is held while one the product names has no heat,
 * or its heat is on hold (EN 10204 3.1 asks that the inspection be of the delivered product itself).
 */
export const PRESSURE_PARTS = ['body', 'bonnet'] as const satisfies readonly Part[];
export type PressurePart = (typeof PRESSURE_PARTS)[number];

export const HEAT_CERTIFICATE_TYPES = ['3.1', '3.2'] as const;
export const HEAT_STATUSES = ['released', 'hold'] as const;
export type HeatStatus = (typeof HEAT_STATUSES)[number];
/** The largest mill certificate taken (PDF), 20 MB. */
export const HEAT_CERTIFICATE_MAX_BYTES = 20 * 1024 * 1024;

const oneLine = (max: number) => requiredText(max).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' });
const oneLineOptional = (max: number) =>
  optionalText(max).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' });
const uuidField = () =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .uuid({ error: 'validation.invalid' });

export const materialInput = z.object({
  specification: oneLine(60),
  grade: oneLine(40),
  ratingBasis: z.enum(BODY_MATERIALS, { error: 'validation.oneOf' }),
  materialGroup: oneLineOptional(20),
});
export type MaterialInput = z.input<typeof materialInput>;
export type MaterialValues = z.output<typeof materialInput>;

export const material = z.object({
  id: z.string(),
  specification: z.string(),
  grade: z.string(),
  ratingBasis: z.enum(BODY_MATERIALS),
  materialGroup: z.string(),
  heatCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Material = z.infer<typeof material>;
export const materialEnvelope = envelope(material);
export const materialListEnvelope = envelope(z.array(material));

/** "ASTM A216 WCB": what a certificate and a screen print of a material. */
export function materialName(m: { specification: string; grade: string }): string {
  return `${m.specification} ${m.grade}`;
}

/** A measured value: a number, or the text of a form field ("485", "22,5"); empty is "not reported". */
const measured = (max: number) => decimalField({ min: 0, max, scale: 1 }).transform((v) => v ?? null);

const ELEMENT = /^[A-Z][a-z]?$/;
const chemistryRecord = z
  .record(z.string().regex(ELEMENT, { error: 'materials.validation.element' }), z.number({ error: 'validation.number' }).min(0).max(100))
  .refine((r) => Object.keys(r).length <= 30, { error: 'validation.tooLong' });

/**
 * The cast analysis: the API sends `{ "C": 0.21, "Mn": 0.8 }`, the form its text "C 0.21, Mn 0.80" (a symbol
 * and its %, pairs apart by commas, semicolons or line breaks; "=" or ":" may join them). Empty is none.
 */
const chemistryField = z
  .unknown()
  .optional()
  .transform((v, ctx): Record<string, number> => {
    if (v === undefined || v === null) return {};
    if (typeof v !== 'string') {
      const r = chemistryRecord.safeParse(v);
      if (r.success) return r.data;
      // A bad element symbol is reported by the record as an invalid key, with the symbol's own issue inside.
      for (const issue of r.error.issues)
        ctx.addIssue({
          code: 'custom',
          message: issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message,
          path: issue.path,
        });
      return {};
    }
    const out: Record<string, number> = {};
    for (const pair of v
      .split(/[,;\n\uff0c\uff1b\u3001]+/)
      .map((p) => p.trim())
      .filter(Boolean)) {
      const m = /^([A-Za-z]{1,2})\s*[=:\uff1a]?\s*(\d+(?:[.]\d+)?|[.]\d+)\s*%?$/.exec(pair);
      const symbol = m ? m[1]!.charAt(0).toUpperCase() + m[1]!.slice(1).toLowerCase() : '';
      const value = m ? Number(m[2]) : NaN;
      if (!m || !(value <= 100) || symbol in out || Object.keys(out).length >= 30) {
        ctx.addIssue({ code: 'custom', message: 'materials.validation.chemistry' });
        return {};
      }
      out[symbol] = value;
    }
    return out;
  });

/** A cast analysis as the form shows it: "C 0.21, Mn 0.8". */
export function chemistryToText(chemistry: Record<string, number>): string {
  return Object.entries(chemistry)
    .map(([symbol, value]) => `${symbol} ${value}`)
    .join(', ');
}

/**
 * What a heat's mill certificate reports, in EN 10168's groups: the cast analysis by element symbol (C71–C92,
 * %), the tensile strength Rm (C12, MPa), the yield or proof strength Rp0.2 (C11, MPa) and the elongation
 * after fracture A (C13, %). All optional; the API sends numbers, the form their text.
 */
export const heatPropertiesInput = z.object({
  chemistry: chemistryField,
  tensileStrength: measured(5000),
  yieldStrength: measured(5000),
  elongation: measured(100),
});

export const heatInput = z
  .object({
    number: oneLine(40),
    materialId: uuidField(),
    supplier: oneLineOptional(120),
    certificateNumber: oneLineOptional(80),
    certificateType: z.enum(HEAT_CERTIFICATE_TYPES, { error: 'validation.oneOf' }),
    date: z
      .string({ error: 'validation.invalid' })
      .trim()
      .refine((s) => s === '' || isCalendarDate(s), { error: 'validation.date' })
      .default(''),
    status: z.enum(HEAT_STATUSES, { error: 'validation.oneOf' }).default('released'),
    holdNote: optionalText(500).refine(printable, { error: 'validation.invalid' }),
    properties: heatPropertiesInput.default({ chemistry: {}, tensileStrength: null, yieldStrength: null, elongation: null }),
  })
  .superRefine((v, ctx) => {
    if (v.status === 'hold' && v.holdNote === '')
      ctx.addIssue({ code: 'custom', path: ['holdNote'], message: 'materials.validation.holdNote' });
  });
export type HeatInput = z.input<typeof heatInput>;
export type HeatValues = z.output<typeof heatInput>;

export const heat = z.object({
  id: z.string(),
  number: z.string(),
  materialId: z.string(),
  material: z.string(),
  supplier: z.string(),
  certificateNumber: z.string(),
  certificateType: z.enum(HEAT_CERTIFICATE_TYPES),
  date: z.string(),
  status: z.enum(HEAT_STATUSES),
  holdNote: z.string(),
  properties: z.object({
    chemistry: z.record(z.string(), z.number()),
    tensileStrength: z.number().nullable(),
    yieldStrength: z.number().nullable(),
    elongation: z.number().nullable(),
  }),
  /** reported values outside the material's cited limits: the heat is on hold while there are any */
  findings: z.array(z.object({ property: z.string(), value: z.number(), min: z.number().nullable(), max: z.number().nullable() })),
  /** the uploaded mill certificate, null before one is */
  file: z.object({ name: z.string(), bytes: z.number().int(), sha256: z.string(), uploadedAt: z.string() }).nullable(),
  /** ranges whose units it is assigned to, and single units */
  rangeCount: z.number().int(),
  unitCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Heat = z.infer<typeof heat>;
export const heatEnvelope = envelope(heat);
export const heatListEnvelope = envelope(z.object({ items: z.array(heat), total: z.number().int() }));

export const HEAT_SORTS = ['number', 'date', 'createdAt'] as const;
export const heatListQuery = listQuery(HEAT_SORTS).extend({
  materialId: z.string().uuid({ error: 'validation.invalid' }).optional(),
  status: z.enum(HEAT_STATUSES, { error: 'validation.oneOf' }).optional(),
});
export type HeatListQuery = z.output<typeof heatListQuery>;

/** A product's parts: each part at most once, each with a material. */
export const partsInput = z
  .object({ parts: z.array(z.object({ part: z.enum(PARTS, { error: 'validation.oneOf' }), materialId: uuidField() })).max(PARTS.length) })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.parts.forEach((p, i) => {
      if (seen.has(p.part)) ctx.addIssue({ code: 'custom', path: ['parts', i, 'part'], message: 'materials.validation.partTwice' });
      seen.add(p.part);
    });
  });
export type PartsInput = z.input<typeof partsInput>;
export type PartsValues = z.output<typeof partsInput>;

export const productPart = z.object({
  part: z.enum(PARTS),
  materialId: z.string(),
  material: z.string(),
  ratingBasis: z.enum(BODY_MATERIALS),
});
export type ProductPart = z.infer<typeof productPart>;
export const productPartsEnvelope = envelope(z.array(productPart));

/** The heats of a range's parts: each part at most once. */
export const rangeHeatsInput = z
  .object({ heats: z.array(z.object({ part: z.enum(PARTS, { error: 'validation.oneOf' }), heatId: uuidField() })).max(PARTS.length) })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.heats.forEach((h, i) => {
      if (seen.has(h.part)) ctx.addIssue({ code: 'custom', path: ['heats', i, 'part'], message: 'materials.validation.partTwice' });
      seen.add(h.part);
    });
  });
export type RangeHeatsInput = z.input<typeof rangeHeatsInput>;
export type RangeHeatsValues = z.output<typeof rangeHeatsInput>;

export const rangeHeat = z.object({
  part: z.enum(PARTS),
  heatId: z.string(),
  number: z.string(),
  material: z.string(),
  status: z.enum(HEAT_STATUSES),
});
/** A range's heats, and how many of its units have a heat of their own for some part. */
export const rangeHeats = z.object({ heats: z.array(rangeHeat), exceptions: z.number().int() });
export type RangeHeats = z.infer<typeof rangeHeats>;
export const rangeHeatsEnvelope = envelope(rangeHeats);

/** The per-serial exceptions' CSV: one heat (by its number) for one part of one serial. */
export const UNIT_HEAT_CSV_COLUMNS = ['serial', 'part', 'heat'] as const;
