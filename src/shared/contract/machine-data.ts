/**
 * Test records (docs/product.md §3 Test records, §5 field names). One record schema serves the bench API, the
 * CSV import's rows and the forms; every message is an i18n key. TEST_RECORD_FIELDS is the one statement
 * of the fields: the CSV columns, the list's sort keys and the forms derive from it.
 */
import { z } from 'zod';
import { envelope, listQuery, optionalText } from './common';
import { decimalField, PRESSURE_MAX, LINE_BREAK, noLineBreak, printable } from './products';
import { serialField } from './serials';
import { INSTRUMENT_ID_MAX } from './instruments';
import { REASON_CODES, VERDICTS } from '../standards/reasons';
import { TEST_STANDARD_IDS } from '../standards/types';

import { TEST_TYPES } from './test-types';
import { HOLDING_SECONDS_MAX, samplesField, sample } from './record-samples';
import { FLUID_TEMPERATURE_MAX, FLUID_TEMPERATURE_MIN, TEST_SIDES } from './test-conditions';

export { HOLDING_SECONDS_MAX, MAX_SAMPLES, SAMPLE_T_MAX, sample, samplesField, type Sample } from './record-samples';
export { FLUID_TEMPERATURE_MAX, FLUID_TEMPERATURE_MIN, TEST_SIDES, type TestSide } from './test-conditions';
export { TEST_TYPES, type TestType } from './test-types';
export const TEST_MEDIA = ['water', 'air', 'nitrogen', 'oil'] as const;
export type TestMedium = (typeof TEST_MEDIA)[number];
export const TEST_RESULTS = ['pass', 'fail'] as const;
export type TestResult = (typeof TEST_RESULTS)[number];

/** Records in one `POST /api/v1/machine-data` batch; more is a 413. */
export const MAX_BATCH_RECORDS = 5000;
export const RECORD_ID_MAX = 100;
export const OPERATOR_MAX = 120;
export const LEAKAGE_UNIT_MAX = 20;
export const LEAKAGE_MAX = 1_000_000_000;
/**
 * A bench clock a little ahead of ours is not an error; a test more than this in the future is refused,
 * or it would become its unit's latest test until the clock caught up (docs/decisions/0021-abuse-limits.md).
 * The message (machineData.validation.testedAtFuture) names the minutes.
 */
export const TESTED_AT_SKEW_MINUTES = 5;
export const TESTED_AT_SKEW_MS = TESTED_AT_SKEW_MINUTES * 60_000;

/** The fields of a test record as the bench API, the CSV template/export/import and the forms name them. */
export const TEST_RECORD_FIELDS = [
  'recordId',
  'serial',
  'testType',
  'medium',
  'testPressure',
  'holdingSeconds',
  'leakageValue',
  'leakageUnit',
  'result',
  'testedAt',
  'operator',
  'instrumentId',
  'fluidTemperature',
  'side',
] as const;
export type TestRecordField = (typeof TEST_RECORD_FIELDS)[number];
/** The CSV columns of records (samples travel in a second file, or are left out). */
export const TEST_RECORD_CSV_COLUMNS = TEST_RECORD_FIELDS;
/** The CSV columns of the samples file: one row per point, grouped by record. */
export const TEST_SAMPLE_CSV_COLUMNS = ['recordId', 't', 'p'] as const;

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Milliseconds of an ISO 8601 date-time with a zone, or NaN; a day the month lacks is not rolled over. */
function isoDateTimeMs(text: string): number {
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return NaN;
  const [y, mo, d, h, mi, sec] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const daysInMonth = mo === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth || h > 23 || mi > 59 || sec > 59) return NaN;
  return Date.parse(text);
}

/** ISO 8601 with a time zone (`2024-05-01T08:30:00Z`, `…+08:00`), as the canonical UTC text; not in the future. */
export function testedAtField(now: () => number = Date.now) {
  return z.string({ error: 'validation.required' }).transform((s, ctx) => {
    const text = s.trim();
    const ms = isoDateTimeMs(text);
    if (!Number.isFinite(ms) || ms < Date.UTC(1970, 0, 1)) {
      ctx.addIssue({ code: 'custom', message: text === '' ? 'validation.required' : 'machineData.validation.testedAt' });
      return text;
    }
    if (ms > now() + TESTED_AT_SKEW_MS) ctx.addIssue({ code: 'custom', message: 'machineData.validation.testedAtFuture' });
    return new Date(ms).toISOString();
  });
}

/** A whole number from JSON or from a CSV cell. */
export function integerField(opts: { min: number; max: number }) {
  return z.union([z.number(), z.string()], { error: 'validation.number' }).transform((v, ctx): number => {
    const n = typeof v === 'number' ? v : /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n)) ctx.addIssue({ code: 'custom', message: 'validation.number' });
    else if (n < opts.min)
      ctx.addIssue({ code: 'too_small', origin: 'number', minimum: opts.min, inclusive: true, message: 'validation.min' });
    else if (n > opts.max)
      ctx.addIssue({ code: 'too_big', origin: 'number', maximum: opts.max, inclusive: true, message: 'validation.max' });
    return n;
  });
}

const recordText = (max: number) => optionalText(max).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' });

/** Text a record may leave out: '', null and a missing field are all null. */
const nullableRecordText = (max: number) =>
  z
    .union([recordText(max), z.null()], { error: 'validation.invalid' })
    .optional()
    .transform((v) => (v ? v : null));

export const testRecordFields = z.object({
  recordId: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required', abort: true })
    .max(RECORD_ID_MAX, { error: 'validation.tooLong' })
    .refine(noLineBreak, LINE_BREAK)
    .refine(printable, { error: 'validation.invalid' }),
  serial: serialField(),
  testType: z.enum(TEST_TYPES, { error: 'validation.oneOf' }),
  medium: z.enum(TEST_MEDIA, { error: 'validation.oneOf' }),
  testPressure: decimalField({ min: 0, max: PRESSURE_MAX, scale: 3, required: true }),
  holdingSeconds: integerField({ min: 0, max: HOLDING_SECONDS_MAX }),
  leakageValue: decimalField({ min: 0, max: LEAKAGE_MAX, scale: 4 }),
  leakageUnit: nullableRecordText(LEAKAGE_UNIT_MAX),
  result: z.enum(TEST_RESULTS, { error: 'validation.oneOf' }),
  testedAt: testedAtField(),
  operator: recordText(OPERATOR_MAX),
  /** the bench's instrument that measured the pressure (its id under the bench's instruments); '' or null = none named */
  instrumentId: nullableRecordText(INSTRUMENT_ID_MAX),
  /** the test fluid's temperature, °C, one decimal; '' or null = not stated */
  fluidTemperature: decimalField({ min: FLUID_TEMPERATURE_MIN, max: FLUID_TEMPERATURE_MAX, scale: 1 }),
  /** the side pressurised; '' or null = not stated */
  side: z
    .union([z.enum(TEST_SIDES), z.literal(''), z.null()], { error: 'machineData.validation.side' })
    .optional()
    .transform((v) => (v ? v : null)),
  samples: samplesField.optional().default([]),
});

/** One test record as a bench sends it: the field rules plus "a leakage value and its unit go together". */
export const testRecordInput = testRecordFields.superRefine((v, ctx) => {
  if (v.leakageValue !== null && v.leakageUnit === null) {
    ctx.addIssue({ code: 'custom', path: ['leakageUnit'], message: 'machineData.validation.leakageUnitRequired' });
  }
  if (v.leakageValue === null && v.leakageUnit !== null) {
    ctx.addIssue({ code: 'custom', path: ['leakageValue'], message: 'machineData.validation.leakageValueRequired' });
  }
});
export type TestRecordInput = z.input<typeof testRecordInput>;
export type TestRecordValues = z.output<typeof testRecordInput>;

/**
 * The batch as the route receives it: only its outer shape. Each record is checked on its own
 * (testRecordInput.safeParse) so that the 400 lists every bad record, not the first.
 */
export const testRecordBatch = z.object({
  records: z
    .array(z.unknown(), { error: 'validation.required' })
    .describe(
      `Up to ${MAX_BATCH_RECORDS} test records, each { ${TEST_RECORD_FIELDS.join(', ')}, samples: [{ t, p }] } ` +
        '(see docs/integration.md, "The request"); every record is checked and every bad one listed in error.records',
    ),
});

/** One bad record in a refused batch: which, which field (dotted path inside the record), why. */
export const recordError = z.object({
  index: z.number().int(),
  recordId: z.string().optional(),
  field: z.string(),
  key: z.string(),
  reason: z.string(),
});
export type RecordError = z.infer<typeof recordError>;

export const ingestResult = z.object({
  /** records stored by this batch */
  stored: z.number().int(),
  /** recordIds already stored with the same content: nothing was stored twice */
  duplicates: z.array(z.string()),
});
export type IngestResult = z.infer<typeof ingestResult>;
export const ingestEnvelope = envelope(ingestResult);

/** What one test had to reach under its product's standard (src/shared/standards/requirement.ts). */
export const testRequirement = z.object({
  standard: z.enum(TEST_STANDARD_IDS),
  /** printed name and edition, e.g. "API 598", "10th edition, 2016" */
  standardName: z.string(),
  edition: z.string(),
  /** the kept edition's key ('10' for API 598's 10th edition): the edition the test was judged by */
  editionKey: z.string(),
  /** the standard requires this test of the valve type */
  required: z.boolean(),
  /** MPa; null = no bound */
  pressureMin: z.number().nullable(),
  pressureMax: z.number().nullable(),
  /** the unit's body material has no rated pressure on the product */
  unrated: z.boolean(),
  /**
   * how pressureMin follows from the rating: factor × rated = exact (MPa), rounded up to the next 0.1 MPa
   * where `roundedBy` names the rule (ASME B16.34); null for a pressure band or an unrated body
   */
  pressureBasis: z
    .object({
      factor: z.number(),
      rated: z.number(),
      exact: z.number(),
      roundedBy: z.enum(['asme-b16.34']).nullable(),
    })
    .nullable(),
  /** seconds */
  holdMin: z.number().int(),
  /** no source available confirms holdMin (docs/standards-sources.md): shown with a mark and a note */
  holdUnconfirmed: z.boolean(),
  /** 'none' = no visible leakage; a unit = at most leakageMax of it; 'any' = not judged */
  leakageKind: z.enum(['none', 'drops/min', 'bubbles/min', 'mm3/s', 'any']),
  leakageMax: z.number().nullable(),
});
export type TestRequirementView = z.infer<typeof testRequirement>;

/**
 * The product's judgement of a record: `conforms`, `nonconforming` (with reasons), or `not-assessed` (no
 * standard on the product, or a test type it does not judge: the bench's result stands).
 */
export const assessment = z.object({
  verdict: z.enum(VERDICTS),
  reasons: z.array(z.enum(REASON_CODES)),
  requirement: testRequirement.nullable(),
  /** seconds the samples stayed at the test pressure; null without samples */
  heldSeconds: z.number().nullable(),
  /** a bench pass that the product finds nonconforming */
  disagreement: z.boolean(),
});
export type Assessment = z.infer<typeof assessment>;

/** A record as the list shows it: no samples, only their count. `id` is the server's id (for URLs). */
export const testRecord = z.object({
  id: z.string(),
  recordId: z.string(),
  serial: z.string(),
  testType: z.enum(TEST_TYPES),
  medium: z.enum(TEST_MEDIA),
  testPressure: z.number(),
  holdingSeconds: z.number().int(),
  leakageValue: z.number().nullable(),
  leakageUnit: z.string().nullable(),
  result: z.enum(TEST_RESULTS),
  testedAt: z.string(),
  operator: z.string(),
  /** the bench's instrument that measured it; null when the record names none */
  instrumentId: z.string().nullable(),
  /** the test fluid's temperature (°C) and the side pressurised; null when not stated */
  fluidTemperature: z.number().nullable(),
  side: z.enum(TEST_SIDES).nullable(),
  sampleCount: z.number().int(),
  /** the bench that sent it; null for a CSV upload */
  machineId: z.string().nullable(),
  machineName: z.string().nullable(),
  /** the staff upload that stored it (who, which file); null when its bench sent it through its key */
  upload: z
    .object({ id: z.string(), by: z.string(), fileName: z.string(), sha256: z.string().nullable(), uploadedAt: z.string() })
    .nullable(),
  receivedAt: z.string(),
  /** the product of the range covering the serial; null while no range covers it (unmatched) */
  productId: z.string().nullable(),
  productName: z.string().nullable(),
  /** its Chinese name ('' when it has none; src/shared/product-name.ts) */
  productNameZh: z.string().nullable(),
  rangeId: z.string().nullable(),
  assessment,
});
export type TestRecord = z.infer<typeof testRecord>;

export const recordRange = z.object({
  id: z.string(),
  startSerial: z.string(),
  endSerial: z.string(),
  productionDate: z.string(),
});
export type RecordRange = z.infer<typeof recordRange>;

/** A record's detail: every field, its samples and the range it belongs to. */
export const testRecordDetail = testRecord.extend({ samples: z.array(sample), range: recordRange.nullable() });
export type TestRecordDetail = z.infer<typeof testRecordDetail>;

/** Every test of one unit, newest first, retests included, with its product and range if any. */
export const unitHistory = z.object({
  serial: z.string(),
  product: z.object({ id: z.string(), name: z.string(), nameZh: z.string() }).nullable(),
  range: recordRange.nullable(),
  records: z.array(testRecord),
});
export type UnitHistory = z.infer<typeof unitHistory>;

export const TEST_RECORD_SORTS = [
  'recordId',
  'serial',
  'testType',
  'medium',
  'testPressure',
  'result',
  'testedAt',
  'receivedAt',
] as const satisfies readonly (TestRecordField | 'receivedAt')[];
export type TestRecordSort = (typeof TEST_RECORD_SORTS)[number];

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** A bound of the tested-at filter: a date (`2024-05-01`, a UTC day) or an ISO 8601 date-time. */
const testedBound = z
  .string()
  .trim()
  .refine((s) => (DATE_ONLY.test(s) ? Number.isFinite(isoDateTimeMs(`${s}T00:00Z`)) : Number.isFinite(isoDateTimeMs(s))), {
    error: 'validation.date',
  })
  .optional();

/**
 * Filters of the list and the export. `q` and `serial` are a serial (normalised; any serial of a unit) or a
 * series prefix; `matched` is whether a serial range covers the record. Without `sort`: newest test first.
 */
export const testRecordListQuery = listQuery(TEST_RECORD_SORTS).extend({
  serial: z.string().trim().max(200).optional(),
  productId: z.string().trim().max(100).optional(),
  result: z.enum(TEST_RESULTS, { error: 'validation.oneOf' }).optional(),
  /** the product's verdict; `disagreement` = a bench pass the product finds nonconforming */
  verdict: z.enum([...VERDICTS, 'disagreement'], { error: 'validation.oneOf' }).optional(),
  testType: z.enum(TEST_TYPES, { error: 'validation.oneOf' }).optional(),
  machineId: z.string().trim().max(100).optional(),
  matched: z
    .enum(['true', 'false'], { error: 'validation.oneOf' })
    .transform((v) => v === 'true')
    .optional(),
  /** inclusive; a date means from its start (UTC) */
  testedFrom: testedBound,
  /** inclusive; a date means to its end (UTC) */
  testedTo: testedBound,
});
export type TestRecordListQuery = z.output<typeof testRecordListQuery>;
export type TestRecordListParams = z.input<typeof testRecordListQuery>;

// Above TOTAL_COUNT_LIMIT matches of a filter no counter keeps, `total` is the database's estimate and
// `totalEstimated` true ("about N"): an exact count of a million rows costs more than the page itself.
export const TOTAL_COUNT_LIMIT = 10_000;
export const testRecordListEnvelope = envelope(
  z.object({ items: z.array(testRecord), total: z.number().int(), totalEstimated: z.boolean().optional() }),
);
export const testRecordDetailEnvelope = envelope(testRecordDetail);
export const unitHistoryEnvelope = envelope(unitHistory);
