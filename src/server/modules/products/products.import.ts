/**
 * CSV import of products on the bulk path (lib/csv-import.ts): rows are staged with COPY, then each
 * chunk moves into `products` with one INSERT … SELECT that writes its audit rows too. Names must be unique
 * (ignoring case), and GTINs too, against the table and within the file; when the insert meets a taken
 * name or GTIN, the rows concerned are found with set queries and the rest of the chunk goes in without them.
 */
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PRODUCT_CSV_COLUMNS, productCsvRow, productInput, type ProductValues } from '../../../shared/contract/products';
import type { ImportResult } from '../../../shared/contract/record-history';
import type { Language } from '../../../shared/i18n/index';
import { rowsOf, type Db, type Tx } from '../../db/client';
import type { AuditActor } from '../audit/audit.writer';
import { rowNumbers, runImport, STAGE, tryUnderSavepoint, type RowFailure } from '../../lib/csv-import';
import { PG } from '../../db/errors';
import { syncRequirements } from '../standards/standards.service';
import { PRODUCT_ENTITY } from './products.service';

export const MAX_PRODUCT_ROWS = 100_000;

const stage = sql.raw(STAGE);

/** The staged rows (all, or all but `except`) into `products`, with one audit row each. */
function insertFromStage(tx: Tx, actor: AuditActor, except: number[]): Promise<unknown> {
  const where: SQL = except.length > 0 ? sql`WHERE s.row <> ALL(${sql.param(except)}::int[])` : sql``;
  return tx.execute(sql`WITH ins AS (
      INSERT INTO products (id, name, name_zh, fluid, connection, application, application_medium, connection_zh,
        application_zh, application_medium_zh, pressure_fc, pressure_wcb,
        pressure_sus, temperature_max, temperature_min, valve_type, nominal_size, pressure_class, seat_type, test_standard,
        leakage_rate, gtin, bidirectional)
      SELECT s.id, s.name, s.name_zh, s.fluid, s.connection, s.application, s.application_medium, s.connection_zh,
        s.application_zh, s.application_medium_zh, s.pressure_fc, s.pressure_wcb,
        s.pressure_sus, s.temperature_max, s.temperature_min, s.valve_type, s.nominal_size, s.pressure_class, s.seat_type,
        s.test_standard, s.leakage_rate, s.gtin, s.bidirectional
      FROM ${stage} s ${where} ORDER BY s.row
      RETURNING id)
    INSERT INTO audit_log (actor_id, actor_label, action, entity, entity_id, after, ip)
    SELECT ${actor.id}::uuid, ${actor.label}, 'import', ${PRODUCT_ENTITY}, s.id::text,
      jsonb_build_object('id', s.id, 'name', s.name::text, 'nameZh', s.name_zh, 'fluid', s.fluid, 'connection', s.connection,
        'application', s.application, 'applicationMedium', s.application_medium, 'connectionZh', s.connection_zh,
        'applicationZh', s.application_zh, 'applicationMediumZh', s.application_medium_zh, 'pressureFc', s.pressure_fc,
        'pressureWcb', s.pressure_wcb, 'pressureSus', s.pressure_sus, 'temperatureMax', s.temperature_max,
        'temperatureMin', s.temperature_min, 'valveType', s.valve_type, 'nominalSize', s.nominal_size,
        'pressureClass', s.pressure_class, 'seatType', s.seat_type, 'testStandard', s.test_standard,
        'leakageRate', s.leakage_rate, 'gtin', s.gtin, 'bidirectional', s.bidirectional),
      ${actor.ip ?? null}
    FROM ${stage} s ${where} ORDER BY s.row`);
}

async function loadChunk(tx: Tx, actor: AuditActor): Promise<RowFailure[]> {
  if ((await tryUnderSavepoint(tx, [PG.uniqueViolation], (sp) => insertFromStage(sp, actor, []))) === null) return [];
  // Some name or GTIN is taken. Rows this transaction inserted carry its start time (now()): that tells a
  // clash with an earlier chunk of the file from a clash with a product that existed before. A row whose
  // name and GTIN both clash is told about its name.
  const taken = await tx.execute(sql`SELECT s.row, p.created_at = now() AS "fromFile", p.name = s.name AS "byName"
    FROM ${stage} s JOIN products p ON p.name = s.name OR p.gtin = s.gtin`);
  const failures = new Map<number, RowFailure>();
  for (const r of (taken as unknown as { rows: { row: number; fromFile: boolean; byName: boolean }[] }).rows) {
    const row = Number(r.row);
    if (failures.get(row)?.field === 'name') continue;
    if (r.byName) failures.set(row, { row, field: 'name', key: r.fromFile ? 'products.import.duplicateInFile' : 'products.nameTaken' });
    else failures.set(row, { row, field: 'gtin', key: r.fromFile ? 'products.import.duplicateGtinInFile' : 'products.gtinTaken' });
  }
  const repeated = await tx.execute(sql`SELECT row FROM (
      SELECT s.row, row_number() OVER (PARTITION BY s.name ORDER BY s.row) AS n FROM ${stage} s) x WHERE n > 1`);
  for (const row of rowNumbers(repeated)) {
    if (failures.get(row)?.field !== 'name') failures.set(row, { row, field: 'name', key: 'products.import.duplicateInFile' });
  }
  const repeatedGtin = await tx.execute(sql`SELECT row FROM (
      SELECT s.row, row_number() OVER (PARTITION BY s.gtin ORDER BY s.row) AS n FROM ${stage} s WHERE s.gtin IS NOT NULL) x WHERE n > 1`);
  for (const row of rowNumbers(repeatedGtin)) {
    if (!failures.has(row)) failures.set(row, { row, field: 'gtin', key: 'products.import.duplicateGtinInFile' });
  }
  await insertFromStage(tx, actor, [...failures.keys()]);
  return [...failures.values()];
}

export function importProducts(
  db: Db,
  source: AsyncIterable<Uint8Array>,
  actor: AuditActor,
  opts: { dryRun: boolean; language: Language },
): Promise<ImportResult> {
  return runImport<ProductValues>(
    db,
    source,
    {
      keys: 'products.import',
      columns: PRODUCT_CSV_COLUMNS,
      required: ['name', 'fluid', 'temperatureMax', 'temperatureMin'],
      maxRows: MAX_PRODUCT_ROWS,
      schema: { safeParse: (row) => productInput.safeParse(productCsvRow(row)) },
      // citext: the same comparison as the unique index; float8 keeps the values as the schema gave them.
      stage: [
        ['id', 'uuid'],
        ['name', 'citext'],
        ['name_zh', 'text'],
        ['fluid', 'text'],
        ['connection', 'text'],
        ['application', 'text'],
        ['application_medium', 'text'],
        ['connection_zh', 'text'],
        ['application_zh', 'text'],
        ['application_medium_zh', 'text'],
        ['pressure_fc', 'float8'],
        ['pressure_wcb', 'float8'],
        ['pressure_sus', 'float8'],
        ['temperature_max', 'float8'],
        ['temperature_min', 'float8'],
        ['valve_type', 'text'],
        ['nominal_size', 'int4'],
        ['pressure_class', 'text'],
        ['seat_type', 'text'],
        ['test_standard', 'text'],
        ['leakage_rate', 'text'],
        ['gtin', 'text'],
        ['bidirectional', 'bool'],
      ],
      toStage: (v) => [
        randomUUID(),
        v.name,
        v.nameZh,
        v.fluid,
        v.connection,
        v.application,
        v.applicationMedium,
        v.connectionZh,
        v.applicationZh,
        v.applicationMediumZh,
        v.pressureFc,
        v.pressureWcb,
        v.pressureSus,
        v.temperatureMax,
        v.temperatureMin,
        v.valveType,
        v.nominalSize,
        v.pressureClass,
        v.seatType,
        v.testStandard,
        v.leakageRate,
        v.gtin ?? null,
        v.bidirectional ?? false,
      ],
      load: async (tx) => {
        const failures = await loadChunk(tx, actor);
        // The requirement rows of the imported products (new products have no records yet to judge).
        await syncRequirements(
          tx,
          rowsOf<{ id: string }>(await tx.execute(sql`SELECT id FROM ${stage}`)).map((r) => r.id),
        );
        return { failures };
      },
    },
    opts,
  );
}
