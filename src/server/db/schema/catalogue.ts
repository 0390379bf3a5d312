// Mirrors migrations/0003_catalogue.sql (the SQL is the source of truth; the exclusion constraint and the
// expression indexes live only there).
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, integer, numeric, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { citext } from './accounts';
import { BODY_MATERIALS } from '../../../shared/standards/requirement';
import { LEAKAGE_RATES, SEAT_TYPES, TEST_STANDARD_IDS, VALVE_TYPES } from '../../../shared/standards/types';
import { TEST_TYPES } from '../../../shared/contract/test-types';

export const products = pgTable('products', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  name: citext('name').notNull(),
  /** migration 0028: the Chinese name, '' = none */
  nameZh: text('name_zh').notNull().default(''),
  fluid: text('fluid', { enum: ['water', 'steam', 'oil', 'gas', 'air', 'chemical'] }).notNull(),
  connection: text('connection').notNull().default(''),
  application: text('application').notNull().default(''),
  applicationMedium: text('application_medium').notNull().default(''),
  /** migration 0030: the Chinese texts, '' = none */
  connectionZh: text('connection_zh').notNull().default(''),
  applicationZh: text('application_zh').notNull().default(''),
  applicationMediumZh: text('application_medium_zh').notNull().default(''),
  pressureFc: numeric('pressure_fc', { precision: 9, scale: 3 }),
  pressureWcb: numeric('pressure_wcb', { precision: 9, scale: 3 }),
  pressureSus: numeric('pressure_sus', { precision: 9, scale: 3 }),
  temperatureMax: numeric('temperature_max', { precision: 7, scale: 2 }).notNull(),
  temperatureMin: numeric('temperature_min', { precision: 7, scale: 2 }).notNull(),
  /** 'api-598' | 'en-12266-1' | 'iso-5208' | 'api-6d' | 'asme-b16.34' | '' (migrations 0010, 0026) */
  testStandard: text('test_standard', { enum: ['', ...TEST_STANDARD_IDS] })
    .notNull()
    .default(''),
  valveType: text('valve_type', { enum: VALVE_TYPES }),
  nominalSize: integer('nominal_size'),
  pressureClass: text('pressure_class').notNull().default(''),
  seatType: text('seat_type', { enum: SEAT_TYPES }),
  leakageRate: text('leakage_rate', { enum: LEAKAGE_RATES }),
  /** the kept edition the product names; '' = the edition in force on each test's day (migration 0027) */
  testEdition: text('test_edition').notNull().default(''),
  /** migration 0041: the GTIN-14, null = none */
  gtin: text('gtin'),
  /** migration 0047: the valve seals in both directions, so its closure tests are judged per side */
  bidirectional: boolean('bidirectional').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** maintained by triggers on serial_ranges */
  rangeCount: integer('range_count').notNull().default(0),
});

export const serialRanges = pgTable('serial_ranges', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  productId: uuid('product_id')
    .notNull()
    .references(() => products.id, { onDelete: 'restrict' }),
  prefix: text('prefix').notNull(),
  width: smallint('width').notNull(),
  startNo: bigint('start_no', { mode: 'bigint' }).notNull(),
  endNo: bigint('end_no', { mode: 'bigint' }).notNull(),
  totalUnits: bigint('total_units', { mode: 'number' }).generatedAlwaysAs(sql`end_no - start_no + 1`),
  productionDate: date('production_date', { mode: 'string' }).notNull(),
  bodyMaterial: text('body_material', { enum: BODY_MATERIALS }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Migration 0034: the release of a range by an authorised inspector (or, source 'settings', before inspectors were kept). */
export const rangeReleases = pgTable('range_releases', {
  rangeId: uuid('range_id').primaryKey(),
  source: text('source', { enum: ['inspector', 'settings'] }).notNull(),
  releasedBy: uuid('released_by'),
  inspectorName: text('inspector_name').notNull(),
  inspectorTitle: text('inspector_title').notNull(),
  releasedAt: timestamp('released_at', { withTimezone: true }).notNull(),
  unitsNoData: bigint('units_no_data', { mode: 'number' }).notNull(),
  unitsHeld: bigint('units_held', { mode: 'number' }).notNull(),
  unitsPassed: bigint('units_passed', { mode: 'number' }).notNull(),
  /** the inspector's stamp when they released the range (stamp_images; migration 0039); null: none */
  stampSha256: text('stamp_sha256'),
});
export type RangeReleaseRow = typeof rangeReleases.$inferSelect;

/** Migration 0010: the requirement rows derived from a product's standard (src/shared/standards). */
export const productRequirements = pgTable('product_requirements', {
  productId: uuid('product_id').notNull(),
  bodyMaterial: text('body_material', { enum: ['', ...BODY_MATERIALS] }).notNull(),
  testType: text('test_type', { enum: TEST_TYPES }).notNull(),
  /** the edition the row is derived from, and the test days it judges (null: unbounded; migration 0027) */
  edition: text('edition').notNull(),
  inForceFrom: timestamp('in_force_from', { withTimezone: true }),
  inForceTo: timestamp('in_force_to', { withTimezone: true }),
  required: boolean('required').notNull(),
  unrated: boolean('unrated').notNull(),
  pressureMin: numeric('pressure_min', { precision: 9, scale: 3 }),
  pressureMax: numeric('pressure_max', { precision: 9, scale: 3 }),
  pressureFactor: numeric('pressure_factor', { precision: 6, scale: 3 }),
  pressureRated: numeric('pressure_rated', { precision: 9, scale: 3 }),
  pressureExact: numeric('pressure_exact', { precision: 9, scale: 3 }),
  pressureRounding: text('pressure_rounding', { enum: ['', 'asme-b16.34'] }).notNull(),
  holdMin: integer('hold_min').notNull(),
  holdUnconfirmed: boolean('hold_unconfirmed').notNull(),
  leakKind: text('leak_kind', { enum: ['none', 'drops/min', 'bubbles/min', 'mm3/s', 'any'] }).notNull(),
  leakMax: numeric('leak_max', { precision: 14, scale: 4 }),
  /** migration 0046: the test fluid's temperature range, °C (null: the standard sets none we could cite) */
  fluidTempMin: numeric('fluid_temp_min', { precision: 4, scale: 1 }),
  fluidTempMax: numeric('fluid_temp_max', { precision: 4, scale: 1 }),
});

export type ProductRow = typeof products.$inferSelect;
export type SerialRangeRow = typeof serialRanges.$inferSelect;

/** Which standards data the stored requirement rows follow (migration 0022). */
export const standardsState = pgTable('standards_state', {
  id: boolean('id').primaryKey(),
  dataVersion: text('data_version').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
