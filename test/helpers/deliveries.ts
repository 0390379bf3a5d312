/**
 * Released deliveries with certificates, for the delivery link tests: a customer (its contacts and mail
 * domains as asked), an order, a delivery and its units made through the API; each unit's test data sent by
 * a bench; then the release issues each unit's certificate naming the order (`release`).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/server/db/client';
import { issueReport } from '../../src/server/modules/reports/issue';
import { sendDeliveryLink } from '../../src/server/modules/orders/delivery-links';
import { releaseRound } from '../../src/server/modules/orders/release-worker';
import { Wakeup } from '../../src/server/lib/wakeup';
import type { TestApp } from './app';
import { addProduct, postRange, rangeBody, staffCookie } from './catalogue';
import { post, uniq } from './orders';
import { series, testData } from './public';
import { releaseRangeOf } from './inspectors';

export interface ReleasedUnit {
  serial: string;
  tag: string;
  reportId: string;
  reportNumber: string;
  sha256: string;
}

export interface Released {
  cookie: string;
  customer: { id: string; name: string; code: string };
  purchaseOrder: { id: string; number: string };
  delivery: { id: string; number: string };
  prefix: string;
  units: ReleasedUnit[];
}

export interface ReleasedOptions {
  units?: number;
  /** tags of the first units ('' for none) */
  tags?: string[];
  contacts?: { name: string; email: string; language?: 'en' | 'zh'; receivesCertificates?: boolean }[];
  emailDomains?: string[];
  language?: 'en' | 'zh';
  /** false: the delivery stays open (its units have no certificate) */
  release?: boolean;
  /** run after the customer, order and delivery exist and before the release (e.g. a customer's webhook) */
  beforeRelease?: (released: Released) => Promise<void>;
}

export const contactEmail = (who = 'buyer') => `${who}-${randomBytes(4).toString('hex')}@buyer-${uniq().toLowerCase()}.example.com`;

/** A delivery of `units` units (2 by default) of one product, released with a certificate each. */
export async function releasedDelivery(t: TestApp, o: ReleasedOptions = {}): Promise<Released> {
  const n = o.units ?? 2;
  const cookie = await staffCookie(t);
  const product = await addProduct(t.app, cookie);
  const prefix = series();
  const serial = (i: number) => `${prefix}${String(i).padStart(6, '0')}`;
  const range = await postRange(t.app, cookie, rangeBody(product.id, serial(1), serial(100), 100));
  if (range.statusCode !== 201) throw new Error(`range: ${range.body}`);
  const customer = await post(t.app, cookie, '/api/v1/customers', {
    name: `Buyer ${uniq()}`,
    code: `C${uniq()}`,
    language: o.language ?? 'en',
    contacts: o.contacts ?? [],
    emailDomains: o.emailDomains ?? [],
  });
  const po = await post(t.app, cookie, '/api/v1/purchase-orders', {
    customerId: customer.id,
    number: `PO-${uniq()}`,
    date: '2024-05-01',
    documentType: '3.1',
    items: [{ line: 10, productId: product.id, quantity: Math.max(n, 1), buyerItemCode: 'BIC-77' }],
  });
  const delivery = await post(t.app, cookie, '/api/v1/deliveries', { purchaseOrderId: po.id, number: `D-${uniq()}`, date: '2024-05-02' });
  const units = Array.from({ length: n }, (_, i) => ({ serial: serial(i + 1), line: 10, tag: o.tags?.[i] ?? '' }));
  if (n) await post(t.app, cookie, `/api/v1/deliveries/${delivery.id}/serials`, { units }, 200);
  const released: Released = {
    cookie,
    customer: { id: customer.id, name: customer.name, code: customer.code },
    purchaseOrder: { id: po.id, number: po.number },
    delivery: { id: delivery.id, number: delivery.number },
    prefix,
    units: [],
  };
  if (o.release === false) return released;
  await o.beforeRelease?.(released);
  for (const u of units) await testData(t, u.serial);
  // The order asks for 3.1 certificates: an authorised inspector releases the range first.
  await releaseRangeOf(t, serial(1));
  await release(t, cookie, delivery.id);
  const detail = (await t.app.inject({ url: `/api/v1/deliveries/${delivery.id}`, headers: { cookie } })).json().data as {
    units: { serial: string; tag: string; reportId: string; reportNumber: string }[];
  };
  for (const u of detail.units) {
    const [row] = rowsOf<{ sha256: string }>(
      await t.app.ctx.db.execute(sql`SELECT encode(sha256, 'hex') AS sha256 FROM reports WHERE id = ${u.reportId}`),
    );
    released.units.push({ serial: u.serial, tag: u.tag, reportId: u.reportId, reportNumber: u.reportNumber, sha256: row!.sha256 });
  }
  return released;
}

/**
 * The release as the server runs it: the request (202), then one round of the background work, whose last
 * step writes the link to the customer's certificate contacts.
 */
export async function release(t: TestApp, cookie: string, deliveryId: string): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/deliveries/${deliveryId}/release`, headers: { cookie } });
  if (res.statusCode !== 202) throw new Error(`release: ${res.statusCode} ${res.body}`);
  await releaseRound({
    db: t.app.ctx.db,
    issue: (db, input) => issueReport(db, { ...input, publicBaseUrl: t.config.publicBaseUrl }),
    sendLink: (tx, input) => sendDeliveryLink(tx, { ...input, source: 'release', publicBaseUrl: t.config.publicBaseUrl }),
    wakeup: new Wakeup(),
    log: t.app.log,
    kickMail: () => t.app.ctx.mail.kick(),
  });
}

/**
 * A link to the delivery and its token: sent as the release sends it, the token read from the queued
 * email's row (only the hash is in delivery_links; the email carries the token until it is sent).
 */
export async function linkTo(t: TestApp, deliveryId: string, email = contactEmail()): Promise<{ linkId: string; token: string }> {
  const db = t.app.ctx.db;
  const sent = await db.transaction((tx) =>
    sendDeliveryLink(tx, {
      deliveryId,
      source: 'release',
      recipients: [{ email, language: 'en' }],
      createdBy: null,
      publicBaseUrl: t.config.publicBaseUrl,
    }),
  );
  const res = await db.execute(sql`SELECT ref->>'token' AS token FROM mail_outbox WHERE ref->>'deliveryLinkId' = ${sent!.linkId} LIMIT 1`);
  return { linkId: sent!.linkId, token: rowsOf<{ token: string }>(res)[0]!.token };
}
