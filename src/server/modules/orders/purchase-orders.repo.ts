/** SQL of purchase orders and their items. Every function takes the database or an open transaction. */
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { OrderDocumentType, PurchaseOrder, PurchaseOrderListQuery, PurchaseOrderValues } from '../../../shared/contract/orders';
import { pageWindow } from '../../../shared/contract/common';
import type { Executor } from '../../db/client';
import { customers, deliveries, deliveryUnits, products, purchaseOrderItems, purchaseOrders, settingsTable } from '../../db/schema/index';
import { likePattern, MAX_OFFSET } from '../../db/errors';

const deliveryCount = sql<number>`(SELECT count(*)::int FROM deliveries d WHERE d.purchase_order_id = "purchase_orders"."id")`;

function selectRows(db: Executor) {
  return db
    .select({
      id: purchaseOrders.id,
      customerId: purchaseOrders.customerId,
      customerName: customers.name,
      customerCode: customers.code,
      number: purchaseOrders.number,
      date: purchaseOrders.date,
      documentType: purchaseOrders.documentType,
      deliveryCount,
      createdAt: purchaseOrders.createdAt,
      updatedAt: purchaseOrders.updatedAt,
    })
    .from(purchaseOrders)
    .innerJoin(customers, eq(customers.id, purchaseOrders.customerId));
}
type Row = Awaited<ReturnType<ReturnType<typeof selectRows>['execute']>>[number];

export async function itemsOf(db: Executor, ids: string[], forUpdate = false) {
  if (ids.length === 0) return [];
  const q = db
    .select({
      purchaseOrderId: purchaseOrderItems.purchaseOrderId,
      line: purchaseOrderItems.line,
      productId: purchaseOrderItems.productId,
      productName: products.name,
      productNameZh: products.nameZh,
      quantity: purchaseOrderItems.quantity,
      shipped: purchaseOrderItems.shipped,
      buyerItemCode: purchaseOrderItems.buyerItemCode,
      description: purchaseOrderItems.description,
      tags: purchaseOrderItems.tags,
    })
    .from(purchaseOrderItems)
    .innerJoin(products, eq(products.id, purchaseOrderItems.productId))
    .where(inArray(purchaseOrderItems.purchaseOrderId, ids))
    .orderBy(asc(purchaseOrderItems.purchaseOrderId), asc(purchaseOrderItems.line));
  return forUpdate ? q.for('update', { of: purchaseOrderItems }) : q;
}
export type ItemRow = Awaited<ReturnType<typeof itemsOf>>[number];

async function withItems(db: Executor, rows: Row[]): Promise<PurchaseOrder[]> {
  const items = await itemsOf(
    db,
    rows.map((r) => r.id),
  );
  const by = new Map<string, ItemRow[]>();
  for (const it of items) by.set(it.purchaseOrderId, [...(by.get(it.purchaseOrderId) ?? []), it]);
  return rows.map((r) => ({
    id: r.id,
    customerId: r.customerId,
    customerName: r.customerName,
    customerCode: r.customerCode,
    number: r.number,
    date: r.date,
    documentType: r.documentType,
    items: (by.get(r.id) ?? []).map(({ purchaseOrderId: _p, ...it }) => it),
    deliveryCount: Number(r.deliveryCount),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

function whereOf(q: Pick<PurchaseOrderListQuery, 'q' | 'customerId'>): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (q.customerId) parts.push(eq(purchaseOrders.customerId, q.customerId));
  if (q.q) {
    const p = likePattern(q.q);
    parts.push(or(ilike(purchaseOrders.number, p), ilike(customers.name, p), ilike(customers.code, p)));
  }
  return and(...parts);
}

function orderOf(q: Pick<PurchaseOrderListQuery, 'sort' | 'order'>): SQL[] {
  const col = {
    number: sql`lower(${purchaseOrders.number})`,
    date: sql`${purchaseOrders.date}`,
    customer: sql`${customers.name}`,
    createdAt: sql`${purchaseOrders.createdAt}`,
  }[q.sort ?? 'createdAt'];
  // Newest first when no sort is asked: the order just entered is the one looked for.
  const dir = q.sort ? q.order : 'desc';
  return dir === 'desc' ? [sql`${col} desc`, desc(purchaseOrders.id)] : [sql`${col} asc`, asc(purchaseOrders.id)];
}

export async function listPurchaseOrders(db: Executor, q: PurchaseOrderListQuery): Promise<{ items: PurchaseOrder[]; total: number }> {
  const where = whereOf(q);
  const { limit, offset } = pageWindow(q);
  const total = async () =>
    Number(
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(purchaseOrders)
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
  return { items: await withItems(db, rows), total: n };
}

/** Every order the list's filters and sort select, a page at a time (the CSV export). */
export async function* purchaseOrderPages(db: Executor, q: PurchaseOrderListQuery, size = 500): AsyncGenerator<PurchaseOrder[]> {
  for (let offset = 0; ; offset += size) {
    const rows = await selectRows(db)
      .where(whereOf(q))
      .orderBy(...orderOf(q))
      .limit(size)
      .offset(offset);
    if (rows.length > 0) yield withItems(db, rows);
    if (rows.length < size) return;
  }
}

export async function findPurchaseOrder(db: Executor, id: string, forUpdate = false): Promise<PurchaseOrder | undefined> {
  const query = selectRows(db).where(eq(purchaseOrders.id, id)).limit(1);
  const [row] = forUpdate ? await query.for('update', { of: purchaseOrders }) : await query;
  return row ? (await withItems(db, [row]))[0] : undefined;
}

export async function customerExists(db: Executor, id: string): Promise<boolean> {
  return (await db.select({ id: customers.id }).from(customers).where(eq(customers.id, id)).limit(1)).length > 0;
}

export async function existingProducts(db: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: products.id }).from(products).where(inArray(products.id, ids));
  return new Set(rows.map((r) => r.id));
}

/** Customers' ids by their codes (upper-cased). */
export async function customersByCode(db: Executor, codes: string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({ id: customers.id, code: customers.code })
    .from(customers)
    .where(inArray(sql`upper(${customers.code}::text)`, codes));
  return new Map(rows.map((r) => [r.code.toUpperCase(), r.id]));
}

/** Products' ids by their names (lower-cased: names are unique ignoring case). */
export async function productsByName(db: Executor, names: string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(inArray(sql`lower(${products.name}::text)`, names));
  return new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
}

/** Which of these (customer, PO number) pairs name an order already, as `<customerId> <lower(number)>`. */
export async function takenNumbers(db: Executor, pairs: { customerId: string; number: string }[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await db
    .select({ customerId: purchaseOrders.customerId, number: sql<string>`lower(${purchaseOrders.number})` })
    .from(purchaseOrders)
    .where(
      and(
        inArray(purchaseOrders.customerId, [...new Set(pairs.map((p) => p.customerId))]),
        inArray(sql`lower(${purchaseOrders.number})`, [...new Set(pairs.map((p) => p.number.toLowerCase()))]),
      ),
    );
  const wanted = new Set(pairs.map((p) => `${p.customerId} ${p.number.toLowerCase()}`));
  return new Set(rows.map((r) => `${r.customerId} ${r.number}`).filter((k) => wanted.has(k)));
}

/** The certificate type Settings name, in the order's terms. */
export async function defaultDocumentType(db: Executor): Promise<OrderDocumentType> {
  const [row] = await db.select({ t: settingsTable.documentType }).from(settingsTable).limit(1);
  return row?.t === 'inspection-certificate-3.1' ? '3.1' : '2.2';
}

export async function insertPurchaseOrder(db: Executor, v: PurchaseOrderValues, documentType: OrderDocumentType): Promise<string> {
  const [row] = await db
    .insert(purchaseOrders)
    .values({ customerId: v.customerId, number: v.number, date: v.date, documentType })
    .returning({ id: purchaseOrders.id });
  await db.insert(purchaseOrderItems).values(v.items.map((it) => ({ purchaseOrderId: row!.id, ...it })));
  return row!.id;
}

export async function updatePurchaseOrder(
  db: Executor,
  id: string,
  v: PurchaseOrderValues,
  documentType: OrderDocumentType,
): Promise<void> {
  await db
    .update(purchaseOrders)
    .set({ customerId: v.customerId, number: v.number, date: v.date, documentType, updatedAt: sql`now()` })
    .where(eq(purchaseOrders.id, id));
  const lines = v.items.map((it) => it.line);
  await db
    .delete(purchaseOrderItems)
    .where(and(eq(purchaseOrderItems.purchaseOrderId, id), sql`${purchaseOrderItems.line} <> ALL(${sql.param(lines)}::int[])`));
  // Upsert keeps `shipped`: it belongs to the deliveries, not to the form.
  await db
    .insert(purchaseOrderItems)
    .values(v.items.map((it) => ({ purchaseOrderId: id, ...it })))
    .onConflictDoUpdate({
      target: [purchaseOrderItems.purchaseOrderId, purchaseOrderItems.line],
      set: {
        productId: sql`excluded.product_id`,
        quantity: sql`excluded.quantity`,
        buyerItemCode: sql`excluded.buyer_item_code`,
        description: sql`excluded.description`,
        tags: sql`excluded.tags`,
      },
    });
}

export async function deletePurchaseOrder(db: Executor, id: string): Promise<void> {
  await db.delete(purchaseOrders).where(eq(purchaseOrders.id, id));
}

export async function countDeliveriesOf(db: Executor, id: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(deliveries)
    .where(eq(deliveries.purchaseOrderId, id));
  return Number(row?.n ?? 0);
}

/** Lines of an order that units reference (also cancelled deliveries' units, which keep their line). */
export async function linesWithUnits(db: Executor, id: string): Promise<Set<number>> {
  const rows = await db.selectDistinct({ line: deliveryUnits.line }).from(deliveryUnits).where(eq(deliveryUnits.purchaseOrderId, id));
  return new Set(rows.map((r) => r.line));
}

/** Tags of the order's active units by line: an item's tags may not leave out one of them. */
export async function unitTagsByLine(db: Executor, id: string): Promise<Map<number, string[]>> {
  const rows = await db
    .select({ line: deliveryUnits.line, tag: deliveryUnits.tag })
    .from(deliveryUnits)
    .where(and(eq(deliveryUnits.purchaseOrderId, id), eq(deliveryUnits.active, true), sql`${deliveryUnits.tag} <> ''`));
  const by = new Map<number, string[]>();
  for (const r of rows) by.set(r.line, [...(by.get(r.line) ?? []), r.tag]);
  return by;
}
