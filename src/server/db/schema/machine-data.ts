// Mirrors migrations/0004_machine_data.sql (the SQL is the source of truth; the re-matching triggers, the
// NULLS NOT DISTINCT unique index and the CHECKs live only there).
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, integer, numeric, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea, citext } from './column-types';
import { TEST_MEDIA, TEST_RESULTS, TEST_SIDES, TEST_TYPES } from '../../../shared/contract/machine-data';
import { VERDICTS } from '../../../shared/standards/reasons';
import { INSTRUMENT_KINDS } from '../../../shared/contract/instruments';

export { bytea };

export const machines = pgTable('machines', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  name: citext('name').notNull(),
  keyPrefix: text('key_prefix').notNull(),
  keyHash: bytea('key_hash').notNull(),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  /** kept by statement triggers on test_records (once per batch) */
  recordCount: bigint('record_count', { mode: 'number' }).notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const testRecords = pgTable('test_records', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  /** NULL for records uploaded as CSV; no FK (see the migration): ingestion holds the bench row FOR KEY SHARE */
  machineId: uuid('machine_id'),
  recordId: text('record_id').notNull(),
  serial: text('serial').notNull(),
  prefix: text('prefix').notNull(),
  width: smallint('width').notNull(),
  serialNo: bigint('serial_no', { mode: 'bigint' }).notNull(),
  testType: text('test_type', { enum: TEST_TYPES }).notNull(),
  medium: text('medium', { enum: TEST_MEDIA }).notNull(),
  testPressure: numeric('test_pressure', { precision: 9, scale: 3 }).notNull(),
  holdingSeconds: integer('holding_seconds').notNull(),
  leakageValue: numeric('leakage_value', { precision: 14, scale: 4 }),
  leakageUnit: text('leakage_unit'),
  result: text('result', { enum: TEST_RESULTS }).notNull(),
  testedAt: timestamp('tested_at', { withTimezone: true }).notNull(),
  operator: text('operator').notNull().default(''),
  /** little-endian float64 pairs t0, p0, t1, p1, … (see record-samples.ts) */
  samples: bytea('samples'),
  sampleCount: integer('sample_count').notNull().default(0),
  contentHash: bytea('content_hash').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  /** maintained at insert and by the triggers on serial_ranges; NULL = unmatched */
  rangeId: uuid('range_id'),
  productId: uuid('product_id'),
  /** migration 0010: seconds the samples held at the test pressure (NULL without samples) */
  heldSeconds: numeric('held_seconds', { precision: 12, scale: 3 }),
  verdict: text('verdict', { enum: VERDICTS }).notNull().default('not-assessed'),
  /** bits of src/shared/standards/reasons.ts */
  reasons: smallint('reasons').notNull().default(0),
  /** migration 0019: what the samples say against the record (NULL without samples) */
  sampleReasons: smallint('sample_reasons'),
  /** migration 0019: the staff upload that stored it; NULL = sent by its bench */
  uploadId: uuid('upload_id'),
  /** migration 0031: the bench's instrument that measured it, and the instrument reasons found on the way in */
  instrumentId: text('instrument_id'),
  instrumentReasons: smallint('instrument_reasons').notNull().default(0),
  /** migration 0035: the test fluid's temperature (°C) and the side pressurised, as the record states them */
  fluidTemperature: numeric('fluid_temperature', { precision: 4, scale: 1 }),
  side: text('side', { enum: TEST_SIDES }),
  /** generated: 'fail' when the bench failed it or the product finds it nonconforming */
  outcome: text('outcome', { enum: TEST_RESULTS }).generatedAlwaysAs(
    sql`CASE WHEN result = 'fail' OR verdict = 'nonconforming' THEN 'fail' ELSE 'pass' END`,
  ),
});

/** One row: records without a bench (CSV uploads); kept by the triggers on test_records. */
export const testRecordTotals = pgTable('test_record_totals', {
  singleton: boolean('singleton').primaryKey().default(true),
  uploaded: bigint('uploaded', { mode: 'number' }).notNull().default(0),
});

/** Staff uploads of test records (migration 0019). */
export const recordUploads = pgTable('record_uploads', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  userId: uuid('user_id'),
  userLabel: text('user_label').notNull(),
  fileName: text('file_name').notNull(),
  sha256: bytea('sha256'),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  recordCount: integer('record_count').notNull().default(0),
});

/** Who may import records in a bench's name (migration 0019); admins need no grant. */
export const machineImportGrants = pgTable('machine_import_grants', {
  machineId: uuid('machine_id').notNull(),
  userId: uuid('user_id').notNull(),
  grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A bench's measuring instruments (migration 0031). */
export const instruments = pgTable('instruments', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  machineId: uuid('machine_id').notNull(),
  instrumentId: text('instrument_id').notNull(),
  kind: text('kind', { enum: INSTRUMENT_KINDS }).notNull(),
  rangeMax: numeric('range_max', { precision: 9, scale: 3 }).notNull(),
  accuracy: numeric('accuracy', { precision: 5, scale: 2 }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Their calibrations, added and never changed (migration 0031). */
export const instrumentCalibrations = pgTable('instrument_calibrations', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  instrument: uuid('instrument').notNull(),
  certificate: text('certificate').notNull(),
  calibratedOn: date('calibrated_on', { mode: 'string' }).notNull(),
  dueOn: date('due_on', { mode: 'string' }).notNull(),
  recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  recordedBy: text('recorded_by').notNull().default(''),
});

export type MachineRow = typeof machines.$inferSelect;
export type InstrumentRow = typeof instruments.$inferSelect;
export type TestRecordRow = typeof testRecords.$inferSelect;
