// Mirrors migrations/0003_catalogue.sql (the SQL is the source of truth; the exclusion constraint and the
// expression indexes live only there).
import { sql } from 'drizzle-orm';
import { bigint, date, integer, numeric, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { citext } from './accounts';

export const products = pgTable('products', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
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
  /** API 598, EN 12266-1, … or free text; '' = none (migration 0005) */
  testStandard: text('test_standard').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** maintained by triggers on serial_ranges */
  rangeCount: integer('range_count').notNull().default(0),
});

export const serialRanges = pgTable('serial_ranges', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  productId: uuid('product_id')
    .notNull()
    .references(() => products.id, { onDelete: 'restrict' }),
  prefix: text('prefix').notNull(),
  width: smallint('width').notNull(),
  startNo: bigint('start_no', { mode: 'bigint' }).notNull(),
  endNo: bigint('end_no', { mode: 'bigint' }).notNull(),
  totalUnits: bigint('total_units', { mode: 'number' }).generatedAlwaysAs(sql`end_no - start_no + 1`),
  productionDate: date('production_date', { mode: 'string' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type ProductRow = typeof products.$inferSelect;
export type SerialRangeRow = typeof serialRanges.$inferSelect;
