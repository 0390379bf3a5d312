import { sql } from 'drizzle-orm';
import { bigserial, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { mailOutbox } from './mail';

export const SEARCH_STATUSES = ['not-found', 'held', 'queued', 'sent', 'failed'] as const;
export type SearchStatus = (typeof SEARCH_STATUSES)[number];

export const searchRequests = pgTable('search_requests', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  groupId: uuid('group_id').notNull(),
  source: text('source', { enum: ['lookup', 'request'] }).notNull(),
  serial: text('serial').notNull(),
  recipientEmail: text('recipient_email'),
  language: text('language', { enum: ['en', 'zh'] }).notNull(),
  termsAgreedAt: timestamp('terms_agreed_at', { withTimezone: true }),
  termsVersion: integer('terms_version'),
  status: text('status', { enum: SEARCH_STATUSES }).notNull(),
  reportId: text('report_id'),
  outboxId: uuid('outbox_id').references(() => mailOutbox.id, { onDelete: 'set null' }),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  clientIp: text('client_ip'),
  userAgent: text('user_agent'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** when the retention job cleared the address and IP (0008_search_retention.sql) */
  personalDataErasedAt: timestamp('personal_data_erased_at', { withTimezone: true }),
});

export type SearchRequestRow = typeof searchRequests.$inferSelect;
export type NewSearchRequest = typeof searchRequests.$inferInsert;

export const powSecrets = pgTable('pow_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const powUsed = pgTable('pow_used', {
  id: text('id').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export const catalogueChanges = pgTable('catalogue_changes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});
