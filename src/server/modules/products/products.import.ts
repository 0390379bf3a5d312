/** CSV import of products: the form's schema per row, names unique against the table and within the file. */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PRODUCT_CSV_COLUMNS, productInput, type ProductValues } from '../../../shared/contract/products';
import type { ImportResult } from '../../../shared/contract/record-history';
import type { Language } from '../../../shared/i18n/index';
import type { Db, Tx } from '../../db/client';
import { products } from '../../db/schema/index';
import type { AuditActor } from '../audit/audit.writer';
import { recordAuditBatch, runImport, type ParsedRow, type RowFailure } from '../catalogue/csv-import';
import { PG, pgErrorCode } from '../catalogue/db-errors';
import { toRow } from './products.repo';
import { PRODUCT_ENTITY } from './products.service';

export const MAX_PRODUCT_ROWS = 100_000;

async function insertRows(tx: Tx, actor: AuditActor, rows: ParsedRow<ProductValues>[]): Promise<void> {
  const values = rows.map((r) => ({ id: randomUUID(), ...toRow(r.value) }));
  await tx.insert(products).values(values);
  await recordAuditBatch(
    tx,
    actor,
    PRODUCT_ENTITY,
    rows.map((r, i) => ({ entityId: values[i]!.id, after: { id: values[i]!.id, ...r.value } })),
  );
}

export function importProducts(
  db: Db,
  source: AsyncIterable<Uint8Array>,
  actor: AuditActor,
  opts: { dryRun: boolean; language: Language },
): Promise<ImportResult> {
  return runImport(db, source, {
    ns: 'products',
    columns: PRODUCT_CSV_COLUMNS,
    required: ['name', 'fluid', 'temperatureMax', 'temperatureMin'],
    maxRows: MAX_PRODUCT_ROWS,
    schema: productInput,
    async insertBatch(tx, batch) {
      try {
        await tx.transaction((sp) => insertRows(sp, actor, batch));
        return [];
      } catch (err) {
        if (pgErrorCode(err) !== PG.uniqueViolation) throw err;
      }
      // Some name is taken: insert one by one to name the rows, each under its own savepoint.
      const failures: RowFailure[] = [];
      for (const r of batch) {
        try {
          await tx.transaction((sp) => insertRows(sp, actor, [r]));
        } catch (err) {
          if (pgErrorCode(err) !== PG.uniqueViolation) throw err;
          const [hit] = await tx
            .select({ fromFile: sqlCreatedNow })
            .from(products)
            .where(sqlNameIs(r.value.name))
            .limit(1);
          const key = hit?.fromFile ? 'products.import.duplicateInFile' : 'products.nameTaken';
          failures.push({ row: r.row, field: 'name', key });
        }
      }
      return failures;
    },
  }, opts);
}

// Rows inserted by this transaction carry its start time (now()): that tells a clash within the file
// from a clash with a product that existed before.
const sqlCreatedNow = sql<boolean>`${products.createdAt} = now()`;
const sqlNameIs = (name: string) => sql`${products.name} = ${name}::citext`;
