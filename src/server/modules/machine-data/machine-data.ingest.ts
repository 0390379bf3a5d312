/**
 * Ingestion of a bench's batch (`POST /api/v1/machine-data`): the key, every record checked on its own so
 * that a refusal names all bad records, and the batch stored all-or-nothing in one transaction, idempotent
 * on (bench, recordId): a record sent again with the same content is a duplicate and stores nothing; with
 * other content it is a conflict and the whole batch is refused.
 */
import { testRecordInput, type IngestResult, type TestRecordValues } from '../../../shared/contract/machine-data';
import { AppError, type ErrorCode } from '../../../shared/errors';
import { parseSerial } from '../../../shared/serial';
import type { Db } from '../../db/client';
import { bearerKey, hashKey } from '../machines/machine-keys';
import { findActiveByKeyHash, holdMachine, noteUse } from '../machines/machines.service';
import { instrumentBook } from '../machines/instruments.service';
import { sampleVerdict } from '../../../shared/standards/sample-checks';
import { holdMatchLock, insertRecords, storedHashes, type PreparedRecord } from './machine-data.repo';
import { encodeSamples, recordContentHash } from './record-codec';
import { fastRecord } from './record-fast-path';

/** A bad record: its index in the batch, its recordId when it has one, the field (dotted path) and why. */
export interface RecordProblem {
  index: number;
  recordId?: string;
  field: string;
  key: string;
  params?: Record<string, unknown>;
}

/** A refused batch: the envelope's code and message, and the records it names. */
export interface Refusal {
  code: ErrorCode;
  key: string;
  params: Record<string, string | number>;
  records: RecordProblem[];
}

export type IngestOutcome = { ok: true; result: IngestResult } | { ok: false; refusal: Refusal };

/** One message per field is enough; a record with 10,000 bad samples must not bury the rest of the batch. */
const MAX_PROBLEMS_PER_RECORD = 10;

export interface Bench {
  id: string;
  name: string;
}

function invalidKey(): AppError {
  return new AppError('unauthenticated', 'machineData.invalidKey');
}

/**
 * The enabled bench whose key the `Authorization` header carries. Missing, malformed, unknown and disabled
 * keys get the same 401, so an answer never tells which it was.
 */
export async function authenticateBench(db: Db, authorization: string | undefined): Promise<Bench> {
  const key = bearerKey(authorization);
  if (!key) throw invalidKey();
  const bench = await findActiveByKeyHash(db, hashKey(key));
  if (!bench) throw invalidKey();
  return bench;
}

function recordIdOf(raw: unknown): string | undefined {
  const id = raw && typeof raw === 'object' ? (raw as { recordId?: unknown }).recordId : undefined;
  return typeof id === 'string' ? id.trim() : undefined;
}

/** Checks every record; the valid ones come back prepared for storing, each bad one as its problems. */
export function prepareBatch(records: unknown[]): { prepared: PreparedRecord[]; inBatchDuplicates: string[]; problems: RecordProblem[] } {
  const problems: RecordProblem[] = [];
  const byId = new Map<string, PreparedRecord>();
  const inBatchDuplicates: string[] = [];
  records.forEach((raw, index) => {
    // Canonical records (what benches send) skip zod; anything else gets zod's answer and messages.
    const fast = fastRecord(raw);
    const parsed = fast ? ({ success: true, data: fast } as const) : testRecordInput.safeParse(raw);
    if (!parsed.success) {
      const recordId = recordIdOf(raw);
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const field = issue.path.map(String).join('.');
        if (seen.has(field)) continue;
        seen.add(field);
        const i = issue as { maximum?: unknown; minimum?: unknown };
        problems.push({ index, ...(recordId ? { recordId } : {}), field, key: issue.message, params: { max: i.maximum, min: i.minimum } });
        if (seen.size >= MAX_PROBLEMS_PER_RECORD) break;
      }
      return;
    }
    const rec = prepareRecord(parsed.data);
    const earlier = byId.get(rec.values.recordId);
    if (!earlier) byId.set(rec.values.recordId, rec);
    else if (earlier.hash.equals(rec.hash)) inBatchDuplicates.push(rec.values.recordId);
    else problems.push({ index, recordId: rec.values.recordId, field: 'recordId', key: 'machineData.validation.duplicateInBatch' });
  });
  return { prepared: [...byId.values()], inBatchDuplicates, problems };
}

/** A validated record with its parsed serial, encoded samples and content hash. */
export function prepareRecord(values: TestRecordValues): PreparedRecord {
  // The schema has normalised and checked the serial: it parses.
  const serial = parseSerial(values.serial)!;
  const samples = encodeSamples(values.samples);
  const checked = sampleVerdict(values.samples, values.testPressure ?? 0, values.holdingSeconds);
  return {
    values,
    serial,
    samples,
    hash: recordContentHash(values, samples),
    heldSeconds: checked.heldSeconds,
    sampleReasons: checked.reasons,
    instrumentReasons: 0,
  };
}

class ConflictRollback extends Error {
  constructor(readonly recordIds: string[]) {
    super('conflict');
  }
}

/** Stores a batch of one bench in one transaction; refuses it whole when any record conflicts. */
export async function ingestBatch(db: Db, bench: Bench, records: unknown[]): Promise<IngestOutcome> {
  const { prepared, inBatchDuplicates, problems } = prepareBatch(records);
  if (problems.length > 0) {
    const count = new Set(problems.map((p) => p.index)).size;
    return { ok: false, refusal: { code: 'invalid-argument', key: 'machineData.invalidRecords', params: { count }, records: problems } };
  }
  // The bench's instruments, read once for the batch: a few rows, nothing at all when Settings do not
  // require calibrated instruments.
  const book = await instrumentBook(db, [bench.id]);
  if (book.required) {
    for (const r of prepared) r.instrumentReasons = book.reasons(bench.id, r.values.instrumentId, r.values.testedAt);
  }
  try {
    const duplicates = await db.transaction(async (tx) => {
      // Deleted since its key was checked: as if the key were wrong.
      if (!(await holdMachine(tx, bench.id))) throw invalidKey();
      await holdMatchLock(tx);
      const stored = await insertRecords(tx, bench.id, prepared);
      const others = prepared.filter((r) => !stored.has(r.values.recordId));
      const hashes = await storedHashes(
        tx,
        bench.id,
        others.map((r) => r.values.recordId),
      );
      const conflicts = others.filter((r) => !hashes.get(r.values.recordId)?.equals(r.hash)).map((r) => r.values.recordId);
      if (conflicts.length > 0) throw new ConflictRollback(conflicts);
      await noteUse(tx, bench.id);
      return others.map((r) => r.values.recordId);
    });
    const stored = prepared.length - duplicates.length;
    return { ok: true, result: { stored, duplicates: [...duplicates, ...inBatchDuplicates] } };
  } catch (err) {
    if (!(err instanceof ConflictRollback)) throw err;
    const conflicting = new Set(err.recordIds);
    const problems: RecordProblem[] = [];
    records.forEach((raw, index) => {
      const recordId = recordIdOf(raw);
      if (recordId !== undefined && conflicting.has(recordId)) {
        problems.push({ index, recordId, field: 'recordId', key: 'machineData.validation.conflict' });
      }
    });
    return { ok: false, refusal: { code: 'aborted', key: 'machineData.conflict', params: { count: conflicting.size }, records: problems } };
  }
}
