/** SQL of customers and their contacts. Every function takes the database or an open transaction. */
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Customer, CustomerListQuery, CustomerValues } from '../../../shared/contract/orders';
import { pageWindow } from '../../../shared/contract/common';
import type { Executor } from '../../db/client';
import { customerContacts, customers, purchaseOrders, type CustomerContactRow, type CustomerRow } from '../../db/schema/index';
import { likePattern, MAX_OFFSET } from '../../db/errors';

// Spelt out: in a one-table select Drizzle leaves column names unqualified, and `id` would mean the order's.
const orderCount = sql<number>`(SELECT count(*)::int FROM purchase_orders o WHERE o.customer_id = "customers"."id")`;

type Row = CustomerRow & { orderCount: number };

function toCustomer(r: Row, contacts: CustomerContactRow[]): Customer {
  return {
    id: r.id,
    name: r.name,
    code: r.code,
    address: r.address,
    postcode: r.postcode,
    city: r.city,
    country: r.country,
    language: r.language,
    emailDomains: r.emailDomains,
    contacts: contacts.map((c) => ({
      id: c.id,
      name: c.name,
      email: c.email,
      language: c.language,
      receivesCertificates: c.receivesCertificates,
    })),
    orderCount: Number(r.orderCount),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

async function withContacts(db: Executor, rows: Row[]): Promise<Customer[]> {
  if (rows.length === 0) return [];
  const contacts = await db
    .select()
    .from(customerContacts)
    .where(
      inArray(
        customerContacts.customerId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(customerContacts.position), asc(customerContacts.id));
  const by = new Map<string, CustomerContactRow[]>();
  for (const c of contacts) by.set(c.customerId, [...(by.get(c.customerId) ?? []), c]);
  return rows.map((r) => toCustomer(r, by.get(r.id) ?? []));
}

const SORT_COLUMNS = { name: customers.name, code: customers.code, country: customers.country, createdAt: customers.createdAt };

function whereOf(q: Pick<CustomerListQuery, 'q'>): SQL | undefined {
  if (!q.q) return undefined;
  const p = likePattern(q.q);
  return or(
    ilike(customers.name, p),
    ilike(customers.code, p),
    sql`EXISTS (SELECT 1 FROM customer_contacts k WHERE k.customer_id = "customers"."id" AND k.email ILIKE ${p})`,
  );
}

function orderOf(q: Pick<CustomerListQuery, 'sort' | 'order'>): SQL[] {
  const sort = q.sort ?? 'name';
  const col = SORT_COLUMNS[sort];
  return q.order === 'desc' ? [sql`${col} desc`, desc(customers.id)] : [sql`${col} asc`, asc(customers.id)];
}

function selectRows(db: Executor) {
  return db
    .select({
      id: customers.id,
      name: customers.name,
      code: customers.code,
      address: customers.address,
      postcode: customers.postcode,
      city: customers.city,
      country: customers.country,
      language: customers.language,
      emailDomains: customers.emailDomains,
      createdAt: customers.createdAt,
      updatedAt: customers.updatedAt,
      orderCount,
    })
    .from(customers);
}

export async function listCustomers(db: Executor, q: CustomerListQuery): Promise<{ items: Customer[]; total: number }> {
  const where = whereOf(q);
  const { limit, offset } = pageWindow(q);
  const total = async () =>
    Number(
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(customers)
          .where(where)
      )[0]?.n ?? 0,
    );
  if (offset > MAX_OFFSET) return { items: [], total: await total() };
  const [rows, n] = await Promise.all([
    selectRows(db)
      .where(where)
      .orderBy(...orderOf(q))
      .limit(limit)
      .offset(offset),
    total(),
  ]);
  return { items: await withContacts(db, rows), total: n };
}

/** Pages of the filtered, sorted list for the CSV export. */
export async function* customerPages(db: Executor, q: CustomerListQuery, size = 1000): AsyncGenerator<Customer[]> {
  for (let offset = 0; ; offset += size) {
    const rows = await selectRows(db)
      .where(whereOf(q))
      .orderBy(...orderOf(q))
      .limit(size)
      .offset(offset);
    if (rows.length > 0) yield withContacts(db, rows);
    if (rows.length < size) return;
  }
}

export async function findCustomer(db: Executor, id: string, forUpdate = false): Promise<Customer | undefined> {
  const query = selectRows(db).where(eq(customers.id, id)).limit(1);
  const [row] = forUpdate ? await query.for('update', { of: customers }) : await query;
  return row ? (await withContacts(db, [row]))[0] : undefined;
}

function toRow(v: CustomerValues) {
  return {
    name: v.name,
    code: v.code,
    address: v.address,
    postcode: v.postcode,
    city: v.city,
    country: v.country,
    language: v.language,
    emailDomains: [...new Set(v.emailDomains)],
  };
}

async function writeContacts(db: Executor, customerId: string, v: CustomerValues): Promise<void> {
  await db.delete(customerContacts).where(eq(customerContacts.customerId, customerId));
  if (v.contacts.length === 0) return;
  await db.insert(customerContacts).values(
    v.contacts.map((c, i) => ({
      customerId,
      position: i,
      name: c.name,
      email: c.email,
      language: c.language,
      receivesCertificates: c.receivesCertificates,
    })),
  );
}

export async function insertCustomer(db: Executor, v: CustomerValues): Promise<string> {
  const [row] = await db.insert(customers).values(toRow(v)).returning({ id: customers.id });
  await writeContacts(db, row!.id, v);
  return row!.id;
}

/** Customers in one statement, then all their contacts in another (the CSV import). */
export async function insertCustomers(db: Executor, values: CustomerValues[]): Promise<string[]> {
  if (values.length === 0) return [];
  const rows = await db.insert(customers).values(values.map(toRow)).returning({ id: customers.id });
  const contacts = rows.flatMap((r, i) =>
    values[i]!.contacts.map((c, position) => ({
      customerId: r.id,
      position,
      name: c.name,
      email: c.email,
      language: c.language,
      receivesCertificates: c.receivesCertificates,
    })),
  );
  // Bounded by the file: 10,000 rows of at most 50 contacts, inserted a thousand at a time.
  for (let i = 0; i < contacts.length; i += 1000) await db.insert(customerContacts).values(contacts.slice(i, i + 1000));
  return rows.map((r) => r.id);
}

export async function updateCustomer(db: Executor, id: string, v: CustomerValues): Promise<void> {
  await db
    .update(customers)
    .set({ ...toRow(v), updatedAt: sql`now()` })
    .where(eq(customers.id, id));
  await writeContacts(db, id, v);
}

export async function deleteCustomer(db: Executor, id: string): Promise<void> {
  await db.delete(customers).where(eq(customers.id, id));
}

export async function countOrdersOf(db: Executor, customerId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(purchaseOrders)
    .where(and(eq(purchaseOrders.customerId, customerId)));
  return Number(row?.n ?? 0);
}

/** Customer codes already taken among `codes` (the CSV import names the rows). */
export async function takenCodes(db: Executor, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const rows = await db
    .select({ code: customers.code })
    .from(customers)
    .where(inArray(sql`upper(${customers.code}::text)`, codes));
  return new Set(rows.map((r) => r.code.toUpperCase()));
}
