/**
 * The alerts the clock raises rather than a record: a bench silent for longer than its gap during its
 * working hours, an instrument's calibration due within 30 days or past due, and a delivery whose release
 * stopped on units the release gate holds.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import type { AlertThresholdRow } from '../../db/schema/index';
import { CALIBRATION_NOTICE_DAYS } from '../../../shared/contract/alerts';
import { raiseAlert, raiseOnCondition, type AlertSinks } from './raise';
import { workingMinutesBetween } from './working-hours';

const hhmm = (t: string) => t.slice(0, 5);

/** A bench's silence: its last test longer ago than its gap, counted in working minutes only. */
export async function silenceAlert(db: Db, t: AlertThresholdRow, now: Date, sinks: AlertSinks) {
  if (t.silenceMinutes === null || !t.machineId) return null;
  const [last] = rowsOf<{ at: Date | null; disabled: boolean }>(
    await db.execute(sql`
      SELECT (SELECT max(tested_at) FROM test_records WHERE machine_id = m.id) AS at, m.disabled_at IS NOT NULL AS disabled
        FROM machines m WHERE m.id = ${t.machineId}`),
  );
  if (!last) return null;
  const hours = { days: t.workDays, start: hhmm(t.workStart), end: hhmm(t.workEnd), timeZone: t.timeZone };
  // A bench that never sent a test, or was switched off, is not silent: it is not in use.
  const since = last.at ? new Date(last.at) : null;
  const minutes = since ? workingMinutesBetween(since, now, hours, t.silenceMinutes) : 0;
  const silent = !last.disabled && since !== null && minutes >= t.silenceMinutes;
  return db.transaction((tx) =>
    raiseOnCondition(
      tx,
      `silence:${t.machineId}`,
      silent,
      {
        kind: 'silence',
        machineId: t.machineId,
        detail: {
          gapMinutes: t.silenceMinutes!,
          minutes: Math.round((now.getTime() - (since?.getTime() ?? now.getTime())) / 60_000),
          ...(since ? { at: since.toISOString() } : {}),
        },
        raisedAt: now,
      },
      sinks,
    ),
  );
}

/**
 * Instruments of benches in use whose newest calibration is due within CALIBRATION_NOTICE_DAYS, and again
 * once past due: keyed by the due day, so a recalibration (a new due day) starts afresh.
 */
export async function calibrationAlerts(db: Db, now: Date, sinks: AlertSinks): Promise<number> {
  const today = now.toISOString().slice(0, 10);
  const rows = rowsOf<{ id: string; instrument_id: string; machine_id: string; due_on: string }>(
    await db.execute(sql`
      SELECT * FROM (
        SELECT DISTINCT ON (i.id) i.id, i.instrument_id, i.machine_id, c.due_on::text AS due_on
          FROM instruments i JOIN instrument_calibrations c ON c.instrument = i.id
          JOIN machines m ON m.id = i.machine_id AND m.disabled_at IS NULL
         ORDER BY i.id, c.calibrated_on DESC, c.recorded_at DESC
      ) newest
      WHERE due_on::date <= ${today}::date + ${CALIBRATION_NOTICE_DAYS}::int`),
  );
  let raised = 0;
  for (const r of rows) {
    const overdue = r.due_on < today;
    const alert = await db.transaction((tx) =>
      raiseAlert(
        tx,
        {
          kind: 'calibration',
          dedupeKey: `calibration:${r.id}:${r.due_on}:${overdue ? 'overdue' : 'due'}`,
          machineId: r.machine_id,
          detail: { instrument: r.instrument_id, dueOn: r.due_on, overdue },
        },
        sinks,
      ),
    );
    if (alert) raised++;
  }
  return raised;
}

/** Deliveries whose release stopped on held units (release_error 'held:N'): one alert per stop. */
export async function deliveryHeldAlerts(db: Db, sinks: AlertSinks): Promise<number> {
  const rows = rowsOf<{ id: string; number: string; error: string; updated_at: Date }>(
    await db.execute(sql`
      SELECT id, number, release_error AS error, updated_at FROM deliveries
       WHERE status = 'open' AND release_error LIKE 'held:%'
       ORDER BY updated_at DESC LIMIT 200`),
  );
  let raised = 0;
  for (const r of rows) {
    // release_error is 'held:<serial>', the unit the release stopped on
    const serial = r.error.slice('held:'.length) || null;
    const alert = await db.transaction((tx) =>
      raiseAlert(
        tx,
        {
          kind: 'deliveryHeld',
          dedupeKey: `deliveryHeld:${r.id}:${new Date(r.updated_at).toISOString()}`,
          serial,
          detail: { delivery: r.number, deliveryId: r.id },
        },
        sinks,
      ),
    );
    if (alert) raised++;
  }
  return raised;
}
