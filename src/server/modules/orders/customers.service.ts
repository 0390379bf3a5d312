/**
 * The rules of customers: codes unique (ignoring case), contacts' addresses once per customer, no deletion
 * while a purchase order names the customer, and an audit entry with every change, in its transaction.
 */
import type { Customer, CustomerListQuery, CustomerValues } from '../../../shared/contract/orders';
import { AppError } from '../../../shared/errors';
import type { Db } from '../../db/client';
import { isUuid, PG, pgErrorCode } from '../../db/errors';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import * as repo from './customers.repo';

export const CUSTOMER_ENTITY = 'customer';

export function customerNotFound(): AppError {
  return new AppError('not-found', 'orders.customerNotFound');
}

/** What the audit log keeps of a customer: its API shape without timestamps and the derived count. */
function auditShape(c: Customer): Record<string, unknown> {
  const { createdAt: _c, updatedAt: _u, orderCount: _o, ...rest } = c;
  return { ...rest, contacts: rest.contacts.map(({ id: _id, ...k }) => k) };
}

/** A taken code (the contacts' addresses are checked before the database is asked). */
function clash(err: unknown): AppError | null {
  if (pgErrorCode(err) !== PG.uniqueViolation) return null;
  return new AppError('already-exists', 'orders.codeTaken', { fields: [{ field: 'code', key: 'orders.codeTaken' }] });
}

/** Two contacts with one address are refused before the database is asked (it would refuse them too). */
function checkContacts(v: CustomerValues): void {
  const seen = new Set<string>();
  const fields: { field: string; key: string }[] = [];
  v.contacts.forEach((c, i) => {
    const k = c.email.toLowerCase();
    if (seen.has(k)) fields.push({ field: `contacts.${i}.email`, key: 'orders.validation.contactTwice' });
    seen.add(k);
  });
  if (fields.length) throw new AppError('invalid-argument', 'errors.invalidRequest', { fields });
}

export function listCustomers(db: Db, q: CustomerListQuery) {
  return repo.listCustomers(db, q);
}

export async function getCustomer(db: Db, id: string): Promise<Customer> {
  const c = isUuid(id) ? await repo.findCustomer(db, id) : undefined;
  if (!c) throw customerNotFound();
  return c;
}

export async function createCustomer(db: Db, actor: AuditActor, v: CustomerValues): Promise<Customer> {
  checkContacts(v);
  try {
    return await db.transaction(async (tx) => {
      const id = await repo.insertCustomer(tx, v);
      const c = (await repo.findCustomer(tx, id))!;
      await recordAudit(tx, actor, { action: 'create', entity: CUSTOMER_ENTITY, entityId: id, after: auditShape(c) });
      return c;
    });
  } catch (err) {
    throw clash(err) ?? err;
  }
}

export async function updateCustomer(db: Db, actor: AuditActor, id: string, v: CustomerValues): Promise<Customer> {
  if (!isUuid(id)) throw customerNotFound();
  checkContacts(v);
  try {
    return await db.transaction(async (tx) => {
      const before = await repo.findCustomer(tx, id, true);
      if (!before) throw customerNotFound();
      await repo.updateCustomer(tx, id, v);
      const after = (await repo.findCustomer(tx, id))!;
      await recordAudit(tx, actor, {
        action: 'update',
        entity: CUSTOMER_ENTITY,
        entityId: id,
        before: auditShape(before),
        after: auditShape(after),
      });
      return after;
    });
  } catch (err) {
    throw clash(err) ?? err;
  }
}

function inUse(count: number): AppError {
  return new AppError('failed-precondition', count === 1 ? 'orders.customerInUseOne' : 'orders.customerInUse', { params: { count } });
}

export async function deleteCustomer(db: Db, actor: AuditActor, id: string): Promise<void> {
  if (!isUuid(id)) throw customerNotFound();
  try {
    await db.transaction(async (tx) => {
      const before = await repo.findCustomer(tx, id, true);
      if (!before) throw customerNotFound();
      if (before.orderCount > 0) throw inUse(before.orderCount);
      await repo.deleteCustomer(tx, id);
      await recordAudit(tx, actor, { action: 'delete', entity: CUSTOMER_ENTITY, entityId: id, before: auditShape(before) });
    });
  } catch (err) {
    // An order added by another transaction after our count: the foreign key refuses, we say how many now.
    // 23001: ON DELETE RESTRICT's own code.
    if (pgErrorCode(err) === PG.foreignKeyViolation || pgErrorCode(err) === '23001')
      throw inUse(Math.max(1, await repo.countOrdersOf(db, id)));
    throw err;
  }
}
