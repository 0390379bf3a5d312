/**
 * Products (docs/product.md §3, §5). One schema serves the route and the form's resolver: inputs accept what an
 * HTML input gives (strings, empty for "not set") as well as JSON numbers, and every message is an i18n key.
 */
import { z } from 'zod';
import { listQuery, optionalText, requiredText } from './common';
import { parseGtin } from '../gtin';
import { editionOf, missingForStandard } from '../standards/requirement';
import { LEAKAGE_RATES, SEAT_TYPES, TEST_STANDARD_IDS, VALVE_TYPES } from '../standards/types';

export const FLUIDS = ['water', 'steam', 'oil', 'gas', 'air', 'chemical'] as const;
export type Fluid = (typeof FLUIDS)[number];

export const PRODUCT_NAME_MAX = 120;
export const PRESSURE_MAX = 1000; // MPa; far above any valve rating, below numeric(9,3)
export const TEMPERATURE_MIN = -273.15;
export const TEMPERATURE_MAX = 2000;
export const PRESSURE_CLASS_MAX = 20;
/** DN in millimetres: DN 1 … DN 4000 covers every valve a bench tests. */
export const NOMINAL_SIZE_MAX = 4000;
/** Common pressure classes, offered in the form; any other text up to 20 characters is accepted. */
export const PRESSURE_CLASSES = [
  'CL150',
  'CL300',
  'CL600',
  'CL900',
  'CL1500',
  'CL2500',
  'PN10',
  'PN16',
  'PN25',
  'PN40',
  'PN63',
  'PN100',
] as const;

/**
 * A decimal typed into a form or sent as JSON: `''`, null and undefined mean "not set" (null), otherwise a
 * finite number within [min, max] with at most `scale` decimals. Strings accept a decimal point or comma.
 */
export function decimalField(opts: { min: number; max: number; scale: number; required?: boolean }) {
  return z
    .union([z.number(), z.string(), z.null()], { error: 'validation.number' })
    .optional()
    .transform((v, ctx): number | null => {
      const text = typeof v === 'string' ? v.trim().replace(',', '.') : v;
      if (text === '' || text === null || text === undefined) {
        if (opts.required) ctx.addIssue({ code: 'custom', message: 'validation.required' });
        return null;
      }
      const n = typeof text === 'number' ? text : /^[+-]?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : NaN;
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: 'validation.number' });
        return null;
      }
      if (n < opts.min)
        ctx.addIssue({ code: 'too_small', origin: 'number', minimum: opts.min, inclusive: true, message: 'validation.min' });
      else if (n > opts.max)
        ctx.addIssue({ code: 'too_big', origin: 'number', maximum: opts.max, inclusive: true, message: 'validation.max' });
      else if (Math.abs(Math.round(n * 10 ** opts.scale) - n * 10 ** opts.scale) > 1e-6) {
        ctx.addIssue({ code: 'custom', message: `products.validation.decimals${opts.scale}` });
      }
      // -0 would print as "0" anyway; normalise so equality checks in the audit diff are exact.
      return n === 0 ? 0 : n;
    });
}

/** An optional choice from a list: '' and null mean "not set". */
function optionalChoice<T extends readonly [string, ...string[]]>(values: T) {
  return z
    .union([z.enum(values), z.literal(''), z.null()], { error: 'validation.oneOf' })
    .optional()
    .transform((v): T[number] | null => (v ? v : null));
}

const pressure = () => decimalField({ min: 0, max: PRESSURE_MAX, scale: 3 });
const temperature = () => decimalField({ min: TEMPERATURE_MIN, max: TEMPERATURE_MAX, scale: 2, required: true });

// Control characters (U+0000 cannot even be stored) have no place in a name printed on a report.
// eslint-disable-next-line no-control-regex
export const printable = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);
/**
 * A one-line field refuses a line break with its own message, before the printable check: a quoted CSV cell
 * may hold one, and "not valid" would not say what to change.
 */
export const noLineBreak = (s: string) => !/[\r\n\u2028\u2029]/.test(s);
export const LINE_BREAK = { error: 'validation.lineBreak', abort: true } as const;
/**
 * A GTIN (shared/gtin.ts): '' and null mean none, absent keeps what the product has; otherwise 8, 12, 13 or 14 digits with their check digit,
 * given as text (a JSON number would lose a GTIN-12's leading zero), kept as GTIN-14.
 */
export function gtinField() {
  return z
    .union([z.string().max(40, { error: 'products.validation.gtinDigits' }), z.null()], { error: 'products.validation.gtinDigits' })
    .optional()
    .transform((v, ctx): string | null | undefined => {
      // Absent: a replace keeps the product's GTIN, as it keeps its edition (a client written before the
      // field existed must not erase it); '' or null: none.
      if (v === undefined) return undefined;
      const typed = v?.trim() ?? '';
      if (typed === '') return null;
      const parsed = parseGtin(typed);
      if ('gtin' in parsed) return parsed.gtin;
      ctx.addIssue({ code: 'custom', message: `products.validation.${parsed.problem === 'digits' ? 'gtinDigits' : 'gtinCheckDigit'}` });
      return null;
    });
}

const text = (max: number) => optionalText(max).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' });

export const productFields = z.object({
  name: requiredText(PRODUCT_NAME_MAX).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' }),
  /** the Chinese name, printed instead of the name in Chinese when set; '' = none */
  nameZh: text(PRODUCT_NAME_MAX),
  fluid: z.enum(FLUIDS, { error: 'validation.oneOf' }),
  connection: text(120),
  application: text(120),
  applicationMedium: text(120),
  /** the connection, application and medium in Chinese, printed instead in Chinese when set; '' = none */
  connectionZh: text(120),
  applicationZh: text(120),
  applicationMediumZh: text(120),
  pressureFc: pressure(),
  pressureWcb: pressure(),
  pressureSus: pressure(),
  temperatureMax: temperature(),
  temperatureMin: temperature(),
  valveType: optionalChoice(VALVE_TYPES),
  /** DN, whole millimetres */
  nominalSize: decimalField({ min: 1, max: NOMINAL_SIZE_MAX, scale: 0 }),
  pressureClass: text(PRESSURE_CLASS_MAX).transform((v) => v.toUpperCase().replace(/\s+/g, '')),
  seatType: optionalChoice(SEAT_TYPES),
  /** the standard every test of the product is judged by; '' = none (the bench's verdict stands) */
  testStandard: z
    .union([z.enum(TEST_STANDARD_IDS), z.literal(''), z.null()], { error: 'validation.oneOf' })
    .optional()
    .transform((v) => v ?? ''),
  /** EN 12266-1 / ISO 5208 leakage rate of the seat test */
  leakageRate: optionalChoice(LEAKAGE_RATES),
  /**
   * the edition of the standard the product is tested to, where more than one is kept ('8', '9', '10' for API
   * 598); '' = the edition in force on each test's day; absent on a replace: the product keeps its own
   */
  testEdition: z.string().max(10, { error: 'validation.invalid' }).optional(),
  /** the GS1 GTIN, kept as GTIN-14; null = none (its units' link is then /id/<serial>); absent = unchanged */
  gtin: gtinField(),
  /**
   * the valve seals against pressure from either direction, so the release gate asks for a conforming
   * closure test on side A and on side B (docs/decisions/0054-test-conditions.md); absent: false on an add,
   * unchanged on a replace (a client that does not know the field leaves it)
   */
  bidirectional: z.boolean({ error: 'products.validation.bidirectional' }).optional(),
});

/** Add or replace a product: the field rules plus "at least one pressure rating" and "Min <= Max". */
export const productInput = productFields.superRefine((v, ctx) => {
  if (v.pressureFc === null && v.pressureWcb === null && v.pressureSus === null) {
    ctx.addIssue({ code: 'custom', path: ['pressureFc'], message: 'products.validation.pressureRequired' });
  }
  if (v.temperatureMin !== null && v.temperatureMax !== null && v.temperatureMin > v.temperatureMax) {
    ctx.addIssue({ code: 'custom', path: ['temperatureMin'], message: 'products.validation.temperatureOrder' });
  }
  if (v.testEdition && (!v.testStandard || !editionOf(v.testStandard, v.testEdition))) {
    ctx.addIssue({ code: 'custom', path: ['testEdition'], message: 'products.validation.editionUnknown' });
  }
  // A standard judges by these; without them no requirement can be derived, so the form asks for them.
  for (const field of missingForStandard(v)) {
    const notDefined = field === 'leakageRate' && v.leakageRate !== null;
    ctx.addIssue({
      code: 'custom',
      path: [field],
      message: notDefined ? 'products.validation.rateNotInStandard' : 'products.validation.neededByStandard',
    });
  }
});
export type ProductInput = z.input<typeof productInput>;
export type ProductValues = z.output<typeof productInput>;

export const product = z.object({
  id: z.string(),
  name: z.string(),
  nameZh: z.string(),
  fluid: z.enum(FLUIDS),
  connection: z.string(),
  application: z.string(),
  applicationMedium: z.string(),
  connectionZh: z.string(),
  applicationZh: z.string(),
  applicationMediumZh: z.string(),
  pressureFc: z.number().nullable(),
  pressureWcb: z.number().nullable(),
  pressureSus: z.number().nullable(),
  temperatureMax: z.number(),
  temperatureMin: z.number(),
  valveType: z.enum(VALVE_TYPES).nullable(),
  nominalSize: z.number().int().nullable(),
  pressureClass: z.string(),
  seatType: z.enum(SEAT_TYPES).nullable(),
  testStandard: z.enum([...TEST_STANDARD_IDS, '']),
  leakageRate: z.enum(LEAKAGE_RATES).nullable(),
  /** the edition the product names ('' = the edition in force when each test was done) */
  testEdition: z.string(),
  /** the GTIN-14, or null */
  gtin: z.string().nullable(),
  /** closure tests are judged per side (side A and side B) */
  bidirectional: z.boolean(),
  /** how many serial-number ranges use the product (it cannot be deleted while any do) */
  rangeCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Product = z.infer<typeof product>;

export { productName } from '../product-name';

/** The fields of a product as the form, the CSV template, export and import name them, in this order. */
export const PRODUCT_FIELDS = [
  'name',
  'nameZh',
  'fluid',
  'connection',
  'application',
  'applicationMedium',
  'connectionZh',
  'applicationZh',
  'applicationMediumZh',
  'pressureFc',
  'pressureWcb',
  'pressureSus',
  'temperatureMax',
  'temperatureMin',
  'valveType',
  'nominalSize',
  'pressureClass',
  'seatType',
  'testStandard',
  'leakageRate',
  'gtin',
  'bidirectional',
] as const;

export const PRODUCT_SORTS = [...PRODUCT_FIELDS, 'rangeCount', 'createdAt', 'updatedAt'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

/** `q` searches name, connection, application, medium and GTIN; `fluid` filters. */
export const productListQuery = listQuery(PRODUCT_SORTS).extend({
  fluid: z.enum(FLUIDS, { error: 'validation.oneOf' }).optional(),
});
export type ProductListQuery = z.output<typeof productListQuery>;

/** The columns of the CSV template, export and import. */
export const PRODUCT_CSV_COLUMNS = PRODUCT_FIELDS;

/** A product's value as a CSV cell: `bidirectional` is written `true` or `false`. */
export function productCsvCell<T>(v: T): Exclude<T, boolean> | string {
  return typeof v === 'boolean' ? String(v) : (v as Exclude<T, boolean>);
}

/**
 * A CSV row for `productInput`: the `bidirectional` cell as the export writes it (`true`, `false`, any case),
 * empty for "not stated" (false on an add); any other text is left for the schema to refuse.
 */
export function productCsvRow(row: Record<string, string>): Record<string, unknown> {
  const cell = row.bidirectional?.trim().toLowerCase();
  const { bidirectional: _b, ...rest } = row;
  if (cell === undefined || cell === '') return rest;
  return { ...rest, bidirectional: cell === 'true' ? true : cell === 'false' ? false : row.bidirectional };
}
