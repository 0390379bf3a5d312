/**
 * The CSV import pipeline shared by products and serial ranges: read the upload as a stream, check the
 * header, validate every row with the same zod schema as the form, insert valid rows in batches inside ONE
 * transaction, and roll the whole transaction back if any row failed or when only a preview was asked for.
 * Inserting during the preview too means the preview also reports what only the database can tell
 * (overlaps, names taken), including clashes between rows of the same file.
 * Memory stays bounded: the current batch and at most MAX_ERRORS errors are all that is kept.
 */
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ImportResult, RowError } from '../../../shared/contract/record-history';
import { translate, type Language } from '../../../shared/i18n/index';
import { AppError } from '../../../shared/errors';
import type { Db, Tx } from '../../db/client';
import { auditLog } from '../../db/schema/index';
import { CsvTooLargeError, readCsv } from '../../lib/csv';
import type { AuditActor } from '../audit/audit.writer';
import { PG, pgErrorCode } from './db-errors';

export const IMPORT_BATCH = 1000;
export const MAX_ERRORS = 200;

export interface ParsedRow<T> {
  row: number;
  value: T;
}

/** A failure of one row found while inserting; `params` are interpolated into the message. */
export interface RowFailure {
  row: number;
  field: string;
  key: string;
  params?: Record<string, string | number>;
}

export interface ImportSpec<T> {
  /** i18n namespace of the import messages: `<ns>.import.*` */
  ns: 'products' | 'serials';
  columns: readonly string[];
  required: readonly string[];
  maxRows: number;
  schema: z.ZodType<T>;
  /** Inserts the batch (audit rows included); returns the rows the database refused. */
  insertBatch(tx: Tx, batch: ParsedRow<T>[]): Promise<RowFailure[]>;
}

class Rollback extends Error {}

/** Runs an import; nothing is stored unless every row is valid and `dryRun` is false. */
export async function runImport<T>(
  db: Db,
  source: AsyncIterable<Uint8Array | string>,
  spec: ImportSpec<T>,
  opts: { dryRun: boolean; language: Language },
): Promise<ImportResult> {
  const errors: RowError[] = [];
  let found = 0;
  const fail = (f: RowFailure) => {
    found++;
    if (errors.length >= MAX_ERRORS) return;
    const message = translate(opts.language, f.key, f.params);
    errors.push({ row: f.row, field: f.field, key: f.key, message });
  };
  let rows = 0;
  let stored = 0;

  try {
    await db.transaction(async (tx) => {
      let header: (string | null)[] | null = null;
      let batch: ParsedRow<T>[] = [];
      const flush = async () => {
        // Past the error cap the preview is already full; only the row count still matters.
        if (batch.length > 0 && errors.length < MAX_ERRORS) (await spec.insertBatch(tx, batch)).forEach(fail);
        batch = [];
      };
      try {
        for await (const rec of readCsv(source)) {
          if (!header) {
            header = rec.fields.map((h) => {
              const name = h.trim().toLowerCase();
              return spec.columns.find((c) => c.toLowerCase() === name) ?? null;
            });
            const missing = spec.required.filter((c) => !header!.includes(c));
            if (missing.length > 0) {
              fail({ row: rec.row, field: '', key: `${spec.ns}.import.missingColumns`, params: { columns: missing.join(', ') } });
              break;
            }
            continue;
          }
          rows++;
          if (rows > spec.maxRows) {
            fail({ row: rec.row, field: '', key: `${spec.ns}.import.tooManyRows`, params: { max: spec.maxRows } });
            break;
          }
          if (rec.malformed) {
            fail({ row: rec.row, field: '', key: `${spec.ns}.import.malformed` });
            continue;
          }
          const input: Record<string, string> = {};
          let extra = false;
          rec.fields.forEach((v, i) => {
            const col = header![i];
            if (col) input[col] = v;
            else if (i >= header!.length && v.trim() !== '') extra = true;
          });
          if (extra) {
            fail({ row: rec.row, field: '', key: `${spec.ns}.import.extraValues` });
            continue;
          }
          const parsed = spec.schema.safeParse(input);
          if (!parsed.success) {
            for (const issue of parsed.error.issues) {
              const p = issue as { minimum?: unknown; maximum?: unknown };
              const params: Record<string, string | number> = {};
              if (typeof p.minimum === 'number') params.min = p.minimum;
              if (typeof p.maximum === 'number') params.max = p.maximum;
              fail({ row: rec.row, field: String(issue.path[0] ?? ''), key: issue.message, params });
            }
            continue;
          }
          batch.push({ row: rec.row, value: parsed.data });
          if (batch.length >= IMPORT_BATCH) await flush();
        }
      } catch (err) {
        if (!(err instanceof CsvTooLargeError)) throw err;
        fail({ row: err.row, field: '', key: `${spec.ns}.import.malformed` });
      }
      await flush();
      if (!header) fail({ row: 1, field: '', key: `${spec.ns}.import.empty` });
      else if (rows === 0 && found === 0) fail({ row: 2, field: '', key: `${spec.ns}.import.empty` });
      if (found > 0 || opts.dryRun) throw new Rollback();
      stored = rows;
    });
  } catch (err) {
    if (err instanceof Rollback) {
      // nothing stored, as intended
    } else if (pgErrorCode(err) === PG.deadlockDetected || pgErrorCode(err) === PG.serializationFailure) {
      // Two imports updating the same products' range counts in opposite orders: one is chosen to fail.
      throw new AppError('aborted', `${spec.ns}.import.busy`);
    } else {
      throw err;
    }
  }
  return { dryRun: opts.dryRun, rows, stored, valid: found === 0, errors, errorsTruncated: found > errors.length };
}

/**
 * The audit rows of one import batch, written with the batch (recordAudit's row shape). One statement over
 * unnest()ed arrays: a handful of parameters instead of eight per row, which is what makes it cheap.
 */
export async function recordAuditBatch(
  tx: Tx,
  actor: AuditActor,
  entity: string,
  entries: { entityId: string; after: Record<string, unknown> }[],
): Promise<void> {
  if (entries.length === 0) return;
  const ids = entries.map((e) => e.entityId);
  const afters = entries.map((e) => JSON.stringify(e.after));
  await tx.execute(sql`INSERT INTO ${auditLog} (actor_id, actor_label, action, entity, entity_id, after, ip)
    SELECT ${actor.id}::uuid, ${actor.label}, 'import', ${entity}, u.id, u.after, ${actor.ip ?? null}
    FROM unnest(${sql.param(ids)}::text[], ${sql.param(afters)}::jsonb[]) AS u(id, after)`);
}
