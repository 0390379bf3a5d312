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
  fluid: text('fluid', { enum: ['water', 'steam', 'oil', 'gas', 'air', 'chemical'] }).notNull(),
  connection: text('connection').notNull().default(''),
  application: text('application').notNull().default(''),
  applicationMedium: text('application_medium').notNull().default(''),
  pressureFc: numeric('pressure_fc', { precision: 9, scale: 3 }),
  pressureWcb: numeric('pressure_wcb', { precision: 9, scale: 3 }),
  pressureSus: numeric('pressure_sus', { precision: 9, scale: 3 }),
  temperatureMax: numeric('temperature_max', { precision: 7, scale: 2 }).notNull(),
  temperatureMin: numeric('temperature_min', { precision: 7, scale: 2 }).notNull(),
  /** 'api-598' | 'en-12266-1' | 'iso-5208' | '' (migration 0010) */
  testStandard: text('test_standard', { enum: ['', ...TEST_STANDARD_IDS] })
    .notNull()
    .default(''),
  valveType: text('valve_type', { enum: VALVE_TYPES }),
  nominalSize: integer('nominal_size'),
  pressureClass: text('pressure_class').notNull().default(''),
  seatType: text('seat_type', { enum: SEAT_TYPES }),
  leakageRate: text('leakage_rate', { enum: LEAKAGE_RATES }),
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

/** Migration 0010: the requirement rows derived from a product's standard (src/shared/standards). */
export const productRequirements = pgTable('product_requirements', {
  productId: uuid('product_id').notNull(),
  bodyMaterial: text('body_material', { enum: ['', ...BODY_MATERIALS] }).notNull(),
  testType: text('test_type', { enum: TEST_TYPES }).notNull(),
  required: boolean('required').notNull(),
  unrated: boolean('unrated').notNull(),
  pressureMin: numeric('pressure_min', { precision: 9, scale: 3 }),
  pressureMax: numeric('pressure_max', { precision: 9, scale: 3 }),
  holdMin: integer('hold_min').notNull(),
  leakKind: text('leak_kind', { enum: ['none', 'drops/min', 'bubbles/min', 'mm3/s', 'any'] }).notNull(),
  leakMax: numeric('leak_max', { precision: 14, scale: 4 }),
});

export type ProductRow = typeof products.$inferSelect;
export type SerialRangeRow = typeof serialRanges.$inferSelect;
