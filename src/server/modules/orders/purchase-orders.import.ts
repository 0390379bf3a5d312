/**
 * CSV import of purchase orders, one row per item (PURCHASE_ORDER_CSV_COLUMNS): the rows of one customer's
 * PO number make one order, whose date and document type they must agree on. Customers are named by code,
 * products by name, tags are separated by spaces. Every order is checked with the form's schema and against
 * the orders already stored; one bad row and nothing is stored (the answer names every bad row). A preview
 * (dryRun) checks without storing.
 */
import { purchaseOrderInput, type PurchaseOrderValues } from '../../../shared/contract/orders';
import { PURCHASE_ORDER_CSV_COLUMNS } from '../../../shared/contract/orders-csv';
import type { ImportResult } from '../../../shared/contract/record-history';
import { translate, type Language } from '../../../shared/i18n/index';
import type { Db } from '../../db/client';
import { PG, pgErrorCode } from '../../db/errors';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { readCsvRows, type CsvRowFailure } from '../../lib/csv-rows';
import * as repo from './purchase-orders.repo';
import { PURCHASE_ORDER_ENTITY } from './purchase-orders.service';

export const MAX_PURCHASE_ORDER_ROWS = 10_000;
const MAX_ERRORS = 200;

interface Group {
  customer: string;
  number: string;
  /** file rows of the order's items, in the file's order */
  rows: number[];
  input: Record<string, string>[];
}

/** The CSV cell of an item's field → the item input (empty cells are the form's empty values). */
function itemOf(input: Record<string, string>, productId: string) {
  return {
    line: input.line ?? '',
    productId,
    quantity: input.quantity ?? '',
    buyerItemCode: input.buyerItemCode ?? '',
    description: input.description ?? '',
    tags: (input.tags ?? '').split(/\s+/).filter(Boolean),
  };
}

export async function importPurchaseOrders(
  db: Db,
  source: AsyncIterable<Uint8Array>,
  actor: AuditActor,
  opts: { dryRun: boolean; language: Language },
): Promise<ImportResult> {
  const read = await readCsvRows(source, {
    keys: 'orders.import',
    columns: PURCHASE_ORDER_CSV_COLUMNS,
    required: ['customer', 'number', 'date', 'line', 'product', 'quantity'],
    maxRows: MAX_PURCHASE_ORDER_ROWS,
  });
  const failures: CsvRowFailure[] = [...read.failures];
  const fail = (row: number, field: string, key: string, params?: CsvRowFailure['params']) =>
    failures.push({ row, field, key, ...(params ? { params } : {}) });

  // Group the rows by (customer code, PO number), ignoring case as the database does.
  const groups = new Map<string, Group>();
  for (const { row, input } of read.rows) {
    const customer = (input.customer ?? '').trim().toUpperCase();
    const number = (input.number ?? '').trim();
    if (!customer) fail(row, 'customer', 'validation.required');
    else if (!number) fail(row, 'number', 'validation.required');
    else {
      const k = `${customer}\n${number.toLowerCase()}`;
      const g = groups.get(k) ?? { customer, number, rows: [], input: [] };
      g.rows.push(row);
      g.input.push(input);
      groups.set(k, g);
    }
  }

  const customerIds = await repo.customersByCode(db, [...new Set([...groups.values()].map((g) => g.customer))]);
  const productNames = new Set(read.rows.map(({ input }) => (input.product ?? '').trim().toLowerCase()).filter(Boolean));
  const productIds = await repo.productsByName(db, [...productNames]);

  const valid: { rows: number[]; value: PurchaseOrderValues }[] = [];
  for (const g of groups.values()) {
    const first = g.input[0]!;
    const customerId = customerIds.get(g.customer);
    let bad = false;
    if (!customerId) {
      for (const row of g.rows) fail(row, 'customer', 'orders.import.unknownCustomer', { code: g.customer });
      continue;
    }
    // The order's own fields are repeated on each of its rows: they must say the same.
    g.input.forEach((input, i) => {
      for (const col of ['date', 'documentType'] as const)
        if ((input[col] ?? '').trim() !== (first[col] ?? '').trim()) {
          fail(g.rows[i]!, col, 'orders.import.orderDiffers', { number: g.number });
          bad = true;
        }
      const product = (input.product ?? '').trim();
      if (!product) {
        fail(g.rows[i]!, 'product', 'validation.required');
        bad = true;
      } else if (!productIds.has(product.toLowerCase())) {
        fail(g.rows[i]!, 'product', 'orders.import.unknownProduct', { product });
        bad = true;
      }
    });
    if (bad) continue;
    const documentType = (first.documentType ?? '').trim();
    const parsed = purchaseOrderInput.safeParse({
      customerId,
      number: g.number,
      date: first.date ?? '',
      ...(documentType ? { documentType } : {}),
      items: g.input.map((input) => itemOf(input, productIds.get((input.product ?? '').trim().toLowerCase())!)),
    });
    if (!parsed.success) {
      // Each issue is put on its item's row (the order's fields on its first row), once per row.
      const named = new Set<number>();
      for (const issue of parsed.error.issues) {
        const itemIndex = issue.path[0] === 'items' && typeof issue.path[1] === 'number' ? issue.path[1] : 0;
        const row = g.rows[itemIndex] ?? g.rows[0]!;
        if (named.has(row)) continue;
        named.add(row);
        const field = issue.path[0] === 'items' ? String(issue.path[2] ?? 'line') : String(issue.path[0] ?? '');
        fail(row, field === 'productId' ? 'product' : field, issue.message);
      }
      continue;
    }
    valid.push({ rows: g.rows, value: parsed.data });
  }

  const taken = await repo.takenNumbers(
    db,
    valid.map((v) => v.value),
  );
  for (const v of valid)
    if (taken.has(`${v.value.customerId} ${v.value.number.toLowerCase()}`))
      for (const row of v.rows) fail(row, 'number', 'orders.poNumberTaken');

  let stored = 0;
  if (failures.length === 0 && !opts.dryRun) {
    try {
      stored = await db.transaction(async (tx) => {
        const fallback = await repo.defaultDocumentType(tx);
        for (const { value } of valid) {
          const id = await repo.insertPurchaseOrder(tx, value, value.documentType ?? fallback);
          const { customerId, number, date, items } = value;
          await recordAudit(tx, actor, {
            action: 'import',
            entity: PURCHASE_ORDER_ENTITY,
            entityId: id,
            after: { id, customerId, number, date, documentType: value.documentType ?? fallback, items },
          });
        }
        return valid.length;
      });
    } catch (err) {
      // An order stored by another request since the check above.
      if (pgErrorCode(err) !== PG.uniqueViolation) throw err;
      fail(1, 'number', 'orders.poNumberTaken');
    }
  }
  failures.sort((a, b) => a.row - b.row);
  return {
    dryRun: opts.dryRun,
    rows: read.rows.length + read.failures.filter((f) => f.row > 1).length,
    stored,
    valid: failures.length === 0,
    errors: failures.slice(0, MAX_ERRORS).map((f) => ({ ...f, message: translate(opts.language, f.key, f.params) })),
    errorsTruncated: failures.length > MAX_ERRORS,
  };
}
