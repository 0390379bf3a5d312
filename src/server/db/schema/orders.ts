// Mirrors migrations/0020_orders.sql (the SQL is the source of truth; the partial unique indexes and the
// expression indexes live only there).
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { DeliveryWitness } from '../../../shared/contract/witness';
import { citext } from './accounts';
import { products } from './catalogue';
import { bytea } from './machine-data';

export const customers = pgTable('customers', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  name: citext('name').notNull(),
  code: citext('code').notNull(),
  address: text('address').notNull().default(''),
  postcode: text('postcode').notNull().default(''),
  city: text('city').notNull().default(''),
  country: text('country').notNull().default(''),
  language: text('language', { enum: ['en', 'zh'] })
    .notNull()
    .default('en'),
  emailDomains: text('email_domains')
    .array()
    .notNull()
    .default(sql`'{}'`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const customerContacts = pgTable('customer_contacts', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  customerId: uuid('customer_id')
    .notNull()
    .references(() => customers.id, { onDelete: 'cascade' }),
  position: smallint('position').notNull().default(0),
  name: text('name').notNull(),
  email: citext('email').notNull(),
  language: text('language', { enum: ['en', 'zh'] })
    .notNull()
    .default('en'),
  receivesCertificates: boolean('receives_certificates').notNull().default(true),
});

export const purchaseOrders = pgTable('purchase_orders', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  customerId: uuid('customer_id')
    .notNull()
    .references(() => customers.id, { onDelete: 'restrict' }),
  number: text('number').notNull(),
  date: date('date', { mode: 'string' }).notNull(),
  documentType: text('document_type', { enum: ['2.2', '3.1', '3.2'] }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const purchaseOrderItems = pgTable(
  'purchase_order_items',
  {
    purchaseOrderId: uuid('purchase_order_id')
      .notNull()
      .references(() => purchaseOrders.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull(),
    /** units in open or released deliveries, kept by the service in the same transaction */
    shipped: integer('shipped').notNull().default(0),
    buyerItemCode: text('buyer_item_code').notNull().default(''),
    description: text('description').notNull().default(''),
    /** the buyer's tag numbers of this item (0029): a delivered unit of the item carries one of them */
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [primaryKey({ columns: [t.purchaseOrderId, t.line] })],
);

export const deliveries = pgTable('deliveries', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  purchaseOrderId: uuid('purchase_order_id')
    .notNull()
    .references(() => purchaseOrders.id, { onDelete: 'restrict' }),
  number: text('number').notNull(),
  date: date('date', { mode: 'string' }).notNull(),
  status: text('status', { enum: ['open', 'releasing', 'released', 'cancelled'] })
    .notNull()
    .default('open'),
  cancelReason: text('cancel_reason'),
  releasedAt: timestamp('released_at', { withTimezone: true }),
  /** kept by the service in the transaction that adds or removes units */
  unitCount: integer('unit_count').notNull().default(0),
  /** migration 0021: who released it, in which language its certificates are, how many are stored, why it stopped */
  releasedBy: text('released_by'),
  releaseLanguage: text('release_language', { enum: ['en', 'zh'] }),
  issuedCount: integer('issued_count').notNull().default(0),
  releaseError: text('release_error'),
  /** migration 0037: the purchaser's or a third party's inspector who witnessed the tests (a 3.2 order) */
  witness: jsonb('witness').$type<DeliveryWitness>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const deliveryUnits = pgTable('delivery_units', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  deliveryId: uuid('delivery_id')
    .notNull()
    .references(() => deliveries.id, { onDelete: 'cascade' }),
  /** the delivery's order, copied for the per-order unique index on tags */
  purchaseOrderId: uuid('purchase_order_id').notNull(),
  line: integer('line').notNull(),
  serial: text('serial').notNull(),
  prefix: text('prefix').notNull(),
  width: smallint('width').notNull(),
  serialNo: bigint('serial_no', { mode: 'bigint' }).notNull(),
  tag: text('tag').notNull().default(''),
  active: boolean('active').notNull().default(true),
  /** migration 0021: the unit's newest certificate naming the order (reports.id) */
  reportId: text('report_id'),
});

/** migration 0021: the buyer's links to a delivery; only the token's SHA-256 is kept. */
export const deliveryLinks = pgTable('delivery_links', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  deliveryId: uuid('delivery_id')
    .notNull()
    .references(() => deliveries.id, { onDelete: 'cascade' }),
  tokenSha256: bytea('token_sha256').notNull(),
  source: text('source', { enum: ['release', 'staff', 'request'] }).notNull(),
  sentTo: text('sent_to').notNull().default(''),
  createdBy: text('created_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

export type CustomerRow = typeof customers.$inferSelect;
export type CustomerContactRow = typeof customerContacts.$inferSelect;
export type PurchaseOrderRow = typeof purchaseOrders.$inferSelect;
export type PurchaseOrderItemRow = typeof purchaseOrderItems.$inferSelect;
export type DeliveryRow = typeof deliveries.$inferSelect;
export type DeliveryUnitRow = typeof deliveryUnits.$inferSelect;
export type DeliveryLinkRow = typeof deliveryLinks.$inferSelect;
