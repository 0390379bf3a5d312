/**
 * CSV import of serial-number ranges on the bulk path (lib/csv-import.ts): rows are staged with COPY,
 * products found by name (ignoring case) with one join, and each chunk moves into `serial_ranges` with one
 * INSERT … SELECT (audit rows included) that the exclusion constraint checks. When it refuses the chunk,
 * the rows involved in an overlap (with the table or within the chunk) are found with set queries, the rest
 * go in at once, and the involved rows one by one in file order under savepoints, so that each is named with
 * the range it hits, and the first of two overlapping rows of the file is the one kept.
 */
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { ImportResult } from '../../../shared/contract/record-history';
import { SERIAL_RANGE_CSV_COLUMNS, serialRangeCsvRow, type SerialRangeCsvRow } from '../../../shared/contract/serials';
import { formatSerial, parseSerial, rangeLabel } from '../../../shared/serial';
import type { Language } from '../../../shared/i18n/index';
import { rowsOf, type Db, type Tx } from '../../db/client';
import { serialRanges } from '../../db/schema/index';
import type { AuditActor } from '../audit/audit.writer';
import { rowNumbers, runImport, STAGE, tryUnderSavepoint, type RowFailure } from '../../lib/csv-import';
import { PG } from '../../db/errors';
import { findOverlapping } from './serials.repo';
import { RANGE_ENTITY } from './serials.service';

export const MAX_RANGE_ROWS = 1_000_000;

const stage = sql.raw(STAGE);
const CLASH = [PG.exclusionViolation, PG.uniqueViolation];

/** The staged rows selected by `where` into `serial_ranges`, with one audit row each. */
function insertFromStage(tx: Tx, actor: AuditActor, where: SQL): Promise<unknown> {
  return tx.execute(sql`WITH src AS (
      SELECT s.*, p.id AS product_id FROM ${stage} s JOIN products p ON p.name = s.product ${where}),
    ins AS (
      INSERT INTO serial_ranges (id, product_id, prefix, width, start_no, end_no, production_date, body_material)
      SELECT id, product_id, prefix, width, start_no, end_no, production_date, body_material FROM src ORDER BY row
      RETURNING id)
    INSERT INTO audit_log (actor_id, actor_label, action, entity, entity_id, after, ip)
    SELECT ${actor.id}::uuid, ${actor.label}, 'import', ${RANGE_ENTITY}, id::text,
      jsonb_build_object('id', id, 'productId', product_id, 'productName', product_name, 'startSerial', start_serial,
        'endSerial', end_serial, 'totalUnits', end_no - start_no + 1, 'productionDate', production_date::text,
        'bodyMaterial', body_material),
      ${actor.ip ?? null}
    FROM src ORDER BY row`);
}

async function loadChunk(tx: Tx, actor: AuditActor): Promise<RowFailure[]> {
  const failures: RowFailure[] = [];
  const unknown = rowNumbers(
    await tx.execute(sql`SELECT s.row FROM ${stage} s WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.name = s.product)`),
  );
  for (const row of unknown) failures.push({ row, field: 'product', key: 'serials.import.unknownProduct' });
  const unknownRows = new Set(unknown);

  if ((await tryUnderSavepoint(tx, CLASH, (sp) => insertFromStage(sp, actor, sql``))) === null) return failures;

  // Involved: overlapping a stored range (the exclusion index answers), or another row of the chunk (sorted
  // by start, a row overlaps an earlier one when it starts before their furthest end, and a later one when it
  // ends after their nearest start). Set queries, not a pairwise join: one series may fill the whole chunk.
  const involved = rowNumbers(
    await tx.execute(sql`SELECT row FROM ${stage} s WHERE EXISTS (SELECT 1 FROM serial_ranges t
        WHERE t.prefix = s.prefix AND t.width = s.width AND int8range(t.start_no, t.end_no, '[]') && int8range(s.start_no, s.end_no, '[]'))
      UNION
      SELECT row FROM (SELECT row, start_no, end_no,
          max(end_no) OVER (PARTITION BY prefix, width ORDER BY start_no, row ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS end_before,
          min(start_no) OVER (PARTITION BY prefix, width ORDER BY start_no, row ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS start_after
        FROM ${stage}) w
      WHERE start_no <= end_before OR end_no >= start_after
      ORDER BY row`),
  );
  // The rest goes in at once; should a concurrent import have taken a range meanwhile, every row goes one by one.
  const rest = await tryUnderSavepoint(tx, CLASH, (sp) =>
    insertFromStage(sp, actor, sql`WHERE s.row <> ALL(${sql.param(involved)}::int[])`),
  );
  const oneByOne = rest ? rowNumbers(await tx.execute(sql`SELECT row FROM ${stage} ORDER BY row`)) : involved;
  for (const row of oneByOne) {
    if (unknownRows.has(row)) continue;
    const clash = await tryUnderSavepoint(tx, CLASH, (sp) => insertFromStage(sp, actor, sql`WHERE s.row = ${row}`));
    if (clash) failures.push(await overlapFailure(tx, row));
  }
  return failures.sort((a, b) => a.row - b.row);
}

async function overlapFailure(tx: Tx, row: number): Promise<RowFailure> {
  const [v] = rowsOf<{ prefix: string; width: number; start_no: string; end_no: string }>(
    await tx.execute(sql`SELECT prefix, width, start_no, end_no FROM ${stage} WHERE row = ${row}`),
  );
  const other = v && (await findOverlapping(tx, { prefix: v.prefix, width: Number(v.width) }, BigInt(v.start_no), BigInt(v.end_no)));
  if (!other) return { row, field: 'startSerial', key: 'serials.validation.serial' };
  const label = rangeLabel(
    formatSerial({ prefix: other.prefix, width: other.width, number: BigInt(other.startNo) }),
    formatSerial({ prefix: other.prefix, width: other.width, number: BigInt(other.endNo) }),
  );
  // Rows this transaction inserted carry its start time: the clash is with another row of the same file.
  const [fromFile] = await tx
    .select({ yes: sql<boolean>`${serialRanges.createdAt} = now()` })
    .from(serialRanges)
    .where(sql`${serialRanges.id} = ${other.id}`);
  if (fromFile?.yes) return { row, field: 'startSerial', key: 'serials.import.overlapInFile', params: { range: label } };
  return { row, field: 'startSerial', key: 'serials.overlap', params: { range: label, product: other.productName } };
}

export function importRanges(
  db: Db,
  source: AsyncIterable<Uint8Array>,
  actor: AuditActor,
  opts: { dryRun: boolean; language: Language },
): Promise<ImportResult> {
  return runImport<SerialRangeCsvRow>(
    db,
    source,
    {
      keys: 'serials.import',
      columns: SERIAL_RANGE_CSV_COLUMNS,
      required: ['product', 'startSerial', 'endSerial', 'productionDate'],
      maxRows: MAX_RANGE_ROWS,
      schema: serialRangeCsvRow,
      stage: [
        ['id', 'uuid'],
        ['product', 'citext'],
        ['product_name', 'text'],
        ['prefix', 'text'],
        ['width', 'smallint'],
        ['start_no', 'bigint'],
        ['end_no', 'bigint'],
        ['production_date', 'date'],
        ['start_serial', 'text'],
        ['end_serial', 'text'],
        ['body_material', 'text'],
      ],
      toStage: (v) => {
        const a = parseSerial(v.startSerial)!;
        const b = parseSerial(v.endSerial)!;
        return [
          randomUUID(),
          v.product,
          v.product,
          a.prefix,
          a.width,
          a.number,
          b.number,
          v.productionDate,
          v.startSerial,
          v.endSerial,
          v.bodyMaterial,
        ];
      },
      load: async (tx) => ({ failures: await loadChunk(tx, actor) }),
    },
    opts,
  );
}
