/** SQL of a delivery's release: the units still to issue with their order, progress, the finish. */
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client';
import type { DeliveryWitness } from '../../../shared/contract/witness';
import type { ReportOrder } from '../reports/report-model';

export interface UnitToIssue {
  unitId: number;
  serial: string;
  documentType: '2.2' | '3.1' | '3.2';
  printed: ReportOrder;
}

interface OrderRow {
  unit_id: string | number;
  serial: string;
  tag: string;
  line: number;
  buyer_item_code: string;
  description: string;
  delivery_number: string;
  delivery_date: string;
  po_number: string;
  po_date: string;
  document_type: '2.2' | '3.1' | '3.2';
  customer_name: string;
  customer_address: string;
  customer_postcode: string;
  customer_city: string;
  customer_country: string;
  witness: DeliveryWitness | string | null;
}

const toUnit = (r: OrderRow): UnitToIssue => ({
  unitId: Number(r.unit_id),
  serial: r.serial,
  documentType: r.document_type,
  printed: {
    purchaser: {
      name: r.customer_name,
      address: r.customer_address,
      postcode: r.customer_postcode,
      city: r.customer_city,
      country: r.customer_country,
    },
    purchaseOrder: { number: r.po_number, date: String(r.po_date).slice(0, 10) },
    item: { line: Number(r.line), buyerItemCode: r.buyer_item_code, description: r.description },
    tag: r.tag,
    delivery: { number: r.delivery_number, date: String(r.delivery_date).slice(0, 10) },
    ...witnessOf(r),
  },
});

/** A 3.2's witness as printed (who recorded it stays in the audit trail); nothing for other orders. */
function witnessOf(r: OrderRow): Pick<ReportOrder, 'witness'> {
  if (r.document_type !== '3.2' || !r.witness) return {};
  const w = (typeof r.witness === 'string' ? JSON.parse(r.witness) : r.witness) as DeliveryWitness;
  return { witness: { name: w.name, organisation: w.organisation, witnessedOn: w.witnessedOn, tests: w.tests } };
}

const ORDER_OF_UNIT = sql`
  SELECT u.id AS unit_id, u.serial, u.tag, u.line, i.buyer_item_code, i.description,
         d.number AS delivery_number, d.date::text AS delivery_date, po.number AS po_number, po.date::text AS po_date,
         po.document_type, c.name::text AS customer_name, c.address AS customer_address, c.postcode AS customer_postcode, c.city AS customer_city,
         c.country AS customer_country,
         d.witness
    FROM delivery_units u
    JOIN deliveries d ON d.id = u.delivery_id
    JOIN purchase_orders po ON po.id = u.purchase_order_id
    JOIN purchase_order_items i ON i.purchase_order_id = u.purchase_order_id AND i.line = u.line
    JOIN customers c ON c.id = po.customer_id`;

/** The next units of a releasing delivery without their certificate, in the order they were added. */
export async function unissuedUnits(db: Executor, deliveryId: string, limit: number): Promise<UnitToIssue[]> {
  const result = await db.execute(sql`${ORDER_OF_UNIT}
   WHERE u.delivery_id = ${deliveryId} AND u.active AND u.report_id IS NULL
   ORDER BY u.id LIMIT ${limit}`);
  return rowsOf<OrderRow>(result).map(toUnit);
}

/** One unit of a delivery with its order, by serial (a correction after release). */
export async function unitWithOrder(db: Executor, deliveryId: string, serial: string): Promise<UnitToIssue | null> {
  const result = await db.execute(sql`${ORDER_OF_UNIT}
   WHERE u.delivery_id = ${deliveryId} AND u.active AND u.serial = ${serial} LIMIT 1`);
  const row = rowsOf<OrderRow>(result)[0];
  return row ? toUnit(row) : null;
}

/**
 * The unit's certificate is stored: point the unit at it and count it, once (a second instance, or a start
 * after a crash, that issued the same stored report again changes nothing).
 */
export async function recordIssued(db: Executor, deliveryId: string, unitId: number, reportId: string): Promise<void> {
  await db.execute(sql`
    WITH set_unit AS (
      UPDATE delivery_units SET report_id = ${reportId} WHERE id = ${unitId} AND report_id IS NULL RETURNING 1
    )
    UPDATE deliveries SET issued_count = issued_count + (SELECT count(*) FROM set_unit)::int, updated_at = now()
     WHERE id = ${deliveryId}`);
}

/** A corrected unit's new certificate version replaces the one the link serves. */
export async function replaceIssued(db: Executor, unitId: number, reportId: string): Promise<void> {
  await db.execute(sql`UPDATE delivery_units SET report_id = ${reportId} WHERE id = ${unitId}`);
}

/** The deliveries a release is running for, oldest first. */
export async function releasingDeliveries(db: Executor): Promise<Array<{ id: string; language: 'en' | 'zh'; releasedBy: string }>> {
  const result = await db.execute(sql`
    SELECT id, coalesce(release_language, 'en') AS language, coalesce(released_by, '') AS released_by
      FROM deliveries WHERE status = 'releasing' ORDER BY updated_at, id`);
  return rowsOf<{ id: string; language: 'en' | 'zh'; released_by: string }>(result).map((r) => ({
    id: r.id,
    language: r.language,
    releasedBy: r.released_by,
  }));
}

/** Ends the release: true for the one transaction that moved it (a second instance finishing too gets false). */
export async function markReleased(tx: Executor, deliveryId: string): Promise<boolean> {
  const result = await tx.execute(sql`
    UPDATE deliveries SET status = 'released', released_at = now(), release_error = NULL, updated_at = now()
     WHERE id = ${deliveryId} AND status = 'releasing' RETURNING id`);
  return rowsOf(result).length > 0;
}

/** A unit held after its gate had passed (new test data came in): the delivery is open again and says why. */
export async function stopRelease(db: Executor, deliveryId: string, error: string): Promise<void> {
  await db.execute(sql`
    UPDATE deliveries SET status = 'open', release_error = ${error.slice(0, 2000)}, updated_at = now()
     WHERE id = ${deliveryId} AND status = 'releasing'`);
}

export async function startReleasing(tx: Executor, deliveryId: string, by: string, language: 'en' | 'zh'): Promise<void> {
  await tx.execute(sql`
    UPDATE deliveries SET status = 'releasing', released_by = ${by.slice(0, 300)}, release_language = ${language},
           release_error = NULL, updated_at = now()
     WHERE id = ${deliveryId}`);
}

/** Records the witness of an open delivery (witness.service.ts). */
export async function setWitness(tx: Executor, deliveryId: string, witness: DeliveryWitness): Promise<void> {
  await tx.execute(sql`UPDATE deliveries SET witness = ${JSON.stringify(witness)}::jsonb, updated_at = now() WHERE id = ${deliveryId}`);
}

/** The customer of a delivery: its language and the contacts who receive certificates. */
export async function customerOfDelivery(
  db: Executor,
  deliveryId: string,
): Promise<{
  customerId: string;
  deliveryNumber: string;
  purchaseOrderNumber: string;
  language: 'en' | 'zh';
  documentType: '2.2' | '3.1' | '3.2';
  recipients: { email: string; language: 'en' | 'zh' }[];
} | null> {
  const result = await db.execute(sql`
    SELECT c.id AS customer_id, d.number AS delivery_number, po.number AS po_number, c.language, po.document_type,
           coalesce((SELECT json_agg(json_build_object('email', cc.email::text, 'language', cc.language) ORDER BY cc.position, cc.email)
                       FROM customer_contacts cc WHERE cc.customer_id = c.id AND cc.receives_certificates), '[]') AS recipients
      FROM deliveries d JOIN purchase_orders po ON po.id = d.purchase_order_id JOIN customers c ON c.id = po.customer_id
     WHERE d.id = ${deliveryId}`);
  const row = rowsOf<{
    customer_id: string;
    delivery_number: string;
    po_number: string;
    language: 'en' | 'zh';
    document_type: '2.2' | '3.1' | '3.2';
    recipients: unknown;
  }>(result)[0];
  if (!row) return null;
  const recipients = (typeof row.recipients === 'string' ? JSON.parse(row.recipients) : row.recipients) as {
    email: string;
    language: 'en' | 'zh';
  }[];
  return {
    customerId: row.customer_id,
    deliveryNumber: row.delivery_number,
    purchaseOrderNumber: row.po_number,
    language: row.language,
    documentType: row.document_type,
    recipients,
  };
}

/** The active unit of an order carrying a tag (ignoring case), if any. */
export async function unitWithTag(db: Executor, purchaseOrderId: string, tag: string): Promise<{ unitId: number; serial: string } | null> {
  const result = await db.execute(sql`
    SELECT id, serial FROM delivery_units
     WHERE purchase_order_id = ${purchaseOrderId} AND lower(tag) = lower(${tag}) AND active AND tag <> '' LIMIT 1`);
  const row = rowsOf<{ id: string | number; serial: string }>(result)[0];
  return row ? { unitId: Number(row.id), serial: row.serial } : null;
}

export async function setTag(tx: Executor, unitId: number, tag: string): Promise<void> {
  await tx.execute(sql`UPDATE delivery_units SET tag = ${tag} WHERE id = ${unitId}`);
}
