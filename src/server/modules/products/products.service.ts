/**
 * The rules of products: unique names (ignoring case), no deletion while serial ranges use the product,
 * and an audit entry with every change, in the change's transaction.
 */
import type { Product, ProductListQuery, ProductValues } from '../../../shared/contract/products';
import type { HistoryEntry } from '../../../shared/contract/record-history';
import { AppError } from '../../../shared/errors';
import type { Db, Executor } from '../../db/client';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { isUuid, PG, pgConstraint, pgErrorCode } from '../../db/errors';
import { recordHistory } from '../audit/record-history';
import { syncRequirements } from '../standards/standards.service';
import * as repo from './products.repo';

/** A product row as the API shows it, for other modules (serials), which never import products.repo. */
export { toProduct } from './products.repo';

export const PRODUCT_ENTITY = 'product';
/** The unique index of products' GTINs (migration 0041). */
export const GTIN_INDEX = 'products_gtin_key';

export function productNotFound(): AppError {
  return new AppError('not-found', 'errors.productNotFound');
}

function nameTaken(): AppError {
  return new AppError('already-exists', 'products.nameTaken', { fields: [{ field: 'name', key: 'products.nameTaken' }] });
}

function gtinTaken(): AppError {
  return new AppError('already-exists', 'products.gtinTaken', { fields: [{ field: 'gtin', key: 'products.gtinTaken' }] });
}

/** Which unique rule a write broke: the GTIN's index (migration 0041) or the name's. */
function taken(err: unknown): AppError {
  return pgConstraint(err) === GTIN_INDEX ? gtinTaken() : nameTaken();
}

/** What the audit log keeps of a product: its API shape without timestamps and the derived range count. */
export function auditShape(p: Product): Record<string, unknown> {
  const { createdAt: _c, updatedAt: _u, rangeCount: _r, ...rest } = p;
  return rest;
}

export function listProducts(db: Db, q: ProductListQuery) {
  return repo.listProducts(db, q);
}

export async function getProduct(db: Db, id: string): Promise<Product> {
  const row = isUuid(id) ? await repo.findProduct(db, id) : undefined;
  if (!row) throw productNotFound();
  return repo.toProduct(row);
}

export async function createProduct(db: Db, actor: AuditActor, v: ProductValues): Promise<Product> {
  try {
    return await db.transaction(async (tx) => {
      const p = repo.toProduct(await repo.insertProduct(tx, v));
      await syncRequirements(tx, [p.id]);
      await recordAudit(tx, actor, { action: 'create', entity: PRODUCT_ENTITY, entityId: p.id, after: auditShape(p) });
      return p;
    });
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw taken(err);
    throw err;
  }
}

export async function updateProduct(db: Db, actor: AuditActor, id: string, v: ProductValues): Promise<Product> {
  if (!isUuid(id)) throw productNotFound();
  try {
    return await db.transaction(async (tx) => {
      const before = await repo.findProduct(tx, id, true);
      if (!before) throw productNotFound();
      const after = repo.toProduct((await repo.updateProduct(tx, id, v))!);
      // A changed standard, size, seat or rating changes the requirement: its records are judged again here.
      await syncRequirements(tx, [id]);
      await recordAudit(tx, actor, {
        action: 'update',
        entity: PRODUCT_ENTITY,
        entityId: id,
        before: auditShape(repo.toProduct(before)),
        after: auditShape(after),
      });
      return after;
    });
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw taken(err);
    throw err;
  }
}

function inUse(count: number): AppError {
  return new AppError('failed-precondition', count === 1 ? 'products.inUseOne' : 'products.inUse', { params: { count } });
}

export async function deleteProduct(db: Db, actor: AuditActor, id: string): Promise<void> {
  if (!isUuid(id)) throw productNotFound();
  try {
    await db.transaction(async (tx) => {
      const before = await repo.findProduct(tx, id, true);
      if (!before) throw productNotFound();
      const ranges = await repo.countRangesOf(tx, id);
      if (ranges > 0) throw inUse(ranges);
      await repo.deleteProduct(tx, id);
      await recordAudit(tx, actor, { action: 'delete', entity: PRODUCT_ENTITY, entityId: id, before: auditShape(repo.toProduct(before)) });
    });
  } catch (err) {
    // A range added by another transaction after our count: the foreign key refuses, we say how many now.
    if (pgErrorCode(err) === PG.foreignKeyViolation) throw inUse(Math.max(1, await repo.countRangesOf(db, id)));
    throw err;
  }
}

/** A product's GTIN-14, or null: what its units' labels link with (the serials module asks). */
export async function productGtin(db: Executor, id: string): Promise<string | null> {
  return (await repo.findProduct(db, id))?.gtin ?? null;
}

export async function productHistory(db: Db, id: string): Promise<HistoryEntry[]> {
  await getProduct(db, id);
  return recordHistory(db, PRODUCT_ENTITY, id);
}
