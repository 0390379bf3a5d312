/**
 * Who sees the order (docs/product.md "Who sees the order"): a stranger who reads a nameplate gets the
 * unit's certificate without purchaser, order or tag; an address of the buyer (one of the customer's
 * contacts, or within its mail domains) gets the certificate of the released delivery that shipped the unit.
 */
import { sql } from 'drizzle-orm';
import { formatSerial, parseSerial } from '../../../shared/serial';
import { rowsOf, type Executor } from '../../db/client';
import type { OrderCertificate } from '../reports/issue';
import { unitWithOrder } from './release.repo';
import { orderCertificate } from './release.service';

/** The order certificate `email` may receive for `serial`, or null (a stranger, or the unit is in no released delivery). */
export async function orderCertificateFor(db: Executor, serial: string, email: string): Promise<OrderCertificate | null> {
  const parsed = parseSerial(serial);
  const at = email.lastIndexOf('@');
  if (!parsed || at < 1) return null;
  const domain = email.slice(at + 1).toLowerCase();
  // The same statement whoever asks: its cost does not tell a buyer's address from a stranger's.
  const result = await db.execute(sql`
    SELECT u.delivery_id, u.serial
      FROM delivery_units u
      JOIN deliveries d ON d.id = u.delivery_id AND d.status = 'released'
      JOIN purchase_orders po ON po.id = u.purchase_order_id
      JOIN customers c ON c.id = po.customer_id
     WHERE u.prefix = ${parsed.prefix} AND u.width = ${parsed.width} AND u.serial_no = ${parsed.number.toString()}::bigint AND u.active
       AND (${domain} = ANY (c.email_domains)
            OR EXISTS (SELECT 1 FROM customer_contacts cc WHERE cc.customer_id = c.id AND cc.email = ${email}::citext))
     LIMIT 1`);
  const row = rowsOf<{ delivery_id: string; serial: string }>(result)[0];
  if (!row) return null;
  const unit = await unitWithOrder(db, row.delivery_id, formatSerial(parsed));
  return unit ? orderCertificate(unit) : null;
}
