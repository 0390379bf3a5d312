/**
 * The optional second file of a machine-data CSV import: pressure samples, one row per point
 * (`recordId,t,p`). It is staged with COPY into a temporary table of its own before the records file is
 * read; each chunk of records then fetches its points with one indexed query, so neither file is ever
 * held in memory whole.
 */
import { sql } from 'drizzle-orm';
import { TEST_SAMPLE_CSV_COLUMNS } from '../../../shared/contract/machine-data';
import { rowsOf, type Tx } from '../../db/client';
import { copyChunk, copyLine, CopyText } from '../../lib/copy';
import { CsvEncodingError, CsvTooLargeError, readCsv } from '../../lib/csv';
import type { RowFailure } from '../../lib/csv-import';

export const SAMPLE_STAGE = 'trc_import_samples';
const CHUNK = 50_000;
/** Points in one samples file: 10,000 records at the 10,000-point limit. */
export const MAX_SAMPLE_ROWS = 100_000_000;

const NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** Reads and stages the samples file; per-row problems go to `fail` with the field `samples.<column>`. */
export async function stageSamples(tx: Tx, source: AsyncIterable<Uint8Array>, fail: (f: RowFailure) => void): Promise<void> {
  await tx.execute(
    sql.raw(
      `CREATE TEMP TABLE ${SAMPLE_STAGE} (row integer NOT NULL, record_id text NOT NULL, t float8 NOT NULL, p float8 NOT NULL) ON COMMIT DROP`,
    ),
  );
  const columns = ['row', 'record_id', 't', 'p'];
  let header: number[] | null = null;
  // As COPY bytes (CopyText), not strings: 50,000 lines of strings would outlive V8's young generation.
  const chunk = new CopyText();
  let rows = 0;
  const k = (name: string) => `machineImport.samples.${name}`;
  try {
    for await (const rec of readCsv(source)) {
      if (!header) {
        const names = rec.fields.map((h) => h.trim().toLowerCase());
        header = TEST_SAMPLE_CSV_COLUMNS.map((c) => names.indexOf(c.toLowerCase()));
        const missing = TEST_SAMPLE_CSV_COLUMNS.filter((_, i) => header![i]! < 0);
        if (missing.length > 0) {
          fail({ row: rec.row, field: 'samples', key: k('missingColumns'), params: { columns: missing.join(', ') } });
          return;
        }
        continue;
      }
      if (++rows > MAX_SAMPLE_ROWS) {
        fail({ row: rec.row, field: 'samples', key: k('tooManyRows'), params: { max: MAX_SAMPLE_ROWS } });
        return;
      }
      if (rec.malformed) {
        fail({ row: rec.row, field: 'samples', key: k('malformed') });
        continue;
      }
      const [id, t, p] = header.map((i) => (rec.fields[i] ?? '').trim());
      if (!id) {
        fail({ row: rec.row, field: 'samples.recordId', key: 'validation.required' });
        continue;
      }
      const bad = (['t', 'p'] as const).filter((c, i) => !NUMBER.test([t, p][i]!) || !Number.isFinite(Number([t, p][i])));
      if (bad.length > 0) {
        for (const c of bad) fail({ row: rec.row, field: `samples.${c}`, key: 'validation.number' });
        continue;
      }
      chunk.push(copyLine([rec.row, id, Number(t), Number(p)]));
      if (chunk.rows >= CHUNK) {
        await copyChunk(tx, SAMPLE_STAGE, columns, chunk);
        chunk.release();
      }
    }
  } catch (err) {
    if (err instanceof CsvEncodingError) {
      fail({ row: err.row, field: 'samples', key: 'csvImport.invalidUtf8' });
      return;
    }
    if (!(err instanceof CsvTooLargeError)) throw err;
    fail({ row: err.row, field: 'samples', key: k('malformed') });
  }
  await copyChunk(tx, SAMPLE_STAGE, columns, chunk);
  chunk.release();
  if (!header) fail({ row: 1, field: 'samples', key: k('missingColumns'), params: { columns: TEST_SAMPLE_CSV_COLUMNS.join(', ') } });
  await tx.execute(sql.raw(`CREATE INDEX ON ${SAMPLE_STAGE} (record_id, row)`));
  await tx.execute(sql.raw(`ANALYZE ${SAMPLE_STAGE}`));
}

/** The staged points of these records, in file order: recordId → { t[], p[] }. */
export async function samplesOf(tx: Tx, recordIds: string[]): Promise<Map<string, { t: number; p: number }[]>> {
  const rows = rowsOf<{ record_id: string; ts: number[]; ps: number[] }>(
    await tx.execute(sql`SELECT record_id, array_agg(t ORDER BY row) AS ts, array_agg(p ORDER BY row) AS ps
      FROM ${sql.raw(SAMPLE_STAGE)} WHERE record_id = ANY(${sql.param(recordIds)}::text[]) GROUP BY record_id`),
  );
  return new Map(rows.map((r) => [r.record_id, r.ts.map((t, i) => ({ t: Number(t), p: Number(r.ps[i]) }))]));
}

/** Points whose recordId names no record of the file (nor a stored one): the first row of each such id. */
export async function orphanSamples(tx: Tx): Promise<RowFailure[]> {
  const rows = rowsOf<{ row: number; record_id: string }>(
    await tx.execute(sql`SELECT min(sm.row) AS row, sm.record_id FROM ${sql.raw(SAMPLE_STAGE)} sm
      WHERE NOT EXISTS (SELECT 1 FROM test_records t WHERE t.record_id = sm.record_id)
      GROUP BY sm.record_id ORDER BY 1 LIMIT 200`),
  );
  return rows.map((r) => ({
    row: Number(r.row),
    field: 'samples.recordId',
    key: 'machineImport.samples.noRecord',
    params: { recordId: r.record_id },
  }));
}
