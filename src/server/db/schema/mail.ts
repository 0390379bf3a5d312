import { sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * An attachment of a queued message: its bytes (base64), or `ref`, what the kind's composer
 * (mail/composers.ts) fetches them by when the message is sent. A report email names its stored reports
 * (modules/public/report-mail.ts): the row stays a few hundred bytes instead of carrying every PDF a second
 * time, which on the embedded database cost a 200–300 ms statement to write and more to claim
 * (docs/decisions/0020).
 */
export interface OutboxAttachment {
  filename: string;
  contentType: string;
  /** the bytes, base64 */
  contentBase64?: string;
  /** instead of the bytes: filled in by the kind's composer when the message is sent */
  ref?: string;
}

export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  kind: text('kind').notNull(),
  recipient: text('recipient').notNull(),
  language: text('language', { enum: ['en', 'zh'] })
    .notNull()
    .default('en'),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body'),
  attachments: jsonb('attachments').$type<OutboxAttachment[]>().notNull().default([]),
  ref: jsonb('ref').$type<Record<string, string>>().notNull().default({}),
  status: text('status', { enum: ['queued', 'sending', 'sent', 'failed'] })
    .notNull()
    .default('queued'),
  attempts: integer('attempts').notNull().default(0),
  maxAttempts: integer('max_attempts').notNull().default(6),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  lastError: text('last_error'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type OutboxRow = typeof mailOutbox.$inferSelect;
