/**
 * CSV import of test records (staff), on the bulk path of lib/csv-import.ts: each row is checked by
 * the bench API's record schema, staged with COPY, and each chunk moves into `test_records` with one
 * INSERT … SELECT that also finds the range holding the serial (as the public lookup does); the benches'
 * record counts follow by the table's statement triggers. Idempotent as the bench API: a record whose
 * (bench, recordId) is already stored with the same content is skipped and counted; with other content it
 * is a row error.
 *
 * The bench: an optional `machine` column (or the export's `machineName`) names an existing bench (ignoring
 * case); an empty cell, or no such column, stores the record as uploaded by staff (no bench;
 * test_records.machine_id NULL).
 * Samples: an optional second file part named `samples` (recordId,t,p), sent before the records file.
 */
import { sql } from 'drizzle-orm';
import {
  samplesField,
  TEST_RECORD_CSV_COLUMNS,
  testRecordInput,
  type Sample,
  type TestRecordValues,
} from '../../../shared/contract/machine-data';
import { parseSerial } from '../../../shared/serial';
import type { Language } from '../../../shared/i18n/index';
import { rowsOf, type Db, type Tx } from '../../db/client';
import { copyValue, onPostgres } from '../../lib/copy';
import type { AuditActor } from '../audit/audit.writer';
import { runImport, STAGE, type BulkImportResult, type RowFailure, type RowParse } from '../../lib/csv-import';
import { orphanSamples, samplesOf, stageSamples } from './machine-data-import.samples';
import { sampleVerdict } from '../../../shared/standards/sample-checks';
import { holdMatchLock, judgedValues, rangeAndRequirementJoins } from './machine-data.repo';
import { instrumentBook, type InstrumentBook } from '../machines/instruments.service';
import { encodeSamples, recordContentHashHex } from './record-codec';
import { fastCsvRecord } from './record-fast-path';

export const MAX_RECORD_ROWS = 1_000_000;
export const MACHINE_IMPORT_COLUMNS = [...TEST_RECORD_CSV_COLUMNS, 'machine'] as const;
/** Records per chunk when a samples file came along: up to 10,000 points each are fetched per chunk. */
const CHUNK_WITH_SAMPLES = 1000;
/**
 * Records staged before one INSERT … SELECT moves them, on PostgreSQL (docs/decisions/0034): test_records'
 * statement triggers (dashboard counters, kept quality outcomes) cost less run over 100,000 rows than
 * over five runs of 20,000. PGlite loads each 2,000-row chunk on its own (its heap grows to fit the
 * largest statement, see copy.ts).
 */
const LOAD_ROWS_POSTGRES = 100_000;

type CsvRow = TestRecordValues & { machine: string };

/**
 * The bench API's record schema, plus the `machine` cell carried along (a zod intersection costs 50% more).
 * A row already in canonical form (what benches and spreadsheets export) takes the shortcut of
 * record-fast-path.ts, which gives exactly zod's values; any other row, and every bad one, is zod's.
 */
const csvRow = {
  safeParse(input: Record<string, string>): RowParse<CsvRow> {
    const machine = (input.machine ?? '').trim();
    const fast = fastCsvRecord(input);
    if (fast) {
      (fast as CsvRow).machine = machine;
      return { success: true, data: fast as CsvRow };
    }
    const r = testRecordInput.safeParse(input);
    return r.success ? { success: true, data: { ...r.data, machine } } : r;
  },
};

const NULL = '\\N';
/** bytea in COPY text: `\x` and hex digits, its backslash doubled by COPY's own escaping. */
const byteaText = (b: Buffer | null) => (b ? `\\\\x${b.toString('hex')}` : NULL);

/**
 * A valid record's staging values (the `stage` columns of importMachineData, after `row`) as COPY text,
 * written field by field: only text a user typed can hold a character COPY escapes (copyValue); numbers,
 * the checked enums, the ISO time and the hex of bytea cannot. A million rows then make no array of 19
 * values each. test/machine-data-stage-line.test.ts holds it to copyLine of those values.
 */
export function stageLine(machineId: string | null, v: TestRecordValues, points: Sample[], instrumentReasons = 0): string {
  const s = parseSerial(v.serial)!;
  const bytes = encodeSamples(points);
  const checked = sampleVerdict(points, v.testPressure ?? 0, v.holdingSeconds);
  return (
    `${machineId ?? NULL}\t${copyValue(v.recordId)}\t${copyValue(v.serial)}\t${copyValue(s.prefix)}\t${s.width}\t${s.number}` +
    `\t${v.testType}\t${v.medium}\t${v.testPressure ?? NULL}\t${v.holdingSeconds}\t${v.leakageValue ?? NULL}` +
    `\t${v.leakageUnit === null ? NULL : copyValue(v.leakageUnit)}\t${v.result}\t${v.testedAt}\t${copyValue(v.operator)}` +
    `\t${byteaText(bytes)}\t${points.length}\t\\\\x${recordContentHashHex(v, bytes)}\t${checked.heldSeconds ?? NULL}\t${checked.reasons ?? NULL}` +
    `\t${v.instrumentId === null ? NULL : copyValue(v.instrumentId)}\t${instrumentReasons}` +
    `\t${v.fluidTemperature ?? NULL}\t${v.side ?? NULL}`
  );
}

export interface MachineImportSource {
  /** the records file */
  records: AsyncIterable<Uint8Array>;
  /** the records file's name as uploaded, and its SHA-256 (hex) once it has been read */
  fileName: string;
  sha256(): string;
  /** the samples file, when it came before the records file */
  samples?: AsyncIterable<Uint8Array>;
  /** whether another file follows the records file (read once the records are) */
  more(): Promise<boolean>;
}

/** A bench a file may name: refused when disabled, or when the uploader has no grant for it (admins need none). */
interface NamedBench {
  id: string;
  name: string;
  disabled: boolean;
  permitted: boolean;
}

export async function importMachineData(
  db: Db,
  open: () => Promise<MachineImportSource>,
  actor: AuditActor & { admin: boolean },
  opts: { dryRun: boolean; language: Language },
): Promise<BulkImportResult> {
  const machines = new Map<string, NamedBench>();
  // Every bench's instruments, read once for the file (prepare), when Settings require calibrated instruments.
  let book: InstrumentBook = { required: false, reasons: () => 0 };
  const named = new Set<string>();
  let uploadId = '';
  let withSamples = false;
  let inserted = 0;
  let files: MachineImportSource | null = null;
  // The records stream is known only once the parts before it (the samples file) have been read.
  const source: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => files!.records[Symbol.asyncIterator](),
  };

  const stageRow = (row: number, v: CsvRow, points: Sample[]): string | RowFailure => {
    if (v.machine === '') return stageLine(null, v, points, book.reasons(null, v.instrumentId, v.testedAt));
    const bench = machines.get(v.machine.toLowerCase());
    if (!bench) return { row, field: 'machine', key: 'machineImport.unknownMachine' };
    // A disabled bench takes no records by any path; naming a bench is a grant an admin gives.
    if (bench.disabled) return { row, field: 'machine', key: 'machineImport.disabledMachine', params: { name: bench.name } };
    if (!bench.permitted) return { row, field: 'machine', key: 'machineImport.benchNotGranted', params: { name: bench.name } };
    named.add(bench.name);
    return stageLine(bench.id, v, points, book.reasons(bench.id, v.instrumentId, v.testedAt));
  };

  // With a samples file, a chunk of records fetches its points with one query before it is staged.
  const stageWithSamples = async (tx: Tx, rows: { row: number; value: CsvRow }[]) => {
    const points = await samplesOf(tx, [...new Set(rows.map((r) => r.value.recordId))]);
    return rows.map((r): string | RowFailure => {
      const checked = samplesField.safeParse(points.get(r.value.recordId) ?? []);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        const max = (issue as { maximum?: unknown }).maximum;
        return { row: r.row, field: 'samples', key: issue.message, params: typeof max === 'number' ? { max } : undefined };
      }
      return stageRow(r.row, r.value, checked.data);
    });
  };

  const spec = {
    keys: 'machineImport',
    columns: MACHINE_IMPORT_COLUMNS,
    // The list's export names the bench `machineName`: its file imports as the same records, under their bench.
    aliases: { machinename: 'machine' },
    required: ['recordId', 'serial', 'testType', 'medium', 'testPressure', 'holdingSeconds', 'result', 'testedAt'],
    maxRows: MAX_RECORD_ROWS,
    schema: csvRow,
    chunkRows: undefined as number | undefined,
    stage: [
      ['machine_id', 'uuid'],
      ['record_id', 'text'],
      ['serial', 'text'],
      ['prefix', 'text'],
      ['width', 'smallint'],
      ['serial_no', 'bigint'],
      ['test_type', 'text'],
      ['medium', 'text'],
      ['test_pressure', 'float8'],
      ['holding_seconds', 'integer'],
      ['leakage_value', 'float8'],
      ['leakage_unit', 'text'],
      ['result', 'text'],
      ['tested_at', 'timestamptz'],
      ['operator', 'text'],
      ['samples', 'bytea'],
      ['sample_count', 'integer'],
      ['content_hash', 'bytea'],
      ['held_seconds', 'float8'],
      ['sample_reasons', 'smallint'],
      ['instrument_id', 'text'],
      ['instrument_reasons', 'smallint'],
      ['fluid_temperature', 'float8'],
      ['side', 'text'],
    ] as const,
    loadRows: (tx: Tx) => (withSamples ? CHUNK_WITH_SAMPLES : onPostgres(tx) ? LOAD_ROWS_POSTGRES : 0),
    // Without a samples file each row is staged as it is read: nothing of it outlives its row but its COPY text.
    toStage: (v: CsvRow, row: number) => stageRow(row, v, []),
    stageChunk: undefined as ((tx: Tx, rows: { row: number; value: CsvRow }[]) => Promise<(string | RowFailure)[]>) | undefined,
    async prepare(tx: Tx, fail: (f: RowFailure) => void) {
      const benches = rowsOf<NamedBench>(
        await tx.execute(sql`SELECT m.id, m.name::text AS name, m.disabled_at IS NOT NULL AS disabled,
            (${actor.admin} OR g.user_id IS NOT NULL) AS permitted
          FROM machines m LEFT JOIN machine_import_grants g ON g.machine_id = m.id AND g.user_id = ${actor.id}::uuid`),
      );
      for (const m of benches) machines.set(m.name.toLowerCase(), m);
      book = await instrumentBook(tx);
      files = await open();
      uploadId = await startUpload(tx, actor, files.fileName);
      if (files.samples) {
        withSamples = true;
        spec.chunkRows = CHUNK_WITH_SAMPLES;
        spec.stageChunk = stageWithSamples;
        await stageSamples(tx, files.samples, fail);
      }
    },
    async load(tx: Tx, staged: number) {
      const n = await insertFromStage(tx, uploadId);
      inserted += n;
      if (n === staged) return { failures: [] };
      const failures = await conflicts(tx);
      return { failures, skipped: staged - n - failures.length };
    },
    async finish(tx: Tx, fail: (f: RowFailure) => void) {
      if (await files!.more()) fail({ row: 1, field: 'samples', key: 'machineImport.samples.order' });
      if (withSamples) (await orphanSamples(tx)).forEach(fail);
      if (opts.dryRun || inserted === 0) return;
      await finishUpload(tx, actor, uploadId, {
        fileName: files!.fileName,
        sha256: files!.sha256(),
        stored: inserted,
        benches: [...named],
      });
    },
  };
  return runImport<CsvRow>(db, source, spec, opts);
}

/** The upload's row, made before its first record is stored; its hash and counts follow in finishUpload. */
async function startUpload(tx: Tx, actor: AuditActor, fileName: string): Promise<string> {
  const [row] = rowsOf<{ id: string }>(
    await tx.execute(sql`INSERT INTO record_uploads (user_id, user_label, file_name)
      VALUES (${actor.id}::uuid, ${actor.label}, ${fileName}) RETURNING id`),
  );
  return row!.id;
}

/**
 * The upload's SHA-256 and counts, and one audit entry naming the file, the benches and the serials (their
 * count and the first few; the Machine Data list filtered by the upload shows them all): a row per record
 * would double the cost of a million-row import.
 */
async function finishUpload(
  tx: Tx,
  actor: AuditActor,
  uploadId: string,
  u: { fileName: string; sha256: string; stored: number; benches: string[] },
): Promise<void> {
  const [s] = rowsOf<{ serials: number; first: string[] }>(
    await tx.execute(sql`SELECT count(DISTINCT serial)::int AS serials,
        ARRAY(SELECT DISTINCT serial FROM test_records WHERE upload_id = ${uploadId}::uuid ORDER BY serial LIMIT 20) AS first
      FROM test_records WHERE upload_id = ${uploadId}::uuid`),
  );
  await tx.execute(sql`UPDATE record_uploads SET sha256 = decode(${u.sha256}, 'hex'), record_count = ${u.stored}
    WHERE id = ${uploadId}::uuid`);
  const after = {
    stored: u.stored,
    file: u.fileName,
    sha256: u.sha256,
    uploadId,
    benches: u.benches.sort(),
    serialCount: Number(s?.serials ?? 0),
    serials: s?.first ?? [],
  };
  await tx.execute(sql`INSERT INTO audit_log (actor_id, actor_label, action, entity, entity_id, after, ip)
    VALUES (${actor.id}::uuid, ${actor.label}, 'import', 'test-record', ${uploadId}, ${JSON.stringify(after)}::jsonb, ${actor.ip ?? null})`);
}

/** Stands for "no bench" (CSV-uploaded records) in the duplicates' anti-join, so that a hash join can answer it. */
const NO_BENCH = sql.raw(`'00000000-0000-0000-0000-000000000000'::uuid`);

/**
 * The staged chunk into test_records (duplicates of (bench, recordId) left out); answers how many went in.
 *
 * Inserted in test time order: five of the table's indexes end in (tested_at, id) after a key of few values,
 * so a chunk sorted by time fills each of their key ranges from left to right instead of at random pages,
 * which the generated year (times at random over the file) paid for on every index page it touched
 * (docs/decisions/0034, fourth change). Of rows sharing a (bench, recordId) in the chunk only the first in the
 * file is inserted, as when the chunk went in file order: the others are skipped as duplicates or named by
 * conflicts() as repeating it with other content.
 */
async function insertFromStage(tx: Tx, uploadId: string): Promise<number> {
  // Ordered against range changes like the bench API: without it, records loaded while someone adds the
  // covering range could stay unmatched (see MATCH_LOCK in machine-data.repo.ts).
  await holdMatchLock(tx);
  const [r] = rowsOf<{ n: number }>(
    await tx.execute(sql`WITH ins AS (
        INSERT INTO test_records (machine_id, record_id, serial, prefix, width, serial_no, test_type, medium, test_pressure,
          holding_seconds, leakage_value, leakage_unit, result, tested_at, operator, samples, sample_count, content_hash,
          sample_reasons, instrument_id, instrument_reasons, fluid_temperature, side, upload_id, range_id, product_id, held_seconds,
          verdict, reasons)
        SELECT st.machine_id, st.record_id, st.serial, st.prefix, st.width, st.serial_no, st.test_type, st.medium, st.test_pressure,
          st.holding_seconds, st.leakage_value, st.leakage_unit, st.result, st.tested_at, st.operator, st.samples, st.sample_count,
          st.content_hash, st.sample_reasons, st.instrument_id, st.instrument_reasons, st.fluid_temperature, st.side,
          ${uploadId}::uuid, ${judgedValues('st')}
        FROM ${sql.raw(STAGE)} st
        ${rangeAndRequirementJoins('st')}
        WHERE NOT EXISTS (SELECT 1 FROM ${sql.raw(STAGE)} e
                           WHERE coalesce(e.machine_id, ${NO_BENCH}) = coalesce(st.machine_id, ${NO_BENCH})
                             AND e.record_id = st.record_id AND e.row < st.row)
        ORDER BY st.tested_at, st.row
        ON CONFLICT (machine_id, record_id) DO NOTHING
        RETURNING 1)
      SELECT count(*)::int AS n FROM ins`),
  );
  return Number(r?.n ?? 0);
}

/**
 * Staged rows that met a stored record of the same (bench, recordId) with other content: stored before
 * this import (a conflict) or earlier in this file (its transaction's start time, now(), tells).
 */
async function conflicts(tx: Tx): Promise<RowFailure[]> {
  const rows = rowsOf<{ row: number; from_file: boolean }>(
    await tx.execute(sql`SELECT s.row, t.received_at = now() AS from_file FROM ${sql.raw(STAGE)} s
        JOIN test_records t ON t.machine_id = s.machine_id AND t.record_id = s.record_id
        WHERE t.content_hash <> s.content_hash
      UNION ALL
      SELECT s.row, t.received_at = now() FROM ${sql.raw(STAGE)} s
        JOIN test_records t ON t.machine_id IS NULL AND t.record_id = s.record_id
        WHERE s.machine_id IS NULL AND t.content_hash <> s.content_hash`),
  );
  return rows.map((r) => ({
    row: Number(r.row),
    field: 'recordId',
    key: r.from_file ? 'machineImport.duplicateInFile' : 'machineData.validation.conflict',
  }));
}
