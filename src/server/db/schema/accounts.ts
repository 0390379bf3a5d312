import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea, citext } from './column-types';

export { citext };

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  name: text('name').notNull(),
  email: citext('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  role: text('role', { enum: ['admin', 'staff'] }).notNull(),
  language: text('language', { enum: ['en', 'zh'] })
    .notNull()
    .default('en'),
  preferences: jsonb('preferences').$type<Record<string, unknown>>().notNull().default({}),
  disabled: boolean('disabled').notNull().default(false),
  /** migration 0034: an authorised inspection representative, and the title printed beside the name */
  inspector: boolean('inspector').notNull().default(false),
  inspectorTitle: text('inspector_title').notNull().default(''),
  /** migration 0043: alerts by email, each at once, a daily digest, or none */
  alertMail: text('alert_mail', { enum: ['instant', 'digest', 'none'] })
    .notNull()
    .default('none'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export const passwordResets = pgTable('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
  actorLabel: text('actor_label').notNull(),
  action: text('action').notNull(),
  entity: text('entity').notNull(),
  entityId: text('entity_id').notNull(),
  before: jsonb('before').$type<Record<string, unknown> | null>(),
  after: jsonb('after').$type<Record<string, unknown> | null>(),
  ip: text('ip'),
});

export type UserRow = typeof users.$inferSelect;

/** Migration 0038: an authorised inspector's stamp, printed beside their name on the certificates they release. */
export const inspectorStamps = pgTable('inspector_stamps', {
  userId: uuid('user_id').primaryKey(),
  image: bytea('image').notNull(),
  type: text('type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
  sha256: text('sha256').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Migration 0039: stamps as they were at a release, by their SHA-256; never changed or removed. */
export const stampImages = pgTable('stamp_images', {
  sha256: text('sha256').primaryKey(),
  image: bytea('image').notNull(),
  type: text('type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
  createdAt: createdAt(),
});
