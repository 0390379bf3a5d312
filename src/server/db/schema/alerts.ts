// Mirrors migrations/0043_alerts.sql (the SQL is the source of truth; its CHECKs live only there).
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, integer, jsonb, numeric, pgTable, smallint, text, time, timestamp, uuid } from 'drizzle-orm/pg-core';
import { ALERT_KINDS, ALERT_STATUSES } from '../../../shared/contract/alerts';

export const alerts = pgTable('alerts', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  kind: text('kind', { enum: ALERT_KINDS }).notNull(),
  status: text('status', { enum: ALERT_STATUSES }).notNull().default('open'),
  dedupeKey: text('dedupe_key').notNull(),
  raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
  productId: uuid('product_id'),
  machineId: uuid('machine_id'),
  serial: text('serial'),
  recordId: bigint('record_id', { mode: 'number' }),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
  acknowledgedBy: uuid('acknowledged_by'),
  acknowledgedByLabel: text('acknowledged_by_label'),
  cause: text('cause'),
  action: text('action'),
});
export type AlertRow = typeof alerts.$inferSelect;

export const alertConditions = pgTable('alert_conditions', {
  key: text('key').primaryKey(),
  active: boolean('active').notNull(),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});

export const alertCursor = pgTable('alert_cursor', {
  singleton: boolean('singleton').primaryKey().default(true),
  readUntil: timestamp('read_until', { withTimezone: true }).notNull(),
});

export const alertThresholds = pgTable('alert_thresholds', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  productId: uuid('product_id'),
  machineId: uuid('machine_id'),
  yieldUnits: integer('yield_units'),
  yieldMin: numeric('yield_min', { precision: 5, scale: 4, mode: 'number' }),
  silenceMinutes: integer('silence_minutes'),
  workDays: smallint('work_days')
    .array()
    .notNull()
    .default(sql`'{1,2,3,4,5}'`),
  workStart: time('work_start').notNull().default('08:00'),
  workEnd: time('work_end').notNull().default('17:00'),
  timeZone: text('time_zone').notNull().default('Asia/Taipei'),
  baselineFrom: date('baseline_from', { mode: 'string' }),
  baselineTo: date('baseline_to', { mode: 'string' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type AlertThresholdRow = typeof alertThresholds.$inferSelect;
