/** SQL of a bench's instruments and their calibrations (migration 0031), and of the records they hold. */
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Calibration, Instrument } from '../../../shared/contract/instruments';
import type { CalibrationDays } from '../../../shared/standards/calibration';
import type { Executor } from '../../db/client';
import { instrumentCalibrations, instruments, settingsTable, testRecords, type InstrumentRow } from '../../db/schema/index';

const i = instruments;
const c = instrumentCalibrations;

type CalibrationRow = typeof instrumentCalibrations.$inferSelect;

function toCalibration(row: CalibrationRow): Calibration {
  return {
    id: row.id,
    calibrationCertificate: row.certificate,
    calibratedOn: row.calibratedOn,
    dueOn: row.dueOn,
    recordedAt: row.recordedAt.toISOString(),
    recordedBy: row.recordedBy,
  };
}

/** An instrument with its calibrations, newest first; the newest gives the flat calibration fields. */
export function toInstrument(row: InstrumentRow, calibrations: CalibrationRow[]): Instrument {
  const list = calibrations.map(toCalibration).sort((a, b) => b.calibratedOn.localeCompare(a.calibratedOn));
  const newest = list[0];
  return {
    id: row.id,
    machineId: row.machineId,
    instrumentId: row.instrumentId,
    kind: row.kind,
    rangeMax: Number(row.rangeMax),
    accuracy: Number(row.accuracy),
    calibrationCertificate: newest?.calibrationCertificate ?? '',
    calibratedOn: newest?.calibratedOn ?? '',
    dueOn: newest?.dueOn ?? '',
    calibrations: list,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A bench has a few instruments: every one with every calibration, in two queries. */
export async function listInstruments(db: Executor, machineId: string): Promise<Instrument[]> {
  const rows = await db.select().from(i).where(eq(i.machineId, machineId)).orderBy(asc(i.instrumentId));
  if (rows.length === 0) return [];
  const cals = await db
    .select()
    .from(c)
    .where(
      inArray(
        c.instrument,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(desc(c.calibratedOn));
  return rows.map((r) =>
    toInstrument(
      r,
      cals.filter((x) => x.instrument === r.id),
    ),
  );
}

export async function findInstrument(db: Executor, machineId: string, id: string, forUpdate = false): Promise<InstrumentRow | undefined> {
  const q = db
    .select()
    .from(i)
    .where(and(eq(i.machineId, machineId), eq(i.id, id)))
    .limit(1);
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function calibrationsOf(db: Executor, instrument: string): Promise<CalibrationRow[]> {
  return db.select().from(c).where(eq(c.instrument, instrument)).orderBy(desc(c.calibratedOn));
}

export async function insertInstrument(
  db: Executor,
  v: { machineId: string; instrumentId: string; kind: InstrumentRow['kind']; rangeMax: number; accuracy: number },
): Promise<InstrumentRow> {
  const [row] = await db
    .insert(i)
    .values({ ...v, rangeMax: String(v.rangeMax), accuracy: String(v.accuracy) })
    .returning();
  return row!;
}

export async function updateInstrument(
  db: Executor,
  id: string,
  v: { kind: InstrumentRow['kind']; rangeMax: number; accuracy: number },
): Promise<InstrumentRow> {
  const [row] = await db
    .update(i)
    .set({ kind: v.kind, rangeMax: String(v.rangeMax), accuracy: String(v.accuracy), updatedAt: sql`now()` })
    .where(eq(i.id, id))
    .returning();
  return row!;
}

export async function insertCalibration(
  db: Executor,
  v: { instrument: string; certificate: string; calibratedOn: string; dueOn: string; recordedBy: string },
): Promise<void> {
  await db.insert(c).values(v);
}

/** Whether records must name an instrument in calibration (Settings). */
export async function calibratedInstrumentsRequired(db: Executor): Promise<boolean> {
  const [row] = await db.select({ on: settingsTable.requireCalibratedInstruments }).from(settingsTable).limit(1);
  return row?.on ?? false;
}

/** The calibrations of the instruments of these benches (all benches when `machineIds` is undefined). */
export async function calibrationDays(
  db: Executor,
  machineIds?: readonly string[],
): Promise<{ machineId: string; instrumentId: string; days: CalibrationDays | null }[]> {
  if (machineIds && machineIds.length === 0) return [];
  const rows = await db
    .select({ machineId: i.machineId, instrumentId: i.instrumentId, calibratedOn: c.calibratedOn, dueOn: c.dueOn })
    .from(i)
    .leftJoin(c, eq(c.instrument, i.id))
    .where(machineIds ? inArray(i.machineId, [...machineIds]) : undefined);
  return rows.map((r) => ({
    machineId: r.machineId,
    instrumentId: r.instrumentId,
    days: r.calibratedOn && r.dueOn ? { calibratedOn: r.calibratedOn, dueOn: r.dueOn } : null,
  }));
}

/**
 * The records held for their instrument, of one instrument id of a bench (or every one): the partial index
 * test_records_instrument_held_idx holds exactly these.
 */
export async function heldForInstrument(
  db: Executor,
  scope: { machineId: string; instrumentId: string } | 'all',
): Promise<{ id: number; machineId: string | null; instrumentId: string | null; testedAt: string; instrumentReasons: number }[]> {
  const t = testRecords;
  const where =
    scope === 'all'
      ? ne(t.instrumentReasons, 0)
      : and(eq(t.machineId, scope.machineId), eq(t.instrumentId, scope.instrumentId), ne(t.instrumentReasons, 0));
  const rows = await db
    .select({
      id: t.id,
      machineId: t.machineId,
      instrumentId: t.instrumentId,
      testedAt: t.testedAt,
      instrumentReasons: t.instrumentReasons,
    })
    .from(t)
    .where(where);
  return rows.map((r) => ({ ...r, testedAt: r.testedAt.toISOString() }));
}

/** Sets the instrument reasons of these records and judges them again (migration 0031's test_records_judge). */
export async function setInstrumentReasons(db: Executor, changes: { id: number; reasons: number }[]): Promise<void> {
  if (changes.length === 0) return;
  const ids = changes.map((x) => x.id);
  await db.execute(sql`UPDATE test_records t SET instrument_reasons = x.reasons
    FROM unnest(${sql.param(`{${ids.join(',')}}`)}::bigint[], ${sql.param(`{${changes.map((x) => x.reasons).join(',')}}`)}::smallint[]) AS x (id, reasons)
    WHERE t.id = x.id`);
  await db.execute(sql`SELECT test_records_judge(NULL, NULL, NULL, NULL, NULL, ${sql.param(`{${ids.join(',')}}`)}::bigint[])`);
}

/** Every calibration of the instruments of these benches, with its certificate: what a certificate prints. */
export async function calibrationsOfBenches(
  db: Executor,
  machineIds: readonly string[],
): Promise<{ machineId: string; instrumentId: string; certificate: string; calibratedOn: string; dueOn: string }[]> {
  if (machineIds.length === 0) return [];
  return db
    .select({
      machineId: i.machineId,
      instrumentId: i.instrumentId,
      certificate: c.certificate,
      calibratedOn: c.calibratedOn,
      dueOn: c.dueOn,
    })
    .from(i)
    .innerJoin(c, eq(c.instrument, i.id))
    .where(inArray(i.machineId, [...machineIds]));
}
