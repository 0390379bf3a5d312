/**
 * The demo's customers, purchase orders and deliveries, written through the orders services as staff would:
 * three customers (one reading certificates in Chinese) with certificate contacts, two orders with items and
 * tags, and three deliveries — one open with a unit the release gate holds (its latest test failed), one open
 * and ready to release, and one whose release is started through the release service, so that the server's
 * release work issues its certificates and sends the link as for any delivery. Units are picked among the
 * tested serials by the release gate itself (reports/gate-batch.ts): deterministic for the demo's seed.
 */
import { customerInput, purchaseOrderInput, type CustomerInput } from '../../shared/contract/orders';
import type { Db } from '../db/client';
import type { AuditActor } from '../modules/audit/audit.writer';
import { createCustomer } from '../modules/orders/customers.service';
import { addUnits, createDelivery } from '../modules/orders/deliveries.service';
import { createPurchaseOrder } from '../modules/orders/purchase-orders.service';
import { startRelease } from '../modules/orders/release.service';
import { gatesOf, serialUnits } from '../modules/reports/gate-batch';
import { authenticateBench, ingestBatch } from '../modules/machine-data/machine-data.ingest';
import { recordsOfUnit } from '../modules/machine-data/machine-data.repo';
import { parseSerial } from '../../shared/serial';
import { releaseRangesOf } from './range-releases';

const DAY = 86_400_000;

export const DEMO_CUSTOMERS: CustomerInput[] = [
  {
    name: '台灣石化煉製股份有限公司',
    code: 'TPR',
    address: '高雄市小港區中林路 1 號\nKaohsiung 812, Taiwan',
    country: 'TW',
    language: 'zh',
    emailDomains: ['tpr.example'],
    contacts: [
      { name: '王大明', email: 'wang.daming@tpr.example', language: 'zh', receivesCertificates: true },
      { name: 'Lin Yu-Ting', email: 'lin.yuting@tpr.example', language: 'en', receivesCertificates: false },
    ],
  },
  {
    name: 'Nordic Water Utilities AB',
    code: 'NWU',
    address: 'Hamngatan 12\n411 06 Göteborg, Sweden',
    country: 'SE',
    language: 'en',
    emailDomains: ['nwu.example'],
    contacts: [{ name: 'Erik Lund', email: 'erik.lund@nwu.example', language: 'en', receivesCertificates: true }],
  },
  {
    name: 'Gulf Coast Chemicals Inc.',
    code: 'GCC',
    address: '4100 Refinery Road\nPasadena, TX 77506, USA',
    country: 'US',
    language: 'en',
    emailDomains: ['gcc.example'],
    contacts: [{ name: 'Maria Lopez', email: 'm.lopez@gcc.example', language: 'en', receivesCertificates: true }],
  },
];

export interface DemoOrdersResult {
  customers: number;
  deliveries: { held: string; ready: string; released: string } | null;
}

const UNITS = 15;
const tags = (prefix: string, n: number, from = 1) => Array.from({ length: n }, (_, i) => `${prefix}-${String(from + i).padStart(3, '0')}`);

/**
 * A retest that failed, sent as a bench sends it (the bench that tested the unit last): the unit's latest
 * test of that type now fails, so the release gate holds it.
 */
async function failedRetest(db: Db, benches: { name: string; key: string }[], serial: string, now: number): Promise<void> {
  const [latest] = await recordsOfUnit(db, parseSerial(serial)!);
  const key = benches.find((b) => b.name === latest?.machineName)?.key ?? benches[0]?.key;
  if (!latest || !key) throw new Error(`demo data: no record or bench for ${serial}`);
  const bench = await authenticateBench(db, `Bearer ${key}`);
  const testedAt = new Date(Math.min(now, Date.parse(latest.testedAt) + 30 * 60_000)).toISOString();
  const { recordId, testType, medium, testPressure, holdingSeconds, leakageValue, leakageUnit, operator } = latest;
  const outcome = await ingestBatch(db, bench, [
    {
      recordId: `${recordId}-RT`,
      serial,
      testType,
      medium,
      testPressure,
      holdingSeconds,
      leakageValue,
      leakageUnit,
      operator,
      testedAt,
      result: 'fail',
    },
  ]);
  if (!outcome.ok) throw new Error(`demo data: the failed retest of ${serial} was refused (${outcome.refusal.key})`);
}

/**
 * Writes the customers always, and the orders and deliveries when the tested serials hold a product with
 * enough units that pass the gate (the demo's sizes always do).
 */
export async function generateOrders(
  db: Db,
  actor: AuditActor,
  data: { testedSerials: string[]; benches: { name: string; key: string }[] },
  now = Date.now(),
): Promise<DemoOrdersResult> {
  const customers = [];
  for (const c of DEMO_CUSTOMERS) customers.push(await createCustomer(db, actor, customerInput.parse(c)));
  const [tpr, nwu] = customers as [(typeof customers)[number], (typeof customers)[number]];

  const serials = [...new Set(data.testedSerials)];
  // The order ships 3.1 certificates: units whose materials are not yet traced are not picked.
  const gates = await gatesOf(db, serialUnits(serials), { documentType: '3.1' });
  const passing = new Map<string, string[]>();
  for (const serial of serials) {
    const g = gates.get(serial);
    if (g?.productId && g.status === 'pass') passing.set(g.productId, [...(passing.get(g.productId) ?? []), serial]);
  }
  // The product with the most passing units ships in all three deliveries; the next one is ordered too.
  const ranked = [...passing.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const [productId, ready] = ranked[0] ?? [];
  if (!productId || ready!.length < UNITS) return { customers: customers.length, deliveries: null };
  const other = ranked[1]?.[0] ?? productId;
  const units = ready!.slice(0, UNITS);
  await failedRetest(db, data.benches, units[UNITS - 1]!, now);
  // The order asking for 3.1 certificates ships from ranges the demo's inspector has released.
  await releaseRangesOf(db, actor, units);
  const day = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString().slice(0, 10);

  const poTpr = await createPurchaseOrder(
    db,
    actor,
    purchaseOrderInput.parse({
      customerId: tpr.id,
      number: 'TPR-PO-24-0117',
      date: day(20),
      documentType: '3.1',
      items: [
        { line: 10, productId, quantity: 12, buyerItemCode: 'TPR-VLV-080', description: 'Process line isolation valves' },
        { line: 20, productId: other, quantity: 4, buyerItemCode: 'TPR-VLV-150', description: 'Flare header valves' },
      ],
    }),
  );
  const poNwu = await createPurchaseOrder(
    db,
    actor,
    purchaseOrderInput.parse({
      customerId: nwu.id,
      number: 'NWU-4500-2291',
      date: day(14),
      documentType: '2.2',
      items: [{ line: 1, productId, quantity: 6, buyerItemCode: 'NW-GV-100', description: 'Pumping station valves' }],
    }),
  );

  // Open, with a unit the release gate holds: its retest failed.
  const held = await createDelivery(db, actor, { purchaseOrderId: poTpr.id, number: 'TPR-DN-0117-1', date: day(3) });
  const heldTags = tags('FV', 5, 101);
  await addUnits(
    db,
    actor,
    held.id,
    [...units.slice(0, 4), units[UNITS - 1]!].map((serial, i) => ({ serial, line: 10, tag: heldTags[i]! })),
  );
  // Open and ready: every unit passes the gate.
  const open = await createDelivery(db, actor, { purchaseOrderId: poTpr.id, number: 'TPR-DN-0117-2', date: day(1) });
  const openTags = tags('FV', 5, 106);
  await addUnits(
    db,
    actor,
    open.id,
    units.slice(4, 9).map((serial, i) => ({ serial, line: 10, tag: openTags[i]! })),
  );
  // Released through the release service: the server's release work issues its certificates.
  const released = await createDelivery(db, actor, { purchaseOrderId: poNwu.id, number: 'NWU-DN-2291-1', date: day(5) });
  const nwuTags = tags('PS-V', 5);
  await addUnits(
    db,
    actor,
    released.id,
    units.slice(9, 14).map((serial, i) => ({ serial, line: 1, tag: nwuTags[i]! })),
  );
  await startRelease(db, actor, released.id);
  return { customers: customers.length, deliveries: { held: held.id, ready: open.id, released: released.id } };
}
