/**
 * Issued test reports and their verification (docs/product.md §3 Test report, Verification). A report
 * is addressed by an unguessable id (128 random bits, base64url) in links and the QR code, and by a short
 * code a person can type; a dropped file is checked by its SHA-256, computed in the browser.
 */
import { z } from 'zod';
import { envelope } from './common';
import { DOCUMENT_TYPES } from './settings';
import { originOf } from '../identification';

export const REPORT_LANGUAGES = ['en', 'zh', 'bilingual'] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

/** 16 random bytes in base64url without padding. */
export const REPORT_ID_RE = /^[A-Za-z0-9_-]{22}$/;
/** Crockford base32 (no I, L, O, U), 10 characters shown as XXXXX-XXXXX. */
export const REPORT_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const REPORT_CODE_LENGTH = 10;
export const SHA256_HEX_RE = /^[0-9a-f]{64}$/;

/** A typed code, forgiving: case, spaces, dashes, and the letters people confuse with digits. */
export function normaliseReportCode(input: string): string | null {
  const s = input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (s.length !== REPORT_CODE_LENGTH) return null;
  for (const c of s) if (!REPORT_CODE_ALPHABET.includes(c)) return null;
  return s;
}

/** `ABCDE12345` → `ABCDE-12345`, as printed on the report. */
export function formatReportCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The link the QR code carries. */
export function verificationUrl(publicBaseUrl: string, id: string): string {
  return `${originOf(publicBaseUrl)}/search?report=${encodeURIComponent(id)}`;
}

/** An issued report as the server hands it to the request flow and to staff (never the bytes). */
export const issuedReportSummary = z.object({
  id: z.string(),
  number: z.string(),
  /** the short verification code, formatted XXXXX-XXXXX */
  code: z.string(),
  serial: z.string(),
  language: z.enum(REPORT_LANGUAGES),
  sha256: z.string(),
  size: z.number().int(),
  issuedAt: z.string(),
  /** `/api/v1/public/reports/<id>.pdf` */
  pdfPath: z.string(),
  filename: z.string(),
});
export type IssuedReportSummary = z.infer<typeof issuedReportSummary>;

/** One test as the report states it, in the words of the request's language (the PDF's own formatting). */
export const verificationTest = z.object({
  testType: z.string(),
  /** "Shell test" */
  name: z.string(),
  medium: z.string(),
  /** what the standard asks; null when the test was not judged against one */
  required: z.object({ pressure: z.string(), hold: z.string(), leakage: z.string() }).nullable(),
  measured: z.object({ pressure: z.string(), hold: z.string(), leakage: z.string() }),
  verdict: z.enum(['conforms', 'nonconforming', 'not-assessed']),
  /** "Conforms", "Does not conform", "Pass, as judged by the test bench" */
  verdictText: z.string(),
  testedAt: z.string(),
});
export type VerificationTest = z.infer<typeof verificationTest>;

/** What the report itself says, read from its embedded test-report.json; null when it cannot be read. */
export const verificationDetails = z.object({
  /** who signed the PDF (the certificate's holder as the report prints it) */
  signer: z.string().nullable(),
  /** the inspection representative of a 3.1 certificate */
  inspector: z.string().nullable(),
  standard: z.object({ name: z.string(), edition: z.string() }).nullable(),
  productionDate: z.string().nullable(),
  statement: z.string().nullable(),
  tests: z.array(verificationTest),
});
export type VerificationDetails = z.infer<typeof verificationDetails>;

/**
 * `GET /api/v1/public/reports/:id`, `…/by-code/:code`, `…/by-hash/:sha256`: a known report. An unknown one
 * is a 404 whose body says only "not known".
 */
export const reportVerification = z.object({
  genuine: z.literal(true),
  id: z.string(),
  number: z.string(),
  code: z.string(),
  serial: z.string(),
  productName: z.string(),
  documentType: z.enum(DOCUMENT_TYPES),
  language: z.enum(REPORT_LANGUAGES),
  issuedAt: z.string(),
  sha256: z.string(),
  /** test data of the unit changed (added, edited or removed) after the report was issued */
  newerDataExists: z.boolean(),
  /**
   * A newer report of the unit replaced this one: because its test data or their judgement changed ('data'),
   * or the document itself (layout, texts, certificate: 'document'). Null while this is the current one.
   */
  supersededBy: z.object({ id: z.string(), number: z.string(), issuedAt: z.string(), reason: z.enum(['data', 'document']) }).nullable(),
  pdfPath: z.string(),
  /**
   * True only for `by-hash`: the file whose SHA-256 was sent is byte for byte the one issued. A link or a
   * code shows what was issued, not that a copy in hand is unchanged.
   */
  fileChecked: z.boolean(),
  details: verificationDetails.nullable(),
});
export type ReportVerification = z.infer<typeof reportVerification>;
export const reportVerificationEnvelope = envelope(reportVerification);

export const reportIdParams = z.object({ id: z.string() });
export const reportCodeParams = z.object({ code: z.string() });
export const reportHashParams = z.object({ sha256: z.string() });

/** Version of the embedded test-report.json's shape; bumped on any change a reader would notice. */
export const REPORT_JSON_SCHEMA_VERSION = '2.4';
export const REPORT_ATTACHMENT_NAME = 'test-report.json';
