// Mirrors migrations/0032_materials_and_heats.sql (the SQL is the source of truth).
import { sql } from 'drizzle-orm';
import { bigint, date, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { BODY_MATERIALS } from '../../../shared/standards/requirement';
import { HEAT_CERTIFICATE_TYPES, HEAT_STATUSES, PARTS } from '../../../shared/contract/materials';
import { products, serialRanges } from './catalogue';
import { bytea } from './machine-data';
import type { Finding, HeatProperties } from '../../../shared/standards/material-limits';

export const materials = pgTable('materials', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  specification: text('specification').notNull(),
  grade: text('grade').notNull(),
  ratingBasis: text('rating_basis', { enum: BODY_MATERIALS }).notNull(),
  materialGroup: text('material_group').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const productParts = pgTable(
  'product_parts',
  {
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    part: text('part', { enum: PARTS }).notNull(),
    materialId: uuid('material_id')
      .notNull()
      .references(() => materials.id),
  },
  (t) => [primaryKey({ columns: [t.productId, t.part] })],
);

export const heats = pgTable('heats', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  number: text('number').notNull(),
  materialId: uuid('material_id')
    .notNull()
    .references(() => materials.id),
  supplier: text('supplier').notNull().default(''),
  certificateNumber: text('certificate_number').notNull().default(''),
  certificateType: text('certificate_type', { enum: HEAT_CERTIFICATE_TYPES }).notNull(),
  certificateDate: date('certificate_date', { mode: 'string' }),
  status: text('status', { enum: HEAT_STATUSES }).notNull().default('released'),
  holdNote: text('hold_note').notNull().default(''),
  properties: jsonb('properties').$type<HeatProperties>().notNull(),
  findings: jsonb('findings').$type<Finding[]>().notNull(),
  fileSha256: bytea('file_sha256'),
  fileBytes: integer('file_bytes'),
  fileName: text('file_name'),
  fileUploadedAt: timestamp('file_uploaded_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type HeatRow = typeof heats.$inferSelect;

export const heatCertificateChunks = pgTable(
  'heat_certificate_chunks',
  {
    heatId: uuid('heat_id')
      .notNull()
      .references(() => heats.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.heatId, t.seq] })],
);

export const rangeHeats = pgTable(
  'range_heats',
  {
    rangeId: uuid('range_id')
      .notNull()
      .references(() => serialRanges.id, { onDelete: 'cascade' }),
    part: text('part', { enum: PARTS }).notNull(),
    heatId: uuid('heat_id')
      .notNull()
      .references(() => heats.id),
  },
  (t) => [primaryKey({ columns: [t.rangeId, t.part] })],
);

export const unitHeats = pgTable(
  'unit_heats',
  {
    prefix: text('prefix').notNull(),
    width: smallint('width').notNull(),
    serialNo: bigint('serial_no', { mode: 'bigint' }).notNull(),
    part: text('part', { enum: PARTS }).notNull(),
    heatId: uuid('heat_id')
      .notNull()
      .references(() => heats.id),
  },
  (t) => [primaryKey({ columns: [t.prefix, t.width, t.serialNo, t.part] })],
);
