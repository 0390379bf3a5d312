/**
 * The customer events of certificates, raised by the issuing transaction (reports/issue.ts): an order's
 * certificate issued, and the earlier ones it supersedes. Only a certificate issued for a delivery unit has
 * a customer; a visitor's certificate of a serial names no buyer and raises nothing.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { rowsOf } from '../../db/client';
import { enqueueWebhookEvent } from './events';

interface OrderOfUnit {
  customer_id: string;
  delivery_id: string;
  delivery_number: string;
  purchase_order_id: string;
  purchase_order_number: string;
}

async function orderOfUnit(tx: Executor, deliveryUnitId: number): Promise<OrderOfUnit | undefined> {
  const result = await tx.execute(sql`
    SELECT po.customer_id, d.id AS delivery_id, d.number AS delivery_number, po.id AS purchase_order_id, po.number AS purchase_order_number
      FROM delivery_units du JOIN deliveries d ON d.id = du.delivery_id JOIN purchase_orders po ON po.id = d.purchase_order_id
     WHERE du.id = ${deliveryUnitId}`);
  return rowsOf<OrderOfUnit>(result)[0];
}

export async function raiseCertificateEvents(
  tx: Executor,
  input: {
    report: { id: string; number: string; serial: string; language: string };
    deliveryUnitId: number | null;
    superseded: { id: string; number: string }[];
  },
): Promise<void> {
  if (input.deliveryUnitId === null) return;
  const order = await orderOfUnit(tx, input.deliveryUnitId);
  if (!order) return;
  const { report } = input;
  const ids = {
    serial: report.serial,
    deliveryId: order.delivery_id,
    deliveryNumber: order.delivery_number,
    purchaseOrderId: order.purchase_order_id,
    purchaseOrderNumber: order.purchase_order_number,
  };
  await enqueueWebhookEvent(tx, {
    type: 'certificate.issued',
    customerId: order.customer_id,
    summary: `Certificate ${report.number} issued for ${report.serial} (order ${order.purchase_order_number}, delivery ${order.delivery_number})`,
    data: { reportId: report.id, certificateNumber: report.number, language: report.language, ...ids },
    links: { verification: `/search?report=${encodeURIComponent(report.id)}` },
  });
  for (const old of input.superseded) {
    await enqueueWebhookEvent(tx, {
      type: 'certificate.superseded',
      customerId: order.customer_id,
      summary: `Certificate ${old.number} of ${report.serial} is superseded by ${report.number}`,
      data: { reportId: old.id, certificateNumber: old.number, supersededBy: report.id, supersededByNumber: report.number, ...ids },
      links: { verification: `/search?report=${encodeURIComponent(old.id)}`, current: `/search?report=${encodeURIComponent(report.id)}` },
    });
  }
}
