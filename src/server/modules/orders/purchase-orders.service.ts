/**
 * The rules of purchase orders: a number once per customer (ignoring case), items of existing products,
 * no item reduced below what its deliveries ship nor removed while units reference it, no deletion while a
 * delivery ships the order, and an audit entry with every change, in its transaction.
 */
import type { PurchaseOrder, PurchaseOrderListQuery, PurchaseOrderValues } from '../../../shared/contract/orders';
import { AppError } from '../../../shared/errors';
import type { Db, Executor } from '../../db/client';
import { isUuid, PG, pgErrorCode } from '../../db/errors';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import * as repo from './purchase-orders.repo';

export const PURCHASE_ORDER_ENTITY = 'purchaseOrder';

type Field = { field: string; key: string; params?: Record<string, string | number> };

export function purchaseOrderNotFound(): AppError {
  return new AppError('not-found', 'orders.purchaseOrderNotFound');
}

function auditShape(p: PurchaseOrder): Record<string, unknown> {
  const { createdAt: _c, updatedAt: _u, deliveryCount: _d, customerName: _n, customerCode: _k, ...rest } = p;
  return { ...rest, items: rest.items.map(({ productName: _p, shipped: _s, ...it }) => it) };
}

function numberTaken(): AppError {
  return new AppError('already-exists', 'orders.poNumberTaken', { fields: [{ field: 'number', key: 'orders.poNumberTaken' }] });
}

function invalid(fields: Field[]): AppError {
  return new AppError('invalid-argument', 'errors.invalidRequest', { fields });
}

/** The customer and the products exist. */
async function checkReferences(db: Executor, v: PurchaseOrderValues): Promise<void> {
  const fields: Field[] = [];
  if (!(await repo.customerExists(db, v.customerId))) fields.push({ field: 'customerId', key: 'orders.validation.customer' });
  const found = await repo.existingProducts(db, [...new Set(v.items.map((it) => it.productId))]);
  v.items.forEach((it, i) => {
    if (!found.has(it.productId)) fields.push({ field: `items.${i}.productId`, key: 'orders.validation.product' });
  });
  if (fields.length) throw invalid(fields);
}

export function listPurchaseOrders(db: Db, q: PurchaseOrderListQuery) {
  return repo.listPurchaseOrders(db, q);
}

export async function getPurchaseOrder(db: Db, id: string): Promise<PurchaseOrder> {
  const p = isUuid(id) ? await repo.findPurchaseOrder(db, id) : undefined;
  if (!p) throw purchaseOrderNotFound();
  return p;
}

export async function createPurchaseOrder(db: Db, actor: AuditActor, v: PurchaseOrderValues): Promise<PurchaseOrder> {
  try {
    return await db.transaction(async (tx) => {
      await checkReferences(tx, v);
      const id = await repo.insertPurchaseOrder(tx, v, v.documentType ?? (await repo.defaultDocumentType(tx)));
      const p = (await repo.findPurchaseOrder(tx, id))!;
      await recordAudit(tx, actor, { action: 'create', entity: PURCHASE_ORDER_ENTITY, entityId: id, after: auditShape(p) });
      return p;
    });
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw numberTaken();
    // A product or the customer deleted by another request since the check.
    if (pgErrorCode(err) === PG.foreignKeyViolation) throw invalid([{ field: 'items', key: 'orders.validation.product' }]);
    throw err;
  }
}

export async function updatePurchaseOrder(db: Db, actor: AuditActor, id: string, v: PurchaseOrderValues): Promise<PurchaseOrder> {
  if (!isUuid(id)) throw purchaseOrderNotFound();
  try {
    return await db.transaction(async (tx) => {
      const before = await repo.findPurchaseOrder(tx, id, true);
      if (!before) throw purchaseOrderNotFound();
      await checkReferences(tx, v);
      // Locked: a delivery adding units to this order waits, so `shipped` cannot grow past the check.
      const current = await repo.itemsOf(tx, [id], true);
      const withUnits = await repo.linesWithUnits(tx, id);
      const unitTags = await repo.unitTagsByLine(tx, id);
      const fields: Field[] = [];
      if (before.deliveryCount > 0 && v.customerId !== before.customerId)
        fields.push({ field: 'customerId', key: 'orders.validation.customerShipped' });
      for (const old of current) {
        const i = v.items.findIndex((it) => it.line === old.line);
        const next = v.items[i];
        if (!next) {
          if (withUnits.has(old.line))
            fields.push({ field: 'items', key: 'orders.validation.lineInDeliveries', params: { line: old.line } });
          continue;
        }
        if (next.quantity < old.shipped)
          fields.push({
            field: `items.${i}.quantity`,
            key: 'orders.validation.belowShipped',
            params: { shipped: old.shipped, quantity: next.quantity },
          });
        // An item that lists tags keeps those its delivered units carry.
        const left =
          next.tags.length === 0
            ? undefined
            : (unitTags.get(old.line) ?? []).find((t) => !next.tags.some((n) => n.toLowerCase() === t.toLowerCase()));
        if (left !== undefined) fields.push({ field: `items.${i}.tags`, key: 'orders.validation.tagInDeliveries', params: { tag: left } });
        if (next.productId !== old.productId && withUnits.has(old.line))
          fields.push({ field: `items.${i}.productId`, key: 'orders.validation.productShipped', params: { line: old.line } });
      }
      if (fields.length) throw invalid(fields);
      await repo.updatePurchaseOrder(tx, id, v, v.documentType ?? before.documentType);
      const after = (await repo.findPurchaseOrder(tx, id))!;
      await recordAudit(tx, actor, {
        action: 'update',
        entity: PURCHASE_ORDER_ENTITY,
        entityId: id,
        before: auditShape(before),
        after: auditShape(after),
      });
      return after;
    });
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw numberTaken();
    if (pgErrorCode(err) === PG.foreignKeyViolation) throw invalid([{ field: 'items', key: 'orders.validation.product' }]);
    throw err;
  }
}

function inUse(count: number): AppError {
  return new AppError('failed-precondition', count === 1 ? 'orders.purchaseOrderInUseOne' : 'orders.purchaseOrderInUse', {
    params: { count },
  });
}

export async function deletePurchaseOrder(db: Db, actor: AuditActor, id: string): Promise<void> {
  if (!isUuid(id)) throw purchaseOrderNotFound();
  try {
    await db.transaction(async (tx) => {
      const before = await repo.findPurchaseOrder(tx, id, true);
      if (!before) throw purchaseOrderNotFound();
      if (before.deliveryCount > 0) throw inUse(before.deliveryCount);
      await repo.deletePurchaseOrder(tx, id);
      await recordAudit(tx, actor, { action: 'delete', entity: PURCHASE_ORDER_ENTITY, entityId: id, before: auditShape(before) });
    });
  } catch (err) {
    // 23001: ON DELETE RESTRICT's own code.
    if (pgErrorCode(err) === PG.foreignKeyViolation || pgErrorCode(err) === '23001')
      throw inUse(Math.max(1, await repo.countDeliveriesOf(db, id)));
    throw err;
  }
}
