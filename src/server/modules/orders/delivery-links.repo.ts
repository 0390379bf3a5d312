/**
 * SQL of the buyer's delivery links (migration 0021): links by the SHA-256 of their token, the delivery a
 * link opens with its order and customer, the customer's certificate contacts, the index's units and the
 * certificates' bytes. Every function takes the database or an open transaction.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client';

export type LinkSource = 'release' | 'staff' | 'request';

/** What a link's page, its mail and its ZIP name of the delivery. */
export interface LinkedDelivery {
  id: string;
  number: string;
  date: string;
  status: string;
  releasedAt: string | null;
  /** The language the release's certificates were issued in (null before the release). */
  releaseLanguage: 'en' | 'zh' | null;
  unitCount: number;
  purchaseOrder: { number: string; date: string; documentType: '2.2' | '3.1' | '3.2' };
  customer: { id: string; name: string; code: string };
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

const deliveryColumns = sql.raw(`d.id, d.number, to_char(d.date, 'YYYY-MM-DD') AS date, d.status,
  to_char(d.released_at AT TIME ZONE 'UTC', ${ISO}) AS "releasedAt", d.release_language AS "releaseLanguage",
  (SELECT count(*)::int FROM delivery_units du WHERE du.delivery_id = d.id AND du.active) AS "unitCount",
  po.number AS "poNumber", to_char(po.date, 'YYYY-MM-DD') AS "poDate", po.document_type AS "documentType",
  c.id AS "customerId", c.name::text AS "customerName", c.code::text AS "customerCode"`);

interface DeliveryRow {
  id: string;
  number: string;
  date: string;
  status: string;
  releasedAt: string | null;
  releaseLanguage: 'en' | 'zh' | null;
  unitCount: number;
  poNumber: string;
  poDate: string;
  documentType: '2.2' | '3.1' | '3.2';
  customerId: string;
  customerName: string;
  customerCode: string;
}

function toLinked(r: DeliveryRow): LinkedDelivery {
  return {
    id: r.id,
    number: r.number,
    date: r.date,
    status: r.status,
    releasedAt: r.releasedAt,
    releaseLanguage: r.releaseLanguage,
    unitCount: Number(r.unitCount),
    purchaseOrder: { number: r.poNumber, date: r.poDate, documentType: r.documentType },
    customer: { id: r.customerId, name: r.customerName, code: r.customerCode },
  };
}

export async function linkedDelivery(db: Executor, deliveryId: string): Promise<LinkedDelivery | undefined> {
  const res = await db.execute(sql`SELECT ${deliveryColumns} FROM deliveries d
    JOIN purchase_orders po ON po.id = d.purchase_order_id JOIN customers c ON c.id = po.customer_id
    WHERE d.id = ${deliveryId}::uuid`);
  const [row] = rowsOf<DeliveryRow>(res);
  return row ? toLinked(row) : undefined;
}

/** The released delivery of a live link with this token hash (hex), through the unique index on the hash. */
export async function deliveryByTokenHash(db: Executor, hashHex: string): Promise<LinkedDelivery | undefined> {
  const res = await db.execute(sql`SELECT ${deliveryColumns} FROM delivery_links l
    JOIN deliveries d ON d.id = l.delivery_id
    JOIN purchase_orders po ON po.id = d.purchase_order_id JOIN customers c ON c.id = po.customer_id
    WHERE l.token_sha256 = decode(${hashHex}, 'hex') AND l.revoked_at IS NULL AND d.status = 'released'`);
  const [row] = rowsOf<DeliveryRow>(res);
  return row ? toLinked(row) : undefined;
}

export async function insertLink(
  db: Executor,
  v: { deliveryId: string; hashHex: string; source: LinkSource; sentTo: string; createdBy: string | null },
): Promise<string> {
  const res = await db.execute(sql`INSERT INTO delivery_links (delivery_id, token_sha256, source, sent_to, created_by)
    VALUES (${v.deliveryId}::uuid, decode(${v.hashHex}, 'hex'), ${v.source}, ${v.sentTo}, ${v.createdBy}) RETURNING id`);
  return rowsOf<{ id: string }>(res)[0]!.id;
}

/** Whether the link is still live (not revoked, its delivery still released). */
export async function linkIsLive(db: Executor, linkId: string): Promise<boolean> {
  const res = await db.execute(sql`SELECT 1 FROM delivery_links l JOIN deliveries d ON d.id = l.delivery_id
    WHERE l.id = ${linkId}::uuid AND l.revoked_at IS NULL AND d.status = 'released'`);
  return rowsOf(res).length > 0;
}

/** Ends every live link of the delivery; how many were live. */
export async function revokeLinks(db: Executor, deliveryId: string): Promise<number> {
  const res = await db.execute(sql`UPDATE delivery_links SET revoked_at = now()
    WHERE delivery_id = ${deliveryId}::uuid AND revoked_at IS NULL RETURNING id`);
  return rowsOf(res).length;
}

/** The customer's contacts who receive certificates, in the customer's order. */
export async function certificateContacts(db: Executor, customerId: string): Promise<{ email: string; language: 'en' | 'zh' }[]> {
  const res = await db.execute(sql`SELECT email::text AS email, language FROM customer_contacts
    WHERE customer_id = ${customerId}::uuid AND receives_certificates ORDER BY position, id`);
  return rowsOf<{ email: string; language: 'en' | 'zh' }>(res);
}

/**
 * "I have a delivery": the released delivery of this number, and whether the address is one of its
 * customer's contacts (citext: ignoring case) or at one of the customer's mail domains. One statement,
 * whatever the answer, so that a delivery that exists costs the same reads as one that does not.
 */
export async function deliveryForAddress(
  db: Executor,
  deliveryNumber: string,
  email: string,
): Promise<{ deliveryId: string | null; belongs: boolean }> {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const res = await db.execute(sql`SELECT d.id AS "deliveryId",
      coalesce(EXISTS (SELECT 1 FROM customer_contacts cc WHERE cc.customer_id = c.id AND cc.email = ${email}::citext)
        OR ${domain} = ANY (c.email_domains), false) AS belongs
    FROM (SELECT 1) AS one
    LEFT JOIN deliveries d ON lower(d.number) = lower(${deliveryNumber}) AND d.status = 'released'
    LEFT JOIN purchase_orders po ON po.id = d.purchase_order_id
    LEFT JOIN customers c ON c.id = po.customer_id`);
  const [row] = rowsOf<{ deliveryId: string | null; belongs: boolean }>(res);
  return { deliveryId: row?.deliveryId ?? null, belongs: row?.belongs === true };
}

export interface IndexUnitRow {
  serial: string;
  tag: string;
  line: number;
  buyerItemCode: string;
  product: string;
  productZh: string;
  reportId: string;
  reportNumber: string;
  sha256: string;
  issuedAt: string;
  size: number;
  superseded: { reportId: string; reportNumber: string; sha256: string; issuedAt: string }[];
}

/**
 * The active units that have their certificate, in the order they were added, each with its newest
 * certificate (delivery_units.report_id) and the earlier ones of the unit (reports.delivery_unit_id), newest
 * first: issued_at is kept to the second, so the number (given in the order of issue) breaks ties.
 */
export async function indexUnits(db: Executor, deliveryId: string): Promise<IndexUnitRow[]> {
  const iso = (col: string) => sql.raw(`to_char(${col} AT TIME ZONE 'UTC', ${ISO})`);
  const res =
    await db.execute(sql`SELECT du.serial, du.tag, du.line, poi.buyer_item_code AS "buyerItemCode", p.name::text AS product, p.name_zh AS "productZh",
      r.id AS "reportId", r.number AS "reportNumber", encode(r.sha256, 'hex') AS sha256, ${iso('r.issued_at')} AS "issuedAt", r.size,
      coalesce((SELECT json_agg(json_build_object('reportId', o.id, 'reportNumber', o.number, 'sha256', encode(o.sha256, 'hex'),
          'issuedAt', ${iso('o.issued_at')}) ORDER BY o.issued_at DESC, o.number DESC)
        FROM reports o WHERE o.delivery_unit_id = du.id AND o.id <> du.report_id), '[]'::json) AS superseded
    FROM delivery_units du
    JOIN purchase_order_items poi ON poi.purchase_order_id = du.purchase_order_id AND poi.line = du.line
    JOIN products p ON p.id = poi.product_id
    JOIN reports r ON r.id = du.report_id
    WHERE du.delivery_id = ${deliveryId}::uuid AND du.active
    ORDER BY du.id`);
  return rowsOf<IndexUnitRow & { superseded: unknown }>(res).map((r) => ({
    ...r,
    line: Number(r.line),
    size: Number(r.size),
    superseded: (typeof r.superseded === 'string' ? JSON.parse(r.superseded) : r.superseded) as IndexUnitRow['superseded'],
  }));
}

/** One stored certificate's bytes (read one at a time by the ZIP). */
export async function certificateBytes(db: Executor, reportId: string): Promise<Buffer | undefined> {
  const res = await db.execute(sql`SELECT bytes FROM reports WHERE id = ${reportId}`);
  const [row] = rowsOf<{ bytes: Uint8Array }>(res);
  return row ? Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength) : undefined;
}

/** A heat whose mill certificate the delivery's ZIP carries. */
export interface DeliveryHeat {
  id: string;
  number: string;
  specification: string;
  grade: string;
  certificateNumber: string;
  certificateType: string;
  sha256: string;
  bytes: number;
}

/**
 * The heats the delivery's units were made from that have a mill certificate, each once: every part of every
 * active unit, its own heat else its range's (migration 0032 unit_heat_parts).
 */
export async function deliveryHeats(db: Executor, units: { prefix: string; width: number; serialNo: bigint }[]): Promise<DeliveryHeat[]> {
  if (units.length === 0) return [];
  const res = await db.execute(sql`SELECT DISTINCT h.id::text AS id, h.number, m.specification, m.grade,
      h.certificate_number AS "certificateNumber", h.certificate_type AS "certificateType", encode(h.file_sha256, 'hex') AS sha256,
      h.file_bytes AS bytes
    FROM unnest(${sql.param(units.map((u) => u.prefix))}::text[], ${sql.param(units.map((u) => u.width))}::smallint[],
                ${sql.param(units.map((u) => u.serialNo.toString()))}::bigint[]) AS u (prefix, width, serial_no)
    CROSS JOIN LATERAL unit_heat_parts(u.prefix, u.width, u.serial_no) x
    JOIN heats h ON h.id = x.heat_id JOIN materials m ON m.id = h.material_id
    WHERE h.file_sha256 IS NOT NULL
    ORDER BY h.number, 1`);
  return rowsOf<DeliveryHeat>(res).map((r) => ({ ...r, bytes: Number(r.bytes) }));
}
