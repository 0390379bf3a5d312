import { sql } from 'drizzle-orm';
import { bigint, boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from './orders';

/** Mirrors 0044_webhooks.sql. */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  events: text('events').array().notNull(),
  customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  disabledReason: text('disabled_reason'),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  failingSince: timestamp('failing_since', { withTimezone: true }),
  busyUntil: timestamp('busy_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

export const webhookEvents = pgTable('webhook_events', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  type: text('type').notNull(),
  customerId: uuid('customer_id'),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  eventId: uuid('event_id')
    .notNull()
    .references(() => webhookEvents.id, { onDelete: 'cascade' }),
  endpointId: uuid('endpoint_id')
    .notNull()
    .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
  status: text('status', { enum: ['pending', 'sending', 'delivered', 'failed'] })
    .notNull()
    .default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  lastError: text('last_error'),
  deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

export const webhookAttempts = pgTable('webhook_attempts', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  deliveryId: bigint('delivery_id', { mode: 'number' })
    .notNull()
    .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
  endpointId: uuid('endpoint_id')
    .notNull()
    .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
  eventId: uuid('event_id').notNull(),
  eventType: text('event_type').notNull(),
  attempt: integer('attempt').notNull(),
  statusCode: integer('status_code'),
  durationMs: integer('duration_ms').notNull(),
  error: text('error'),
  responseBody: text('response_body'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
