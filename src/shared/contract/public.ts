/**
 * The public Test Report Center API (docs/product.md §5): serial lookup, the proof-of-work challenge
 * and the report request. One schema serves the route and the /search form.
 */
import { z } from 'zod';
import { LANGUAGES } from '../i18n/index';
import { normaliseSerial } from '../serial';
import { emailField, MSG, noNul } from './common';
import { product } from './products';

/** How many serials one report request may carry. */
export const MAX_SERIALS_PER_REQUEST = 20;
/** Longest text accepted as one typed serial (a real one is at most 64 characters once normalised). */
const SERIAL_INPUT_MAX = 256;

/**
 * "vb 2311-123" → "VB2311-123". The normalised text is already the canonical form of a serial that follows
 * the grammar: parseSerial splits exactly that text into prefix and digits, and the digits keep their width,
 * so putting them back together gives it again (test/serial-grammar.test.ts). No parse per lookup, then.
 */
export function canonicalSerial(input: string): string {
  return normaliseSerial(input);
}

/**
 * A serial as a visitor types it: required and bounded, then normalised. A text that is no serial at all
 * is not a form error here: it is a serial that is not found, which is what the visitor is told.
 */
export function publicSerialField() {
  return z
    .string({ error: MSG.required })
    .trim()
    .min(1, { error: MSG.required, abort: true })
    .max(SERIAL_INPUT_MAX, { error: MSG.tooLong, abort: true })
    .refine(noNul, { error: MSG.invalid, abort: true })
    .transform(canonicalSerial)
    .refine((s) => s.length > 0, { error: MSG.required });
}

/** Splits what a visitor pasted: one serial a line, or separated by commas (or semicolons). */
export function splitSerials(text: string): string[] {
  return text
    .split(/[\n\r,;，；]+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export const lookupInput = z.object({ serial: publicSerialField() });
export type LookupInput = z.input<typeof lookupInput>;

export const lookupResult = z.object({
  /** the serial as normalised */
  serial: z.string(),
  // The product's public face: its catalogue fields, without ids or counts.
  product: product.pick({
    name: true,
    nameZh: true,
    fluid: true,
    connection: true,
    application: true,
    applicationMedium: true,
    connectionZh: true,
    applicationZh: true,
    applicationMediumZh: true,
    pressureFc: true,
    pressureWcb: true,
    pressureSus: true,
    temperatureMax: true,
    temperatureMin: true,
    // What the unit's GS1 Digital Link carries (/01/<GTIN>/21/<serial>): the link is checked against it.
    gtin: true,
  }),
  /** YYYY-MM-DD */
  productionDate: z.string(),
});
export type LookupResult = z.infer<typeof lookupResult>;

/**
 * What the lookup answers: the unit's facts and whether its test report can be sent now (`not-yet`: its tests
 * are incomplete, not passed or not released; the page says so at once and whom to contact). Said without
 * the reason, which is the manufacturer's to give.
 */
export const CERTIFICATE_STATES = ['available', 'not-yet'] as const;
export const lookupAnswerData = lookupResult.extend({ certificate: z.enum(CERTIFICATE_STATES) });
export type LookupAnswerData = z.infer<typeof lookupAnswerData>;

/** ALTCHA (v1 format) challenge, as `GET /api/v1/public/challenge` gives it and the widget reads it. */
export const powChallenge = z.object({
  algorithm: z.string(),
  challenge: z.string(),
  maxnumber: z.number().int(),
  salt: z.string(),
  signature: z.string(),
});
export type PowChallenge = z.infer<typeof powChallenge>;

const serialsField = z
  .union(
    [
      z
        .array(z.string({ error: MSG.invalid }).max(SERIAL_INPUT_MAX, { error: MSG.tooLong }))
        .max(200, { error: 'publicApi.tooManySerials' }),
      z.string().max(20_000, { error: MSG.tooLong }),
    ],
    {
      error: MSG.invalid,
    },
  )
  .transform((v) => (typeof v === 'string' ? splitSerials(v) : v.flatMap(splitSerials)));

/**
 * `serial` (one) or `serials` (up to 20: an array, or the pasted text, one a line or comma separated).
 * Serials are normalised and de-duplicated; `serial` comes first when both are given.
 */
export const reportRequestInput = z
  .object({
    serial: z.string({ error: MSG.invalid }).max(SERIAL_INPUT_MAX, { error: MSG.tooLong }).optional(),
    serials: serialsField.optional(),
    email: emailField(),
    agreeToTerms: z.literal(true, { error: 'validation.mustAgree' }),
    language: z.enum(LANGUAGES, { error: 'validation.oneOf' }),
    /**
     * the certificate printed with both languages' labels side by side (its bilingual rendering, under the
     * same number); the email and the page stay in `language`
     */
    bilingual: z.boolean({ error: 'validation.invalid' }).optional(),
    /** the solved proof-of-work: base64 of the ALTCHA payload */
    challenge: z
      .string({ error: 'publicApi.challengeRequired' })
      .min(1, { error: 'publicApi.challengeRequired' })
      .max(4096, { error: 'publicApi.challengeInvalid' }),
    /** the terms version the page showed; when it is no longer current, the visitor must read them again */
    termsVersion: z.number().int().min(0).optional(),
  })
  .transform((v, ctx) => {
    const typed = [...(v.serial !== undefined ? splitSerials(v.serial) : []), ...(v.serials ?? [])];
    const field = v.serials !== undefined ? 'serials' : 'serial';
    if (typed.some((s) => !noNul(s))) {
      ctx.addIssue({ code: 'custom', path: [field], message: MSG.invalid });
      return z.NEVER;
    }
    const serials = [...new Set(typed.map(canonicalSerial).filter((s) => s.length > 0))];
    if (serials.length === 0) {
      ctx.addIssue({ code: 'custom', path: [field], message: MSG.required });
      return z.NEVER;
    }
    if (serials.length > MAX_SERIALS_PER_REQUEST) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'publicApi.tooManySerials' });
      return z.NEVER;
    }
    const values: {
      serials: string[];
      email: string;
      language: typeof v.language;
      bilingual?: boolean;
      challenge: string;
      termsVersion?: number;
    } = {
      serials,
      email: v.email,
      language: v.language,
      bilingual: v.bilingual ?? false,
      challenge: v.challenge,
    };
    if (v.termsVersion !== undefined) values.termsVersion = v.termsVersion;
    return values;
  });
export type ReportRequestInput = z.input<typeof reportRequestInput>;
export type ReportRequestValues = z.output<typeof reportRequestInput>;

/** issued: the PDF is attached to the email and previewable; held: not available (the visitor is not told why). */
export const SERIAL_OUTCOMES = ['issued', 'held', 'not-found'] as const;
export type SerialOutcome = (typeof SERIAL_OUTCOMES)[number];

export const reportRequestResult = z.object({
  /** the request's id (one for all its serials) */
  requestId: z.string(),
  /** "Search successfully" when at least one report was issued, else why nothing was sent */
  message: z.string(),
  /** whether an email with the reports was queued */
  emailQueued: z.boolean(),
  /** whom to ask about serials whose report is not available ('' when none is or none is set) */
  contact: z.string(),
  results: z.array(
    z.object({
      serial: z.string(),
      outcome: z.enum(SERIAL_OUTCOMES),
      /** translated: "Not available; please contact the manufacturer" for held, "Serial Number Not Found" … */
      message: z.string(),
      product: z.string().nullable(),
      reportId: z.string().nullable(),
      /** `/api/v1/public/reports/<id>.pdf` for an issued report: the preview and download */
      pdfPath: z.string().nullable(),
    }),
  ),
});
export type ReportRequestResult = z.infer<typeof reportRequestResult>;
