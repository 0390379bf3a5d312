/**
 * The CSV import pipeline shared by products, serial ranges and machine data: read the upload as a stream,
 * check the header, validate every row with the same zod schema as the form, and bulk-load valid rows with
 * COPY into a temporary staging table, one bounded chunk at a time; each chunk then moves into its table
 * with one INSERT … SELECT, which is where the database's own checks (names taken, overlaps, unknown names)
 * report per row. Everything runs in ONE transaction, rolled back if any row failed or when only a preview
 * was asked for. Loading during the preview too means it reports what only the database can tell, including
 * clashes between rows of the same file.
 * Memory stays bounded: the rows read but not yet copied (as COPY text bytes, see CopyText) and at most
 * MAX_ERRORS errors are all that is kept.
 */
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ImportResult, RowError } from '../../shared/contract/record-history';
import { translate, type Language } from '../../shared/i18n/index';
import { AppError } from '../../shared/errors';
import type { Db, Tx } from '../db/client';
import { chunkRowsFor, copyChunk, copyLine, CopyText, type CopyValue } from './copy';
import { CsvEncodingError, CsvTooLargeError, readCsv } from './csv';
import { isTransientConflict, pgErrorCode } from '../db/errors';

export const MAX_ERRORS = 200;
/** The staging table of the running import; temporary, so private to its connection and dropped at the end. */
export const STAGE = 'trc_import_stage';

/** A failure of one row found while loading; `params` are interpolated into the message. */
export interface RowFailure {
  row: number;
  field: string;
  key: string;
  params?: Record<string, string | number>;
}

export interface LoadOutcome {
  failures: RowFailure[];
  /** rows left out on purpose (e.g. a record sent before with the same content) */
  skipped?: number;
}

export interface ImportSpec<T> {
  /** prefix of the import messages: `<prefix>.empty`, `<prefix>.malformed`, … */
  keys: string;
  columns: readonly string[];
  /** other header names read as one of `columns` (lower case → column), e.g. the export's name for it */
  aliases?: Readonly<Record<string, string>>;
  required: readonly string[];
  maxRows: number;
  /** the row's zod schema (or a wrapper of one) */
  schema: { safeParse(input: Record<string, string>): RowParse<T> };
  /** the staging table's columns after `row integer` (SQL column definitions) */
  stage: readonly (readonly [name: string, type: string])[];
  /**
   * a valid row's staging values in `stage` order, or the failure that refuses it; a string is the row's
   * values after `row` already in COPY text (copyValue for text), without the line end
   */
  toStage?(value: T, row: number): CopyValue[] | string | RowFailure;
  /**
   * the same for a whole chunk, when staging needs the database (e.g. to read a second file's rows); used
   * instead of `toStage` when set (read after `prepare`, which may set it). The chunk's parsed rows are
   * held until it is full, so keep such chunks small.
   */
  stageChunk?(tx: Tx, rows: { row: number; value: T }[]): Promise<(CopyValue[] | string | RowFailure)[]>;
  /** first thing in the transaction, before the file is read */
  prepare?(tx: Tx, fail: (f: RowFailure) => void): Promise<void>;
  /** moves the staged chunk (table STAGE, `staged` rows) into its table, audit rows included; reports the rows refused */
  load(tx: Tx, staged: number): Promise<LoadOutcome>;
  /** after the last chunk, in the same transaction (e.g. a second file); more failures or nothing */
  finish?(tx: Tx, fail: (f: RowFailure) => void): Promise<void>;
  chunkRows?: number;
  /**
   * Rows staged before `load` moves them (read per chunk, after `prepare`); by default every chunk is loaded
   * on its own. More rows per load mean fewer INSERT … SELECTs and fewer runs of the table's statement
   * triggers. The file is read ahead of the database by up to this many rows (at least one chunk), kept
   * as COPY text bytes: while one load runs, the next one's rows are read and checked.
   */
  loadRows?(tx: Tx): number;
}

export type RowParse<T> = { success: true; data: T } | { success: false; error: { issues: z.core.$ZodIssue[] } };

export type BulkImportResult = ImportResult & { skipped: number };

class Rollback extends Error {}

/** Runs an import; nothing is stored unless every row is valid and `dryRun` is false. */
export async function runImport<T>(
  db: Db,
  source: AsyncIterable<Uint8Array | string>,
  spec: ImportSpec<T>,
  opts: { dryRun: boolean; language: Language; busyKey?: string },
): Promise<BulkImportResult> {
  const errors: RowError[] = [];
  let found = 0;
  const fail = (f: RowFailure) => {
    found++;
    if (errors.length >= MAX_ERRORS) return;
    const message = translate(opts.language, f.key, f.params);
    errors.push({ row: f.row, field: f.field, key: f.key, message });
  };
  let rows = 0;
  let notUtf8 = false;
  let stored = 0;
  let skipped = 0;
  // Rows per COPY chunk: large enough that per-statement costs vanish, small enough to keep memory flat
  // (see chunkRowsFor). Read per row: `prepare` may set it (smaller chunks when records carry samples).
  let engineChunk = 20_000;
  const chunkRows = () => spec.chunkRows ?? engineChunk;
  const k = (name: string) => `${spec.keys}.${name}`;

  try {
    await db.transaction(async (tx) => {
      const stageColumns = ['row', ...spec.stage.map(([name]) => name)];
      await tx.execute(
        sql.raw(`CREATE TEMP TABLE ${STAGE} (row integer NOT NULL, ${spec.stage.map(([n, t]) => `${n} ${t}`).join(', ')}) ON COMMIT DROP`),
      );
      engineChunk = chunkRowsFor(tx);
      await spec.prepare?.(tx, fail);
      let header: (string | null)[] | null = null;
      // Free slabs of COPY text, shared by this import's chunks.
      const slabs: Buffer[] = [];
      let chunk = new CopyText(slabs);
      let pending: { row: number; value: T }[] = [];
      // Chunks handed to the loader, in order; each one's promise settles once it is copied (and loaded,
      // when it completed a load). The connection runs them one after another (`loading` is the last),
      // while this side reads and checks the rows that follow: on PostgreSQL the two run on different
      // processes (cores). The read runs ahead by at most `readAhead` rows, so memory stays bounded.
      const queued: Promise<void>[] = [];
      let loading: Promise<void> = Promise.resolve();
      const readAhead = Math.max(chunkRows(), spec.loadRows?.(tx) ?? 0);
      // Rows in the staging table not yet moved by `load`.
      let staged = 0;
      const load = async (c: CopyText, last: boolean) => {
        const rows = c.rows;
        try {
          await copyChunk(tx, STAGE, stageColumns, c);
        } finally {
          c.release();
        }
        staged += rows;
        if (staged === 0 || (!last && staged < (spec.loadRows?.(tx) ?? 0))) return;
        const out = await spec.load(tx, staged);
        out.failures.forEach(fail);
        skipped += out.skipped ?? 0;
        staged = 0;
        await tx.execute(sql.raw(`TRUNCATE ${STAGE}`));
      };
      const push = (row: number, v: CopyValue[] | string) => chunk.push(typeof v === 'string' ? `${row}\t${v}\n` : copyLine([row, ...v]));
      const flush = async (last = false) => {
        if (pending.length > 0 && spec.stageChunk && errors.length < MAX_ERRORS) {
          // stageChunk may query: the connection must be idle.
          await loading;
          const encoded = await spec.stageChunk(tx, pending);
          encoded.forEach((v, i) => {
            if (typeof v === 'string' || Array.isArray(v)) push(pending[i]!.row, v);
            else fail(v);
          });
        }
        pending = [];
        // Past the error cap the preview is already full; only the row count still matters.
        if ((chunk.rows > 0 || last) && errors.length < MAX_ERRORS) {
          const c = chunk;
          loading = loading.then(() => load(c, last));
          loading.catch(() => undefined); // awaited (and thrown) below or at the end; not "unhandled" meanwhile
          queued.push(loading);
          chunk = new CopyText(slabs);
        } else {
          chunk.release();
        }
        // Read on only while fewer than `readAhead` rows wait behind the chunk the connection works on (the
        // chunk about to be filled counts among them).
        while (queued.length > 1 && (queued.length - 1) * chunkRows() >= readAhead) await queued.shift();
      };
      try {
        for await (const rec of readCsv(source)) {
          if (!header) {
            const names = rec.fields.map((h) => h.trim().toLowerCase());
            header = names.map((name) => {
              const alias = spec.aliases?.[name];
              // An alias stands for its column only in a file that lacks the column itself.
              const aliased = alias && !names.includes(alias.toLowerCase()) ? alias : null;
              return spec.columns.find((c) => c.toLowerCase() === name) ?? aliased;
            });
            const missing = spec.required.filter((c) => !header!.includes(c));
            if (missing.length > 0) {
              fail({ row: rec.row, field: '', key: k('missingColumns'), params: { columns: missing.join(', ') } });
              break;
            }
            continue;
          }
          rows++;
          if (rows > spec.maxRows) {
            fail({ row: rec.row, field: '', key: k('tooManyRows'), params: { max: spec.maxRows } });
            break;
          }
          if (rec.malformed) {
            fail({ row: rec.row, field: '', key: k('malformed') });
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
            fail({ row: rec.row, field: '', key: k('extraValues') });
            continue;
          }
          const parsed = spec.schema.safeParse(input);
          if (!parsed.success) {
            for (const issue of parsed.error.issues) fail(issueFailure(rec.row, issue));
            continue;
          }
          if (spec.stageChunk || !spec.toStage) {
            pending.push({ row: rec.row, value: parsed.data });
            if (pending.length >= chunkRows()) await flush();
            continue;
          }
          const line = spec.toStage(parsed.data, rec.row);
          if (typeof line !== 'string' && !Array.isArray(line)) {
            fail(line);
            continue;
          }
          push(rec.row, line);
          if (chunk.rows >= chunkRows()) await flush();
        }
      } catch (err) {
        if (err instanceof CsvEncodingError) {
          notUtf8 = true;
          fail({ row: err.row, field: '', key: 'csvImport.invalidUtf8' });
        } else if (err instanceof CsvTooLargeError) {
          fail({ row: err.row, field: '', key: k('malformed') });
        } else {
          // The connection must be idle before the transaction is rolled back.
          await loading.catch(() => undefined);
          throw err;
        }
      }
      await flush(true);
      await loading;
      // A file that is not UTF-8 from its first line has no header: that is said once, as the encoding.
      if (!header && !notUtf8) fail({ row: 1, field: '', key: k('empty') });
      else if (rows === 0 && found === 0) fail({ row: 2, field: '', key: k('empty') });
      if (found === 0 && spec.finish) await spec.finish(tx, fail);
      if (found > 0 || opts.dryRun) throw new Rollback();
      stored = rows - skipped;
    });
  } catch (err) {
    if (err instanceof Rollback) {
      // nothing stored, as intended
    } else if (isTransientConflict(err)) {
      // Two imports updating the same rows (e.g. products' range counts) in opposite orders: one must fail.
      throw new AppError('aborted', opts.busyKey ?? k('busy'));
    } else {
      throw err;
    }
  }
  errors.sort((a, b) => a.row - b.row);
  return { dryRun: opts.dryRun, rows, stored, skipped, valid: found === 0, errors, errorsTruncated: found > errors.length };
}

function issueFailure(row: number, issue: z.core.$ZodIssue): RowFailure {
  const p = issue as { minimum?: unknown; maximum?: unknown };
  const params: Record<string, string | number> = {};
  if (typeof p.minimum === 'number') params.min = p.minimum;
  if (typeof p.maximum === 'number') params.max = p.maximum;
  return { row, field: String(issue.path[0] ?? ''), key: issue.message, params };
}

/** Runs `fn` under a savepoint; answers the PostgreSQL error code when it failed with one of `codes`. */
export async function tryUnderSavepoint(tx: Tx, codes: readonly string[], fn: (sp: Tx) => Promise<unknown>): Promise<string | null> {
  try {
    await tx.transaction(async (sp) => {
      await fn(sp);
    });
    return null;
  } catch (err) {
    const code = pgErrorCode(err);
    if (code && codes.includes(code)) return code;
    throw err;
  }
}

/** `row` numbers of the staged rows answered by a query (a column named `row`). */
export function rowNumbers(result: unknown): number[] {
  return (result as { rows: { row: number | string }[] }).rows.map((r) => Number(r.row));
}
