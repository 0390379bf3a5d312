/**
 * The rules of deliveries (docs/product.md, "Orders and deliveries"): a delivery ships units of one purchase
 * order; each unit's serial is in a range of its line's product and in one open or released delivery only;
 * a line ships no more than its quantity; a tag number names one unit within the order. A batch of units is
 * stored all or nothing, and a refused batch names every bad unit. Released and cancelled deliveries are
 * not edited; a cancel says why and frees the serials. Every change is audited in its transaction.
 */
import type { Delivery, DeliveryDetail, DeliveryGate, DeliveryListQuery, DeliveryUnitInput } from '../../../shared/contract/orders';
import { AppError } from '../../../shared/errors';
import { formatSerial, parseSerial } from '../../../shared/serial';
import type { Db, Executor } from '../../db/client';
import { eq } from 'drizzle-orm';
import { purchaseOrders } from '../../db/schema/index';
import { isUuid, PG, pgErrorCode } from '../../db/errors';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { gatesOf, serialUnits } from '../reports/gate-batch';
import * as repo from './deliveries.repo';
import { itemsOf } from './purchase-orders.repo';
import { revokeDeliveryLinks } from './delivery-links';

export const DELIVERY_ENTITY = 'delivery';

type Field = { field: string; key: string; params?: Record<string, string | number> };

export function deliveryNotFound(): AppError {
  return new AppError('not-found', 'orders.deliveryNotFound');
}

export function notOpen(d: Delivery): AppError {
  return new AppError('failed-precondition', d.status === 'cancelled' ? 'orders.deliveryCancelled' : 'orders.deliveryReleased', {
    params: { number: d.number },
  });
}

function numberTaken(): AppError {
  return new AppError('already-exists', 'orders.deliveryNumberTaken', { fields: [{ field: 'number', key: 'orders.deliveryNumberTaken' }] });
}

function auditShape(d: Delivery): Record<string, unknown> {
  const { createdAt: _c, updatedAt: _u, customerName: _n, purchaseOrderNumber: _p, customerId: _k, ...rest } = d;
  return rest;
}

export function listDeliveries(db: Db, q: DeliveryListQuery) {
  return repo.listDeliveries(db, q);
}

async function found(db: Executor, id: string, forUpdate = false): Promise<Delivery> {
  const d = isUuid(id) ? await repo.findDelivery(db, id, forUpdate) : undefined;
  if (!d) throw deliveryNotFound();
  return d;
}

export async function getDelivery(db: Db, id: string): Promise<DeliveryDetail> {
  const d = await found(db, id);
  return { ...d, units: await repo.unitsOf(db, id), links: await repo.linksOf(db, id) };
}

export async function createDelivery(
  db: Db,
  actor: AuditActor,
  v: { purchaseOrderId: string; number: string; date: string },
): Promise<Delivery> {
  try {
    return await db.transaction(async (tx) => {
      if (!(await repo.purchaseOrderExists(tx, v.purchaseOrderId)))
        throw new AppError('invalid-argument', 'errors.invalidRequest', {
          fields: [{ field: 'purchaseOrderId', key: 'orders.validation.purchaseOrder' }],
        });
      const id = await repo.insertDelivery(tx, v);
      const d = (await repo.findDelivery(tx, id))!;
      await recordAudit(tx, actor, { action: 'create', entity: DELIVERY_ENTITY, entityId: id, after: auditShape(d) });
      return d;
    });
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw numberTaken();
    if (pgErrorCode(err) === PG.foreignKeyViolation)
      throw new AppError('invalid-argument', 'errors.invalidRequest', {
        fields: [{ field: 'purchaseOrderId', key: 'orders.validation.purchaseOrder' }],
      });
    throw err;
  }
}

/** Number and date while the delivery is open; the order too while it has no units. */
export async function updateDelivery(
  db: Db,
  actor: AuditActor,
  id: string,
  v: { purchaseOrderId: string; number: string; date: string },
): Promise<Delivery> {
  try {
    return await db.transaction(async (tx) => {
      const before = await found(tx, id, true);
      if (before.status !== 'open') throw notOpen(before);
      if (v.purchaseOrderId !== before.purchaseOrderId) {
        if (before.unitCount > 0)
          throw new AppError('invalid-argument', 'errors.invalidRequest', {
            fields: [{ field: 'purchaseOrderId', key: 'orders.validation.purchaseOrderHasUnits' }],
          });
        if (!(await repo.purchaseOrderExists(tx, v.purchaseOrderId)))
          throw new AppError('invalid-argument', 'errors.invalidRequest', {
            fields: [{ field: 'purchaseOrderId', key: 'orders.validation.purchaseOrder' }],
          });
      }
      await repo.updateDelivery(tx, id, v);
      const after = (await repo.findDelivery(tx, id))!;
      await recordAudit(tx, actor, {
        action: 'update',
        entity: DELIVERY_ENTITY,
        entityId: id,
        before: auditShape(before),
        after: auditShape(after),
      });
      return after;
    });
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw numberTaken();
    throw err;
  }
}

/** A unit's tag fits its item: any tag when the item lists none, else one of the item's (ignoring case). */
export function tagOfItem(itemTags: readonly string[], tag: string): boolean {
  return itemTags.length === 0 || itemTags.some((t) => t.toLowerCase() === tag.toLowerCase());
}

/**
 * Adds units to an open delivery, all or nothing. `fieldOf(i, field)` names a unit's field in the answer
 * (`units.3.serial` for the JSON batch, `rows.5.serial` for a CSV file).
 */
export async function addUnits(
  db: Db,
  actor: AuditActor,
  id: string,
  units: DeliveryUnitInput[],
  fieldOf: (i: number, field: string) => string = (i, f) => `units.${i}.${f}`,
): Promise<DeliveryDetail> {
  // The delivery's row lock makes concurrent batches of one delivery wait for each other, and the items'
  // lock those of one order; a clash with another order's delivery that committed meanwhile is caught by
  // the unique index: the batch is then checked again, and the answer names the other delivery.
  for (let attempt = 0; ; attempt++) {
    try {
      await db.transaction(async (tx) => {
        const d = await found(tx, id, true);
        if (d.status !== 'open') throw notOpen(d);
        const items = new Map((await itemsOf(tx, [d.purchaseOrderId], true)).map((it) => [it.line, it]));
        const fields: Field[] = [];
        const bad = new Set<number>();
        const fail = (i: number, field: string, key: string, params?: Field['params']) => {
          if (bad.has(i)) return;
          bad.add(i);
          fields.push({ field: fieldOf(i, field), key, ...(params ? { params } : {}) });
        };
        const prepared: repo.PreparedUnit[] = [];
        const serials = new Map<string, number>();
        const tags = new Map<string, number>();
        units.forEach((u, i) => {
          const parsed = parseSerial(u.serial);
          const line = Number(u.line);
          const tag = (u.tag ?? '').trim();
          const item = items.get(line);
          if (!parsed) return fail(i, 'serial', 'orders.validation.serial');
          const serial = formatSerial(parsed);
          if (!item) return fail(i, 'line', 'orders.validation.line', { line });
          if (serials.has(serial)) return fail(i, 'serial', 'orders.validation.serialTwice', { serial, row: serials.get(serial)! + 1 });
          serials.set(serial, i);
          if (tag) {
            const k = tag.toLowerCase();
            if (!tagOfItem(item.tags, tag)) return fail(i, 'tag', 'orders.validation.tagNotOfItem', { tag, line });
            if (tags.has(k)) return fail(i, 'tag', 'orders.validation.tagTwice', { tag });
            tags.set(k, i);
          }
          prepared.push({
            index: i,
            input: { ...u, line, tag },
            serial,
            prefix: parsed.prefix,
            width: parsed.width,
            number: parsed.number,
            productId: item.productId,
          });
        });
        const byIndex = new Map(prepared.map((p) => [p.index, p]));
        for (const r of await repo.checkUnits(tx, d.purchaseOrderId, prepared)) {
          const p = byIndex.get(r.i)!;
          if (r.deliveryNumber !== null)
            fail(r.i, 'serial', 'orders.validation.serialInDelivery', { serial: p.serial, number: r.deliveryNumber });
          else if (!r.inRange)
            fail(r.i, 'serial', 'orders.validation.serialNotOfProduct', {
              serial: p.serial,
              product: items.get(p.input.line)!.productName,
            });
          else if (r.tagSerial !== null) fail(r.i, 'tag', 'orders.validation.tagTaken', { tag: p.input.tag, serial: r.tagSerial });
        }
        // Quantities: each line's units beyond what is left of its quantity.
        const perLine = new Map<number, number>();
        for (const p of prepared) perLine.set(p.input.line, (perLine.get(p.input.line) ?? 0) + 1);
        const seen = new Map<number, number>();
        for (const p of prepared) {
          const item = items.get(p.input.line)!;
          const n = (seen.get(p.input.line) ?? 0) + 1;
          seen.set(p.input.line, n);
          if (item.shipped + n > item.quantity)
            fail(p.index, 'line', 'orders.validation.overQuantity', {
              line: item.line,
              ordered: item.quantity,
              shipped: item.shipped + perLine.get(p.input.line)!,
            });
        }
        if (fields.length) {
          fields.sort((a, b) => Number(a.field.split('.')[1]) - Number(b.field.split('.')[1]));
          throw new AppError('invalid-argument', 'orders.validation.unitsRefused', { params: { count: fields.length }, fields });
        }
        await repo.insertUnits(tx, id, d.purchaseOrderId, prepared);
        const after = (await repo.findDelivery(tx, id))!;
        await recordAudit(tx, actor, {
          action: 'addUnits',
          entity: DELIVERY_ENTITY,
          entityId: id,
          before: { unitCount: d.unitCount },
          after: { unitCount: after.unitCount, added: prepared.map((p) => ({ serial: p.serial, line: p.input.line, tag: p.input.tag })) },
        });
      });
      return getDelivery(db, id);
    } catch (err) {
      if (pgErrorCode(err) === PG.uniqueViolation && attempt < 2) continue;
      if (pgErrorCode(err) === PG.uniqueViolation) throw new AppError('aborted', 'orders.validation.serialInDeliveryRace');
      throw err;
    }
  }
}

export async function removeUnit(db: Db, actor: AuditActor, id: string, serialInput: string): Promise<DeliveryDetail> {
  await db.transaction(async (tx) => {
    const d = await found(tx, id, true);
    if (d.status !== 'open') throw notOpen(d);
    const parsed = parseSerial(serialInput);
    const removed = parsed ? await repo.deleteUnit(tx, id, parsed) : null;
    if (!removed)
      throw new AppError('not-found', 'orders.unitNotFound', { params: { serial: serialInput.slice(0, 64), number: d.number } });
    await recordAudit(tx, actor, {
      action: 'removeUnit',
      entity: DELIVERY_ENTITY,
      entityId: id,
      before: { unitCount: d.unitCount, removed },
      after: { unitCount: d.unitCount - 1 },
    });
  });
  return getDelivery(db, id);
}

/**
 * Cancels an open or released delivery, with a reason: its units stay on record and free their serials and
 * tags. A released delivery's links end too (its certificates stay valid documents of the tests they name);
 * a release still running must end first.
 */
export async function cancelDelivery(db: Db, actor: AuditActor, id: string, reason: string): Promise<Delivery> {
  return db.transaction(async (tx) => {
    const before = await found(tx, id, true);
    if (before.status === 'releasing')
      throw new AppError('failed-precondition', 'orders.release.running', { params: { number: before.number } });
    if (before.status !== 'open' && before.status !== 'released') throw notOpen(before);
    if (before.status === 'released') await revokeDeliveryLinks(tx, id);
    // The order's items are locked first, as a batch of units locks them, so the two never wait on each other.
    await itemsOf(tx, [before.purchaseOrderId], true);
    await repo.cancelDelivery(tx, id, reason);
    const after = (await repo.findDelivery(tx, id))!;
    await recordAudit(tx, actor, {
      action: 'cancel',
      entity: DELIVERY_ENTITY,
      entityId: id,
      before: auditShape(before),
      after: auditShape(after),
    });
    return after;
  });
}

/**
 * The release gate of every unit (the reports' gate, src/server/modules/reports/report-data.ts): a unit is
 * held when a test failed or is missing, or when it has no test data at all. Read only; nothing is issued.
 */
export async function deliveryGate(db: Db, id: string): Promise<DeliveryGate> {
  const d = await found(db, id);
  const units = await repo.unitsOf(db, id);
  // The order's document type decides whether the units' materials must be traced (3.1, 3.2), and a 3.1
  // order's units need their ranges released by an authorised inspector (reports/release-rule.ts): the
  // batch gate applies both, as the dashboard's count of held units does.
  const [po] = await db.select({ type: purchaseOrders.documentType }).from(purchaseOrders).where(eq(purchaseOrders.id, d.purchaseOrderId));
  const gates = await gatesOf(db, serialUnits(units.map((u) => u.serial)), { documentType: po?.type, releaseRule: true });
  const out: DeliveryGate['units'] = units.map((u) => {
    const g = gates.get(u.serial) ?? { status: 'no-data' as const, held: [] };
    const held =
      g.status === 'no-data'
        ? [{ testType: null, kind: 'no-data' as const, reasons: [] }]
        : g.held.map((h) =>
            h.kind === 'untraced'
              ? { testType: null, kind: h.kind, part: h.part, heat: h.heat, reasons: [] }
              : h.kind === 'closure-one-side'
                ? { testType: h.testType, kind: h.kind, side: h.side, reasons: [] }
                : { testType: h.testType, kind: h.kind, reasons: h.kind === 'failed' ? h.reasons.map(String) : [] },
          );
    return { ...u, status: g.status, held };
  });
  const passed = out.filter((u) => u.status === 'pass').length;
  return { deliveryId: id, status: d.status, unitCount: out.length, passed, held: out.length - passed, units: out };
}
