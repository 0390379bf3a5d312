/**
 * CSV import of serial-number ranges: each row checked by the shared row schema, products found by name
 * (ignoring case, a cache per import), overlaps found by the exclusion constraint itself, with the rows of
 * the same file in the same transaction, so that two rows of one file that overlap are caught too.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ImportResult } from '../../../shared/contract/record-history';
import { SERIAL_RANGE_CSV_COLUMNS, serialRangeCsvRow, type SerialRangeCsvRow } from '../../../shared/contract/serials';
import { formatSerial, rangeLabel } from '../../../shared/serial';
import type { Language } from '../../../shared/i18n/index';
import type { Db, Tx } from '../../db/client';
import { serialRanges } from '../../db/schema/index';
import type { AuditActor } from '../audit/audit.writer';
import { recordAuditBatch, runImport, type ParsedRow, type RowFailure } from '../catalogue/csv-import';
import { PG, pgErrorCode } from '../catalogue/db-errors';
import { productIdsByName } from '../products/products.repo';
import { findOverlapping, insertRangeBatch, type RangeValues } from './serials.repo';
import { RANGE_ENTITY, toValues } from './serials.service';

export const MAX_RANGE_ROWS = 1_000_000;

type Row = ParsedRow<SerialRangeCsvRow> & { values: RangeValues & { id: string } };

async function insertRows(tx: Tx, actor: AuditActor, rows: Row[]): Promise<void> {
  await insertRangeBatch(
    tx,
    rows.map((r) => r.values),
  );
  await recordAuditBatch(
    tx,
    actor,
    RANGE_ENTITY,
    rows.map((r) => ({
      entityId: r.values.id,
      after: {
        id: r.values.id,
        productId: r.values.productId,
        productName: r.value.product,
        startSerial: r.value.startSerial,
        endSerial: r.value.endSerial,
        totalUnits: Number(r.values.endNo - r.values.startNo + 1n),
        productionDate: r.value.productionDate,
      },
    })),
  );
}

export function importRanges(
  db: Db,
  source: AsyncIterable<Uint8Array>,
  actor: AuditActor,
  opts: { dryRun: boolean; language: Language },
): Promise<ImportResult> {
  // name (lower case) → id; bounded by the number of products, which is small next to the ranges.
  const productIds = new Map<string, string | null>();

  return runImport(db, source, {
    ns: 'serials',
    columns: SERIAL_RANGE_CSV_COLUMNS,
    required: ['product', 'startSerial', 'endSerial', 'productionDate'],
    maxRows: MAX_RANGE_ROWS,
    schema: serialRangeCsvRow,
    async insertBatch(tx, batch) {
      const unknown = [...new Set(batch.map((b) => b.value.product.toLowerCase()))].filter((n) => !productIds.has(n));
      const found = await productIdsByName(tx, unknown);
      for (const n of unknown) productIds.set(n, found.get(n) ?? null);

      const failures: RowFailure[] = [];
      const rows: Row[] = [];
      for (const b of batch) {
        const productId = productIds.get(b.value.product.toLowerCase());
        if (!productId) failures.push({ row: b.row, field: 'product', key: 'serials.import.unknownProduct' });
        else rows.push({ ...b, values: { id: randomUUID(), ...toValues(b.value, productId) } });
      }
      if (rows.length === 0) return failures;
      try {
        await tx.transaction((sp) => insertRows(sp, actor, rows));
        return failures;
      } catch (err) {
        if (pgErrorCode(err) !== PG.exclusionViolation) throw err;
      }
      // Some row overlaps: insert one by one under savepoints to name each such row and what it hits.
      for (const row of rows) {
        try {
          await tx.transaction((sp) => insertRows(sp, actor, [row]));
        } catch (err) {
          if (pgErrorCode(err) !== PG.exclusionViolation) throw err;
          failures.push(await overlapFailure(tx, row));
        }
      }
      return failures.sort((a, b) => a.row - b.row);
    },
  }, opts);
}

async function overlapFailure(tx: Tx, row: Row): Promise<RowFailure> {
  const v = row.values;
  const other = await findOverlapping(tx, v, v.startNo, v.endNo);
  if (!other) return { row: row.row, field: 'startSerial', key: 'serials.validation.serial' };
  const label = rangeLabel(
    formatSerial({ prefix: other.prefix, width: other.width, number: BigInt(other.startNo) }),
    formatSerial({ prefix: other.prefix, width: other.width, number: BigInt(other.endNo) }),
  );
  // Rows this transaction inserted carry its start time: the clash is with another row of the same file.
  const [fromFile] = await tx
    .select({ yes: sql<boolean>`${serialRanges.createdAt} = now()` })
    .from(serialRanges)
    .where(sql`${serialRanges.id} = ${other.id}`);
  if (fromFile?.yes) return { row: row.row, field: 'startSerial', key: 'serials.import.overlapInFile', params: { range: label } };
  return { row: row.row, field: 'startSerial', key: 'serials.overlap', params: { range: label, product: other.productName } };
}
