/**
 * The rules of a bench's instruments: unique ids per bench, calibrations added and never rewritten, every
 * change audited in its transaction. Records are judged against them on the way in (instrumentBook); when an
 * instrument or a calibration is added, or Settings stop requiring calibrated instruments, the records held for
 * their instrument are looked at again, and only those (docs/decisions/0050-instruments-and-calibration.md).
 */
import type { CalibrationValues, Instrument, InstrumentCreateValues, InstrumentUpdateValues } from '../../../shared/contract/instruments';
import { AppError } from '../../../shared/errors';
import { calibrationOn, instrumentReasons, type CalibrationDays } from '../../../shared/standards/calibration';
import type { Db, Executor } from '../../db/client';
import { isUuid, PG, pgErrorCode } from '../../db/errors';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { findMachine } from './machines.repo';
import * as repo from './instruments.repo';

export const INSTRUMENT_ENTITY = 'instrument';

function machineNotFound(): AppError {
  return new AppError('not-found', 'machineData.machineNotFound');
}

function notFound(): AppError {
  return new AppError('not-found', 'machineData.instrumentNotFound');
}

function idTaken(): AppError {
  return new AppError('already-exists', 'machineData.instrumentIdTaken', {
    fields: [{ field: 'instrumentId', key: 'machineData.instrumentIdTaken' }],
  });
}

function calibrationTaken(): AppError {
  return new AppError('already-exists', 'machineData.calibrationTaken', {
    fields: [{ field: 'calibratedOn', key: 'machineData.calibrationTaken' }],
  });
}

/** What the audit log keeps of an instrument: what it is and its newest calibration. */
function auditShape(x: Instrument): Record<string, unknown> {
  return {
    instrumentId: x.instrumentId,
    kind: x.kind,
    rangeMax: x.rangeMax,
    accuracy: x.accuracy,
    calibrationCertificate: x.calibrationCertificate,
    calibratedOn: x.calibratedOn,
    dueOn: x.dueOn,
  };
}

async function uniqueOr<T>(fn: () => Promise<T>, taken: () => AppError): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw taken();
    throw err;
  }
}

async function benchOf(db: Executor, machineId: string): Promise<void> {
  if (!isUuid(machineId) || !(await findMachine(db, machineId))) throw machineNotFound();
}

export async function listInstruments(db: Db, machineId: string): Promise<Instrument[]> {
  await benchOf(db, machineId);
  return repo.listInstruments(db, machineId);
}

async function reload(db: Executor, row: NonNullable<Awaited<ReturnType<typeof repo.findInstrument>>>): Promise<Instrument> {
  return repo.toInstrument(row, await repo.calibrationsOf(db, row.id));
}

export async function createInstrument(db: Db, actor: AuditActor, machineId: string, v: InstrumentCreateValues): Promise<Instrument> {
  return uniqueOr(
    () =>
      db.transaction(async (tx) => {
        await benchOf(tx, machineId);
        const row = await repo.insertInstrument(tx, {
          machineId,
          instrumentId: v.instrumentId,
          kind: v.kind,
          // required by the schema: never null here
          rangeMax: v.rangeMax!,
          accuracy: v.accuracy!,
        });
        await repo.insertCalibration(tx, {
          instrument: row.id,
          certificate: v.calibrationCertificate,
          calibratedOn: v.calibratedOn,
          dueOn: v.dueOn,
          recordedBy: actor.label,
        });
        const created = await reload(tx, row);
        await recordAudit(tx, actor, { action: 'create', entity: INSTRUMENT_ENTITY, entityId: row.id, after: auditShape(created) });
        await recheckHeld(tx, { machineId, instrumentId: v.instrumentId });
        return created;
      }),
    idTaken,
  );
}

export async function updateInstrument(
  db: Db,
  actor: AuditActor,
  machineId: string,
  id: string,
  v: InstrumentUpdateValues,
): Promise<Instrument> {
  if (!isUuid(machineId) || !isUuid(id)) throw notFound();
  return db.transaction(async (tx) => {
    const before = await repo.findInstrument(tx, machineId, id, true);
    if (!before) throw notFound();
    const b = await reload(tx, before);
    const after = await reload(tx, await repo.updateInstrument(tx, id, { kind: v.kind, rangeMax: v.rangeMax!, accuracy: v.accuracy! }));
    await recordAudit(tx, actor, {
      action: 'update',
      entity: INSTRUMENT_ENTITY,
      entityId: id,
      before: auditShape(b),
      after: auditShape(after),
    });
    return after;
  });
}

/** A recalibration: one more calibration; the earlier ones stay as they were. */
export async function addCalibration(db: Db, actor: AuditActor, machineId: string, id: string, v: CalibrationValues): Promise<Instrument> {
  if (!isUuid(machineId) || !isUuid(id)) throw notFound();
  return uniqueOr(
    () =>
      db.transaction(async (tx) => {
        const row = await repo.findInstrument(tx, machineId, id, true);
        if (!row) throw notFound();
        const b = await reload(tx, row);
        await repo.insertCalibration(tx, {
          instrument: id,
          certificate: v.calibrationCertificate,
          calibratedOn: v.calibratedOn,
          dueOn: v.dueOn,
          recordedBy: actor.label,
        });
        const after = await reload(tx, row);
        await recordAudit(tx, actor, {
          action: 'calibrate',
          entity: INSTRUMENT_ENTITY,
          entityId: id,
          before: auditShape(b),
          after: auditShape(after),
        });
        await recheckHeld(tx, { machineId, instrumentId: row.instrumentId });
        return after;
      }),
    calibrationTaken,
  );
}

/** What the way in needs to judge a batch's instruments: the requirement and the benches' calibrations. */
export interface InstrumentBook {
  required: boolean;
  /** the instrument reasons of one record */
  reasons(machineId: string | null, instrumentId: string | null, testedAt: string): number;
}

/**
 * The book of these benches (every bench when `machineIds` is undefined), read once for a batch or an import.
 * Without the requirement nothing else is read: every record gets 0.
 */
export async function instrumentBook(db: Executor, machineIds?: readonly string[]): Promise<InstrumentBook> {
  const required = await repo.calibratedInstrumentsRequired(db);
  if (!required) return { required, reasons: () => 0 };
  const byBench = new Map<string, Map<string, CalibrationDays[]>>();
  for (const r of await repo.calibrationDays(db, machineIds)) {
    let bench = byBench.get(r.machineId);
    if (!bench) byBench.set(r.machineId, (bench = new Map()));
    let days = bench.get(r.instrumentId);
    if (!days) bench.set(r.instrumentId, (days = []));
    if (r.days) days.push(r.days);
  }
  return {
    required,
    reasons: (machineId, instrumentId, testedAt) =>
      instrumentReasons(true, machineId === null ? undefined : byBench.get(machineId), instrumentId, testedAt),
  };
}

/**
 * Looks again at the records held for their instrument (of one instrument id of a bench, or all of them) with
 * what is known now, and judges again those whose instrument reasons change. A calibration covers only its own
 * days, so a recalibration after a record's test day leaves that record held.
 */
export async function recheckHeld(db: Executor, scope: { machineId: string; instrumentId: string } | 'all'): Promise<number> {
  const held = await repo.heldForInstrument(db, scope);
  if (held.length === 0) return 0;
  const book = await instrumentBook(db, scope === 'all' ? undefined : [scope.machineId]);
  const changes = held
    .map((r) => ({ id: r.id, before: r.instrumentReasons, reasons: book.reasons(r.machineId, r.instrumentId, r.testedAt) }))
    .filter((r) => r.reasons !== r.before);
  await repo.setInstrumentReasons(db, changes);
  return changes.length;
}

/** A test's instrument as its certificate names it: the calibration in force on the test day, or none. */
export interface InstrumentOnTest {
  instrumentId: string;
  calibration: { certificate: string; dueOn: string } | null;
}

/** The instruments of these tests (bench, instrument id, test time) with the calibration covering each test day. */
export async function instrumentsOnTests(
  db: Executor,
  tests: readonly { machineId: string | null; instrumentId: string | null; testedAt: Date }[],
): Promise<(InstrumentOnTest | null)[]> {
  const benches = [...new Set(tests.filter((x) => x.instrumentId && x.machineId).map((x) => x.machineId!))];
  const all = await repo.calibrationsOfBenches(db, benches);
  return tests.map((x) => {
    if (!x.instrumentId) return null;
    const mine = all.filter((c) => c.machineId === x.machineId && c.instrumentId === x.instrumentId);
    const cal = calibrationOn(mine, x.testedAt);
    return { instrumentId: x.instrumentId, calibration: cal ? { certificate: cal.certificate, dueOn: cal.dueOn } : null };
  });
}
