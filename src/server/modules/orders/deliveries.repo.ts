/** SQL of deliveries and their units. Every function takes the database or an open transaction. */
import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Delivery, DeliveryLink, DeliveryListQuery, DeliveryUnitInput } from '../../../shared/contract/orders';
import { pageWindow } from '../../../shared/contract/common';
import { rowsOf, type Executor } from '../../db/client';
import {
  customers,
  deliveries,
  deliveryLinks,
  deliveryUnits,
  products,
  purchaseOrderItems,
  purchaseOrders,
  reports,
} from '../../db/schema/index';
import { likePattern, MAX_OFFSET } from '../../db/errors';

function selectRows(db: Executor) {
  return db
    .select({
      id: deliveries.id,
      purchaseOrderId: deliveries.purchaseOrderId,
      purchaseOrderNumber: purchaseOrders.number,
      customerId: purchaseOrders.customerId,
      customerName: customers.name,
      number: deliveries.number,
      date: deliveries.date,
      status: deliveries.status,
      cancelReason: deliveries.cancelReason,
      releasedAt: deliveries.releasedAt,
      releasedBy: deliveries.releasedBy,
      releaseLanguage: deliveries.releaseLanguage,
      unitCount: deliveries.unitCount,
      issuedCount: deliveries.issuedCount,
      releaseError: deliveries.releaseError,
      witness: deliveries.witness,
      createdAt: deliveries.createdAt,
      updatedAt: deliveries.updatedAt,
    })
    .from(deliveries)
    .innerJoin(purchaseOrders, eq(purchaseOrders.id, deliveries.purchaseOrderId))
    .innerJoin(customers, eq(customers.id, purchaseOrders.customerId));
}
type Row = Awaited<ReturnType<ReturnType<typeof selectRows>['execute']>>[number];

function toDelivery(r: Row): Delivery {
  return {
    ...r,
    releasedAt: r.releasedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function whereOf(q: Pick<DeliveryListQuery, 'q' | 'status' | 'purchaseOrderId'>): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (q.status) parts.push(eq(deliveries.status, q.status));
  if (q.purchaseOrderId) parts.push(eq(deliveries.purchaseOrderId, q.purchaseOrderId));
  if (q.q) {
    const p = likePattern(q.q);
    parts.push(or(ilike(deliveries.number, p), ilike(purchaseOrders.number, p), ilike(customers.name, p), ilike(customers.code, p)));
  }
  return and(...parts);
}

function orderOf(q: Pick<DeliveryListQuery, 'sort' | 'order'>): SQL[] {
  const col = {
    number: sql`lower(${deliveries.number})`,
    date: sql`${deliveries.date}`,
    status: sql`${deliveries.status}`,
    customer: sql`${customers.name}`,
    createdAt: sql`${deliveries.createdAt}`,
  }[q.sort ?? 'createdAt'];
  const dir = q.sort ? q.order : 'desc';
  return dir === 'desc' ? [sql`${col} desc`, desc(deliveries.id)] : [sql`${col} asc`, asc(deliveries.id)];
}

export async function listDeliveries(db: Executor, q: DeliveryListQuery): Promise<{ items: Delivery[]; total: number }> {
  const where = whereOf(q);
  const { limit, offset } = pageWindow(q);
  const total = async () =>
    Number(
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(deliveries)
          .innerJoin(purchaseOrders, eq(purchaseOrders.id, deliveries.purchaseOrderId))
          .innerJoin(customers, eq(customers.id, purchaseOrders.customerId))
          .where(where)
      )[0]?.n ?? 0,
    );
  if (offset > MAX_OFFSET) return { items: [], total: await total() };
  const [rows, n] = await Promise.all([
    selectRows(db)
      .where(where)
      .orderBy(...orderOf(q))
      .limit(limit)
      .offset(offset),
    total(),
  ]);
  return { items: rows.map(toDelivery), total: n };
}

/** Every delivery the list's filters and sort select, a page at a time (the CSV export). */
export async function* deliveryPages(db: Executor, q: DeliveryListQuery, size = 1000): AsyncGenerator<Delivery[]> {
  for (let offset = 0; ; offset += size) {
    const rows = await selectRows(db)
      .where(whereOf(q))
      .orderBy(...orderOf(q))
      .limit(size)
      .offset(offset);
    if (rows.length > 0) yield rows.map(toDelivery);
    if (rows.length < size) return;
  }
}

export async function findDelivery(db: Executor, id: string, forUpdate = false): Promise<Delivery | undefined> {
  const query = selectRows(db).where(eq(deliveries.id, id)).limit(1);
  const [row] = forUpdate ? await query.for('update', { of: deliveries }) : await query;
  return row ? toDelivery(row) : undefined;
}

export async function unitsOf(db: Executor, deliveryId: string) {
  return db
    .select({
      serial: deliveryUnits.serial,
      line: deliveryUnits.line,
      tag: deliveryUnits.tag,
      productName: products.name,
      productNameZh: products.nameZh,
      reportId: deliveryUnits.reportId,
      reportNumber: reports.number,
    })
    .from(deliveryUnits)
    .innerJoin(
      purchaseOrderItems,
      and(eq(purchaseOrderItems.purchaseOrderId, deliveryUnits.purchaseOrderId), eq(purchaseOrderItems.line, deliveryUnits.line)),
    )
    .innerJoin(products, eq(products.id, purchaseOrderItems.productId))
    .leftJoin(reports, eq(reports.id, deliveryUnits.reportId))
    .where(eq(deliveryUnits.deliveryId, deliveryId))
    .orderBy(asc(deliveryUnits.id));
}

export async function purchaseOrderExists(db: Executor, id: string): Promise<boolean> {
  return (await db.select({ id: purchaseOrders.id }).from(purchaseOrders).where(eq(purchaseOrders.id, id)).limit(1)).length > 0;
}

export async function insertDelivery(db: Executor, v: { purchaseOrderId: string; number: string; date: string }): Promise<string> {
  const [row] = await db.insert(deliveries).values(v).returning({ id: deliveries.id });
  return row!.id;
}

export async function updateDelivery(
  db: Executor,
  id: string,
  v: { purchaseOrderId: string; number: string; date: string },
): Promise<void> {
  await db
    .update(deliveries)
    .set({ ...v, updatedAt: sql`now()` })
    .where(eq(deliveries.id, id));
}

/** A unit about to be stored: its input, its parsed serial and the product of its line. */
export interface PreparedUnit {
  index: number;
  input: DeliveryUnitInput & { line: number; tag: string };
  serial: string;
  prefix: string;
  width: number;
  number: bigint;
  productId: string;
}

const arrays = (units: PreparedUnit[]) => ({
  i: sql.param(units.map((u) => u.index)),
  prefix: sql.param(units.map((u) => u.prefix)),
  width: sql.param(units.map((u) => u.width)),
  no: sql.param(units.map((u) => u.number.toString())),
  product: sql.param(units.map((u) => u.productId)),
  tag: sql.param(units.map((u) => u.input.tag)),
});

/**
 * What only the database can tell of each unit, in one statement: whether a range of the line's product
 * holds the serial (the last range of its series starting at or below the number, as the serial lookup
 * reads it), which active delivery already has the serial, and which active unit of the order has the tag.
 */
export async function checkUnits(
  db: Executor,
  purchaseOrderId: string,
  units: PreparedUnit[],
): Promise<{ i: number; inRange: boolean; deliveryNumber: string | null; tagSerial: string | null }[]> {
  if (units.length === 0) return [];
  const a = arrays(units);
  const res = await db.execute(sql`SELECT u.i,
      coalesce(r.end_no >= u.no AND r.product_id = u.product_id, false) AS "inRange",
      (SELECT d.number FROM delivery_units du JOIN deliveries d ON d.id = du.delivery_id
        WHERE du.active AND du.prefix = u.prefix AND du.width = u.width AND du.serial_no = u.no LIMIT 1) AS "deliveryNumber",
      CASE WHEN u.tag <> '' THEN (SELECT du.serial FROM delivery_units du
        WHERE du.active AND du.tag <> '' AND du.purchase_order_id = ${purchaseOrderId}::uuid AND lower(du.tag) = lower(u.tag) LIMIT 1)
      END AS "tagSerial"
    FROM unnest(${a.i}::int[], ${a.prefix}::text[], ${a.width}::smallint[], ${a.no}::bigint[], ${a.product}::uuid[], ${a.tag}::text[])
      AS u (i, prefix, width, no, product_id, tag)
    LEFT JOIN LATERAL (SELECT s.end_no, s.product_id FROM serial_ranges s
      WHERE s.prefix = u.prefix AND s.width = u.width AND s.start_no <= u.no ORDER BY s.start_no DESC LIMIT 1) r ON true`);
  return rowsOf<{ i: number; inRange: boolean; deliveryNumber: string | null; tagSerial: string | null }>(res).map((r) => ({
    ...r,
    i: Number(r.i),
  }));
}

/** Stores the units and keeps the counts (the delivery's units, each line's shipped) in the same transaction. */
export async function insertUnits(db: Executor, deliveryId: string, purchaseOrderId: string, units: PreparedUnit[]): Promise<void> {
  const a = arrays(units);
  const serials = sql.param(units.map((u) => u.serial));
  const lines = sql.param(units.map((u) => u.input.line));
  await db.execute(sql`INSERT INTO delivery_units (delivery_id, purchase_order_id, line, serial, prefix, width, serial_no, tag)
    SELECT ${deliveryId}::uuid, ${purchaseOrderId}::uuid, u.line, u.serial, u.prefix, u.width, u.no, u.tag
    FROM unnest(${a.i}::int[], ${lines}::int[], ${serials}::text[], ${a.prefix}::text[], ${a.width}::smallint[], ${a.no}::bigint[], ${a.tag}::text[])
      AS u (i, line, serial, prefix, width, no, tag)
    ORDER BY u.i`);
  await db.execute(sql`UPDATE purchase_order_items p SET shipped = p.shipped + d.n
    FROM (SELECT line, count(*)::int AS n FROM unnest(${lines}::int[]) AS u (line) GROUP BY line) d
    WHERE p.purchase_order_id = ${purchaseOrderId}::uuid AND p.line = d.line`);
  await db.execute(sql`UPDATE deliveries SET unit_count = unit_count + ${units.length}, updated_at = now() WHERE id = ${deliveryId}::uuid`);
}

/** Removes one active unit of the delivery; its line and serial, or null when the delivery has no such unit. */
export async function deleteUnit(
  db: Executor,
  deliveryId: string,
  p: { prefix: string; width: number; number: bigint },
): Promise<{ serial: string; line: number; tag: string } | null> {
  const res = await db.execute(sql`DELETE FROM delivery_units
    WHERE delivery_id = ${deliveryId}::uuid AND active AND prefix = ${p.prefix} AND width = ${p.width} AND serial_no = ${p.number.toString()}::bigint
    RETURNING serial, line, tag, purchase_order_id`);
  const [row] = rowsOf<{ serial: string; line: number; tag: string; purchase_order_id: string }>(res);
  if (!row) return null;
  await db.execute(sql`UPDATE purchase_order_items SET shipped = shipped - 1
    WHERE purchase_order_id = ${row.purchase_order_id}::uuid AND line = ${row.line}`);
  await db.execute(sql`UPDATE deliveries SET unit_count = unit_count - 1, updated_at = now() WHERE id = ${deliveryId}::uuid`);
  return { serial: row.serial, line: Number(row.line), tag: row.tag };
}

/** Cancels the delivery: its units stay on record but free their serials, tags and the lines' quantities. */
export async function cancelDelivery(db: Executor, id: string, reason: string): Promise<void> {
  await db.execute(sql`UPDATE purchase_order_items p SET shipped = p.shipped - d.n
    FROM (SELECT purchase_order_id, line, count(*)::int AS n FROM delivery_units
      WHERE delivery_id = ${id}::uuid AND active GROUP BY purchase_order_id, line) d
    WHERE p.purchase_order_id = d.purchase_order_id AND p.line = d.line`);
  await db.execute(sql`UPDATE delivery_units SET active = false WHERE delivery_id = ${id}::uuid AND active`);
  await db.execute(sql`UPDATE deliveries SET status = 'cancelled', cancel_reason = ${reason}, updated_at = now() WHERE id = ${id}::uuid`);
}

/** The links sent for a delivery, oldest first (the delivery page's history; tokens are never read back). */
export async function linksOf(db: Executor, deliveryId: string): Promise<DeliveryLink[]> {
  const rows = await db
    .select({
      id: deliveryLinks.id,
      source: deliveryLinks.source,
      sentTo: deliveryLinks.sentTo,
      createdBy: deliveryLinks.createdBy,
      createdAt: deliveryLinks.createdAt,
      revokedAt: deliveryLinks.revokedAt,
    })
    .from(deliveryLinks)
    .where(eq(deliveryLinks.deliveryId, deliveryId))
    .orderBy(asc(deliveryLinks.createdAt), asc(deliveryLinks.id));
  return rows.map((r) => ({
    ...r,
    sentTo: r.sentTo ? r.sentTo.split(',') : [],
    createdAt: r.createdAt.toISOString(),
    revokedAt: r.revokedAt?.toISOString() ?? null,
  }));
}
