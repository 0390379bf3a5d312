/**
 * Site settings (docs/product.md §3): the company shown on reports and the public page, the terms a
 * visitor agrees to, the texts of the report, its document type, and the signing certificate. One row in
 * the database (several instances share it). SETTINGS_TEXT_FIELDS is the one statement of the editable
 * text fields: the route's body, the Settings form and the audit diff derive from it.
 */
import { z } from 'zod';
import { envelope, optionalText, requiredText } from './common';
import { LINE_BREAK, noLineBreak, printable } from './products';
import { CITY_MAX, countryCode, optionalLine, POSTCODE_MAX } from './order-fields';

/**
 * EN 10204 document types a report can be issued as. A 3.2 names a witness recorded per delivery, so it is
 * issued only for an order that asks for it; Settings choose between the other two.
 */
export const DOCUMENT_TYPES = ['test-report-2.2', 'inspection-certificate-3.1', 'inspection-certificate-3.2'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const SETTINGS_DOCUMENT_TYPES = ['test-report-2.2', 'inspection-certificate-3.1'] as const;
/** An inspection certificate (3.1 or 3.2): validated by an authorised inspector, its materials traced. */
export const isInspectionCertificate = (t: DocumentType): boolean => t !== 'test-report-2.2';

export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
/** A PKCS#12 file is a few KB; anything near this is not one. */
export const CERTIFICATE_MAX_BYTES = 64 * 1024;
export const COMPANY_NAME_MAX = 200;
export const ADDRESS_MAX = 500;
export const TERMS_MAX = 20_000;
export const REPORT_TEXT_MAX = 2000;
export const INSPECTOR_MAX = 120;
export const CONTACT_MAX = 200;

/** The editable text fields, in the order the form shows them. */
export const SETTINGS_TEXT_FIELDS = [
  'companyName',
  'companyAddress',
  'companyPostcode',
  'companyCity',
  'companyCountry',
  'termsEn',
  'termsZh',
  'statementEn',
  'statementZh',
  'footerEn',
  'footerZh',
  'documentType',
  'inspectorName',
  'inspectorStatementEn',
  'inspectorStatementZh',
  'contact',
] as const;
export type SettingsTextField = (typeof SETTINGS_TEXT_FIELDS)[number];

const line = (max: number) => requiredText(max).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' });
// Multi-line texts: newlines and tabs are fine, other control characters are not.
const multiline = (max: number) =>
  // eslint-disable-next-line no-control-regex
  optionalText(max).refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s), { error: 'validation.invalid' });

export const settingsFields = z.object({
  companyName: line(COMPANY_NAME_MAX),
  companyAddress: multiline(ADDRESS_MAX),
  /** the postcode, city and country (ISO 3166-1 alpha-2) apart, as the EN 10168 document names a company; empty when not given */
  companyPostcode: optionalLine(POSTCODE_MAX),
  companyCity: optionalLine(CITY_MAX),
  companyCountry: countryCode(),
  termsEn: multiline(TERMS_MAX),
  termsZh: multiline(TERMS_MAX),
  statementEn: multiline(REPORT_TEXT_MAX),
  statementZh: multiline(REPORT_TEXT_MAX),
  footerEn: multiline(REPORT_TEXT_MAX),
  footerZh: multiline(REPORT_TEXT_MAX),
  documentType: z.enum(SETTINGS_DOCUMENT_TYPES, { error: 'validation.oneOf' }),
  inspectorName: optionalText(INSPECTOR_MAX).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' }),
  /** the authorised inspectors' independence from manufacturing, printed on a 3.1 under the validation (empty: the product's wording) */
  inspectorStatementEn: multiline(REPORT_TEXT_MAX),
  inspectorStatementZh: multiline(REPORT_TEXT_MAX),
  /** whom a visitor asks when a report is not available (email or phone), shown on the public page and in that email */
  contact: optionalText(CONTACT_MAX).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' }),
});

/**
 * `PUT /api/v1/settings`: every text field, and optionally whether certificates use bench-sent records only
 * (unchanged when left out); an inspection certificate (3.1) needs the representative's name.
 */
export const settingsUpdateInput = settingsFields
  .extend({
    benchRecordsOnly: z.boolean({ error: 'validation.invalid' }).optional(),
    requireCalibratedInstruments: z.boolean({ error: 'validation.invalid' }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.documentType === 'inspection-certificate-3.1' && v.inspectorName === '') {
      ctx.addIssue({ code: 'custom', path: ['inspectorName'], message: 'settings.validation.inspectorRequired' });
    }
  });
export type SettingsUpdateInput = z.input<typeof settingsUpdateInput>;
export type SettingsUpdateValues = z.output<typeof settingsUpdateInput>;

/** What is shown of the signing certificate; the private key never leaves the server. */
export const certificateInfo = z.object({
  source: z.enum(['generated', 'uploaded']),
  subject: z.string(),
  issuer: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  /** SHA-256 of the DER certificate, upper-case hex pairs joined by ':' */
  fingerprintSha256: z.string(),
  selfSigned: z.boolean(),
});
export type CertificateInfo = z.infer<typeof certificateInfo>;

export const logoInfo = z.object({ type: z.enum(LOGO_TYPES), size: z.number().int(), sha256: z.string() });

export const settings = settingsFields.extend({
  /** increments each time termsEn or termsZh changes; a report request records the version agreed to */
  termsVersion: z.number().int(),
  logo: logoInfo.nullable(),
  certificate: certificateInfo.nullable(),
  updatedAt: z.string(),
  /** days a search request keeps the visitor's address and IP before the retention job clears them */
  searchRetentionDays: z.number().int(),
  /** certificates and the release gate use records sent by benches only, not staff uploads */
  benchRecordsOnly: z.boolean(),
  /**
   * a record must name an instrument of its bench that was in calibration on the test day, or it does not
   * conform (records stored before this was switched on keep their verdict)
   */
  requireCalibratedInstruments: z.boolean(),
  /**
   * years a unit's test records stay in the working table after its last test; then the archive job moves them
   * to the archive (docs/decisions/0072-record-archive.md). Null: every record is kept where it is.
   */
  recordRetentionYears: z.number().int().nullable(),
  /** what reports would lack until it is filled in (the company, its address, logo, signer, contact) */
  missing: z.array(z.enum(['companyName', 'companyAddress', 'logo', 'inspectorName', 'contact'])),
  /**
   * the address labels, certificates and emails link to (PUBLIC_BASE_URL), and whether it points at this
   * machine only (src/shared/public-address.ts); set by the settings routes
   */
  publicAddress: z.object({ url: z.string(), local: z.boolean() }).optional(),
});
export type Settings = z.infer<typeof settings>;
export const settingsEnvelope = envelope(settings);

/** `GET /api/v1/public/settings`: what the public page needs (no certificate, no staff texts). */
export const publicSettings = z.object({
  companyName: z.string(),
  /** path of the logo (`/api/v1/public/logo?v=…`), or null */
  logoUrl: z.string().nullable(),
  terms: z.object({ en: z.string(), zh: z.string() }),
  termsVersion: z.number().int(),
  /** whom to ask when a report is not available; '' when none is set */
  contact: z.string(),
});
export type PublicSettings = z.infer<typeof publicSettings>;
export const publicSettingsEnvelope = envelope(publicSettings);

/** The password of an uploaded PKCS#12 (multipart field `password`, beside the file field `file`). */
export const certificatePassword = z.string({ error: 'validation.required' }).max(1000, { error: 'validation.tooLong' });

/** Days a search request keeps its personal data: at least one, at most ten years; one year by default. */
export const SEARCH_RETENTION = { min: 1, max: 3650, default: 365 } as const;

/** `PUT /api/v1/settings/search-retention` (admin). */
export const searchRetentionInput = z.object({
  days: z.coerce
    .number({ error: 'validation.invalid' })
    .int({ error: 'validation.invalid' })
    .min(SEARCH_RETENTION.min, { error: 'searches.validation.retentionRange' })
    .max(SEARCH_RETENTION.max, { error: 'searches.validation.retentionRange' }),
});
export type SearchRetentionInput = z.input<typeof searchRetentionInput>;

/** Years a unit's test records stay in the working table after its last test, when the operator sets it. */
export const RECORD_RETENTION = { min: 1, max: 100 } as const;

/** `PUT /api/v1/settings/record-retention` (admin): null keeps every record (the default). */
export const recordRetentionInput = z.object({
  years: z
    .number({ error: 'settings.validation.recordRetentionRange' })
    .int({ error: 'settings.validation.recordRetentionRange' })
    .min(RECORD_RETENTION.min, { error: 'settings.validation.recordRetentionRange' })
    .max(RECORD_RETENTION.max, { error: 'settings.validation.recordRetentionRange' })
    .nullable(),
});
export type RecordRetentionInput = z.input<typeof recordRetentionInput>;

/** What the archive holds, as Settings shows it beside the retention. */
export const recordArchiveInfo = z.object({
  /** records moved so far */
  records: z.number().int(),
  /** the newest test among them (ISO), or null when none */
  newestTestedAt: z.string().nullable(),
  /** when the last move happened (ISO), or null */
  lastArchivedAt: z.string().nullable(),
});
export type RecordArchiveInfo = z.infer<typeof recordArchiveInfo>;
export const recordArchiveEnvelope = envelope(recordArchiveInfo);

/**
 * A key of the certificates' offline proofs, as Settings lists it and `/.well-known/jwks.json` publishes it
 * (without the dates there): an Ed25519 public key (RFC 8037) with its id.
 */
export const verificationKey = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string(),
  kid: z.string(),
  alg: z.literal('EdDSA'),
  use: z.literal('sig'),
  createdAt: z.string(),
  /** null: the key signing new certificates */
  retiredAt: z.string().nullable(),
});
export type VerificationKey = z.infer<typeof verificationKey>;
export const verificationKeysEnvelope = envelope(z.array(verificationKey));
