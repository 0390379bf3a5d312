// Mirrors migrations/0005_reports_settings.sql (the SQL is the source of truth; the CHECKs and the reuse
// index live only there).
import { bigint, boolean, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { DOCUMENT_TYPES, LOGO_TYPES, SETTINGS_DOCUMENT_TYPES } from '../../../shared/contract/settings';
import { bytea } from './machine-data';
import { REPORT_LANGUAGES } from '../../../shared/contract/reports';

export const settingsTable = pgTable('settings', {
  singleton: boolean('singleton').primaryKey().default(true),
  companyName: text('company_name').notNull(),
  companyAddress: text('company_address').notNull(),
  companyPostcode: text('company_postcode').notNull().default(''),
  companyCity: text('company_city').notNull().default(''),
  companyCountry: text('company_country').notNull().default(''),
  termsEn: text('terms_en').notNull(),
  termsZh: text('terms_zh').notNull(),
  termsVersion: integer('terms_version').notNull(),
  statementEn: text('statement_en').notNull(),
  statementZh: text('statement_zh').notNull(),
  footerEn: text('footer_en').notNull(),
  footerZh: text('footer_zh').notNull(),
  documentType: text('document_type', { enum: SETTINGS_DOCUMENT_TYPES }).notNull(),
  inspectorName: text('inspector_name').notNull(),
  /** migration 0010 */
  contact: text('contact').notNull().default(''),
  logo: bytea('logo'),
  logoType: text('logo_type', { enum: LOGO_TYPES }),
  logoSha256: text('logo_sha256'),
  certSource: text('cert_source', { enum: ['generated', 'uploaded'] }),
  certPem: text('cert_pem'),
  /** read only by the signer (src/server/lib/signing/signing.ts); never in an answer or the audit log */
  keyPem: text('key_pem'),
  certFingerprint: text('cert_fingerprint'),
  revision: integer('revision').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** days a search request keeps its address and IP (0008_search_retention.sql) */
  searchRetentionDays: integer('search_retention_days').notNull().default(365),
  /** migration 0019: certificates from bench-sent records only */
  benchRecordsOnly: boolean('bench_records_only').notNull().default(false),
  /** migration 0031: records need an instrument of their bench in calibration on the test day */
  requireCalibratedInstruments: boolean('require_calibrated_instruments').notNull().default(false),
  /** migration 0034: the authorised inspectors' independence from manufacturing, printed on a 3.1 */
  inspectorStatementEn: text('inspector_statement_en').notNull().default(''),
  inspectorStatementZh: text('inspector_statement_zh').notNull().default(''),
  /** migration 0051: records of units last tested longer ago move to test_records_archive; null keeps every one */
  recordRetentionYears: smallint('record_retention_years'),
});

export const reports = pgTable('reports', {
  id: text('id').primaryKey(),
  code: text('code').notNull(),
  number: text('number').notNull(),
  serial: text('serial').notNull(),
  productId: uuid('product_id'),
  productName: text('product_name').notNull(),
  documentType: text('document_type', { enum: DOCUMENT_TYPES }).notNull(),
  language: text('language', { enum: REPORT_LANGUAGES }).notNull(),
  dataVersion: text('data_version').notNull(),
  sourceVersion: text('source_version').notNull(),
  sha256: bytea('sha256').notNull(),
  bytes: bytea('bytes').notNull(),
  size: integer('size').notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  certificateFingerprint: text('certificate_fingerprint').notNull(),
  flags: jsonb('flags').$type<Array<{ testType: string; code: string }>>().notNull().default([]),
  /** migration 0010: the report that replaced this one for the unit, and why ('data' | 'document') */
  supersededBy: text('superseded_by'),
  supersededReason: text('superseded_reason', { enum: ['data', 'document'] }),
  /** migration 0021: the delivery unit whose order this certificate names; null: the unit's certificate without an order */
  deliveryUnitId: bigint('delivery_unit_id', { mode: 'number' }),
});

export const reportCounters = pgTable('report_counters', {
  year: integer('year').primaryKey(),
  last: integer('last').notNull(),
});

/** migration 0036: one number and issue date per certificate, shared by its renderings in each language */
export const reportCertificates = pgTable(
  'report_certificates',
  {
    serial: text('serial').notNull(),
    sourceVersion: text('source_version').notNull(),
    number: text('number').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.serial, t.sourceVersion] })],
);

export type SettingsRow = typeof settingsTable.$inferSelect;
export type ReportRow = typeof reports.$inferSelect;

/** migration 0042: the Ed25519 keys of certificates' offline proofs (settings/verification-keys.service.ts) */
export const verificationKeysTable = pgTable('verification_keys', {
  kid: text('kid').primaryKey(),
  /** the public key, base64url (a JWK's `x`) */
  publicX: text('public_x').notNull(),
  /** read only to sign a proof; never in an answer or the audit log */
  privatePem: text('private_pem').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  retiredAt: timestamp('retired_at', { withTimezone: true }),
});
